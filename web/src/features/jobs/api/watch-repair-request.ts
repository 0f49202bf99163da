import { createClient } from '@connectrpc/connect';
import { useQuery, useTransport } from '@connectrpc/connect-query';
import { useEffect, useState } from 'react';
import {
  MarketplaceService,
  QuoteState,
  RepairRequestState,
  type Quote,
  type RepairRequest,
  type RepairRequestReach,
  type WatchRepairRequestResponse,
} from '@/gen/repairs/marketplace/v1/marketplace_pb';
import { keepWatching, type WatchState } from '@/lib/keep-watching';

/** The contract's largest page: a request rarely draws more quotes than that. */
const QUOTES_PAGE_SIZE = 100;

/** States after which the server ends the stream and nothing changes any more. */
const FINAL_STATES: RepairRequestState[] = [
  RepairRequestState.COMPLETED,
  RepairRequestState.CANCELLED,
  RepairRequestState.EXPIRED,
];

/** Whether a request in `state` changes no more (nothing to watch). */
export const isFinalRequestState = (state: RepairRequestState) => FINAL_STATES.includes(state);

interface Picture {
  revision: bigint;
  request?: RepairRequest;
  quotes: Quote[];
  /** How far it reached (its customer and admins only). */
  reach?: RepairRequestReach;
}

/**
 * The picture after one message: a snapshot replaces it, a change updates the request and
 * one quote, a reach message the counts.
 */
export function applyMessage(
  picture: Picture | null,
  message: WatchRepairRequestResponse,
): Picture {
  const { event, revision } = message;
  if (event.case === 'snapshot') {
    const { repairRequest, quotes, reach } = event.value;
    return { revision, request: repairRequest, quotes, reach };
  }
  const quotes = picture?.quotes ?? [];
  if (event.case === 'reach') return { ...picture, revision, quotes, reach: event.value };
  if (event.case !== 'change') return { ...picture, revision, quotes };
  const { repairRequest, quote } = event.value;
  let next = quotes;
  if (quote) {
    const others = quotes.filter((shown) => shown.id !== quote.id);
    // A withdrawn quote comes once, then leaves the list (as ListRepairRequestQuotes).
    next =
      quote.state === QuoteState.WITHDRAWN
        ? others
        : quotes.some((shown) => shown.id === quote.id)
          ? quotes.map((shown) => (shown.id === quote.id ? quote : shown))
          : [...others, quote];
  }
  return { ...picture, revision, request: repairRequest ?? picture?.request, quotes: next };
}

/**
 * A request and its quotes, live: the list loads at once (ListRepairRequestQuotes), and the
 * server stream (WatchRepairRequest) then replaces it with its snapshot and brings each new,
 * withdrawn or hired quote as it happens, with the request after each change (its state, its
 * count of quotes) and, for its customer, how far it reached. After a dropped connection it
 * reconnects with the last revision seen, so no change is missed; once the request is final
 * the stream ends. Without the stream ('lost'), or not `watching` (a request known to be
 * final), the loaded list stays and `request` and `reach` are unknown.
 */
export function useLiveQuotes(requestId: string, watching = true) {
  const transport = useTransport();
  const list = useQuery(MarketplaceService.method.listRepairRequestQuotes, {
    repairRequestId: requestId,
    pageSize: QUOTES_PAGE_SIZE,
  });
  // Tagged with its request, so that another request's picture is never shown for this one.
  const [seen, setSeen] = useState<{ requestId: string; picture: Picture } | null>(null);
  const picture = seen?.requestId === requestId ? seen.picture : null;
  const [state, setState] = useState<WatchState>('connecting');

  useEffect(() => {
    if (!watching) return;
    const client = createClient(MarketplaceService, transport);
    const stop = new AbortController();
    let latest: Picture | null = null;
    void keepWatching(
      (signal, onHeader) =>
        client.watchRepairRequest(
          { id: requestId, revision: latest?.revision ?? 0n },
          { signal, onHeader },
        ),
      {
        signal: stop.signal,
        onState: setState,
        onMessage: (message) => {
          latest = applyMessage(latest, message);
          setSeen({ requestId, picture: latest });
        },
        finished: () => latest?.request !== undefined && isFinalRequestState(latest.request.state),
      },
    );
    return () => stop.abort();
  }, [requestId, watching, transport]);

  return {
    request: picture?.request,
    quotes: picture?.quotes ?? list.data?.quotes,
    reach: picture?.reach,
    isPending: picture === null && list.isPending,
    error: picture === null ? list.error : null,
    state,
  };
}
