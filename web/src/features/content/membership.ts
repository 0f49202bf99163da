/**
 * The monthly membership price the professional landing page advertises. The server charges
 * the same amount (BillingService.PurchaseMembership: 2999 cents EUR); its price quote
 * (QuoteMembership) is for signed-in professionals only, so the public page states it here.
 */
export const MEMBERSHIP_MONTHLY_PRICE = { amountCents: 2999, currency: 'EUR' } as const;
