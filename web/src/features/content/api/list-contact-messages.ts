import { useQuery } from '@connectrpc/connect-query';
import { keepPreviousData } from '@tanstack/react-query';
import { ContentService } from '@/gen/repairs/content/v1/content_pb';

const PAGE_SIZE = 20;

/** A page of contact messages, newest first, the unread ones only if asked (admins). */
export function useContactMessagesPage(unreadOnly: boolean, pageToken: string) {
  return useQuery(
    ContentService.method.listContactMessages,
    { unreadOnly, pageToken, pageSize: PAGE_SIZE },
    { placeholderData: keepPreviousData },
  );
}
