import { Button, HStack, Input, Stack, Text, Textarea } from '@chakra-ui/react';
import { timestampDate } from '@bufbuild/protobuf/wkt';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCustomerName } from '@/lib/use-customer-name';
import { PageTitle } from '@/components/page-title';
import { RpcErrorAlert } from '@/components/rpc-error-alert';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { FactsList } from '@/components/ui/facts-list';
import { FormField } from '@/components/ui/form-field';
import type { Column } from '@/components/ui/simple-table';
import { toaster } from '@/components/ui/toast';
import { BillingService, OrderState, type Order } from '@/gen/repairs/billing/v1/billing_pb';
import { invalidate } from '@/lib/query-keys';
import { readRpcError } from '@/lib/rpc-error';
import { centsToDollarsText, formatMoney as formatCents, parseDollars } from '@/lib/money';
import { useLanguage } from '@/lib/use-language';
import { useMoneyFormat } from '@/lib/use-money-format';
import { useCapturePayment } from '../api/capture-payment';
import {
  RefundPaymentRequestSchema,
  VoidPaymentRequestSchema,
} from '@/gen/repairs/billing/v1/billing_pb';
import { bound, formatFigure, limitOf } from '@/lib/contract-limits';
import { useRefundPayment } from '../api/refund-payment';
import { useVoidPayment } from '../api/void-payment';
import { isUnsettled, useAttemptKey } from '../attempt-key';
import { useOrderColumns } from '../components/order-columns';
import { OrdersTable } from '../components/orders-table';
import { adminRequestPath } from '../paths';

/** What an admin may do to an order's payment. */
type Step = 'capture' | 'void' | 'refund';

/** The longest reason the audit log keeps: the max_len of a void's and of a refund's reason. */
const REASON_MAX = Math.min(
  bound(limitOf(VoidPaymentRequestSchema, 'reason').maxLen, 'void reason'),
  bound(limitOf(RefundPaymentRequestSchema, 'reason').maxLen, 'refund reason'),
);

const EVERYONE = { case: undefined } as const;

/** The orders whose card was charged, whatever happened after (a refund, a dispute). */
const CHARGED_STATES: readonly OrderState[] = [
  OrderState.CAPTURED,
  OrderState.REFUNDED,
  OrderState.DISPUTED,
  OrderState.CHARGED_BACK,
];

/** What is left to refund of an order's payment: its amount less what was refunded. */
const leftToRefund = (order: Order) =>
  (order.payment?.amount?.amountCents ?? 0n) - (order.payment?.refunded?.amountCents ?? 0n);

/** Whether the hold can still be captured: authorised, and its validity not yet passed. */
const capturable = (order: Order) =>
  order.state === OrderState.AUTHORIZED &&
  (!order.payment?.authorizationExpireTime ||
    timestampDate(order.payment.authorizationExpireTime) > new Date());

/**
 * /admin/order-history: every order, newest first, with the spec's columns (User,
 * Professional, Charges, Time Taken, Capture Amount: a 'Capture' button while the hold can be
 * captured, 'Captured Already' once it is) and where the payment is; Release for a hold and
 * Refund for a captured payment: an amount (what is left, unless the admin gives less) and a
 * required reason, shown on both parties' credit notes. Each asks first, and each confirmed
 * step is one attempt with its own request_id, resent unchanged when it is retried after an
 * unsettled failure, so a payment is never captured or refunded twice.
 */
