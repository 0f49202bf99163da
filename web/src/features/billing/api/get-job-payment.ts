import { skipToken, useQuery } from '@connectrpc/connect-query';
import { BillingService } from '@/gen/repairs/billing/v1/billing_pb';
import { useSignedInId } from '@/lib/use-signed-in-id';
import { receiptPath } from '../paths';

/** How many of the customer's latest orders are searched for a request's payment. */
const LATEST_ORDERS = 100;

/**
 * The receipt of the hire on one of the signed-in customer's requests (their orders,
 * ListOrders, newest first): its path, or null while unknown or when there is none.
 */
export function useJobReceiptPath(repairRequestId: string): string | null {
  const customerId = useSignedInId('customer');
  const { data } = useQuery(
    BillingService.method.listOrders,
    customerId
      ? { party: { case: 'customerId', value: customerId }, pageSize: LATEST_ORDERS }
      : skipToken,
    {
      select: (reply) =>
        reply.orders.find((order) => order.repairRequestId === repairRequestId)?.payment?.id ??
        null,
    },
  );
  return data ? receiptPath(data, 'customer') : null;
}
