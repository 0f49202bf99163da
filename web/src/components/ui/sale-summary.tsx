import { HStack, Separator, Stack, Text } from '@chakra-ui/react';
import { useCallback, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { QuoteTaxTreatment } from '@/gen/repairs/marketplace/v1/marketplace_pb';
import type { Money, TaxLine } from '@/gen/repairs/type/v1/common_pb';
import { formatPercent } from '@/lib/money';
import { useLanguage } from '@/lib/use-language';
import { useMoneyFormat } from '@/lib/use-money-format';

/** The taxes the contract names (TaxLine.name), each with its name in the catalogues. */
const TAX_CODES = ['GST', 'HST', 'QST'] as const;
type TaxCode = (typeof TAX_CODES)[number];
const isTaxCode = (name: string): name is TaxCode =>
  (TAX_CODES as readonly string[]).includes(name);

/**
 * A tax as the reader's language names it, with its rate: "GST 5%", "TVQ 9,975 %". `name` is
 * the contract's code (GST, HST, QST); an unknown one shows as sent.
 */
export function useTaxLabel() {
  const { t } = useTranslation();
  const language = useLanguage();
  return useCallback(
    (name: string, ratePercent: string) =>
      t('billing.taxLine', {
        name: isTaxCode(name) ? t(`billing.taxNames.${name}`) : name,
        rate: formatPercent(Number(ratePercent), language),
      }),
    [t, language],
  );
}

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
  taxes: readonly TaxLine[];
  /** Under each tax, the seller's registration number for it (receipts). */
  showNumbers?: boolean;
  /** What the buyer pays. */
  total: Money;
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
      <Separator />
      <HStack justify="space-between" fontWeight="bold" fontSize={plain ? 'md' : 'lg'}>
        <Text>{totalLabel ?? t('billing.total')}</Text>
        <Text data-testid="total">{money(total)}</Text>
      </HStack>
      {note && (
        <Text fontSize="sm" color="fg.muted">
          {note}
        </Text>
      )}
    </Stack>
  );
}

/** What a quote's tax treatment says under its total; nothing when taxes were added. */
export function useTaxTreatmentNote() {
  const { t } = useTranslation();
  return useCallback(
    (treatment: QuoteTaxTreatment | undefined) => {
      switch (treatment) {
        case QuoteTaxTreatment.NOT_REGISTERED:
          return t('billing.taxTreatment.notRegistered');
        case QuoteTaxTreatment.NOT_ADDED:
          return t('billing.taxTreatment.notAdded');
        default:
          return null;
      }
    },
    [t],
  );
}

interface PriceSummaryProps {
  /** The fee before tax. */
  fee?: Money;
  taxes: readonly TaxLine[];
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
