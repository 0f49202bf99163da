import { AccountsService } from '@/gen/repairs/accounts/v1/accounts_pb';
import { useAccountsDecision } from './refresh';

/** Approves a professional's pending change (AccountsService.ApprovePendingChange). */
export const useApprovePendingChange = () =>
  useAccountsDecision(AccountsService.method.approvePendingChange);

/**
 * Refuses a professional's pending change with a reason, revoking licences if asked
 * (AccountsService.RefusePendingChange).
 */
export const useRefusePendingChange = () =>
  useAccountsDecision(AccountsService.method.refusePendingChange);
