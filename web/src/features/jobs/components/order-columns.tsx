import { useTranslation } from 'react-i18next';
import type { Column } from '@/components/ui/simple-table';
import { AppLink } from '@/components/ui/links';
import type { Order } from '@/gen/repairs/billing/v1/billing_pb';
import { formatHours } from '@/lib/duration';
import { formatMoney } from '@/lib/money';
import { useDateFormat } from '@/lib/use-date-format';
import { useLanguage } from '@/lib/use-language';
import { JOB_PATHS } from '../paths';
import { OrderStateBadge } from './state-badges';

/** Whose order history it is: each sees the other party and their own request screen. */
export type OrderAudience = 'customer' | 'professional' | 'admin';

const REQUEST_PATH: Record<OrderAudience, (requestId: string) => string> = {
  customer: JOB_PATHS.customerRequest,
  professional: JOB_PATHS.professionalRequest,
  admin: JOB_PATHS.adminRequest,
};

/**
 * The columns of an order history (the specs': Professional, Charges, Time Taken, Request),
 * with the payment's state and the date: the customer sees the professional, the
 * professional the customer, an admin both. Screens add their own actions column.
 */
export function useOrderColumns(audience: OrderAudience): Column<Order>[] {
  const { t } = useTranslation();
  const language = useLanguage();
  const formatDate = useDateFormat();
  const professional: Column<Order> = {
    header: t('jobs.orders.professional'),
    cell: (order) => order.professionalName,
  };
  const customer: Column<Order> = {
    header: t('jobs.orders.customer'),
    cell: (order) => order.customerName,
  };
  const parties = {
    customer: [professional],
    professional: [customer],
    admin: [customer, professional],
  };
  return [
    { header: t('jobs.orders.date'), cell: (order) => formatDate(order.createTime) },
    ...parties[audience],
    {
      header: t('jobs.orders.charges'),
      cell: (order) => {
        const amount = order.payment?.amount;
        return amount ? formatMoney(amount.amountCents, amount.currency, language) : '';
      },
    },
    {
      header: t('jobs.orders.timeTaken'),
      cell: (order) => formatHours(order.estimatedMinutes, language),
    },
    { header: t('jobs.orders.state'), cell: (order) => <OrderStateBadge state={order.state} /> },
    {
      header: t('jobs.orders.request'),
      cell: (order) => (
        <AppLink
          to={REQUEST_PATH[audience](order.repairRequestId)}
          color="brand.fg"
          aria-label={t('jobs.orders.viewRequestOf', {
            name: audience === 'customer' ? order.professionalName : order.customerName,
          })}
        >
          {t('jobs.orders.viewRequest')}
        </AppLink>
      ),
    },
  ];
}
