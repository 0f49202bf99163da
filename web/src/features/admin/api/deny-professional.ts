import { AccountsService } from '@/gen/repairs/accounts/v1/accounts_pb';
import { useAccountsDecision } from './refresh';

/** Denies a professional with a reason (AccountsService.DenyProfessional). */
export const useDenyProfessional = () =>
  useAccountsDecision(AccountsService.method.denyProfessional);
