import { useQuery } from '@connectrpc/connect-query';
import { AccountsService } from '@/gen/repairs/accounts/v1/accounts_pb';

/** What customers see of a professional (AccountsService.GetPublicProfessional). */
export function usePublicProfessional(id: string) {
  return useQuery(AccountsService.method.getPublicProfessional, { id });
}
