import type { Transport } from '@connectrpc/connect';
import { createGrpcWebTransport } from '@connectrpc/connect-web';
import { withUploadProgress } from './grpc-web-upload';

/**
 * The transport of every RPC: gRPC-web to the BFF, which serves this app on the same origin
 * and passes the calls to the server; the uploads that report their progress go through
 * XMLHttpRequest (`./grpc-web-upload`). Tests inject their own transport instead.
 */
export function createAppTransport(baseUrl: string = window.location.origin): Transport {
  return withUploadProgress(createGrpcWebTransport({ baseUrl }), baseUrl);
}
