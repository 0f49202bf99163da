import type { WatchRepairRequestResponse } from '@/gen/repairs/marketplace/v1/marketplace_pb';

const END = Symbol('end of the stream');

/**
 * A stream the test feeds message by message; it stays open until the test ends, the test
 * ends it (`end`: the server closes the stream), or the call is aborted.
 */
export function controlledStream<T = WatchRepairRequestResponse>() {
  const queue: (T | typeof END)[] = [];
  let wake = () => {};
  return {
    push(message: Partial<T>) {
      queue.push(message as T);
      wake();
    },
    end() {
      queue.push(END);
      wake();
    },
    async *watch(signal?: AbortSignal) {
      const aborted = () => signal?.aborted === true;
      signal?.addEventListener('abort', () => wake());
      while (!aborted()) {
        const next = queue.shift();
        if (next === END) return;
        if (next !== undefined) yield next;
        else await new Promise<void>((resolve) => (wake = resolve));
      }
    },
  };
}
