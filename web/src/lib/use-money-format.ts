import { useCallback } from 'react';
import type { Money } from '@/gen/repairs/type/v1/common_pb';
import { formatMoney } from './money';
import { useLanguage } from './use-language';

/**
 * Formats a contract's Money in the page's language ('' when unset): $1,234.50 in English,
 * 1 234,50 $ in French. Every screen that shows an amount goes through it.
 */
export function useMoneyFormat() {
  const language = useLanguage();
  return useCallback(
    (money: Money | undefined) =>
      money ? formatMoney(money.amountCents, money.currency, language) : '',
    [language],
  );
}
