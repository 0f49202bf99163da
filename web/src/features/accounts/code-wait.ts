import { useState } from 'react';
import { retryAfterSeconds } from '@/lib/retry-after';
import { readRpcError } from '@/lib/rpc-error';
import { useSecondsUntil, type Wait } from '@/lib/use-seconds-until';

/** The wait before a new phone code may be asked for. */
export interface CodeWait {
  /** Whole seconds left; 0 when a new code may be asked for now. */
  secondsLeft: number;
  /** The wait's length in seconds when it began (0 before any wait). */
  startSeconds: number;
  /** Starts a wait that ends at `at` (epoch ms). */
  until: (at: number) => void;
  /**
   * Starts the wait a refused send names (PHONE_CODE_COOLDOWN with the seconds left);
   * false, and nothing started, for any other failure.
   */
  fromRefusal: (error: unknown) => boolean;
}

/** The seconds a refusal of a send says to wait, or null when it is no resend wait. */
export function resendWaitOf(error: unknown): number | null {
  return readRpcError(error).reason === 'PHONE_CODE_COOLDOWN' ? retryAfterSeconds(error) : null;
}

const waitUntil = (at: number | null): Wait | null =>
  at === null ? null : { from: Date.now(), at };

/** A resend wait, ending at `initialAt` (epoch ms) unless that is null. */
export function useCodeWait(initialAt: number | null): CodeWait {
  const [wait, setWait] = useState(() => waitUntil(initialAt));
  const secondsLeft = useSecondsUntil(wait);
  const until = (at: number) => setWait(waitUntil(at));
  return {
    secondsLeft,
    startSeconds: wait ? Math.max(0, Math.ceil((wait.at - wait.from) / 1000)) : 0,
    until,
    fromRefusal: (error) => {
      const seconds = resendWaitOf(error);
      if (seconds !== null) until(Date.now() + seconds * 1000);
      return seconds !== null;
    },
  };
}
