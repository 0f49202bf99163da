import { ContentService } from '@/gen/repairs/content/v1/content_pb';
import { useRefreshingMutation } from '@/lib/query-keys';

/** Marks a contact message read or unread (ContentService.MarkContactMessageRead). */
export const useMarkContactMessageRead = () =>
  useRefreshingMutation(
    ContentService.method.markContactMessageRead,
    ContentService.method.listContactMessages,
  );
