import { createClient } from '@connectrpc/connect';
import { useTransport } from '@connectrpc/connect-query';
import { useEffect, useState } from 'react';
import {
  MarketplaceService,
  RepairRequestState,
  type RepairRequestReach,
  type WatchRepairRequestResponse,
} from '@/gen/repairs/marketplace/v1/marketplace_pb';
import { keepWatching } from '@/lib/keep-watching';

/** The reach a stream message carries: in a snapshot, or alone; none in a change. */
export function reachOf(message: WatchRepairRequestResponse): RepairRequestReach | undefined {
  const { event } = message;
  if (event.case === 'snapshot') return event.value.reach;
  if (event.case === 'reach') return event.value;
  return undefined;
}

/** The request's state a stream message carries, if any. */
function stateOf(message: WatchRepairRequestResponse): RepairRequestState | undefined {
  const { event } = message;
  if (event.case === 'snapshot' || event.case === 'change') return event.value.repairRequest?.state;
  return undefined;
}

/**
 * How far the customer's request reached (professionals alerted, professionals who opened
 * it), live while `enabled`: the server stream (WatchRepairRequest) brings the counts first,
 * then each change. Undefined until the stream brings them (the page shows those of its
 * first read meanwhile). After a dropped connection it reconnects with the last revision seen.
 */
export function useLiveReach(requestId: string, enabled: boolean) {
  const transport = useTransport();
  const [reach, setReach] = useState<RepairRequestReach>();

  useEffect(() => {
    if (!enabled) return;
    const client = createClient(MarketplaceService, transport);
    const stop = new AbortController();
    let revision = 0n;
    let state: RepairRequestState = RepairRequestState.OPEN;
    void keepWatching(
      (signal, onHeader) =>
        client.watchRepairRequest({ id: requestId, revision }, { signal, onHeader }),
      {
        signal: stop.signal,
        onState: () => {},
        onMessage: (message) => {
          revision = message.revision;
          state = stateOf(message) ?? state;
          const counts = reachOf(message);
          if (counts) setReach(counts);
        },
        // The server ends the stream for good once the request is final; the counts only
        // matter while it is open.
        finished: () => state !== RepairRequestState.OPEN,
      },
    );
    return () => stop.abort();
  }, [requestId, enabled, transport]);

  return reach;
}
