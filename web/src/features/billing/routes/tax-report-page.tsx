import { Button, Heading, HStack, Input, SimpleGrid, Stack } from '@chakra-ui/react';
import { Download } from 'lucide-react';
import { create } from '@bufbuild/protobuf';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { EmptyState } from '@/components/empty-state';
import { PageTitle } from '@/components/page-title';
import { RouteLoader } from '@/components/route-loader';
import { RpcErrorAlert } from '@/components/rpc-error-alert';
import { FormAlert } from '@/components/ui/form-alert';
import { FormField } from '@/components/ui/form-field';
import { SummaryRow } from '@/components/ui/sale-summary';
import { SimpleTable, type Column } from '@/components/ui/simple-table';
import { TaxSeller, type TaxReportRow } from '@/gen/repairs/billing/v1/billing_pb';
import { MoneySchema } from '@/gen/repairs/type/v1/common_pb';
import { provinceKey } from '@/lib/address';
import { daysBetween, formatDay, lastQuarter } from '@/lib/date-format';
import { formatNumber } from '@/lib/money';
import type { TranslationKey } from '@/lib/translation-key';
import { useLanguage } from '@/lib/use-language';
import { useMoneyFormat } from '@/lib/use-money-format';
import { useTaxLabel } from '@/lib/use-tax-text';
import { useTaxReport, type TaxPeriod } from '../api/get-tax-report';

const DAY = /^\d{4}-\d{2}-\d{2}$/;
/** The longest period the server reports on (GetTaxReport). */
const MAX_DAYS = 366;

/** What is wrong with a period, as a catalogue key; null when the server may be asked. */
function periodProblem({ startDate, endDate }: TaxPeriod) {
  if (!DAY.test(startDate) || !DAY.test(endDate)) return 'taxReport.errors.days' as const;
  const days = daysBetween(startDate, endDate);
  if (days < 1) return 'taxReport.errors.order' as const;
  if (days > MAX_DAYS) return 'taxReport.errors.tooLong' as const;
  return null;
}

/** The seller of a row in the reader's words. */
const SELLERS: Record<TaxSeller, TranslationKey> = {
  [TaxSeller.UNSPECIFIED]: 'taxReport.sellers.unknown',
  [TaxSeller.PLATFORM]: 'taxReport.sellers.platform',
  [TaxSeller.PROFESSIONALS]: 'taxReport.sellers.professionals',
};

/**
 * /admin/tax-report?start=YYYY-MM-DD&end=YYYY-MM-DD: the sales taxes of a period (GetTaxReport,
 * last quarter unless chosen): per seller, province and tax, the taxable sales, the tax
 * collected and the number of sales, the tax collected in total, and the same lines as a CSV
 * file to download. A period the server would refuse (an end before the start, over 366 days)
 * is said in the page.
 */
export function TaxReportPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const quarter = lastQuarter(new Date());
  const period: TaxPeriod = {
    startDate: params.get('start') ?? quarter.start,
    endDate: params.get('end') ?? quarter.end,
  };
  const [draft, setDraft] = useState(period);
  const problem = periodProblem(period);
  const report = useTaxReport(problem ? null : period);

  const show = (event: FormEvent) => {
    event.preventDefault();
    setParams({ start: draft.startDate, end: draft.endDate });
  };

  return (
    <Stack gap="6" maxW="5xl">
      <PageTitle title={t('pages.adminTaxReport')} />
      <form noValidate onSubmit={show} aria-label={t('taxReport.period')}>
        <Stack gap="4">
          <SimpleGrid columns={{ base: 1, sm: 2 }} gap="4" maxW="xl">
            <FormField label={t('taxReport.start')} required>
              <Input
                type="date"
                value={draft.startDate}
                onChange={(event) => setDraft({ ...draft, startDate: event.target.value })}
              />
            </FormField>
            <FormField label={t('taxReport.end')} required>
              <Input
                type="date"
                value={draft.endDate}
                onChange={(event) => setDraft({ ...draft, endDate: event.target.value })}
              />
            </FormField>
          </SimpleGrid>
          <Button type="submit" colorPalette="brand" alignSelf="start">
            {t('taxReport.show')}
          </Button>
        </Stack>
      </form>
      {problem && <FormAlert title={t(problem)} />}
      {!problem && report.isPending && <RouteLoader />}
      {!problem && report.error && <RpcErrorAlert error={report.error} />}
      {!problem && report.data && (
        <ReportResult period={period} rows={report.data.rows} csv={report.data.csv} />
      )}
    </Stack>
  );
}

