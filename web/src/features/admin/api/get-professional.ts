import { useQuery } from '@connectrpc/connect-query';
import { AccountsService } from '@/gen/repairs/accounts/v1/accounts_pb';

/** Any professional, as admins see it (AccountsService.GetProfessional). */
export function useProfessionalForReview(id: string) {
  return useQuery(AccountsService.method.getProfessional, { id });
}
