/**
 * The other STEP files a STEP assembly names for its parts (external references: CAx-IF's
 * recommended practice, a DOCUMENT_FILE per referenced file). The kernel reads one file from its
 * in-memory file system, so these are never followed: a file made only of references (CAx-IF
 * s1_pe_214.stp) transfers no shape, and its assembly tree ends in empty compounds. Knowing their
 * names turns that into a message that says why.
 */
const DOCUMENT_FILE = /DOCUMENT_FILE\s*\(\s*'((?:[^']|'')*)'/gi;
/** DOCUMENT_FILE also names drawings and PDFs; only STEP files can hold parts. */
const STEP_NAME = /\.(stp|step|p21|stpz)$/i;

/** The STEP files the file refers to, in the order first named, each once. */
export function stepExternalFiles(bytes: Uint8Array): string[] {
  const text = new TextDecoder('latin1').decode(bytes);
  const names = new Set<string>();
  for (const m of text.matchAll(DOCUMENT_FILE)) {
    const name = m[1]!.replace(/''/g, "'").trim();
    if (STEP_NAME.test(name)) names.add(name);
  }
  return [...names];
}

/** A short list of names for a message: the first few, then how many more. */
export function listNames(names: readonly string[], max = 6): string {
  return names.length <= max ? names.join(', ') : `${names.slice(0, max).join(', ')} and ${names.length - max} more`;
}
