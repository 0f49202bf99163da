import { Button, HStack, Separator, Stack, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PageTitle } from '@/components/page-title';
import { RpcErrorAlert } from '@/components/rpc-error-alert';
import { FactsList } from '@/components/ui/facts-list';
import { FormAlert } from '@/components/ui/form-alert';
import { PaymentState, type Payment } from '@/gen/repairs/billing/v1/billing_pb';
import { formatMoney, formatPercent } from '@/lib/money';
import { readRpcError } from '@/lib/rpc-error';
import { useLanguage } from '@/lib/use-language';
import { useCapturePayment } from '../api/capture-payment';
import { useCreateTestCharge } from '../api/create-test-charge';
import { useVoidPayment } from '../api/void-payment';
import { isUnsettled, useAttemptKey } from '../attempt-key';
import { usePaymentConfig } from '../api/get-payment-config';
import { PaymentAuthentication, PaymentForm } from '../components/payment-form';
import { TestModeBadge } from '../components/test-mode-badge';
import { TEST_CHARGE, testChargeTotal } from '../test-cards';
import { useCoupon } from '../use-coupon';
import { usePaymentStateLabel } from '../use-payment-state-label';

/**
 * /admin/checkout-page and /block-card: the admin's test checkout. Authorises 100.00 CAD less
 * a coupon on a card (BillingService.CreateTestCharge), then shows the hold with Capture and
 * Release (CapturePayment / VoidPayment), to check the payment set-up end to end.
 */
export function TestCheckoutPage() {
  const { t } = useTranslation();
  const language = useLanguage();
  const config = usePaymentConfig();
  const coupon = useCoupon();
  const charge = useCreateTestCharge();
  const attempt = useAttemptKey();
  const [payment, setPayment] = useState<Payment | null>(null);

  const percent = coupon.applied?.quote.discountPercent ?? 0;
  const total = formatMoney(testChargeTotal(percent), TEST_CHARGE.currency, language);

  const authorize = async (paymentMethod: string) => {
    const couponCode = coupon.applied?.code ?? '';
    const requestId = attempt.keyFor(JSON.stringify([paymentMethod, couponCode]));
    try {
      const reply = await charge.mutateAsync({ paymentMethod, couponCode, requestId });
      attempt.settle();
      setPayment(reply.payment ?? null);
    } catch (error) {
      if (!isUnsettled(readRpcError(error))) attempt.settle();
      throw error;
    }
  };

  return (
    <Stack gap="6" maxW="2xl">
      <PageTitle title={t('pages.adminCheckoutPage')} />
      <TestModeBadge />
      <Text>{t('checkout.intro')}</Text>
      {config.error && <RpcErrorAlert error={config.error} />}
      {payment ? (
        payment.state === PaymentState.REQUIRES_ACTION && config.data ? (
          <PaymentAuthentication config={config.data} payment={payment} onAnswered={setPayment} />
        ) : (
          <Hold payment={payment} onChange={setPayment} onDone={() => setPayment(null)} />
        )
      ) : (
        <>
          <Stack gap="3" borderWidth="1px" borderRadius="lg" p="5" bg="bg.subtle">
            {coupon.applied && (
              <Text>
                {t('billing.couponDiscount', {
                  code: coupon.applied.code.toUpperCase(),
                  percent: formatPercent(percent, language),
                })}
              </Text>
            )}
            <Separator />
            <HStack justify="space-between" fontWeight="bold" fontSize="lg">
              <Text>{t('billing.total')}</Text>
              <Text>{total}</Text>
            </HStack>
          </Stack>
          {coupon.form}
          {config.data && (
            <PaymentForm
              config={config.data}
              submitLabel={t('checkout.authorize', { amount: total })}
              busy={charge.isPending}
              onPay={authorize}
            />
          )}
        </>
      )}
    </Stack>
  );
}

interface HoldProps {
  payment: Payment;
  onChange: (payment: Payment) => void;
  /** Back to a new test charge. */
  onDone: () => void;
}

/** The test charge made: its amount, charge id and state, with Capture and Release. */
function Hold({ payment, onChange, onDone }: HoldProps) {
  const { t } = useTranslation();
  const language = useLanguage();
  const stateLabel = usePaymentStateLabel();
  const capture = useCapturePayment();
  const release = useVoidPayment();
  const captureKey = useAttemptKey();
  const releaseKey = useAttemptKey();
  const [news, setNews] = useState<string | null>(null);
  const error = capture.error ?? release.error;

  const step = (
    call: typeof capture | typeof release,
    key: ReturnType<typeof useAttemptKey>,
    done: string,
  ) => {
    capture.reset();
    release.reset();
    setNews(null);
    call.mutate(
      {
        target: { target: { case: 'paymentId', value: payment.id } },
        requestId: key.keyFor(payment.id),
      },
      {
        onSuccess: (reply) => {
          key.settle();
          if (reply.payment) onChange(reply.payment);
          setNews(done);
        },
        onError: (failure) => {
          if (!isUnsettled(readRpcError(failure))) key.settle();
        },
      },
    );
  };
  const amount = payment.amount
    ? formatMoney(payment.amount.amountCents, payment.amount.currency, language)
    : '';
  const held = payment.state === PaymentState.AUTHORIZED;

  return (
    <Stack gap="4" borderWidth="1px" borderRadius="lg" p="5" bg="bg">
      {news && <FormAlert status="success" title={news} />}
      {error && <RpcErrorAlert error={error} />}
      {payment.state === PaymentState.FAILED && (
        <FormAlert title={t('billing.errors.authenticationFailed')} />
      )}
      <FactsList
        facts={[
          [t('checkout.amount'), amount],
          [t('checkout.chargeId'), payment.chargeId],
          [t('checkout.state'), stateLabel(payment.state)],
        ]}
      />
      <HStack gap="3" wrap="wrap">
        {held && (
          <>
            <Button
              colorPalette="accent"
              loading={capture.isPending}
              disabled={release.isPending}
              onClick={() => step(capture, captureKey, t('checkout.captured'))}
            >
              {t('checkout.capture')}
            </Button>
            <Button
              variant="outline"
              loading={release.isPending}
              disabled={capture.isPending}
              onClick={() => step(release, releaseKey, t('checkout.released'))}
            >
              {t('checkout.release')}
            </Button>
          </>
        )}
        <Button variant="ghost" onClick={onDone}>
          {t('checkout.again')}
        </Button>
      </HStack>
    </Stack>
  );
}
