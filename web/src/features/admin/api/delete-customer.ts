import { AccountsService } from '@/gen/repairs/accounts/v1/accounts_pb';
import { useAccountsDecision } from './refresh';

/** Deletes a customer (AccountsService.DeleteCustomer). */
export const useDeleteCustomer = () => useAccountsDecision(AccountsService.method.deleteCustomer);
