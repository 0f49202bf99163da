import { useMutation } from '@connectrpc/connect-query';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import {
  MarketplaceService,
  MessageAuthor,
  type ConversationMessage,
} from '@/gen/repairs/marketplace/v1/marketplace_pb';
import { usePageVisible } from '@/lib/use-page-visible';
import type { ConversationRef, Reader } from '../conversation-ref';
import type { Thread } from './watch-conversation';
import { refreshConversations } from './refresh';

/** Who wrote the messages a party reads from the other one. */
export const OTHER_AUTHOR: Record<Exclude<Reader, 'admin'>, MessageAuthor> = {
  customer: MessageAuthor.PROFESSIONAL,
  professional: MessageAuthor.CUSTOMER,
};

/** The newest message of `author` in the thread, by sequence; 0 without one. */
export function newestBy(messages: ConversationMessage[], author: MessageAuthor): bigint {
  for (let index = messages.length - 1; index >= 0; index -= 1) {
    const message = messages[index];
    if (message && message.author === author) return message.sequence;
  }
  return 0n;
}

/**
 * Marks the conversation read (MarkConversationRead) up to the other party's newest message
 * while it is shown on a page in view: on opening, when one arrives, when the page comes back
 * into view. Nothing is sent when nothing new is unread; the unread counts reload after.
 */
export function useMarkRead(ref: ConversationRef, thread: Thread | null, reader: Reader) {
  const queryClient = useQueryClient();
  const visible = usePageVisible();
  const mark = useMutation(MarketplaceService.method.markConversationRead, {
    onSuccess: () => refreshConversations(queryClient),
  });
  const { mutate } = mark;
  const marked = useRef<bigint | null>(null);
  const newest =
    reader === 'admin' || !thread ? 0n : newestBy(thread.messages, OTHER_AUTHOR[reader]);
  const unreadAtOpening = thread?.conversation?.unreadCount ?? 0;
  const { repairRequestId, professionalId } = ref;

  useEffect(() => {
    if (reader === 'admin' || !thread) return;
    // What was read before this page opened needs no marking.
    marked.current ??= unreadAtOpening === 0 ? newest : 0n;
    if (!visible || newest <= marked.current) return;
    marked.current = newest;
    mutate({ repairRequestId, professionalId, sequence: newest });
  }, [reader, thread, visible, newest, unreadAtOpening, repairRequestId, professionalId, mutate]);
}
