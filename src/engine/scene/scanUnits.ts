/**
 * Length units a scan file may have been written in, by how many millimetres one of them is. A
 * scan exported in inches (or metres, or centimetres) and compared with a part in millimetres is
 * that many times smaller: no alignment can fit it, and every figure is nonsense.
 */
export const SCAN_UNITS = { mm: 1, cm: 10, m: 1000, inch: 25.4 } as const;
export type ScanUnit = keyof typeof SCAN_UNITS;
export const SCAN_UNIT_NAMES = Object.keys(SCAN_UNITS) as [ScanUnit, ...ScanUnit[]];
