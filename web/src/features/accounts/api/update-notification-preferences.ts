import { create } from '@bufbuild/protobuf';
import { createConnectQueryKey, useMutation, useTransport } from '@connectrpc/connect-query';
import { useQueryClient } from '@tanstack/react-query';
import {
  AccountsService,
  GetNotificationPreferencesResponseSchema,
} from '@/gen/repairs/accounts/v1/accounts_pb';

/**
 * Changes some of what reaches the person (AccountsService.UpdateNotificationPreferences).
 * The answer is all of them after the change: the section shows it at once, without reading
 * them again.
 */
export function useUpdateNotificationPreferences() {
  const queryClient = useQueryClient();
  const transport = useTransport();
  return useMutation(AccountsService.method.updateNotificationPreferences, {
    onSuccess: ({ preferences }) => {
      queryClient.setQueryData(
        createConnectQueryKey({
          schema: AccountsService.method.getNotificationPreferences,
          input: {},
          transport,
          cardinality: 'finite',
        }),
        create(GetNotificationPreferencesResponseSchema, { preferences }),
      );
    },
  });
}
