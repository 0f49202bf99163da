import { Heading, Stack, Text } from '@chakra-ui/react';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { SimpleTable, type Column } from '@/components/ui/simple-table';
import { QuoteTaxTreatment, type Quote } from '@/gen/repairs/marketplace/v1/marketplace_pb';
import { useMoneyFormat } from '@/lib/use-money-format';
import { useTaxLabel } from '@/lib/use-tax-text';
import { useWaitFormat } from '../use-arrival-words';
import { QuoteRating } from './quote-marks';

/** Why a quote carries no tax, in a word (the cards say it in full). */
const NO_TAX = {
  [QuoteTaxTreatment.NOT_REGISTERED]: 'jobs.noTax',
  [QuoteTaxTreatment.NOT_ADDED]: 'jobs.taxNotAdded',
} as const;

/**
 * The live quotes side by side, in the order the customer chose: the fee, the taxes and the
 * total where taxes apply, how soon each professional can be there and their reviews. A table
 * on wide screens, a card a quote on phones (SimpleTable). Every amount is the quote's.
 */
export function QuoteComparison({ quotes }: { quotes: Quote[] }) {
  const { t } = useTranslation();
  const money = useMoneyFormat();
  const taxLabel = useTaxLabel();
  const wait = useWaitFormat();
  const headingId = useId();
  /** A quote's taxes, one a line, or why there are none ('' when it does not say). */
  const taxesOf = (quote: Quote) => {
    const lines = quote.taxes.filter((tax) => tax.amount);
    if (lines.length === 0) {
      const why = NO_TAX[quote.taxTreatment as keyof typeof NO_TAX];
      return why ? t(why) : '';
    }
    return (
      <Stack gap="0">
        {lines.map((tax) => (
          <Text key={tax.name}>
            {taxLabel(tax.name, tax.ratePercent)}{' '}
            <Text as="span" whiteSpace="nowrap">
              {money(tax.amount)}
            </Text>
          </Text>
        ))}
      </Stack>
    );
  };
  const taxed = quotes.some((quote) => quote.taxes.length > 0);
  const columns: Column<Quote>[] = [
    {
      header: t('arrival.compare.professional'),
      cell: (quote) => <Text fontWeight="semibold">{quote.professionalName}</Text>,
    },
    { header: t('arrival.compare.fee'), cell: (quote) => money(quote.fee) },
    ...(taxed
      ? [
          { header: t('arrival.compare.taxes'), cell: taxesOf },
          {
            header: t('arrival.compare.total'),
            cell: (quote: Quote) => (
              <Text fontWeight="semibold">{money(quote.total ?? quote.fee)}</Text>
            ),
          },
        ]
      : []),
    {
      header: t('arrival.compare.arrival'),
      cell: (quote) =>
        quote.arrivalMinutes > 0 ? wait(quote.arrivalMinutes) : t('arrival.notSaid'),
    },
    { header: t('arrival.compare.rating'), cell: (quote) => <QuoteRating quote={quote} /> },
  ];
  return (
    <Stack as="section" gap="3" aria-labelledby={headingId}>
      <Heading as="h2" size="md" id={headingId}>
        {t('arrival.compare.title')}
      </Heading>
      <SimpleTable
        caption={t('arrival.compare.caption')}
        columns={columns}
        rows={quotes}
        rowKey={(quote) => quote.id}
      />
    </Stack>
  );
}
