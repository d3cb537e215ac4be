import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../mesh/generators';
import { TextScanner } from './textScanner';

const numbers = (text: string): number[] => {
  const s = new TextScanner(new TextEncoder().encode(text));
  const out: number[] = [];
  while (s.tokenAnywhere()) out.push(s.tokenNumber());
  return out;
};

describe('TextScanner numbers', () => {
  it('read exactly what Number() reads, for the forms scan files use', () => {
    const random = seededRandom(1);
    const texts = ['0', '-0', '+1', '1.', '.5', '-.5e-3', '1e5', '1E+05', '0.000123', '123456789012345678', '3.14159265358979323846', '1e-320', '1e308', '-2.5E-7', '000.0100'];
    for (let i = 0; i < 2000; i++) {
      const v = (random() - 0.5) * 10 ** Math.floor(random() * 20 - 10);
      texts.push(String(v), v.toFixed(Math.floor(random() * 12)), v.toExponential(Math.floor(random() * 16)), String(Math.fround(v)));
    }
    const got = numbers(texts.join(' \n'));
    expect(got).toEqual(texts.map(Number));
  });

  it('anything else is NaN, never a partial number', () => {
    expect(numbers('nan inf Infinity 0x10 1,5 1e 1.2.3 -- + . e5 1e5x')).toEqual(Array(12).fill(NaN));
  });
});
