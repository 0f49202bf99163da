import { Badge, Stack, Text } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { RowActionLink, RowActions } from '@/components/ui/row-actions';
import { PriceSummary } from '@/components/ui/sale-summary';
import type { Column } from '@/components/ui/simple-table';
import { useServiceNames } from '@/features/content';
import { approximatePlace, PROFESSIONAL_REQUEST_PATHS } from '@/features/professionals';
import type { QuotedRepairRequest } from '@/gen/repairs/marketplace/v1/marketplace_pb';
import { formatHours } from '@/lib/duration';
import { useDateFormat } from '@/lib/use-date-format';
import { useLanguage } from '@/lib/use-language';
import { QuoteStateBadge } from './quote-state-badge';

/** The columns a professional's quoted-request lists choose from. */
export type QuotedColumn =
  'service' | 'place' | 'hours' | 'fee' | 'quoted' | 'state' | 'closed' | 'completed';

export const quotedRowKey = (row: QuotedRepairRequest) =>
  row.quote?.id ?? row.repairRequest?.id ?? '';

/**
 * The columns of the professional's lists of requests they quoted on (applied, lost,
 * completed), in the order asked (the fee column with each tax and the total), then the View link and `actions` (Withdraw) when given.
 */
export function useQuotedRequestColumns(
  keys: QuotedColumn[],
  actions?: (row: QuotedRepairRequest, service: string) => ReactNode,
): Column<QuotedRepairRequest>[] {
  const { t } = useTranslation();
  const language = useLanguage();
  const formatDate = useDateFormat();
  const serviceName = useServiceNames();
  const nameOf = ({ repairRequest, quote }: QuotedRepairRequest) =>
    serviceName(repairRequest?.serviceId ?? '', repairRequest?.serviceName || quote?.serviceName);

  const all: Record<QuotedColumn, Column<QuotedRepairRequest>> = {
    service: {
      header: t('requests.service'),
      cell: (row) => <Text fontWeight="semibold">{nameOf(row)}</Text>,
    },
    place: {
      header: t('requests.open.location'),
      cell: (row) => (row.repairRequest ? approximatePlace(row.repairRequest) : ''),
    },
    hours: {
      header: t('jobs.columns.hours'),
      cell: (row) => formatHours(row.quote?.estimatedMinutes ?? 0, language),
    },
    fee: {
      header: t('jobs.columns.fee'),
      cell: ({ quote }) => (
        <Stack gap="2">
          {quote && (
            <PriceSummary
              fee={quote.fee}
              taxes={quote.taxes}
              total={quote.total}
              treatment={quote.taxTreatment}
              plain
            />
          )}
          {quote?.surge && (
            <Badge colorPalette="purple" variant="subtle">
              {t('jobs.surge')}
            </Badge>
          )}
        </Stack>
      ),
    },
    quoted: {
      header: t('jobs.columns.quoted'),
      cell: (row) => formatDate(row.quote?.createTime),
    },
    state: {
      header: t('jobs.columns.state'),
      cell: (row) =>
        row.quote ? <QuoteStateBadge state={row.quote.state} reader="professional" /> : '',
    },
    closed: {
      header: t('jobs.columns.closed'),
      cell: (row) => formatDate(row.quote?.updateTime),
    },
    completed: {
      header: t('jobs.columns.completed'),
      cell: (row) => formatDate(row.repairRequest?.completeTime),
    },
  };

  return [
    ...keys.map((key) => all[key]),
    {
      header: t('common.actions'),
      hiddenHeader: true,
      cell: (row) => {
        const service = nameOf(row);
        return (
          <RowActions>
            <RowActionLink
              to={PROFESSIONAL_REQUEST_PATHS.view(row.repairRequest?.id ?? '')}
              label={t('requests.viewRequest', { service })}
            >
              {t('requests.view')}
            </RowActionLink>
            {actions?.(row, service)}
          </RowActions>
        );
      },
    },
  ];
}
