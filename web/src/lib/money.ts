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
/** English groups thousands with commas: "1,234.50". */
const ENGLISH_GROUPS = /^\d{1,3}(,\d{3})+(\.\d{1,2})?$/;

/**
 * A fee field's text as cents, read the reader's way; null when it is not an amount. French
 * writes "1 234,50" (spaces between thousands, a decimal comma) and English "1,234.50"; a
 * decimal point is taken in French too, as some phones' number pads have no comma, and a
 * "$" before or after the figure is allowed.
 */
export function parseDollars(text: string, language: Language): bigint | null {
  let clean = text.replace(/\s/g, '').replace(/^\$|\$$/, '');
  if (language === 'en' && ENGLISH_GROUPS.test(clean)) clean = clean.replace(/,/g, '');
  if (!DOLLARS.test(clean)) return null;
  const [whole = '0', fraction = ''] = clean.split(/[.,]/);
  return BigInt(whole) * 100n + BigInt(fraction.padEnd(2, '0'));
}

/** Cents as the text of a fee field, the reader's way: 123450 is "1,234.50" or "1 234,50". */
export function centsToDollarsText(cents: bigint | number, language: Language): string {
  return new Intl.NumberFormat(LOCALES[language], {
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
  }).format(Number(cents) / 100);
}

/**
 * A percentage in a language's conventions, to three decimals at most (tax rates such as
 * 9.975): 20% and 9.975% in English, 20 % and 9,975 % (no-break space) in French.
 */
export function formatPercent(percent: number, language: Language) {
  return new Intl.NumberFormat(LOCALES[language], {
    style: 'percent',
    maximumFractionDigits: 3,
  }).format(percent / 100);
}
