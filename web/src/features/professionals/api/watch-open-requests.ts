import { createClient } from '@connectrpc/connect';
import { useTransport } from '@connectrpc/connect-query';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { MatchingService, type OpenRepairRequest } from '@/gen/repairs/matching/v1/matching_pb';
import { keepWatching, type WatchState } from '@/lib/keep-watching';
import { invalidate } from '@/lib/query-keys';

/**
 * Keeps the server stream of newly matching open requests (WatchOpenRequests) open while the
 * list is shown, and hands each arrival to `onArrival`. Each time the stream (re)opens the
 * list reloads, so what arrived while it was away shows too.
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
    void keepWatching(
      (signal, onHeader) =>
        client.watchOpenRequests(
          { professionalId },
          {
            signal,
            // The stream is open once the server's headers arrive. What was placed before
            // (while the first page loaded, or while reconnecting) is not streamed: the
            // list reloads to show it.
            onHeader: () => {
              onHeader();
              invalidate(queryClient, MatchingService.method.listOpenRequests);
            },
          },
        ),
      {
        signal: stop.signal,
        onState: setState,
        onMessage: (message) => message.repairRequest && latest.current(message.repairRequest),
      },
    );
    return () => stop.abort();
  }, [professionalId, transport, queryClient]);

  return state;
}
