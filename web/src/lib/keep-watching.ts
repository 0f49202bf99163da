import { Code, ConnectError } from '@connectrpc/connect';

/** Whether a server stream is open ('live'), being (re)opened, or refused for good ('lost'). */
export type WatchState = 'connecting' | 'live' | 'lost';

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

interface KeepWatchingOptions<T> {
  /** Ends the watch (the screen closed). */
  signal: AbortSignal;
  onMessage: (message: T) => void;
  onState: (state: WatchState) => void;
  /** Checked when the server ends the stream: true means it ended for good (no reconnect). */
  finished?: () => boolean;
}

/**
 * Keeps a server stream open while a screen shows it. `open` starts the stream and calls
 * `onHeader` when the server's headers arrive (the stream is then live). The server may end
 * the stream at any time: it is opened again after a growing pause, unless `finished` says
 * it ended for good; a final refusal stops it ('lost').
 */
export async function keepWatching<T>(
  open: (signal: AbortSignal, onHeader: () => void) => AsyncIterable<T>,
  { signal, onMessage, onState, finished = () => false }: KeepWatchingOptions<T>,
): Promise<void> {
  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      signal.addEventListener('abort', () => {
        clearTimeout(timer);
        resolve();
      });
    });
  let wait = FIRST_RETRY_MS;
  while (!signal.aborted) {
    try {
      for await (const message of open(signal, () => onState('live'))) {
        wait = FIRST_RETRY_MS;
        onMessage(message);
      }
      if (finished()) return;
    } catch (error) {
      if (signal.aborted) return;
      if (FINAL_CODES.includes(ConnectError.from(error).code)) {
        onState('lost');
        return;
      }
    }
    if (signal.aborted) return;
    onState('connecting');
    await pause(wait);
    wait = Math.min(wait * 2, LAST_RETRY_MS);
  }
}
