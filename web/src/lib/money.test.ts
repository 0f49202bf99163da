import { describe, expect, it } from 'vitest';
import { formatMoney } from './money';

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