function ReportResult({
  period,
  rows,
  csv,
}: {
  period: TaxPeriod;
  rows: TaxReportRow[];
  csv: string;
}) {
  const { t } = useTranslation();
  const language = useLanguage();
  const formatMoney = useMoneyFormat();
  const taxLabel = useTaxLabel();
  const caption = t('taxReport.caption', {
    start: formatDay(period.startDate, language),
    end: formatDay(period.endDate, language),
  });
  const columns: Column<TaxReportRow>[] = [
    {
      header: t('taxReport.columns.seller'),
      cell: (row) => t(SELLERS[row.seller] ?? SELLERS[TaxSeller.UNSPECIFIED]),
    },
    { header: t('taxReport.columns.province'), cell: (row) => t(provinceKey(row.province)) },
    { header: t('taxReport.columns.tax'), cell: (row) => taxLabel(row.taxName, row.ratePercent) },
    { header: t('taxReport.columns.taxableSales'), cell: (row) => formatMoney(row.taxableSales) },
    { header: t('taxReport.columns.taxCollected'), cell: (row) => formatMoney(row.taxCollected) },
    { header: t('taxReport.columns.sales'), cell: (row) => formatNumber(row.saleCount, language) },
  ];
  /** The tax a seller collected (every seller's when none is named), summed from the rows. */
  const collected = (seller?: TaxSeller) =>
    create(MoneySchema, {
      amountCents: rows
        .filter((row) => seller === undefined || row.seller === seller)
        .reduce((sum, row) => sum + (row.taxCollected?.amountCents ?? 0n), 0n),
      currency: rows[0]?.taxCollected?.currency || 'CAD',
    });
  const download = () => {
    const url = URL.createObjectURL(new Blob([csv], { type: 'text/csv;charset=utf-8' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = `tax-report-${period.startDate}-${period.endDate}.csv`;
    link.click();
    URL.revokeObjectURL(url);
  };
  return (
    <Stack as="section" gap="4" aria-labelledby="tax-report-heading">
      <HStack justify="space-between" wrap="wrap" gap="3">
        <Heading as="h2" id="tax-report-heading" size="lg" color="brand.900">
          {caption}
        </Heading>
        {rows.length > 0 && (
          <Button variant="outline" colorPalette="brand" onClick={download}>
            <Download aria-hidden />
            {t('taxReport.download')}
          </Button>
        )}
      </HStack>
      {rows.length === 0 ? (
        <EmptyState title={t('taxReport.none')} />
      ) : (
        <>
          <SimpleTable
            caption={caption}
            columns={columns}
            rows={rows}
            rowKey={(row) => `${row.seller}-${row.province}-${row.taxName}-${row.ratePercent}`}
          />
          <Stack gap="2" maxW="xl" data-testid="tax-totals">
            <SummaryRow
              label={t('taxReport.totals.platform')}
              amount={collected(TaxSeller.PLATFORM)}
            />
            <SummaryRow
              label={t('taxReport.totals.professionals')}
              amount={collected(TaxSeller.PROFESSIONALS)}
            />
            <SummaryRow label={t('taxReport.totals.all')} amount={collected()} />
          </Stack>
        </>
      )}
    </Stack>
  );
}
