import { describe, expect, it } from 'vitest';
import type { Language } from './language';
import {
  centsToDollarsText,
  formatMoney,
  formatNumber,
  formatPercent,
  parseDollars,
} from './money';

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

  it('writes percentages, tax rates with their decimals, with a no-break space before %', () => {
    expect(formatPercent(20, 'fr')).toBe('20\u00a0%');
    expect(formatPercent(9.975, 'fr')).toBe('9,975\u00a0%');
    expect(formatPercent(9.975, 'en')).toBe('9.975%');
    expect(formatPercent(14, 'en')).toBe('14%');
  });
});

describe('fee fields, read and shown the reader’s way', () => {
  it.each<[Language, string, bigint | null]>([
    ['fr', '95,50', 9550n],
    ['fr', '30', 3000n],
    ['fr', '30,5', 3050n],
    ['fr', '1 234,50', 123450n],
    ['fr', '1\u00a0234,50\u00a0$', 123450n],
    ['fr', '95.50', 9550n],
    ['fr', '1.234,50', null],
    ['fr', '30,505', null],
    ['fr', 'trente', null],
    ['fr', '', null],
    ['en', '95.50', 9550n],
    ['en', '$1,234.50', 123450n],
    ['en', '1,234', 123400n],
    ['en', '1,000,000.00', 100000000n],
    ['en', '30,50', 3050n],
    ['en', '1,23,4', null],
    ['en', '-5', null],
  ])('reads %s %j as %s cents', (language, text, cents) => {
    expect(parseDollars(text, language)).toBe(cents);
  });

  it.each<[Language, bigint, string]>([
    ['fr', 3000n, '30,00'],
    ['fr', 9550n, '95,50'],
    ['fr', 123450n, '1\u00a0234,50'],
    ['en', 3000n, '30.00'],
    ['en', 123450n, '1,234.50'],
  ])('shows %s %s cents as %j, which it reads back', (language, cents, text) => {
    expect(centsToDollarsText(cents, language)).toBe(text);
    expect(parseDollars(text, language)).toBe(cents);
  });
});
