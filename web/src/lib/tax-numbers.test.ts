import { describe, expect, it } from 'vitest';
import { isGstHstNumber, isQstNumber, normaliseTaxNumber } from './tax-numbers';

describe('tax registration numbers', () => {
  it.each([
    ['123456789RT0001', true],
    ['123 456 789 rt 0001', true],
    ['123456789RT001', false],
    ['12345678RT0001', false],
    ['123456789RC0001', false],
    ['1234567890TQ0001', false],
  ])('reads %j as a GST/HST number: %s', (typed, valid) => {
    expect(isGstHstNumber(typed)).toBe(valid);
  });

  it.each([
    ['1234567890TQ0001', true],
    ['1234567890 tq 0001', true],
    ['123456789TQ0001', false],
    ['1234567890RT0001', false],
  ])('reads %j as a QST number: %s', (typed, valid) => {
    expect(isQstNumber(typed)).toBe(valid);
  });

  it('sends a number without spaces, in upper case', () => {
    expect(normaliseTaxNumber(' 123 456 789 rt 0001 ')).toBe('123456789RT0001');
    expect(normaliseTaxNumber('   ')).toBe('');
  });
});
