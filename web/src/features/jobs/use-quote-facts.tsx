import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { PriceSummary } from '@/components/ui/sale-summary';
import type { Quote } from '@/gen/repairs/marketplace/v1/marketplace_pb';
import { formatHours } from '@/lib/duration';
import { useDateTimeFormat } from '@/lib/use-date-format';
import { useLanguage } from '@/lib/use-language';
import { QuoteRating, SurgeBadge } from './components/quote-marks';
import { useQuoteArrival } from './use-arrival-words';

/**
 * A quote's figures as label and value pairs: its price (fee, each tax, total, or why there is
 * no tax), how soon the professional can be there (when they said), time, surge, rating, when
 * sent.
 */
export function useQuoteFacts(quote: Quote): [string, ReactNode][] {
  const { t } = useTranslation();
  const language = useLanguage();
  const formatTime = useDateTimeFormat();
  const arrival = useQuoteArrival()(quote);
  const arrivalFacts: [string, ReactNode][] = arrival ? [[t('arrival.label'), arrival]] : [];
  return [
    [
      t('jobs.price'),
      <PriceSummary
        key="price"
        fee={quote.fee}
        taxes={quote.taxes}
        total={quote.total}
        treatment={quote.taxTreatment}
        plain
      />,
    ],
    ...arrivalFacts,
    [t('jobs.estimatedTime'), formatHours(quote.estimatedMinutes, language)],
    [t('jobs.surge'), quote.surge ? <SurgeBadge key="surge" /> : t('common.no')],
    [t('jobs.rating'), <QuoteRating key="rating" quote={quote} />],
    [t('jobs.sent'), formatTime(quote.createTime)],
  ];
}
