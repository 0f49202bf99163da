import { Button, HStack, Heading, Stack, Text } from '@chakra-ui/react';
import { useEffect, useId, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { RpcErrorAlert } from '@/components/rpc-error-alert';
import { TestAuthentication, type Payment } from '@/gen/repairs/billing/v1/billing_pb';
import { useConfirmPayment } from '../api/confirm-payment';
import { TestModeBadge } from './test-mode-badge';

interface AuthenticationStepProps {
  payment: Payment;
  /** The payment after the answer (captured or authorised, failed, or still waiting). */
  onAnswered: (payment: Payment) => void;
}

/**
 * The test gateway's stand-in for a bank's 3-D Secure page: the cardholder approves or
 * refuses, then the payment is confirmed (BillingService.ConfirmPayment with the answer).
 */
export function AuthenticationStep({ payment, onAnswered }: AuthenticationStepProps) {
  const { t } = useTranslation();
  const titleId = useId();
  const confirm = useConfirmPayment();
  const title = useRef<HTMLHeadingElement>(null);
  // The step replaces the card form: the keyboard and screen readers start at its title.
  useEffect(() => title.current?.focus(), []);
  const answer = (testAuthentication: TestAuthentication) =>
    confirm.mutate(
      { paymentId: payment.id, testAuthentication },
      { onSuccess: (reply) => reply.payment && onAnswered(reply.payment) },
    );
  const busy = confirm.isPending ? confirm.variables?.testAuthentication : undefined;

  return (
    <Stack
      as="section"
      aria-labelledby={titleId}
      gap="4"
      borderWidth="2px"
      borderColor="orange.solid"
      borderRadius="lg"
      p="5"
      bg="bg"
    >
      <TestModeBadge />
      <Heading id={titleId} as="h2" size="lg" tabIndex={-1} ref={title}>
        {t('billing.authTitle')}
      </Heading>
      <Text>{t('billing.authBody')}</Text>
      {confirm.error && <RpcErrorAlert error={confirm.error} />}
      <HStack gap="3">
        <Button
          colorPalette="accent"
          loading={busy === TestAuthentication.APPROVE}
          disabled={confirm.isPending}
          onClick={() => answer(TestAuthentication.APPROVE)}
        >
          {t('billing.approve')}
        </Button>
        <Button
          variant="outline"
          loading={busy === TestAuthentication.REFUSE}
          disabled={confirm.isPending}
          onClick={() => answer(TestAuthentication.REFUSE)}
        >
          {t('billing.refuse')}
        </Button>
      </HStack>
    </Stack>
  );
}
