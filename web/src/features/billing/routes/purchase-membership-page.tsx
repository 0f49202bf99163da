import { Button, Stack, Text } from '@chakra-ui/react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useProblemMessage } from '@/components/form/use-problem-message';
import { PageTitle } from '@/components/page-title';
import { RouteLoader } from '@/components/route-loader';
import { RpcErrorAlert } from '@/components/rpc-error-alert';
import { FormAlert } from '@/components/ui/form-alert';
import { LinkButton } from '@/components/ui/links';
import { toaster } from '@/components/ui/toast';
import { PROFESSIONAL_DASHBOARD_PATH, PROFESSIONAL_PROFILE_FORM_PATH } from '@/features/accounts';
import { AccountsService } from '@/gen/repairs/accounts/v1/accounts_pb';
import { BillingService, PaymentState, type Payment } from '@/gen/repairs/billing/v1/billing_pb';
import type { Money } from '@/gen/repairs/type/v1/common_pb';
import { useLocalizedNavigate } from '@/lib/localized-navigation';
import { formatMoney, formatPercent } from '@/lib/money';
import { invalidate } from '@/lib/query-keys';
import { readRpcError } from '@/lib/rpc-error';
import { useDateFormat } from '@/lib/use-date-format';
import { useLanguage } from '@/lib/use-language';
import { useSignedInId } from '@/lib/use-signed-in-id';
import { useMembership } from '../api/get-membership';
import { usePaymentConfig } from '../api/get-payment-config';
import { usePurchaseMembership } from '../api/purchase-membership';
import { useMembershipOffer } from '../api/quote-membership';
import { useAttemptKey, isUnsettled } from '../attempt-key';
import { PaymentAuthentication, PaymentForm } from '../components/payment-form';
import { SaleSummary, SummaryRow } from '@/components/ui/sale-summary';
import { useCoupon } from '../use-coupon';

/**
 * /purchase-membership/{id} (also /purchase-membership and /membership-purchase): one month
 * of membership for the signed-in professional. Whatever id the path names, the month is the
 * session's own (the server sells to the caller only). The price, a coupon on request, the
 * sales taxes of the professional's province and the total, all as the server quoted them
 * (QuoteMembership), the card form (Stripe Elements, or the test gateway's), the cardholder's
 * authentication when the card asks for it, then the dashboard. A 100 % coupon makes the month
 * free: no card. Without a home base (when the platform charges taxes) the server quotes
 * nothing: the page says why and links to the profile.
 */
export function PurchaseMembershipPage() {
  const { t } = useTranslation();
  const language = useLanguage();
  const navigate = useLocalizedNavigate();
  const queryClient = useQueryClient();
  const problemMessage = useProblemMessage();
  const formatEnd = useDateFormat('long');
  const professionalId = useSignedInId('professional');
  const config = usePaymentConfig();
  const offer = useMembershipOffer();
  const membership = useMembership(professionalId).data?.membership;
  const coupon = useCoupon();
  const purchase = usePurchaseMembership();
  const attempt = useAttemptKey();
  const [pending, setPending] = useState<Payment | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  if (offer.isPending || config.isPending) return <RouteLoader />;
  const loadError = offer.error ?? config.error;
  const noHomeBase =
    offer.error !== null && readRpcError(offer.error).reason === 'BUSINESS_ADDRESS_REQUIRED';
  const quote = coupon.applied?.quote ?? offer.data;
  const monthly = quote?.monthlyPrice;
  const total = quote?.total;
  const money = (amount: Money) => formatMoney(amount.amountCents, amount.currency, language);
  const free = total?.amountCents === 0n;

  /** Done: the dashboard, which offers the receipt of the payment (none for a free month). */
  const succeed = (paymentId = '') => {
    invalidate(
      queryClient,
      BillingService.method.getMembership,
      AccountsService.method.getProfessional,
    );
    toaster.create({ type: 'success', title: t('billing.purchaseSucceeded') });
    void navigate(PROFESSIONAL_DASHBOARD_PATH, {
      state: paymentId ? { receipt: paymentId } : undefined,
    });
  };

  /** What a purchase or its authentication came to. */
  const settle = (payment: Payment | undefined) => {
    setPending(null);
    if (!payment || payment.state === PaymentState.CAPTURED) succeed(payment?.id);
    else if (payment.state === PaymentState.REQUIRES_ACTION) setPending(payment);
    else if (payment.state === PaymentState.FAILED) {
      setFailure(t('billing.errors.authenticationFailed'));
    } else setFailure(t('billing.errors.paymentFailed'));
  };

  /** After the cardholder's authentication: still waiting means it did not succeed. */
  const answered = (payment: Payment) => {
    if (payment.state === PaymentState.REQUIRES_ACTION) {
      setPending(null);
      setFailure(t('billing.errors.authenticationFailed'));
    } else settle(payment);
  };

  const pay = async (paymentMethod: string) => {
    setFailure(null);
    const couponCode = coupon.applied?.code ?? '';
    const requestId = attempt.keyFor(JSON.stringify([paymentMethod, couponCode]));
    try {
      const reply = await purchase.mutateAsync({ paymentMethod, couponCode, requestId });
      attempt.settle();
      settle(reply.payment);
    } catch (error) {
      if (!isUnsettled(readRpcError(error))) attempt.settle();
      throw error;
    }
  };

  return (
    <Stack gap="6" maxW="2xl">
      <PageTitle title={t('pages.purchaseMembership')} />
      {loadError && <RpcErrorAlert error={loadError} />}
      {noHomeBase && (
        <LinkButton
          to={PROFESSIONAL_PROFILE_FORM_PATH}
          colorPalette="accent"
          alignSelf="flex-start"
        >
          {t('billing.completeProfile')}
        </LinkButton>
      )}
      {membership?.active && membership.expireTime && (
        <Text>
          {t('membership.activeUntil', { date: formatEnd(membership.expireTime) })}{' '}
          {t('billing.addsAMonth')}
        </Text>
      )}
      {quote && monthly && total && (
        <SaleSummary subtotal={quote.subtotal} taxes={quote.taxes} total={total}>
          <SummaryRow label={t('billing.monthlyPrice')} amount={monthly} />
          {coupon.applied && (
            <Text>
              {t('billing.couponDiscount', {
                code: coupon.applied.code.toUpperCase(),
                percent: formatPercent(coupon.applied.quote.discountPercent, language),
              })}
            </Text>
          )}
        </SaleSummary>
      )}
      {!pending && quote && coupon.form}
      {failure && <FormAlert title={failure} />}
      {pending && config.data ? (
        <PaymentAuthentication config={config.data} payment={pending} onAnswered={answered} />
      ) : free ? (
        <FreeMonth
          busy={purchase.isPending}
          onActivate={() =>
            pay('').catch((error: unknown) => setFailure(problemMessage(readRpcError(error))))
          }
        />
      ) : (
        quote &&
        config.data && (
          <PaymentForm
            config={config.data}
            submitLabel={total ? t('billing.pay', { amount: money(total) }) : t('billing.payNow')}
            busy={purchase.isPending}
            onPay={pay}
          />
        )
      )}
    </Stack>
  );
}

/** A month a 100 % coupon made free: activated without a card. */
function FreeMonth({ busy, onActivate }: { busy: boolean; onActivate: () => void }) {
  const { t } = useTranslation();
  return (
    <Stack gap="4" align="flex-start">
      <Text>{t('billing.freeMonth')}</Text>
      <Button colorPalette="accent" loading={busy} onClick={onActivate}>
        {t('billing.activate')}
      </Button>
    </Stack>
  );
}
