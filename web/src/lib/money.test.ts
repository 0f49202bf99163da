import { describe, expect, it } from 'vitest';
import { formatMoney, formatNumber } from './money';

/** Intl separates French amounts with no-break spaces; compare with plain ones. */
const plain = (text: string) => text.replace(/[\u00a0\u202f]/g, ' ');

describe('formatMoney', () => {
  it('formats the membership price, 2999 cents EUR, in both languages', () => {
    expect(formatMoney(2999, 'EUR', 'en')).toBe('€29.99');
    expect(plain(formatMoney(2999, 'EUR', 'fr'))).toBe('29,99 €');
  });

  it('accepts the bigint amounts of int64 fields', () => {
    expect(formatMoney(123456n, 'CAD', 'en')).toBe('$1,234.56');
    expect(plain(formatMoney(123456n, 'CAD', 'fr'))).toBe('1 234,56 $');
  });
});

describe('French as Intl writes it for Quebec (fr-CA)', () => {
  it('separates thousands and the currency with no-break spaces: 1 234,50 $', () => {
    expect(formatMoney(123450n, 'CAD', 'fr')).toBe('1\u00a0234,50\u00a0$');
    expect(formatMoney(2999, 'EUR', 'fr')).toBe('29,99\u00a0€');
  });

  it('groups numbers the same way', () => {
    expect(formatNumber(1250, 'fr')).toBe('1\u00a0250');
    expect(formatNumber(1250, 'en')).toBe('1,250');
  });
});
