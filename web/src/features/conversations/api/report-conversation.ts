import { useMutation } from '@connectrpc/connect-query';
import { MarketplaceService } from '@/gen/repairs/marketplace/v1/marketplace_pb';

/** Reports a conversation to the admins with a reason (ReportConversation). */
export const useReportConversation = () =>
  useMutation(MarketplaceService.method.reportConversation);
