import { createClient } from '@connectrpc/connect';
import { useTransport } from '@connectrpc/connect-query';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useReducer, useRef, useState } from 'react';
import {
  MarketplaceService,
  type Conversation,
  type ConversationMessage,
  type ListMessagesResponse,
  type WatchConversationResponse,
} from '@/gen/repairs/marketplace/v1/marketplace_pb';
import { keepWatching, type WatchState } from '@/lib/keep-watching';
import type { ConversationRef } from '../conversation-ref';
import { refreshConversations } from './refresh';

/** Messages asked for at a time, the newest page first. */
export const MESSAGES_PAGE_SIZE = 30;

export interface Thread {
  /** Unset until the conversation is opened (its first message). */
  conversation?: Conversation;
  /** Oldest first, one per sequence. */
  messages: ConversationMessage[];
  /** The page of older messages; empty once the oldest is shown. */
  olderToken: string;
  /** Up to where the other party has read. */
  otherPartyRead: bigint;
  /** The newest sequence when the thread first loaded: later ones arrived while shown. */
  loadedUpTo: bigint;
}

export type ThreadEvent =
  | { kind: 'page'; page: ListMessagesResponse }
  | { kind: 'stream'; event: WatchConversationResponse['event'] }
  | { kind: 'sent'; message?: ConversationMessage; conversation?: Conversation };

/** `messages` with `more` in, one per sequence (the newer copy wins), oldest first. */
export function mergeMessages(
  messages: ConversationMessage[],
  more: ConversationMessage[],
): ConversationMessage[] {
  const bySequence = new Map(messages.map((message) => [message.sequence, message]));
  for (const message of more) bySequence.set(message.sequence, message);
  return [...bySequence.values()].sort((a, b) =>
    a.sequence < b.sequence ? -1 : a.sequence > b.sequence ? 1 : 0,
  );
}

const maxBig = (a: bigint, b: bigint) => (a > b ? a : b);

/**
 * The thread after an event: a page of messages (the first one, or an older one, whose
 * token then leads further back), a message or a read marker from the stream, or the
 * message this reader just sent. A message seen twice (the stream brings back what was
 * sent) is kept once.
 */
export function applyThreadEvent(thread: Thread | null, event: ThreadEvent): Thread {
  const current: Thread = thread ?? {
    messages: [],
    olderToken: '',
    otherPartyRead: 0n,
    loadedUpTo: 0n,
  };
  switch (event.kind) {
    case 'page': {
      const { conversation, messages, nextPageToken } = event.page;
      const merged = mergeMessages(current.messages, messages);
      return {
        conversation: conversation ?? current.conversation,
        messages: merged,
        olderToken: nextPageToken,
        otherPartyRead: maxBig(current.otherPartyRead, conversation?.otherPartyReadSequence ?? 0n),
        loadedUpTo: thread ? current.loadedUpTo : (merged.at(-1)?.sequence ?? 0n),
      };
    }
    case 'stream': {
      const { event: update } = event;
      if (update.case === 'message') {
        return { ...current, messages: mergeMessages(current.messages, [update.value]) };
      }
      if (update.case === 'otherPartyReadSequence') {
        return { ...current, otherPartyRead: maxBig(current.otherPartyRead, update.value) };
      }
      return current;
    }
    case 'sent':
      return {
        ...current,
        conversation: event.conversation ?? current.conversation,
        messages: event.message
          ? mergeMessages(current.messages, [event.message])
          : current.messages,
      };
  }
}

const newestSequence = (thread: Thread | null) => thread?.messages.at(-1)?.sequence ?? 0n;

/**
 * A conversation, live: its newest page loads (ListMessages), then WatchConversation brings
 * each new message and the other party's read marker; after a dropped connection it resumes
 * after the newest sequence shown, so nothing is missed or shown twice. Older pages load on
 * demand. An admin (`watch` false) reads without the stream.
 */
export function useLiveConversation(ref: ConversationRef, { watch = true } = {}) {
  const transport = useTransport();
  const queryClient = useQueryClient();
  const { repairRequestId, professionalId } = ref;
  const [thread, dispatch] = useReducer(applyThreadEvent, null);
  const [error, setError] = useState<unknown>(null);
  const [loadingOlder, setLoadingOlder] = useState(false);
  const [watchState, setWatchState] = useState<WatchState>('connecting');
  const latest = useRef<Thread | null>(null);
  const opened = thread?.conversation !== undefined;
  const loaded = thread !== null;

  const apply = useCallback((event: ThreadEvent) => {
    latest.current = applyThreadEvent(latest.current, event);
    dispatch(event);
  }, []);

  useEffect(() => {
    const client = createClient(MarketplaceService, transport);
    const stop = new AbortController();
    latest.current = null;
    client
      .listMessages(
        { repairRequestId, professionalId, pageSize: MESSAGES_PAGE_SIZE },
        { signal: stop.signal },
      )
      .then((page) => apply({ kind: 'page', page }))
      .catch((failure: unknown) => {
        if (!stop.signal.aborted) setError(failure);
      });
    return () => stop.abort();
  }, [transport, repairRequestId, professionalId, apply]);

  // Watched once loaded, and again once opened (a conversation not opened yet may have
  // nothing to watch until its first message).
  useEffect(() => {
    if (!watch || !loaded) return;
    const client = createClient(MarketplaceService, transport);
    const stop = new AbortController();
    void keepWatching(
      (signal, onHeader) =>
        client.watchConversation(
          { repairRequestId, professionalId, afterSequence: newestSequence(latest.current) },
          { signal, onHeader },
        ),
      {
        signal: stop.signal,
        onState: setWatchState,
        onMessage: (message) => {
          apply({ kind: 'stream', event: message.event });
          if (message.event.case === 'message') refreshConversations(queryClient);
        },
      },
    );
    return () => stop.abort();
  }, [watch, loaded, opened, transport, queryClient, repairRequestId, professionalId, apply]);

  const loadOlder = useCallback(async () => {
    const token = latest.current?.olderToken;
    if (!token) return;
    setLoadingOlder(true);
    try {
      const client = createClient(MarketplaceService, transport);
      const page = await client.listMessages({
        repairRequestId,
        professionalId,
        pageSize: MESSAGES_PAGE_SIZE,
        pageToken: token,
      });
      apply({ kind: 'page', page });
    } catch (failure) {
      setError(failure);
    } finally {
      setLoadingOlder(false);
    }
  }, [transport, repairRequestId, professionalId, apply]);

  const sent = useCallback(
    (message?: ConversationMessage, conversation?: Conversation) =>
      apply({ kind: 'sent', message, conversation }),
    [apply],
  );

  return { thread, error, watchState, loadOlder, loadingOlder, sent };
}
