import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import type { Quote } from '@/gen/repairs/marketplace/v1/marketplace_pb';
import { useLanguage } from '@/lib/use-language';
import { formatWait, quoteArrivalText } from './arrival';

/**
 * What a quote says of the arrival in the page's language ("Can be there in about 40 min",
 * once hired "Should be there by 21 h 40"); null when the professional did not say.
 */
export function useQuoteArrival() {
  const { t } = useTranslation();
  const language = useLanguage();
  return useCallback(
    (quote: Quote) => quoteArrivalText(quote, new Date(), t, language),
    [t, language],
  );
}

/** A wait in minutes said roughly in the page's language: "about 40 min", "environ 2 h 30". */
export function useWaitFormat() {
  const { t } = useTranslation();
  const language = useLanguage();
  return useCallback((minutes: number) => formatWait(minutes, t, language), [t, language]);
}
