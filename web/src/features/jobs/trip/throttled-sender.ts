/** The sending side of a throttle: what `push` accepts and how it is stopped. */
export interface ThrottledSender<T> {
  /** A new value: it replaces any not sent yet, and goes as soon as the interval allows. */
  push(value: T): void;
  /** Sends nothing more; a send in flight finishes. */
  stop(): void;
}

/**
 * Sends the latest of the values pushed, at most once every `everyMs` (counted from the start
 * of a send) and never two at once: a value pushed meanwhile waits, and only the newest
 * waiting one goes. The first value goes at once. `send` handles its own failures; a rejected
 * send only counts as done.
 */
export function throttledSender<T>(
  send: (value: T) => Promise<unknown>,
  everyMs: number,
): ThrottledSender<T> {
  let latest: { value: T } | null = null;
  let lastSent: number | null = null;
  let inFlight = false;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let stopped = false;

  const flush = () => {
    timer = null;
    if (stopped || inFlight || !latest) return;
    const { value } = latest;
    latest = null;
    inFlight = true;
    lastSent = Date.now();
    void send(value)
      .catch(() => undefined)
      .finally(() => {
        inFlight = false;
        schedule();
      });
  };

  const schedule = () => {
    if (stopped || inFlight || timer !== null || !latest) return;
    const wait = lastSent === null ? 0 : lastSent + everyMs - Date.now();
    if (wait <= 0) flush();
    else timer = setTimeout(flush, wait);
  };

  return {
    push(value) {
      if (stopped) return;
      latest = { value };
      schedule();
    },
    stop() {
      stopped = true;
      latest = null;
      if (timer !== null) clearTimeout(timer);
      timer = null;
    },
  };
}
