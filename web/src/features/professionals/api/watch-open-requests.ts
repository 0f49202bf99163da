import { createClient } from '@connectrpc/connect';
import { useTransport } from '@connectrpc/connect-query';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { MatchingService, type OpenRepairRequest } from '@/gen/repairs/matching/v1/matching_pb';
import { keepWatching, type WatchState } from '@/lib/keep-watching';
import { invalidate } from '@/lib/query-keys';

/**
 * Keeps the professional's open-requests stream (WatchOpenRequests) open while the list is
 * shown, and hands each arrival to `onArrival`. The stream starts with a snapshot of the
 * list, and sends one again after the server may have missed requests; each snapshot reloads
 * the list, so what was placed before the stream opened (while the first page loaded, or
 * while reconnecting) shows too.
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
        client.watchOpenRequests({ professionalId }, { signal, onHeader: () => onHeader() }),
      {
        signal: stop.signal,
        onState: setState,
        onMessage: (message) => {
          if (message.snapshot) invalidate(queryClient, MatchingService.method.listOpenRequests);
          else if (message.repairRequest) latest.current(message.repairRequest);
        },
      },
    );
    return () => stop.abort();
  }, [professionalId, transport, queryClient]);

  return state;
}
