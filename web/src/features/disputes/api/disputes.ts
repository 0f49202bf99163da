import { create } from '@bufbuild/protobuf';
import {
  createConnectQueryKey,
  useMutation,
  useQuery,
  useTransport,
} from '@connectrpc/connect-query';
import { useQueryClient } from '@tanstack/react-query';
import {
  BillingService,
  GetDisputeResponseSchema,
  type DisputeState,
} from '@/gen/repairs/billing/v1/billing_pb';
import { invalidate } from '@/lib/query-keys';

/** Disputes shown at a time in the admins' list. */
const DISPUTES_PAGE_SIZE = 20;

/** A page of the card disputes, newest first, in one state or all (ListDisputes). */
export const useDisputesPage = (state: DisputeState, pageToken: string) =>
  useQuery(BillingService.method.listDisputes, {
    state,
    pageToken,
    pageSize: DISPUTES_PAGE_SIZE,
  });

/** One dispute with the evidence the platform holds for it (GetDispute). */
export const useDispute = (disputeId: string) =>
  useQuery(BillingService.method.getDispute, { disputeId });

/**
 * Sends a dispute's evidence with the admin's note (SubmitDisputeEvidence). The answer is the
 * dispute as it now is: the page shows it at once; the lists it changed (disputes, orders,
 * payouts) reload.
 */
export function useSubmitDisputeEvidence(disputeId: string) {
  const queryClient = useQueryClient();
  const transport = useTransport();
  return useMutation(BillingService.method.submitDisputeEvidence, {
    onSuccess: ({ dispute, evidence }) => {
      queryClient.setQueryData(
        createConnectQueryKey({
          schema: BillingService.method.getDispute,
          input: { disputeId },
          transport,
          cardinality: 'finite',
        }),
        create(GetDisputeResponseSchema, { dispute, evidence }),
      );
      invalidate(
        queryClient,
        BillingService.method.listDisputes,
        BillingService.method.listOrders,
        BillingService.method.listPayouts,
      );
    },
  });
}
