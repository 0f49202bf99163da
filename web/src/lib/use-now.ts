import { useEffect, useState } from 'react';

/**
 * The time (epoch ms), renewed every `everyMs` while `ticking`: for texts that count down
 * ("about 14 min"). Not ticking, it keeps the last time it had.
 */
export function useNow(everyMs: number, ticking = true): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!ticking) return;
    const timer = window.setInterval(() => setNow(Date.now()), everyMs);
    return () => window.clearInterval(timer);
  }, [everyMs, ticking]);
  return now;
}
