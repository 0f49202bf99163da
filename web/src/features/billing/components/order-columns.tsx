import { useTranslation } from 'react-i18next';
import { useCustomerName } from '@/lib/use-customer-name';
import { AppLink } from '@/components/ui/links';
import type { Column } from '@/components/ui/simple-table';
import type { Order } from '@/gen/repairs/billing/v1/billing_pb';
import { formatHours } from '@/lib/duration';
import { useDateFormat } from '@/lib/use-date-format';
import type { Role } from '@/lib/session';
import { useLanguage } from '@/lib/use-language';
import { useMoneyFormat } from '@/lib/use-money-format';
import { OrderStateBadge } from './order-state-badge';
import { ReceiptLink } from './receipt-link';

/** The columns the order histories choose from (the spec's User, Charges, Time Taken, ...). */
export type OrderColumn =
  'date' | 'customer' | 'professional' | 'amount' | 'time' | 'state' | 'request' | 'receipt';

/**
 * The columns of an order history, in the order asked. `requestPath` is where the Request
 * column links: the professional's or the admin's view of the repair request; the Receipt
 * column opens the payment's receipt in the area of `reader`.
 */
export function useOrderColumns(
  keys: OrderColumn[],
  requestPath: (requestId: string) => string = () => '',
  reader: Role = 'customer',
): Column<Order>[] {
  const { t } = useTranslation();
  const language = useLanguage();
  const formatMoney = useMoneyFormat();
  const formatDate = useDateFormat();
  const customerName = useCustomerName();
  const all: Record<OrderColumn, Column<Order>> = {
    date: { header: t('orders.date'), cell: (order) => formatDate(order.createTime) },
    customer: { header: t('orders.customer'), cell: (order) => customerName(order) },
    professional: { header: t('orders.professional'), cell: (order) => order.professionalName },
    amount: { header: t('orders.amount'), cell: (order) => formatMoney(order.payment?.amount) },
    time: {
      header: t('orders.time'),
      cell: (order) => formatHours(order.estimatedMinutes, language),
    },
    state: { header: t('orders.state'), cell: (order) => <OrderStateBadge state={order.state} /> },
    request: {
      header: t('orders.request'),
      cell: (order) => (
        <AppLink
          to={requestPath(order.repairRequestId)}
          color="brand.fg"
          aria-label={t('orders.viewRequestOf', { date: formatDate(order.createTime) })}
        >
          {t('requests.view')}
        </AppLink>
      ),
    },
    receipt: {
      header: t('receipts.link'),
      cell: (order) => (
        <ReceiptLink
          paymentId={order.payment?.id ?? ''}
          role={reader}
          label={t('receipts.linkOfOrder', { date: formatDate(order.createTime) })}
        />
      ),
    },
  };
  return keys.map((key) => all[key]);
}
