import { useEffect, useState } from 'react';

/** Whole seconds left until `targetMs` (epoch ms), ticking every second; 0 once reached. */
export function useSecondsUntil(targetMs: number | null): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (targetMs === null) return;
    const timer = window.setInterval(() => {
      const current = Date.now();
      setNow(current);
      if (current >= targetMs) window.clearInterval(timer);
    }, 1000);
    return () => window.clearInterval(timer);
  }, [targetMs]);
  return targetMs === null ? 0 : Math.max(0, Math.ceil((targetMs - now) / 1000));
}
