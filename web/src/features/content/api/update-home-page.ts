import { ContentService } from '@/gen/repairs/content/v1/content_pb';
import { useRefreshingMutation } from '@/lib/query-keys';

/** Changes home page fields in one language (ContentService.UpdateHomePage, with its etag). */
export const useUpdateHomePage = () =>
  useRefreshingMutation(ContentService.method.updateHomePage, ContentService.method.getHomePage);
