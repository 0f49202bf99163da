import type { DescMessage, DescMethodUnary } from '@bufbuild/protobuf';
import { ContentService } from '@/gen/repairs/content/v1/content_pb';
import { useRefreshingMutation } from '@/lib/query-keys';

/** A change to the catalogue: afterwards every list of services and the service reload. */
export function useCatalogueChange<I extends DescMessage, O extends DescMessage>(
  method: DescMethodUnary<I, O>,
) {
  return useRefreshingMutation(
    method,
    ContentService.method.listServices,
    ContentService.method.getService,
  );
}
