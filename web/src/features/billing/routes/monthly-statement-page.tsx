import { Heading, Input, Stack, Text } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { EmptyState } from '@/components/empty-state';
import { PageTitle } from '@/components/page-title';
import { RouteLoader } from '@/components/route-loader';
import { RpcErrorAlert } from '@/components/rpc-error-alert';
import { FormField } from '@/components/ui/form-field';
import { SaleSummary, SummaryRow } from '@/components/ui/sale-summary';
import { SimpleTable, type Column } from '@/components/ui/simple-table';
import type { MonthlyStatement, StatementJob } from '@/gen/repairs/billing/v1/billing_pb';
import { formatMonth, monthBefore, thisMonth } from '@/lib/date-format';
import { useDateFormat } from '@/lib/use-date-format';
import { useLanguage } from '@/lib/use-language';
import { useMoneyFormat } from '@/lib/use-money-format';
import { useTaxLabel } from '@/lib/use-tax-text';
import { useMonthlyStatement } from '../api/get-monthly-statement';
import { usePayoutColumns } from '../components/payout-columns';
import { ReceiptLink } from '../components/receipt-link';

const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;

/**
 * /monthly-statement?month=YYYY-MM: the professional's month (GetMonthlyStatement, last month
 * unless chosen): the jobs charged in it with their taxes, the platform's fees and the taxes
 * on them (the input tax credits), the payouts paid in it, and their totals. A month not yet
 * over or malformed is said under the picker.
 */
export function MonthlyStatementPage() {
  const { t } = useTranslation();
  const language = useLanguage();
  const [params, setParams] = useSearchParams();
  const current = thisMonth(new Date());
  const month = params.get('month') ?? monthBefore(current);
  const problem = !MONTH.test(month)
    ? t('statement.errors.month')
    : month > current
      ? t('statement.errors.future')
      : null;
  const { data, isPending, error, isFetching } = useMonthlyStatement(problem ? '' : month);
  const statement = data?.statement;
  return (
    <Stack gap="6" maxW="5xl">
      <PageTitle title={t('pages.monthlyStatement')} />
      <FormField label={t('statement.month')} error={problem ?? undefined}>
        <Input
          type="month"
          maxW="60"
          max={current}
          value={month}
          onChange={(event) =>
            setParams(event.target.value ? { month: event.target.value } : {}, { replace: true })
          }
        />
      </FormField>
      {!problem && isPending && <RouteLoader />}
      {!problem && error && <RpcErrorAlert error={error} />}
      {!problem && statement && (
        <Stack gap="8" aria-busy={isFetching}>
          <Text color="fg.muted">
            {t('statement.of', {
              name: statement.professionalName,
              month: formatMonth(month, language),
            })}
          </Text>
          <StatementJobs statement={statement} />
          <StatementTotals statement={statement} />
          <StatementPayouts statement={statement} />
        </Stack>
      )}
    </Stack>
  );
}

interface StatementSectionProps<Row> {
  id: string;
  title: string;
  /** What the section says when the month has no rows. */
  emptyTitle: string;
  columns: Column<Row>[];
  rows: Row[];
  rowKey: (row: Row) => string;
  /** Under the table: its total. */
  children?: ReactNode;
}

/** A part of the statement: its heading, then its rows as a table, or that there are none. */
function StatementSection<Row>({
  id,
  title,
  emptyTitle,
  columns,
  rows,
  rowKey,
  children,
}: StatementSectionProps<Row>) {
  return (
    <Stack as="section" gap="3" aria-labelledby={id}>
      <Heading as="h2" id={id} size="lg" color="brand.900">
        {title}
      </Heading>
      {rows.length === 0 ? (
        <EmptyState title={emptyTitle} />
      ) : (
        <SimpleTable caption={title} columns={columns} rows={rows} rowKey={rowKey} />
      )}
      {children}
    </Stack>
  );
}

