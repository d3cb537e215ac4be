import { inBodiesWords } from '../engine';

/**
 * An engine warning as the page shows it. UNIT_MISMATCH ends with how to import again through the
 * tool and the command line ('"unit": "inch" (import_file), --unit scan=inch (command line)'): on
 * the page that is done with the Actual step's "File in", so that clause gives way to the page's own.
 * A direction is named by its bodies, not by measure_deviation's result field (inBodiesWords).
 */
export function warningText(w: { code: string; message: string }): string {
  if (w.code !== 'UNIT_MISMATCH') return inBodiesWords(w.message);
  return `${w.message.replace(/ Import it again with its unit: .*\(command line\)\.$/, '')} Here: choose the unit it was written in under Actual, "File in".`;
}
