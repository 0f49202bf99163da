import { createClient } from '@connectrpc/connect';
import { useTransport } from '@connectrpc/connect-query';
import { useMemo } from 'react';
import { photoUpload, type UploadPhoto } from '@/components/photos/photo-uploads';
import { MarketplaceService } from '@/gen/repairs/marketplace/v1/marketplace_pb';
import type { ConversationRef } from '../conversation-ref';

/** Sends a photo for the caller's next message in a conversation (AddMessagePhoto). */
export function useMessagePhotoUpload({ repairRequestId, professionalId }: ConversationRef) {
  const transport = useTransport();
  return useMemo((): UploadPhoto => {
    const client = createClient(MarketplaceService, transport);
    return photoUpload((content, options) =>
      client.addMessagePhoto({ repairRequestId, professionalId, content }, options),
    );
  }, [transport, repairRequestId, professionalId]);
}
