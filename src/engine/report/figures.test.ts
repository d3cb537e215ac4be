import { describe, expect, it } from 'vitest';
import { figureText, shareText } from './figures';

describe('figureText and shareText: the figures the screen and the report both print', () => {
  it('keeps 4 significant digits with a true minus and an optional plus', () => {
    expect(figureText(-0.0070017)).toBe('\u22120.007002');
    expect(figureText(0.0965123, true)).toBe('+0.09651');
    expect(figureText(0.0965123)).toBe('0.09651');
    expect(figureText(12345.678)).toBe('12,350');
    expect(figureText(1.5)).toBe('1.5');
    expect(figureText(0, true)).toBe('0');
    expect(figureText(-0.00001234567)).toBe('\u22121.235e-5');
  });

  it('prints shares with two decimals', () => {
    expect(shareText(0.99995)).toBe('100.00 %');
    expect(shareText(0.9964)).toBe('99.64 %');
    expect(shareText(0)).toBe('0.00 %');
  });
});
