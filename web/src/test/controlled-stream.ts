import type { WatchRepairRequestResponse } from '@/gen/repairs/marketplace/v1/marketplace_pb';

/** A stream the test feeds message by message; it stays open until the test ends. */
export function controlledStream() {
  const queue: WatchRepairRequestResponse[] = [];
  let wake = () => {};
  return {
    push(message: Partial<WatchRepairRequestResponse>) {
      queue.push(message as WatchRepairRequestResponse);
      wake();
    },
    async *watch() {
      for (;;) {
        const next = queue.shift();
        if (next) yield next;
        else await new Promise<void>((resolve) => (wake = resolve));
      }
    },
  };
}
