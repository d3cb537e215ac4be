import { describe, expect, it } from 'vitest';
import type { FileAccess, ReadOptions } from '../context';
import { createNodeEngine } from '../../node/nodeEngine';
import { testFiles } from '../../test/testEngine';

/**
 * Bad-input sweep: a file read as a format other than its name says is capped by that format's size
 * limit, so the engine tells the host the format it reads the file as. Before, a 3 GiB file named
 * .stl given to read_brep (or to import_file with format 'step') was read whole under a mesh file's
 * limit and only then refused, and a mesh named .dat with format 'stl' was refused at the kernel's
 * 512 MiB. Here the host records what each read was asked with and refuses it.
 */
function recordingEngine(): { run: (tool: string, args: Record<string, unknown>) => Promise<unknown>; asked: { how: string; options: ReadOptions | undefined }[] } {
  const asked: { how: string; options: ReadOptions | undefined }[] = [];
  const refuse = (how: string, options: ReadOptions | undefined): never => {
    asked.push({ how, options });
    throw new Error('recorded');
  };
  const files: FileAccess = {
    ...testFiles(),
    read: async (_path, options) => refuse('read', options),
    stream: async (_path, options) => refuse('stream', options),
  };
  const engine = createNodeEngine({ files });
  return { run: (tool, args) => engine.run(tool as 'list_bodies', args as never), asked };
}

describe('the engine tells its host the format it reads a file as', () => {
  const cases: [string, Record<string, unknown>, { how: string; options: ReadOptions | undefined }][] = [
    ['read_brep', { path: 'part.stl' }, { how: 'read', options: { format: 'brep' } }],
    ['graph_validate', { path: 'part.stl' }, { how: 'read', options: { format: 'brep' } }],
    ['graph_ml', { path: 'part.stl' }, { how: 'read', options: { format: 'brep' } }],
    ['graph_compact', { path: 'part.stl', outputPath: 'out.brep' }, { how: 'read', options: { format: 'brep' } }],
    ['inspect_assembly', { inputPath: 'asm.stl' }, { how: 'read', options: { format: 'step' } }],
    ['import_file', { path: 'scan.dat', format: 'stl' }, { how: 'stream', options: { format: 'stl' } }],
    ['import_file', { path: 'scan.dat', format: 'ply' }, { how: 'stream', options: { format: 'ply' } }],
    ['import_file', { path: 'part.stl', format: 'step' }, { how: 'read', options: { format: 'step' } }],
    ['import_file', { path: 'part.stl' }, { how: 'stream', options: {} }],
  ];
  for (const [tool, args, expected] of cases) {
    it(`${tool} ${JSON.stringify(args)}`, async () => {
      const { run, asked } = recordingEngine();
      await expect(run(tool, args)).rejects.toMatchObject({ message: expect.stringContaining('recorded') });
      expect(asked).toEqual([expected]);
    });
  }
});
