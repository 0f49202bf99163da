import { Global } from '@emotion/react';
import { Badge, Button, Heading, HStack, Stack, Text } from '@chakra-ui/react';
import { Printer } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { useParams, useSearchParams } from 'react-router';
import { PageTitle } from '@/components/page-title';
import { RouteLoader } from '@/components/route-loader';
import { RpcErrorAlert } from '@/components/rpc-error-alert';
import { FactsList } from '@/components/ui/facts-list';
import { SaleSummary } from '@/components/ui/sale-summary';
import { PaymentState, type Receipt, type ReceiptParty } from '@/gen/repairs/billing/v1/billing_pb';
import { formatDay } from '@/lib/date-format';
import { useMoneyFormat } from '@/lib/use-money-format';
import { provinceKey, PROVINCES } from '@/lib/address';
import { useDateFormat } from '@/lib/use-date-format';
import { useLanguage } from '@/lib/use-language';
import { useReceipt } from '../api/get-receipt';
import { TestModeBadge } from '../components/test-mode-badge';
import { usePaymentStateLabel } from '../use-payment-state-label';

/**
 * What the printer gets: the receipt alone, black on white (no header, menus, footer or
 * buttons), without the links' colours.
 */
const PRINT_STYLES = {
  '@media print': {
    'header, footer, aside, nav, button, [data-print="hide"]': { display: 'none !important' },
    'html, body, main, main *': {
      color: 'black !important',
      background: 'white !important',
      boxShadow: 'none !important',
    },
    '[data-print="keep"]': { borderColor: 'black !important' },
  },
} as const;

/**
 * /receipts/{paymentId}: a payment's receipt as a tax auditor reads it (GetReceipt, in the
 * page's language): the seller and their GST/HST and QST numbers (or that they are not
 * registered), the buyer, the dates, what was sold, the subtotal, each tax with its rate and
 * the seller's number, the total, whether it is a hold, a charge or a refund, and the test
 * mode. A Print button; printed, the page shows the receipt alone, black on white. The payer,
 * the payee or an admin, each in their own area. With `?refund=<id>`, the credit note of that
 * refund instead: what it gave back (subtotal, taxes, total), the original total and why.
 */
export function ReceiptPage() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const [search] = useSearchParams();
  const refundId = search.get('refund') ?? '';
  const { data, isPending, error } = useReceipt(id, refundId);
  const receipt = data?.receipt;
  return (
    <Stack gap="6" maxW="3xl">
      <Global styles={PRINT_STYLES} />
      <HStack justify="space-between" align="start" wrap="wrap" gap="3">
        <PageTitle title={refundId ? t('receipts.creditNote') : t('pages.receipt')} />
        {receipt && (
          <Button variant="outline" colorPalette="brand" onClick={() => window.print()}>
            <Printer aria-hidden />
            {t('receipts.print')}
          </Button>
        )}
      </HStack>
      {isPending && <RouteLoader />}
      {error && <RpcErrorAlert error={error} />}
      {receipt && <ReceiptBody receipt={receipt} />}
    </Stack>
  );
}

function ReceiptBody({ receipt }: { receipt: Receipt }) {
  const { t } = useTranslation();
  const language = useLanguage();
  const formatDate = useDateFormat('long');
  const formatMoney = useMoneyFormat();
  const creditNote = receipt.refundId !== '';
  const stateLabel = usePaymentStateLabel();
  const stateText = (
    {
      [PaymentState.AUTHORIZED]: t('receipts.states.hold'),
      [PaymentState.CAPTURED]: t('receipts.states.charged'),
      [PaymentState.REFUNDED]: t('receipts.states.refunded'),
    } as Partial<Record<PaymentState, string>>
  )[receipt.state];
  const province = (PROVINCES as readonly string[]).includes(receipt.province)
    ? t(provinceKey(receipt.province))
    : receipt.province;
  const dates: [string, string][] = [
    [t('receipts.supplyDate'), formatDay(receipt.supplyDate, language)],
    [t('receipts.paymentDate'), formatDate(receipt.createTime)],
    ...(receipt.captureTime
      ? ([[t('receipts.chargeDate'), formatDate(receipt.captureTime)]] as [string, string][])
      : []),
    ...(receipt.refundTime
      ? ([[t('receipts.refundDate'), formatDate(receipt.refundTime)]] as [string, string][])
      : []),
  ];
  return (
    <Stack gap="6" data-print="keep">
      <HStack gap="3" wrap="wrap">
        <Badge
          colorPalette={receipt.state === PaymentState.AUTHORIZED ? 'orange' : 'gray'}
          size="lg"
          data-testid="receipt-state"
        >
          {creditNote ? t('receipts.states.creditNote') : (stateText ?? stateLabel(receipt.state))}
        </Badge>
        {receipt.testMode && <TestModeBadge />}
      </HStack>
      {receipt.testMode && <Text>{t('receipts.testModeNote')}</Text>}
      <Stack direction={{ base: 'column', md: 'row' }} gap="6">
        <Party title={t('receipts.seller')} party={receipt.seller} seller />
        <Party title={t('receipts.buyer')} party={receipt.buyer} />
      </Stack>
      <FactsList
        facts={[
          [t('receipts.number'), receipt.paymentId],
          ...(creditNote
            ? ([
                [t('receipts.refundNumber'), receipt.refundId],
                [t('receipts.originalTotal'), formatMoney(receipt.originalTotal)],
                [t('receipts.refundReason'), receipt.refundReason],
              ] as [string, string][])
            : []),
          ...dates,
          [t('receipts.description'), receipt.description],
          ...(province ? ([[t('receipts.province'), province]] as [string, string][]) : []),
        ]}
      />
      {receipt.total && (
        <SaleSummary
          subtotal={receipt.subtotal}
          alwaysShowSubtotal
          taxes={receipt.taxes}
          showNumbers
          total={receipt.total}
        />
      )}
    </Stack>
  );
}

/** A party of the sale: its name, and for the seller its registration numbers or that it has none. */
function Party({
  title,
  party,
  seller = false,
}: {
  title: string;
  party: ReceiptParty | undefined;
  seller?: boolean;
}) {
  const { t } = useTranslation();
  return (
    <Stack as="section" gap="1" flex="1" aria-label={title}>
      <Heading as="h2" size="md" color="brand.900">
        {title}
      </Heading>
      <Text fontWeight="semibold">{party?.name}</Text>
      {seller &&
        (party?.gstHstNumber ? (
          <Text>{t('receipts.gstHstNumber', { number: party.gstHstNumber })}</Text>
        ) : (
          <Text>{t('receipts.notRegistered')}</Text>
        ))}
      {seller && party?.qstNumber && (
        <Text>{t('receipts.qstNumber', { number: party.qstNumber })}</Text>
      )}
    </Stack>
  );
}
