import { Code, ConnectError, createClient } from '@connectrpc/connect';
import { useTransport } from '@connectrpc/connect-query';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { MatchingService, type OpenRepairRequest } from '@/gen/repairs/matching/v1/matching_pb';
import { invalidate } from '@/lib/query-keys';

/** Waits before reconnecting: 1 s, doubled after each failure, at most 30 s. */
const FIRST_RETRY_MS = 1000;
const LAST_RETRY_MS = 30_000;

/** Refusals a reconnection would meet again (no access, no membership, not built). */
const FINAL_CODES = [
  Code.PermissionDenied,
  Code.FailedPrecondition,
  Code.Unauthenticated,
  Code.Unimplemented,
  Code.NotFound,
  Code.InvalidArgument,
];

export type WatchState = 'connecting' | 'live' | 'lost';

/**
 * Keeps the server stream of newly matching open requests (WatchOpenRequests) open while the
 * list is shown, and hands each arrival to `onArrival`. The server may end the stream at any
 * time: it reconnects with a growing pause and reloads the list, so what arrived while it was
 * away shows too. A final refusal stops it ('lost').
 */
export function useWatchOpenRequests(
  professionalId: string | null,
  onArrival: (request: OpenRepairRequest) => void,
): WatchState {
  const transport = useTransport();
  const queryClient = useQueryClient();
  const [state, setState] = useState<WatchState>('connecting');
  const latest = useRef(onArrival);
  useEffect(() => {
    latest.current = onArrival;
  }, [onArrival]);

  useEffect(() => {
    if (!professionalId) return;
    const client = createClient(MatchingService, transport);
    const stop = new AbortController();
    const pause = (ms: number) =>
      new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, ms);
        stop.signal.addEventListener('abort', () => {
          clearTimeout(timer);
          resolve();
        });
      });

    void (async () => {
      let wait = FIRST_RETRY_MS;
      while (!stop.signal.aborted) {
        try {
          const stream = client.watchOpenRequests(
            { professionalId },
            {
              signal: stop.signal,
              // The stream is open once the server's headers arrive. What was placed before
              // (while the first page loaded, or while reconnecting) is not streamed: the
              // list reloads to show it.
              onHeader: () => {
                setState('live');
                invalidate(queryClient, MatchingService.method.listOpenRequests);
              },
            },
          );
          for await (const message of stream) {
            wait = FIRST_RETRY_MS;
            if (message.repairRequest) latest.current(message.repairRequest);
          }
        } catch (error) {
          if (stop.signal.aborted) return;
          if (FINAL_CODES.includes(ConnectError.from(error).code)) {
            setState('lost');
            return;
          }
        }
        if (stop.signal.aborted) return;
        setState('connecting');
        await pause(wait);
        wait = Math.min(wait * 2, LAST_RETRY_MS);
      }
    })();
    return () => stop.abort();
  }, [professionalId, transport, queryClient]);

  return state;
}
