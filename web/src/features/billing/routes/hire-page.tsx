import { HStack, Separator, Stack, Text } from '@chakra-ui/react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { PageTitle } from '@/components/page-title';
import { RouteLoader } from '@/components/route-loader';
import { RpcErrorAlert } from '@/components/rpc-error-alert';
import { FormAlert } from '@/components/ui/form-alert';
import { PriceSummary } from '@/components/ui/sale-summary';
import { AppLink } from '@/components/ui/links';
import { useServiceNames } from '@/features/content';
import { BillingService, PaymentState, type Payment } from '@/gen/repairs/billing/v1/billing_pb';
import { MarketplaceService } from '@/gen/repairs/marketplace/v1/marketplace_pb';
import type { Money } from '@/gen/repairs/type/v1/common_pb';
import { formatHours } from '@/lib/duration';
import { useLocalizedNavigate } from '@/lib/localized-navigation';
import { formatMoney } from '@/lib/money';
import { invalidate } from '@/lib/query-keys';
import { useLanguage } from '@/lib/use-language';
import { usePaymentConfig } from '../api/get-payment-config';
import { useHireProfessional } from '../api/hire-professional';
import { usePreviewHire } from '../api/preview-hire';
import { useAttemptKey } from '../attempt-key';
import { PaymentAuthentication, PaymentForm } from '../components/payment-form';
import { HIRE_PATHS } from '../paths';

/** Payments that hire: the fee is held on the card (captured when the job is done). */
const HELD = [PaymentState.AUTHORIZED, PaymentState.CAPTURED] as PaymentState[];

/**
 * /hire/{quoteId}: the booking summary of a quote (service, estimated time, professional,
 * then fee + each tax = the amount payable, and why there is no tax when there is none, all
 * from the server's PreviewHire),
 * the card form of the gateway in use (as the membership purchase), the cardholder's
 * authentication when the card asks for it, then /hired-successfully. Each press with a card
 * is one attempt with its own request_id, resent unchanged only when its answer was lost.
 * Opened again on a hired quote whose hold lapsed, it authorises the fee again.
 */
export function HirePage() {
  const { t } = useTranslation();
  const language = useLanguage();
  const navigate = useLocalizedNavigate();
  const queryClient = useQueryClient();
  const { id = '' } = useParams();
  const preview = usePreviewHire(id);
  const serviceName = useServiceNames();
  const config = usePaymentConfig();
  const hire = useHireProfessional();
  const attempt = useAttemptKey();
  const [pending, setPending] = useState<Payment | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  if (preview.isPending || config.isPending) return <RouteLoader />;
  const summary = preview.data;
  const money = (amount: Money | undefined) =>
    amount ? formatMoney(amount.amountCents, amount.currency, language) : '';
  /** What is held, then charged: fee plus taxes. */
  const payable = summary?.total ?? summary?.amountPayable;

  /** Where a hire or its authentication left the payment. */
  const settle = (payment: Payment | undefined) => {
    setPending(null);
    if (payment && HELD.includes(payment.state)) {
      invalidate(queryClient, MarketplaceService, BillingService.method.listOrders);
      void navigate(HIRE_PATHS.hired);
    } else if (payment?.state === PaymentState.REQUIRES_ACTION) setPending(payment);
    else if (payment?.state === PaymentState.FAILED) {
      setFailure(t('billing.errors.authenticationFailed'));
    } else setFailure(t('billing.errors.paymentFailed'));
  };

  /** After the cardholder's authentication: still waiting means it did not succeed. */
  const answered = (payment: Payment) =>
    settle(
      payment.state === PaymentState.REQUIRES_ACTION
        ? { ...payment, state: PaymentState.FAILED }
        : payment,
    );

  const pay = async (paymentMethod: string) => {
    setFailure(null);
    const reply = await attempt.send(paymentMethod, (requestId) =>
      hire.mutateAsync({ quoteId: id, paymentMethod, requestId }),
    );
    settle(reply.order?.payment);
  };

  return (
    <Stack gap="6" maxW="2xl">
      <AppLink to={HIRE_PATHS.quote(id)} color="brand.fg">
        {t('hire.backToQuote')}
      </AppLink>
      <PageTitle title={t('pages.hire')} />
      {preview.error && <RpcErrorAlert error={preview.error} />}
      {config.error && <RpcErrorAlert error={config.error} />}
      {summary && (
        <Stack
          as="section"
          aria-label={t('hire.summary')}
          gap="3"
          borderWidth="1px"
          borderRadius="lg"
          p="5"
          bg="bg.subtle"
        >
          {(
            [
              [t('hire.serviceType'), serviceName('', summary.serviceName)],
              [t('hire.estimatedTime'), formatHours(summary.estimatedMinutes, language)],
              [t('hire.professional'), summary.professionalName],
            ] as const
          ).map(([label, value]) => (
            <HStack key={label} justify="space-between" gap="4">
              <Text color="fg.muted">{label}</Text>
              <Text textAlign="end">{value}</Text>
            </HStack>
          ))}
          <Separator />
          <PriceSummary
            fee={summary.subtotal ?? summary.fee}
            taxes={summary.taxes}
            total={payable}
            treatment={summary.taxTreatment}
            totalLabel={t('hire.amountPayable')}
            plain
          />
          <Text fontSize="sm">{t('hire.holdNote')}</Text>
        </Stack>
      )}
      {failure && <FormAlert title={failure} />}
      {summary &&
        config.data &&
        (pending ? (
          <PaymentAuthentication config={config.data} payment={pending} onAnswered={answered} />
        ) : (
          <PaymentForm
            config={config.data}
            submitLabel={t('hire.pay', { amount: money(payable) })}
            busy={hire.isPending}
            onPay={pay}
          />
        ))}
    </Stack>
  );
}
