import { createClient } from '@connectrpc/connect';
import { useTransport } from '@connectrpc/connect-query';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { photoUpload, type UploadPhoto } from '@/components/photos/photo-uploads';
import { MarketplaceService } from '@/gen/repairs/marketplace/v1/marketplace_pb';
import { invalidate } from '@/lib/query-keys';

/**
 * Sends photos of the damage to a request (AddRepairRequestPhoto), with their progress; after
 * each the request reloads with its photos.
 */
export function useRequestPhotoUpload(): (repairRequestId: string) => UploadPhoto {
  const transport = useTransport();
  const queryClient = useQueryClient();
  return useCallback(
    (repairRequestId: string) => {
      const client = createClient(MarketplaceService, transport);
      const upload = photoUpload((content, options) =>
        client.addRepairRequestPhoto({ repairRequestId, content }, options),
      );
      return async (file, onProgress, signal) => {
        const photo = await upload(file, onProgress, signal);
        invalidate(queryClient, MarketplaceService.method.getRepairRequest);
        return photo;
      };
    },
    [transport, queryClient],
  );
}
