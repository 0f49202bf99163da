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
