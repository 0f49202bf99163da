import { HStack, Separator, Stack, Text } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { TaxLine } from '@/gen/repairs/type/v1/common_pb';
import type { Money } from '@/gen/repairs/type/v1/common_pb';
import { formatMoney, formatPercent } from '@/lib/money';
import { useLanguage } from '@/lib/use-language';

/** The taxes the contract names (TaxLine.name), each with its name in the catalogues. */
const TAX_CODES = ['GST', 'HST', 'QST'] as const;
type TaxCode = (typeof TAX_CODES)[number];
const isTaxCode = (name: string): name is TaxCode =>
  (TAX_CODES as readonly string[]).includes(name);

/** An amount as the reader's language writes it. */
function useMoneyText() {
  const language = useLanguage();
  return (amount: Money) => formatMoney(amount.amountCents, amount.currency, language);
}

/** One labelled amount of a summary. */
export function SummaryRow({ label, amount }: { label: string; amount: Money }) {
  const money = useMoneyText();
  return (
    <HStack justify="space-between" gap="3">
      <Text>{label}</Text>
      <Text>{money(amount)}</Text>
    </HStack>
  );
}

interface SaleSummaryProps {
  /** The rows above the taxes: the price, a coupon. */
  children?: ReactNode;
  /** What the taxes are on. */
  subtotal?: Money;
  /** In the order the server gives (receipt order); none when no tax applies. */
  taxes: readonly TaxLine[];
  /** What the card is charged. */
  total: Money;
}

/**
 * A sale as the server priced it (QuoteMembership, PurchaseMembership): the rows given, then
 * the subtotal and each sales tax with its rate when any applies (TPS, TVH, TVQ in French),
 * then the total. Every amount is the reply's, never computed here.
 */
export function SaleSummary({ children, subtotal, taxes, total }: SaleSummaryProps) {
  const { t } = useTranslation();
  const language = useLanguage();
  const money = useMoneyText();
  const taxName = (name: string) => (isTaxCode(name) ? t(`billing.taxNames.${name}`) : name);
  return (
    <Stack gap="3" borderWidth="1px" borderRadius="lg" p="5" bg="bg.subtle" data-testid="sale">
      {children}
      {subtotal && taxes.length > 0 && (
        <>
          <SummaryRow label={t('billing.subtotal')} amount={subtotal} />
          {taxes.map(
            (tax) =>
              tax.amount && (
                <SummaryRow
                  key={tax.name}
                  label={t('billing.taxLine', {
                    name: taxName(tax.name),
                    rate: formatPercent(Number(tax.ratePercent), language),
                  })}
                  amount={tax.amount}
                />
              ),
          )}
        </>
      )}
      <Separator />
      <HStack justify="space-between" fontWeight="bold" fontSize="lg">
        <Text>{t('billing.total')}</Text>
        <Text data-testid="total">{money(total)}</Text>
      </HStack>
    </Stack>
  );
}
