import type { TranslationKey } from '@/lib/translation-key';

/**
 * Stripe's test card numbers, as the server's offline test gateway honours them
 * (`server/src/providers/payments/test_cards.rs`), listed as help on its card form.
 */
export const TEST_CARDS: { number: string; behaviour: TranslationKey }[] = [
  { number: '4242 4242 4242 4242', behaviour: 'billing.testCards.succeeds' },
  { number: '4000 0000 0000 0002', behaviour: 'billing.testCards.declines' },
  { number: '4000 0000 0000 9995', behaviour: 'billing.testCards.insufficientFunds' },
  { number: '4000 0025 0000 3155', behaviour: 'billing.testCards.authentication' },
];

/** A card number as typed: 13 to 19 digits, spaces and dashes allowed between them. */
export function isCardNumber(text: string): boolean {
  const trimmed = text.trim();
  const digits = trimmed.replace(/[\s-]/g, '');
  return /^[\d\s-]+$/.test(trimmed) && /^\d{13,19}$/.test(digits);
}

/**
 * The admin test checkout's total before a coupon: the server authorises 100.00 CAD less the
 * coupon (BillingService.CreateTestCharge); the page shows the same figure before the call.
 */
export const TEST_CHARGE = { amountCents: 10000, currency: 'CAD' } as const;

/** 100.00 less `percent`, rounded to the cent as the server does (half a cent up). */
export function testChargeTotal(percent: number): number {
  return Math.floor((TEST_CHARGE.amountCents * (100 - percent) + 50) / 100);
}
