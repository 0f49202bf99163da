import { ContentService } from '@/gen/repairs/content/v1/content_pb';
import { useCatalogueChange } from './refresh';

/** Deletes a service, or archives it when in use (ContentService.DeleteService). */
export const useDeleteService = () => useCatalogueChange(ContentService.method.deleteService);
