import { HStack, Separator, Stack, Text } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { QuoteTaxTreatment } from '@/gen/repairs/marketplace/v1/marketplace_pb';
import type { Money, TaxLine } from '@/gen/repairs/type/v1/common_pb';

/**
 * A tax line's fields: the membership replies carry billing's TaxLine, every other message
 * the common one, with the same fields.
 */
type TaxLineFields = Pick<TaxLine, 'name' | 'ratePercent' | 'amount' | 'registrationNumber'>;
import { useMoneyFormat } from '@/lib/use-money-format';
import { useTaxLabel, useTaxTreatmentNote } from '@/lib/use-tax-text';

/** One labelled amount of a summary, with a line of detail under the label when given. */
export function SummaryRow({
  label,
  amount,
  detail,
}: {
  label: string;
  amount: Money;
  detail?: string;
}) {
  const money = useMoneyFormat();
  return (
    <HStack justify="space-between" align="baseline" gap="3">
      <Text>
        {label}
        {detail && (
          <Text as="span" display="block" fontSize="sm" color="fg.muted">
            {detail}
          </Text>
        )}
      </Text>
      <Text textAlign="end">{money(amount)}</Text>
    </HStack>
  );
}

interface SaleSummaryProps {
  /** The rows above the taxes: the price, a coupon. */
  children?: ReactNode;
  /** What the taxes are on. */
  subtotal?: Money;
  /** The subtotal's label ("Subtotal" unless told: a quote's "Fee"). */
  subtotalLabel?: string;
  /** Show the subtotal even when no tax applies (a quote's fee). */
  alwaysShowSubtotal?: boolean;
  /** In the order the server gives (receipt order); none when no tax applies. */
  taxes: readonly TaxLineFields[];
  /** Under each tax, the seller's registration number for it (receipts). */
  showNumbers?: boolean;
  /** What the buyer pays; none for sums whose total the server does not give (a statement). */
  total?: Money;
  /** The total's label ("Total" unless told). */
  totalLabel?: string;
  /** A line under the total: why there is no tax. */
  note?: ReactNode;
  /** Without the box (inside a card or a list of facts). */
  plain?: boolean;
}

/**
 * A sale as the server priced it (QuoteMembership, PurchaseMembership, a quote, PreviewHire, a
 * receipt): the rows given, then the subtotal and each sales tax with its rate when any
 * applies (TPS, TVH, TVQ in French), then the total. Every amount is the reply's, never
 * computed here.
 */
export function SaleSummary({
  children,
  subtotal,
  subtotalLabel,
  alwaysShowSubtotal = false,
  taxes,
  showNumbers = false,
  total,
  totalLabel,
  note,
  plain = false,
}: SaleSummaryProps) {
  const { t } = useTranslation();
  const money = useMoneyFormat();
  const taxLabel = useTaxLabel();
  const box = plain
    ? {}
    : ({ borderWidth: '1px', borderRadius: 'lg', p: '5', bg: 'bg.subtle' } as const);
  return (
    <Stack gap={plain ? '2' : '3'} {...box} data-testid="sale">
      {children}
      {subtotal && (alwaysShowSubtotal || taxes.length > 0) && (
        <>
          <SummaryRow label={subtotalLabel ?? t('billing.subtotal')} amount={subtotal} />
          {taxes.map(
            (tax) =>
              tax.amount && (
                <SummaryRow
                  key={tax.name}
                  label={taxLabel(tax.name, tax.ratePercent)}
                  detail={
                    showNumbers && tax.registrationNumber
                      ? t('billing.taxNumber', { number: tax.registrationNumber })
                      : undefined
                  }
                  amount={tax.amount}
                />
              ),
          )}
        </>
      )}
      {total && (
        <>
          <Separator />
          <HStack justify="space-between" fontWeight="bold" fontSize={plain ? 'md' : 'lg'}>
            <Text>{totalLabel ?? t('billing.total')}</Text>
            <Text data-testid="total">{money(total)}</Text>
          </HStack>
        </>
      )}
      {note && (
        <Text fontSize="sm" color="fg.muted">
          {note}
        </Text>
      )}
    </Stack>
  );
}

interface PriceSummaryProps {
  /** The fee before tax. */
  fee?: Money;
  taxes: readonly TaxLineFields[];
  /** Fee plus taxes; the fee when the server sent none (an older quote). */
  total?: Money;
  treatment: QuoteTaxTreatment;
  /** The total's label ("Total" unless told). */
  totalLabel?: string;
  plain?: boolean;
}

/**
 * A professional's price (a quote, PreviewHire): the fee, each tax, the total, and why there
 * is no tax when there is none (not registered, or not added).
 */
export function PriceSummary({
  fee,
  taxes,
  total,
  treatment,
  totalLabel,
  plain,
}: PriceSummaryProps) {
  const { t } = useTranslation();
  const note = useTaxTreatmentNote()(treatment);
  const payable = total ?? fee;
  if (!payable) return null;
  return (
    <SaleSummary
      subtotal={fee}
      subtotalLabel={t('jobs.fee')}
      alwaysShowSubtotal
      taxes={taxes}
      total={payable}
      totalLabel={totalLabel}
      note={note}
      plain={plain}
    />
  );
}
