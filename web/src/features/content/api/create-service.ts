import { ContentService } from '@/gen/repairs/content/v1/content_pb';
import { useCatalogueChange } from './refresh';

/** Adds a service at the end of the catalogue (ContentService.CreateService). */
export const useCreateService = () => useCatalogueChange(ContentService.method.createService);
