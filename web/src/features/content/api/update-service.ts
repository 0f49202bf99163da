import { ContentService } from '@/gen/repairs/content/v1/content_pb';
import { useCatalogueChange } from './refresh';

/** Changes the fields of a service its update mask names (ContentService.UpdateService). */
export const useUpdateService = () => useCatalogueChange(ContentService.method.updateService);
