import { useQuery } from '@connectrpc/connect-query';
import { AccountsService } from '@/gen/repairs/accounts/v1/accounts_pb';

/**
 * Which outside sign-in providers are on (AccountsService.GetSignInOptions). While it loads,
 * or when it fails, no provider button shows.
 */
export function useSignInOptions() {
  const { data } = useQuery(AccountsService.method.getSignInOptions, {}, { staleTime: Infinity });
  return { googleClientId: data?.googleClientId ?? '', facebookAppId: data?.facebookAppId ?? '' };
}
