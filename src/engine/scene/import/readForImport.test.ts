import { describe, expect, it } from 'vitest';
import type { FileAccess, ReadOptions } from '../../context';
import type { SourceFormat } from '../Body';
import { readForImport } from './readForImport';

/** A host that records what each read was asked with, and refuses it (the refusal ends readForImport). */
function recordingHost(streams: boolean): { files: FileAccess; asked: { how: string; options: ReadOptions | undefined }[] } {
  const asked: { how: string; options: ReadOptions | undefined }[] = [];
  const refuse = (how: string, options: ReadOptions | undefined): never => {
    asked.push({ how, options });
    throw new Error('recorded');
  };
  const files: FileAccess = {
    read: async (_path, options) => refuse('read', options),
    ...(streams ? { stream: async (_path: string, options?: ReadOptions) => refuse('stream', options) } : {}),
    write: async () => {},
  };
  return { files, asked };
}

describe('readForImport hands the requested format to the host, which sets its size limit by it', () => {
  const cases: [SourceFormat | undefined, string, string][] = [
    ['stl', 'scan.dat', 'stream'],
    ['ply', 'scan.dat', 'stream'],
    ['obj', 'scan.dat', 'stream'],
    ['xyz', 'scan.dat', 'stream'],
    ['3mf', 'scan.dat', 'stream'],
    [undefined, 'scan.3mf', 'stream'],
    ['step', 'part.stl', 'read'],
    [undefined, 'part.stl', 'stream'],
    [undefined, 'part.step', 'read'],
  ];
  for (const streams of [true, false]) {
    for (const [format, path, how] of cases) {
      it(`${path} as ${format ?? 'its name says'}${streams ? '' : ', a host that does not stream'}`, async () => {
        const { files, asked } = recordingHost(streams);
        await expect(readForImport(files, path, format, false)).rejects.toThrow('recorded');
        expect(asked).toEqual([{ how: streams ? how : 'read', options: format === undefined ? {} : { format } }]);
      });
    }
  }
});
