import { useTranslation } from 'react-i18next';
import { formatMoney } from '@/lib/money';
import { useLanguage } from '@/lib/use-language';

/**
 * The monthly membership price the professional landing page advertises. The server charges
 * the same amount (BillingService.PurchaseMembership: 2999 cents EUR); its price quote
 * (QuoteMembership) is for signed-in professionals only, so the public page states it here.
 */
export const MEMBERSHIP_MONTHLY_PRICE = { amountCents: 2999, currency: 'EUR' } as const;

/** "€29.99 per month" / "29,99 € par mois", in the page's language. */
export function useMembershipPrice(): string {
  const { t } = useTranslation();
  const language = useLanguage();
  const price = formatMoney(
    MEMBERSHIP_MONTHLY_PRICE.amountCents,
    MEMBERSHIP_MONTHLY_PRICE.currency,
    language,
  );
  return t('professionalPage.membership.price', { price });
}
