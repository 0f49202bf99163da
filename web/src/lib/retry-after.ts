import { ConnectError } from '@connectrpc/connect';
import { RetryInfoSchema } from '@/gen/google/rpc/error_details_pb';

/**
 * How many whole seconds a refusal asks to wait before the same call can succeed (the
 * server's `google.rpc.RetryInfo`, rounded up), or null when it names no wait.
 */
export function retryAfterSeconds(error: unknown): number | null {
  const delay = ConnectError.from(error).findDetails(RetryInfoSchema)[0]?.retryDelay;
  if (!delay) return null;
  const seconds = Math.ceil(Number(delay.seconds) + delay.nanos / 1e9);
  return seconds > 0 ? seconds : null;
}
