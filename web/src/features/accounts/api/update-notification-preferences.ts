import { create } from '@bufbuild/protobuf';
import { createConnectQueryKey, useMutation, useTransport } from '@connectrpc/connect-query';
import { useQueryClient } from '@tanstack/react-query';
import {
  AccountsService,
  GetNotificationPreferencesResponseSchema,
} from '@/gen/repairs/accounts/v1/accounts_pb';

/**
 * Changes some of what reaches the person (AccountsService.UpdateNotificationPreferences).
 * The answer is all of them after the change: the section shows it at once, then reads the
 * consents on record again.
 */
export function useUpdateNotificationPreferences() {
  const queryClient = useQueryClient();
  const transport = useTransport();
  return useMutation(AccountsService.method.updateNotificationPreferences, {
    onSuccess: ({ preferences }) => {
      const key = createConnectQueryKey({
        schema: AccountsService.method.getNotificationPreferences,
        input: {},
        transport,
        cardinality: 'finite',
      });
      queryClient.setQueryData(key, (old) =>
        create(GetNotificationPreferencesResponseSchema, {
          preferences,
          consents: old?.consents ?? [],
        }),
      );
      // Texts turned on or all off add a consent to the record: read it again.
      void queryClient.invalidateQueries({ queryKey: key });
    },
  });
}
