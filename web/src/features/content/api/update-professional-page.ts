import { ContentService } from '@/gen/repairs/content/v1/content_pb';
import { useRefreshingMutation } from '@/lib/query-keys';

/** Changes professional page fields in one language (UpdateProfessionalPage, with its etag). */
export const useUpdateProfessionalPage = () =>
  useRefreshingMutation(
    ContentService.method.updateProfessionalPage,
    ContentService.method.getProfessionalPage,
  );
