/**
 * An engine warning as the page shows it. UNIT_MISMATCH ends with how to import again through the
 * tool and the command line ('"unit": "inch" (import_file), --unit scan=inch (command line)'): on
 * the page that is done with the Actual step's "File in", so that clause gives way to the page's own.
 * measure_deviation names a direction by its result field for a tool's reader ("a against b
 * (fromToTo)", "toToFrom (b against a)"); the page has no such field, so the words stay alone.
 */
export function warningText(w: { code: string; message: string }): string {
  if (w.code !== 'UNIT_MISMATCH') return w.message.replace(/ \((?:fromToTo|toToFrom)\)/g, '').replace(/\b(?:fromToTo|toToFrom) \(([^()]+ against [^()]+)\)/g, '$1');
  return `${w.message.replace(/ Import it again with its unit: .*\(command line\)\.$/, '')} Here: choose the unit it was written in under Actual, "File in".`;
}
