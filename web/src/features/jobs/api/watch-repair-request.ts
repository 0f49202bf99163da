import { createClient } from '@connectrpc/connect';
import { useQuery, useTransport } from '@connectrpc/connect-query';
import { useEffect, useState } from 'react';
import {
  MarketplaceService,
  QuoteState,
  RepairRequestState,
  type Quote,
  type RepairRequest,
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

interface Picture {
  revision: bigint;
  request?: RepairRequest;
  quotes: Quote[];
}

/** The picture after one message: a snapshot replaces it, a change updates one quote. */
export function applyMessage(
  picture: Picture | null,
  message: WatchRepairRequestResponse,
): Picture {
  const { event, revision } = message;
  if (event.case === 'snapshot') {
    return { revision, request: event.value.repairRequest, quotes: event.value.quotes };
  }
  const quotes = picture?.quotes ?? [];
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
  return { revision, request: repairRequest ?? picture?.request, quotes: next };
}

/**
 * A request's quotes, live: the list loads at once (ListRepairRequestQuotes), and the
 * server stream (WatchRepairRequest) then replaces it with its snapshot and brings each new,
 * withdrawn or hired quote as it happens. After a dropped connection it reconnects with the
 * last revision seen, so no change is missed; once the request is final the stream ends.
 * Without the stream ('lost') the loaded list stays.
 */
export function useLiveQuotes(requestId: string) {
  const transport = useTransport();
  const list = useQuery(MarketplaceService.method.listRepairRequestQuotes, {
    repairRequestId: requestId,
    pageSize: QUOTES_PAGE_SIZE,
  });
  const [picture, setPicture] = useState<Picture | null>(null);
  const [state, setState] = useState<WatchState>('connecting');

  useEffect(() => {
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
          setPicture(latest);
        },
        finished: () =>
          latest?.request !== undefined && FINAL_STATES.includes(latest.request.state),
      },
    );
    return () => stop.abort();
  }, [requestId, transport]);

  return {
    request: picture?.request,
    quotes: picture?.quotes ?? list.data?.quotes,
    isPending: picture === null && list.isPending,
    error: picture === null ? list.error : null,
    state,
  };
}
