import { ContentService } from '@/gen/repairs/content/v1/content_pb';
import { useRefreshingMutation } from '@/lib/query-keys';

/** Replaces the terms or the privacy policy in one language (UpdateLegalPage, with its etag). */
export const useUpdateLegalPage = () =>
  useRefreshingMutation(ContentService.method.updateLegalPage, ContentService.method.getLegalPage);
