import type {
  DescMessage,
  DescMethodStreaming,
  DescMethodUnary,
  MessageInitShape,
} from '@bufbuild/protobuf';
import {
  Code,
  ConnectError,
  type ContextValues,
  type StreamResponse,
  type Transport,
  type UnaryResponse,
} from '@connectrpc/connect';
import { isSessionEnded, readRpcError } from '@/lib/rpc-error';
import type { SessionEndReason } from '@/lib/session';
import type { RenewalOutcome } from '@/lib/session-renewal';

export interface SessionTransportOptions {
  /**
   * The access token to send, read at each call: the stored one, renewed first when it is
   * about to end. `signed-out` sends none.
   */
  token: () => Promise<RenewalOutcome | { kind: 'signed-out' }>;
  /** Renews the session after a call was refused as expired with `refused`. */
  renew: (refused: string) => Promise<RenewalOutcome>;
  /** Called when the server answers that the session is over, with its reason. */
  onSessionEnded: (reason: SessionEndReason) => void;
}

const endedError = (reason: SessionEndReason) =>
  new ConnectError(`the session ended (${reason})`, Code.Unauthenticated);

/**
 * A transport that sends `authorization: Bearer <token>` on every call of `base`, renewing the
 * session before its token ends and, once, when a call is refused with SESSION_EXPIRED (the
 * call is then sent again: the server refused it before doing anything). An ended session
 * (SESSION_INVALID, SESSION_REVOKED, SIGN_IN_REQUIRED, or a renewal refused) is reported in
 * one place; the error still reaches the caller, which may show it while the app leaves.
 */
export function withSession(base: Transport, options: SessionTransportOptions): Transport {
  const withToken = (header: HeadersInit | undefined, token: string | null) => {
    const headers = new Headers(header);
    if (token) headers.set('authorization', `Bearer ${token}`);
    return headers;
  };
  /** The token to send, or a failure that stops the call before it is sent. */
  const tokenToSend = async (): Promise<string | null> => {
    const outcome = await options.token();
    switch (outcome.kind) {
      case 'ready':
        return outcome.token;
      case 'signed-out':
        return null;
      case 'ended':
        options.onSessionEnded(outcome.reason);
        throw endedError(outcome.reason);
      case 'failed':
        throw ConnectError.from(outcome.error);
    }
  };
  /** What a refused call tells of the session; the renewed token when it may be sent again. */
  const afterRefusal = async (error: unknown, token: string | null): Promise<string | null> => {
    const problem = readRpcError(error);
    if (problem.reason === 'SESSION_EXPIRED' && token) {
      const renewed = await options.renew(token);
      if (renewed.kind === 'ready') return renewed.token;
      if (renewed.kind === 'ended') options.onSessionEnded(renewed.reason);
      return null;
    }
    if (isSessionEnded(problem)) options.onSessionEnded(problem.reason as SessionEndReason);
    return null;
  };
  const reportEnded = (error: unknown) => {
    const problem = readRpcError(error);
    if (isSessionEnded(problem)) options.onSessionEnded(problem.reason as SessionEndReason);
  };

  async function unary<I extends DescMessage, O extends DescMessage>(
    method: DescMethodUnary<I, O>,
    signal: AbortSignal | undefined,
    timeoutMs: number | undefined,
    header: HeadersInit | undefined,
    input: MessageInitShape<I>,
    values?: ContextValues,
  ): Promise<UnaryResponse<I, O>> {
    const send = (token: string | null) =>
      base.unary(method, signal, timeoutMs, withToken(header, token), input, values);
    const token = await tokenToSend();
    try {
      return await send(token);
    } catch (error) {
      const renewed = await afterRefusal(error, token);
      if (!renewed) throw error;
      try {
        return await send(renewed);
      } catch (again) {
        reportEnded(again);
        throw again;
      }
    }
  }

  async function stream<I extends DescMessage, O extends DescMessage>(
    method: DescMethodStreaming<I, O>,
    signal: AbortSignal | undefined,
    timeoutMs: number | undefined,
    header: HeadersInit | undefined,
    input: AsyncIterable<MessageInitShape<I>>,
    values?: ContextValues,
  ): Promise<StreamResponse<I, O>> {
    const token = await tokenToSend();
    /** A stream refused or ended as expired: once renewed, it is opened again. */
    const reopen = async (error: unknown): Promise<never> => {
      if (await afterRefusal(error, token)) {
        throw new ConnectError('the session was renewed; open the stream again', Code.Unavailable);
      }
      throw error;
    };
    let response: StreamResponse<I, O>;
    try {
      response = await base.stream(
        method,
        signal,
        timeoutMs,
        withToken(header, token),
        input,
        values,
      );
    } catch (error) {
      return reopen(error);
    }
    const messages = response.message;
    async function* watched() {
      try {
        yield* messages;
      } catch (error) {
        await reopen(error);
      }
    }
    return { ...response, message: watched() };
  }

  return { unary, stream };
}
