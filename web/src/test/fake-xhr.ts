/**
 * XMLHttpRequest as the upload call (src/lib/grpc-web-upload.ts) uses it, and gRPC-web answers
 * framed as the server frames them.
 */
import { create, toBinary, type DescMessage, type MessageInitShape } from '@bufbuild/protobuf';
import type { ConnectError } from '@connectrpc/connect';
import { setTrailerStatus, trailerSerialize } from '@connectrpc/connect/protocol-grpc-web';
import { encodeFrame } from '@/lib/grpc-web-upload';

/**
 * XMLHttpRequest as far as the call uses it: it records what is sent, and the test plays
 * the browser's side (progress events, then the answer, a network failure, a timeout).
 */
export class FakeXhr {
  static last: FakeXhr | null = null;
  method = '';
  url = '';
  requestHeaders = new Headers();
  body: Uint8Array | null = null;
  responseType = '';
  timeout = 0;
  status = 0;
  response: ArrayBuffer | null = null;
  responseHeaders = '';
  aborted = false;
  upload: { onprogress: ((event: ProgressEvent) => void) | null } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  ontimeout: (() => void) | null = null;
  onabort: (() => void) | null = null;

  constructor() {
    FakeXhr.last = this;
  }
  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.requestHeaders.set(name, value);
  }
  send(body: Uint8Array) {
    this.body = body;
  }
  abort() {
    this.aborted = true;
    this.onabort?.();
  }
  getAllResponseHeaders() {
    return this.responseHeaders;
  }
  progress(loaded: number, total: number, lengthComputable = true) {
    this.upload.onprogress?.({ loaded, total, lengthComputable } as ProgressEvent);
  }
  answer(status: number, headers: Record<string, string>, body: Uint8Array) {
    this.status = status;
    this.responseHeaders = Object.entries(headers)
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join('');
    this.response = body.slice().buffer;
    this.onload?.();
  }
}

/** A factory for `withUploadProgress` / `xhrUnary` that makes FakeXhr requests. */
export const createXhr = () => new FakeXhr() as unknown as XMLHttpRequest;
/** The request sent last. */
export const sent = () => {
  if (!FakeXhr.last) throw new Error('nothing was sent');
  return FakeXhr.last;
};

/** Answers of AddRepairRequestPhoto as the server frames them. */
export const GRPC_WEB = { 'content-type': 'application/grpc-web+proto' };

/** A trailer envelope saying `error`, or OK without one. */
export const trailerFrame = (error?: ConnectError) =>
  encodeFrame(trailerSerialize(setTrailerStatus(new Headers(), error)), 0x80);

/** A data envelope of `message`. */
export const messageFrame = <D extends DescMessage>(schema: D, message: MessageInitShape<D>) =>
  encodeFrame(toBinary(schema, create(schema, message)));

/** Envelopes one after the other, as a body. */
export const join = (...parts: Uint8Array[]) => {
  const whole = new Uint8Array(parts.reduce((sum, part) => sum + part.byteLength, 0));
  let offset = 0;
  for (const part of parts) {
    whole.set(part, offset);
    offset += part.byteLength;
  }
  return whole;
};
