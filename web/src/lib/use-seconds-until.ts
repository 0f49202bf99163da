import { useEffect, useState } from 'react';

/** A wait: when it began and when it ends (epoch ms). */
export interface Wait {
  from: number;
  at: number;
}

/**
 * Whole seconds left of `wait`, ticking every second; 0 once it is over or without a wait.
 * Counted from the wait's start at the latest, so a wait that begins long after the first
 * render never shows the time since then.
 */
export function useSecondsUntil(wait: Wait | null): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (wait === null) return;
    const timer = window.setInterval(() => {
      const current = Date.now();
      setNow(current);
      if (current >= wait.at) window.clearInterval(timer);
    }, 1000);
    return () => window.clearInterval(timer);
  }, [wait]);
  if (wait === null) return 0;
  return Math.max(0, Math.ceil((wait.at - Math.max(now, wait.from)) / 1000));
}
