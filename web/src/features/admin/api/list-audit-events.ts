import { useQuery } from '@connectrpc/connect-query';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { keepPreviousData } from '@tanstack/react-query';
import { AccountsService } from '@/gen/repairs/accounts/v1/accounts_pb';
import { ADMIN_PAGE_SIZE } from './list-professionals';

/** What the audit log is narrowed to; an empty value does not narrow. */
export interface AuditFilter {
  action: string;
  targetType: string;
  adminId: string;
  /** First day shown (YYYY-MM-DD, the browser's time zone). */
  from: string;
  /** Last day shown, included. */
  to: string;
}

export const NO_AUDIT_FILTER: AuditFilter = {
  action: '',
  targetType: '',
  adminId: '',
  from: '',
  to: '',
};

/** The midnight that starts `day` (YYYY-MM-DD) plus `days`, in the browser's time zone. */
export function dayStart(day: string, days = 0) {
  const [year = 0, month = 1, date = 1] = day.split('-').map(Number);
  return timestampFromDate(new Date(year, month - 1, date + days));
}

/** A page of what admins did, newest first, narrowed by `filter` (ListAuditEvents). */
export function useAuditEventsPage(filter: AuditFilter, pageToken: string) {
  const { from, to, ...fields } = filter;
  return useQuery(
    AccountsService.method.listAuditEvents,
    {
      ...fields,
      startTime: from ? dayStart(from) : undefined,
      // The whole last day: up to the midnight after it.
      endTime: to ? dayStart(to, 1) : undefined,
      pageToken,
      pageSize: ADMIN_PAGE_SIZE,
    },
    { placeholderData: keepPreviousData },
  );
}
