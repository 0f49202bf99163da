import type { Transport } from '@connectrpc/connect';
import { createGrpcWebTransport } from '@connectrpc/connect-web';

/**
 * The transport of every RPC: gRPC-web to the BFF, which serves this app on the same origin
 * and passes the calls to the server. Tests inject their own transport instead.
 */
export function createAppTransport(baseUrl: string = window.location.origin): Transport {
  return createGrpcWebTransport({ baseUrl });
}
