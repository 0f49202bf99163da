import { Spinner, Stack, Text } from '@chakra-ui/react';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { RpcErrorAlert } from '@/components/rpc-error-alert';
import type { Payment } from '@/gen/repairs/billing/v1/billing_pb';
import { useLanguage } from '@/lib/use-language';
import { useConfirmPayment } from '../api/confirm-payment';
import { stripeFor } from '../stripe';

interface StripeAuthenticationProps {
  publishableKey: string;
  payment: Payment;
  onAnswered: (payment: Payment) => void;
}

/**
 * 3-D Secure with Stripe: Stripe.js shows the bank's challenge (`handleNextAction`), then the
 * payment is read back from Stripe (BillingService.ConfirmPayment) whatever the cardholder did.
 */
export function StripeAuthentication({
  publishableKey,
  payment,
  onAnswered,
}: StripeAuthenticationProps) {
  const { t } = useTranslation();
  const language = useLanguage();
  const confirm = useConfirmPayment();
  const { mutate } = confirm;
  const started = useRef(false);

  useEffect(() => {
    // Once per payment, even when React runs effects twice in development.
    if (started.current) return;
    started.current = true;
    const clientSecret = payment.nextAction?.clientSecret ?? '';
    void stripeFor(publishableKey, language)
      .then((stripe) => stripe?.handleNextAction({ clientSecret }))
      .catch(() => undefined)
      .then(() =>
        mutate(
          { paymentId: payment.id },
          { onSuccess: (reply) => reply.payment && onAnswered(reply.payment) },
        ),
      );
  }, [publishableKey, language, payment, mutate, onAnswered]);

  return (
    <Stack gap="3" role="status">
      {confirm.error ? (
        <RpcErrorAlert error={confirm.error} />
      ) : (
        <Stack direction="row" gap="3" align="center">
          <Spinner size="sm" />
          <Text>{t('billing.authenticating')}</Text>
        </Stack>
      )}
    </Stack>
  );
}
