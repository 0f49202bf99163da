import { useTranslation } from 'react-i18next';
import { useMembershipPrice } from '@/features/billing';
import { formatMoney } from '@/lib/money';
import { useLanguage } from '@/lib/use-language';

/**
 * "$29.99 per month" / "29,99 $ par mois", in the page's language: the server's price (a
 * setting, in Canadian dollars), the one PurchaseMembership charges. `undefined` until it
 * arrives, or when it cannot be read (the purchase page says the price again).
 */
export function useMembershipPriceText(): string | undefined {
  const { t } = useTranslation();
  const language = useLanguage();
  const price = useMembershipPrice().data?.monthlyPrice;
  if (!price) return undefined;
  return t('professionalPage.membership.price', {
    price: formatMoney(price.amountCents, price.currency, language),
  });
}