export function AdminOrderHistoryPage() {
  const { t, i18n } = useTranslation();
  const language = useLanguage();
  const customerName = useCustomerName();
  const formatMoney = useMoneyFormat();
  const queryClient = useQueryClient();
  const capture = useCapturePayment();
  const release = useVoidPayment();
  const refund = useRefundPayment();
  const attempt = useAttemptKey();
  const [asking, setAsking] = useState<{ step: Step; order: Order } | null>(null);
  const [reason, setReason] = useState('');
  const [amountText, setAmountText] = useState('');
  const [invalid, setInvalid] = useState<{ amount?: string; reason?: string }>({});
  const [failure, setFailure] = useState<unknown>(null);
  const busy = capture.isPending || release.isPending || refund.isPending;

  const ask = (step: Step, order: Order) => {
    setFailure(null);
    setReason('');
    setInvalid({});
    setAmountText(step === 'refund' ? centsToDollarsText(leftToRefund(order), language) : '');
    setAsking({ step, order });
  };
  const close = () => {
    if (!busy) setAsking(null);
  };

  /** The refund's amount in cents, or why the form cannot be sent (said under its field). */
  const checkRefund = (order: Order): bigint | null => {
    const left = leftToRefund(order);
    const cents = parseDollars(amountText, language);
    const errors: { amount?: string; reason?: string } = {};
    if (cents === null || cents <= 0n) errors.amount = t('adminOrders.errors.amountInvalid');
    else if (cents > left)
      errors.amount = t('adminOrders.errors.amountTooMuch', {
        left: formatCents(left, order.payment?.amount?.currency ?? 'CAD', language),
      });
    if (!reason.trim()) errors.reason = t('adminOrders.errors.reasonRequired');
    setInvalid(errors);
    return errors.amount || errors.reason ? null : cents;
  };

  const send = (step: Step, order: Order, requestId: string, cents: bigint) => {
    const target = { target: { case: 'orderId' as const, value: order.id } };
    const why = reason.trim();
    switch (step) {
      case 'capture':
        return capture.mutateAsync({ target, requestId });
      case 'void':
        return release.mutateAsync({ target, requestId, reason: why });
      case 'refund':
        return refund.mutateAsync({
          target,
          requestId,
          reason: why,
          amount: { amountCents: cents, currency: order.payment?.amount?.currency ?? 'CAD' },
        });
    }
  };

  const confirm = async () => {
    if (!asking) return;
    const { step, order } = asking;
    setFailure(null);
    const cents = step === 'refund' ? checkRefund(order) : 0n;
    if (cents === null) return;
    const requestId = attempt.keyFor(
      JSON.stringify([step, order.id, reason.trim(), cents.toString()]),
    );
    try {
      await send(step, order, requestId, cents);
      attempt.settle();
      setAsking(null);
      toaster.create({ type: 'success', title: t(`adminOrders.done.${step}`) });
    } catch (caught) {
      if (!isUnsettled(readRpcError(caught))) attempt.settle();
      setFailure(caught);
    } finally {
      invalidate(queryClient, BillingService.method.listOrders);
    }
  };

  const stepButton = (step: Step, order: Order) => (
    <Button
      size="sm"
      variant={step === 'capture' ? 'solid' : 'outline'}
      colorPalette={step === 'capture' ? 'accent' : 'red'}
      aria-label={t(`adminOrders.label.${step}`, {
        amount: formatMoney(order.payment?.amount),
        customer: customerName(order),
      })}
      onClick={() => ask(step, order)}
    >
      {t(`adminOrders.action.${step}`)}
    </Button>
  );

  const orderColumns = useOrderColumns(
    ['date', 'customer', 'professional', 'amount', 'time', 'state', 'request', 'receipt'],
    adminRequestPath,
    'admin',
  );
  const columns: Column<Order>[] = [
    ...orderColumns,
    {
      header: t('adminOrders.captureAmount'),
      cell: (order) =>
        capturable(order) ? (
          stepButton('capture', order)
        ) : CHARGED_STATES.includes(order.state) ? (
          <Text color="fg.muted">{t('adminOrders.capturedAlready')}</Text>
        ) : (
          ''
        ),
    },
    {
      header: t('common.actions'),
      hiddenHeader: true,
      cell: (order) => (
        <HStack gap="2">
          {(order.state === OrderState.AUTHORIZED || order.state === OrderState.REQUIRES_ACTION) &&
            stepButton('void', order)}
          {order.state === OrderState.CAPTURED && stepButton('refund', order)}
        </HStack>
      ),
    },
  ];

  return (
    <Stack gap="6">
      <PageTitle title={t('pages.adminOrderHistory')} />
      <OrdersTable
        party={EVERYONE}
        caption={t('adminOrders.caption')}
        emptyTitle={t('requests.noRecords')}
        columns={columns}
      />
      <ConfirmDialog
        open={asking !== null}
        title={asking ? t(`adminOrders.question.${asking.step}`) : ''}
        confirmLabel={asking ? t(`adminOrders.action.${asking.step}`) : ''}
        destructive={asking?.step !== 'capture'}
        loading={busy}
        onCancel={close}
        onConfirm={() => void confirm()}
      >
        {asking && (
          <Stack gap="4">
            <Text>{t(`adminOrders.explain.${asking.step}`)}</Text>
            <FactsList
              facts={[
                [t('orders.amount'), formatMoney(asking.order.payment?.amount)],
                [t('orders.customer'), customerName(asking.order)],
                [t('orders.professional'), asking.order.professionalName],
                ...((asking.order.payment?.refunded?.amountCents ?? 0n) > 0n
                  ? ([
                      [
                        t('adminOrders.refundedAlready'),
                        formatMoney(asking.order.payment?.refunded),
                      ],
                    ] as [string, string][])
                  : []),
              ]}
            />
            {asking.step === 'refund' && (
              <>
                <FormField
                  label={t('adminOrders.refundAmount')}
                  required
                  error={invalid.amount}
                  helperText={t('adminOrders.refundAmountHelp', {
                    left: formatCents(
                      leftToRefund(asking.order),
                      asking.order.payment?.amount?.currency ?? 'CAD',
                      language,
                    ),
                  })}
                >
                  <Input
                    value={amountText}
                    inputMode="decimal"
                    autoComplete="off"
                    onChange={(event) => setAmountText(event.target.value)}
                  />
                </FormField>
                <FormField
                  label={t('adminOrders.refundReason')}
                  required
                  error={invalid.reason}
                  helperText={t('adminOrders.refundReasonHelp', {
                    max: formatFigure(i18n, REASON_MAX),
                  })}
                >
                  <Textarea
                    value={reason}
                    maxLength={REASON_MAX}
                    rows={3}
                    onChange={(event) => setReason(event.target.value)}
                  />
                </FormField>
              </>
            )}
            {asking.step === 'void' && (
              <FormField
                label={t('adminOrders.reason')}
                helperText={t('adminOrders.reasonHelp', { max: formatFigure(i18n, REASON_MAX) })}
              >
                <Textarea
                  value={reason}
                  maxLength={REASON_MAX}
                  rows={3}
                  onChange={(event) => setReason(event.target.value)}
                />
              </FormField>
            )}
            {failure !== null && <RpcErrorAlert error={failure} />}
          </Stack>
        )}
      </ConfirmDialog>
    </Stack>
  );
}