/** A list of taxes on one line each: "GST 5% $1.00". */
function TaxList({ taxes }: { taxes: StatementJob['taxes'] }) {
  const formatMoney = useMoneyFormat();
  const taxLabel = useTaxLabel();
  return (
    <Stack gap="0">
      {taxes.map((tax) => (
        <Text key={`${tax.name}-${tax.ratePercent}`}>
          {taxLabel(tax.name, tax.ratePercent)} {formatMoney(tax.amount)}
        </Text>
      ))}
    </Stack>
  );
}

function StatementJobs({ statement }: { statement: MonthlyStatement }) {
  const { t } = useTranslation();
  const formatMoney = useMoneyFormat();
  const formatDate = useDateFormat();
  const columns: Column<StatementJob>[] = [
    { header: t('statement.columns.charged'), cell: (job) => formatDate(job.captureTime) },
    { header: t('statement.columns.service'), cell: (job) => job.serviceName },
    { header: t('statement.columns.customer'), cell: (job) => job.customerName },
    { header: t('statement.columns.subtotal'), cell: (job) => formatMoney(job.subtotal) },
    {
      header: t('statement.columns.taxes'),
      cell: (job) => (job.taxes.length > 0 ? <TaxList taxes={job.taxes} /> : t('statement.noTax')),
    },
    { header: t('statement.columns.total'), cell: (job) => formatMoney(job.total) },
    { header: t('statement.columns.fee'), cell: (job) => formatMoney(job.platformFee) },
    {
      header: t('statement.columns.feeTaxes'),
      cell: (job) => <TaxList taxes={job.platformFeeTaxes} />,
    },
    {
      header: t('common.actions'),
      hiddenHeader: true,
      cell: (job) => (
        <ReceiptLink
          paymentId={job.paymentId}
          role="professional"
          label={t('receipts.linkOf', {
            name: job.customerName,
            date: formatDate(job.captureTime),
          })}
        />
      ),
    },
  ];
  return (
    <StatementSection
      id="statement-jobs"
      title={t('statement.jobs')}
      emptyTitle={t('statement.noJobs')}
      columns={columns}
      rows={statement.jobs}
      rowKey={(job) => job.orderId}
    />
  );
}

function StatementTotals({ statement }: { statement: MonthlyStatement }) {
  const { t } = useTranslation();
  const platform = statement.platform;
  return (
    <Stack as="section" gap="3" aria-labelledby="statement-totals">
      <Heading as="h2" id="statement-totals" size="lg" color="brand.900">
        {t('statement.totals')}
      </Heading>
      <Stack direction={{ base: 'column', md: 'row' }} gap="4" align="stretch">
        <Stack flex="1" gap="2">
          <Heading as="h3" size="md">
            {t('statement.yourSales')}
          </Heading>
          {statement.jobsSubtotal && (
            <SaleSummary
              subtotal={statement.jobsSubtotal}
              subtotalLabel={t('statement.salesBeforeTax')}
              alwaysShowSubtotal
              taxes={statement.jobsTaxes}
            />
          )}
        </Stack>
        <Stack flex="1" gap="2">
          <Heading as="h3" size="md">
            {t('statement.platformFees')}
          </Heading>
          {statement.platformFees && (
            <SaleSummary
              subtotal={statement.platformFees}
              subtotalLabel={t('statement.feesBeforeTax')}
              alwaysShowSubtotal
              taxes={statement.platformFeeTaxes}
              showNumbers
              note={t('statement.inputTaxCredits', { name: platform?.name ?? '' })}
            />
          )}
        </Stack>
      </Stack>
    </Stack>
  );
}

function StatementPayouts({ statement }: { statement: MonthlyStatement }) {
  const { t } = useTranslation();
  const columns = usePayoutColumns();
  return (
    <StatementSection
      id="statement-payouts"
      title={t('statement.payouts')}
      emptyTitle={t('statement.noPayouts')}
      columns={columns}
      rows={statement.payouts}
      rowKey={(payout) => payout.id}
    >
      {statement.paidOut && (
        <SummaryRow label={t('statement.paidOut')} amount={statement.paidOut} />
      )}
    </StatementSection>
  );
}
