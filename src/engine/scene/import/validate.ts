import type { SourceFormat } from '../Body';
import { validateBrepText } from './validateBrep';
import { validateIges } from './validateIges';
import { validateStep } from './validateStep';

/**
 * Structural checks of a kernel-read file, in milliseconds and without the kernel: a file that
 * fails them would make the kernel throw, abort, or loop, so it is refused here with PARSE_FAILED
 * naming the line and what is wrong. They check structure (sections, counts, references), not
 * geometry: a file that passes may still be refused by the kernel.
 */
export function validateBeforeKernel(format: KernelFormat, bytes: Uint8Array, name: string): void {
  if (validated.has(bytes)) return;
  check(format, bytes, name);
  validated.add(bytes);
}

export type KernelFormat = Exclude<SourceFormat, 'stl' | 'ply' | 'obj' | '3mf' | 'xyz'>;

/** Byte arrays already checked: an import checks before loading the kernel, and its reader does not check again. */
const validated = new WeakSet<Uint8Array>();

function check(format: KernelFormat, bytes: Uint8Array, name: string): void {
  switch (format) {
    case 'brep':
      validateBrepText(bytes, name);
      return;
    case 'step':
      validateStep(bytes, name);
      return;
    case 'iges':
      validateIges(bytes, name);
      return;
    case 'xbf':
      return; // A binary OCAF document: the reader checks its own header and fails with a status.
  }
}
