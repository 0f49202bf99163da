import type { Transport } from '@connectrpc/connect';
import { isSessionEnded, readRpcError } from '@/lib/rpc-error';

export interface SessionTransportOptions {
  /** The bearer token to send, read at each call (null sends none). */
  token: () => string | null;
  /** Called when the server answers that the session is over (expired, invalid or missing). */
  onSessionEnded: () => void;
}

/**
 * A transport that sends `authorization: Bearer <token>` on every call of `base` and reports
 * SESSION_EXPIRED, SESSION_INVALID, SESSION_REVOKED and SIGN_IN_REQUIRED answers in one place.
 * The error still reaches the caller, which may show it while the app leaves for the logout
 * route.
 */
export function withSession(base: Transport, options: SessionTransportOptions): Transport {
  const withToken = (header: HeadersInit | undefined) => {
    const headers = new Headers(header);
    const token = options.token();
    if (token) headers.set('authorization', `Bearer ${token}`);
    return headers;
  };
  const watch = async <T>(call: Promise<T>): Promise<T> => {
    try {
      return await call;
    } catch (error) {
      if (isSessionEnded(readRpcError(error))) options.onSessionEnded();
      throw error;
    }
  };
  return {
    unary: (method, signal, timeoutMs, header, input, contextValues) =>
      watch(base.unary(method, signal, timeoutMs, withToken(header), input, contextValues)),
    stream: (method, signal, timeoutMs, header, input, contextValues) =>
      watch(base.stream(method, signal, timeoutMs, withToken(header), input, contextValues)),
  };
}
