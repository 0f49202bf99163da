import { ContentService } from '@/gen/repairs/content/v1/content_pb';
import { useCatalogueChange } from './refresh';

/** Puts the active services in a new order (ContentService.ReorderServices). */
export const useReorderServices = () => useCatalogueChange(ContentService.method.reorderServices);
