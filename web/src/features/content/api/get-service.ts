import { useQuery } from '@connectrpc/connect-query';
import { ContentService } from '@/gen/repairs/content/v1/content_pb';

/** One service, archived or not (ContentService.GetService). */
export function useService(id: string) {
  return useQuery(ContentService.method.getService, { id });
}
