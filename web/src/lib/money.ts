import { LOCALES, type Language } from './language';

/**
 * Formats integer minor units (the contracts' `amount_cents`) in a language:
 * 2999 EUR is "€29.99" in English and "29,99 €" in French.
 */
export function formatMoney(amountCents: bigint | number, currency: string, language: Language) {
  return new Intl.NumberFormat(LOCALES[language], { style: 'currency', currency }).format(
    Number(amountCents) / 100,
  );
}

/** A number in a language's conventions: 1,250 in English, 1 250 (no-break space) in French. */
export function formatNumber(value: bigint | number, language: Language) {
  return new Intl.NumberFormat(LOCALES[language]).format(value);
}

const DOLLARS = /^\d{1,9}([.,]\d{1,2})?$/;

/** "30", "30.5" or "30,50" (French) as cents; null when it is not an amount. */
export function parseDollars(text: string): bigint | null {
  const clean = text.trim().replace(/\s/g, '').replace(/^\$/, '');
  if (!DOLLARS.test(clean)) return null;
  const [whole = '0', fraction = ''] = clean.split(/[.,]/);
  return BigInt(whole) * 100n + BigInt(fraction.padEnd(2, '0'));
}

/** Cents as the text of a form field: 3000 -> "30.00". */
export function centsToDollarsText(cents: bigint | number): string {
  const value = BigInt(cents);
  const fraction = (value % 100n).toString().padStart(2, '0');
  return `${value / 100n}.${fraction}`;
}

/** A whole percentage in a language's conventions: 20% in English, 20 % (no-break) in French. */
export function formatPercent(percent: number, language: Language) {
  return new Intl.NumberFormat(LOCALES[language], { style: 'percent' }).format(percent / 100);
}
