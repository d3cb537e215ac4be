/**
 * A minimal IGES (ASCII fixed form) writer for hand-made fixtures: entities given by type and
 * parameter text (pointers as directory sequence numbers, 1, 3, 5 ...), the directory and parameter
 * sections laid out by the standard's columns. No kernel: a file the kernel would never write.
 */
export interface IgesEntity {
  type: number;
  /** Parameters after the type, without the closing ';' (e.g. '1,3,1' for a 514 shell of face D3). */
  params: string;
  form?: number;
  /** Subordinate switch: 0 independent (transferred on its own), 1 physically dependent. */
  dependent?: boolean;
}

const GLOBAL =
  '1H,,1H;,7Hfixture,11Hfixture.igs,9Hbrepscope,3H1.0,32,308,15,308,15,7Hfixture,1.,2,2HMM,1,0.01,15H20260101.000000,1E-07,100.,4Hnone,4Hnone,11,0,15H20260101.000000;';

const col = (v: string | number, w = 8): string => String(v).padStart(w);

export function writeIges(entities: IgesEntity[]): Uint8Array {
  const start = ['brepscope test fixture'.padEnd(72) + 'S' + col(1, 7)];
  const global: string[] = [];
  for (let i = 0; i < GLOBAL.length; i += 72) global.push(GLOBAL.slice(i, i + 72).padEnd(72) + 'G' + col(global.length + 1, 7));
  const directory: string[] = [];
  const parameters: string[] = [];
  entities.forEach((e, k) => {
    const de = 2 * k + 1;
    const text = `${e.type},${e.params};`;
    const lines: string[] = [];
    for (let i = 0; i < text.length; i += 64) lines.push(text.slice(i, i + 64));
    const first = parameters.length + 1;
    for (const l of lines) parameters.push(l.padEnd(64) + col(de, 8) + 'P' + col(parameters.length + 1, 7));
    const status = `000${e.dependent ? 1 : 0}0000`;
    directory.push(col(e.type) + col(first) + col(0) + col(0) + col(0) + col(0) + col(0) + col(0) + status + 'D' + col(de, 7));
    directory.push(col(e.type) + col(0) + col(0) + col(lines.length) + col(e.form ?? 0) + col('') + col('') + col('') + col(0) + 'D' + col(de + 1, 7));
  });
  const terminate = `S${col(start.length, 7)}G${col(global.length, 7)}D${col(directory.length, 7)}P${col(parameters.length, 7)}`.padEnd(72) + 'T' + col(1, 7);
  return new TextEncoder().encode([...start, ...global, ...directory, ...parameters, terminate].join('\n') + '\n');
}

/**
 * Issue 34's hostile IGES: a 514 shell (D1) whose only face, a 510 (D3), has the shell itself as its
 * surface and no loops. The kernel reads a shell with no face (its box is void).
 */
export function shellFaceCycleIges(): Uint8Array {
  return writeIges([
    { type: 514, params: '1,3,1', form: 1 },
    { type: 510, params: '1,0,1', form: 1, dependent: true },
  ]);
}
