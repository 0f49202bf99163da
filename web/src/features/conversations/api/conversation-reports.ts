import { useQuery } from '@connectrpc/connect-query';
import { MarketplaceService } from '@/gen/repairs/marketplace/v1/marketplace_pb';
import { useRefreshingMutation } from '@/lib/query-keys';

/** Reports shown at a time in the admins' queue. */
const REPORTS_PAGE_SIZE = 20;

/** The admins' queue of reported conversations, oldest open first (ListConversationReports). */
export const useConversationReportsPage = (includeResolved: boolean, pageToken: string) =>
  useQuery(MarketplaceService.method.listConversationReports, {
    includeResolved,
    pageToken,
    pageSize: REPORTS_PAGE_SIZE,
  });

/** Closes a report with a note (ResolveConversationReport); the queue reloads. */
export const useResolveConversationReport = () =>
  useRefreshingMutation(
    MarketplaceService.method.resolveConversationReport,
    MarketplaceService.method.listConversationReports,
  );
