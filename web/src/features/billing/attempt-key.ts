import { useMemo, useRef } from 'react';
import { readRpcError, type RpcProblem } from '@/lib/rpc-error';

/**
 * The failures after which the server may or may not have acted (the network, a busy or
 * unreachable gateway, the same call still running or stopped at its deadline): retrying the
 * same attempt must resend the same request_id, so nothing is charged twice.
 */
const UNSETTLED_REASONS: readonly string[] = [
  'UNAVAILABLE',
  'DEADLINE_EXCEEDED',
  'REQUEST_IN_PROGRESS',
  'PAYMENT_GATEWAY_UNAVAILABLE',
  'DATABASE_UNAVAILABLE',
  'INTERNAL',
];

export function isUnsettled(problem: RpcProblem): boolean {
  return UNSETTLED_REASONS.includes(problem.reason);
}

/**
 * The `request_id` of a call that moves money (AIP-155): made once per attempt and resent
 * unchanged while that attempt is retried. An attempt is what it sends (`payload`): another
 * card or coupon is another attempt. Once the server gave a definite answer (paid, declined,
 * refused), `settle` ends the attempt, so the next send is a new one.
 */
export function useAttemptKey() {
  const current = useRef<{ payload: string; key: string } | null>(null);
  return useMemo(
    () => ({
      keyFor(payload: string): string {
        if (current.current?.payload !== payload) {
          current.current = { payload, key: crypto.randomUUID() };
        }
        return current.current.key;
      },
      settle(): void {
        current.current = null;
      },
      /**
       * Sends one try of the attempt `payload` names, under its key: a definite answer (a
       * reply or a refusal) ends the attempt; an unsettled failure keeps the key for a retry.
       */
      async send<T>(payload: string, call: (requestId: string) => Promise<T>): Promise<T> {
        const requestId = this.keyFor(payload);
        try {
          const reply = await call(requestId);
          this.settle();
          return reply;
        } catch (error) {
          if (!isUnsettled(readRpcError(error))) this.settle();
          throw error;
        }
      },
    }),
    [],
  );
}
