import { useQuery } from '@connectrpc/connect-query';
import { keepPreviousData } from '@tanstack/react-query';
import { AccountsService } from '@/gen/repairs/accounts/v1/accounts_pb';
import { ADMIN_PAGE_SIZE } from './list-professionals';

/** What the audit log is narrowed to; an empty value does not narrow. */
export interface AuditFilter {
  action: string;
  targetType: string;
  adminId: string;
}

export const NO_AUDIT_FILTER: AuditFilter = { action: '', targetType: '', adminId: '' };

/** A page of what admins did, newest first, narrowed by `filter` (ListAuditEvents). */
export function useAuditEventsPage(filter: AuditFilter, pageToken: string) {
  return useQuery(
    AccountsService.method.listAuditEvents,
    { ...filter, pageToken, pageSize: ADMIN_PAGE_SIZE },
    { placeholderData: keepPreviousData },
  );
}
