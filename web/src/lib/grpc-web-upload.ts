/**
 * A unary gRPC-web call over XMLHttpRequest, for the calls that carry a file
 * (AddRepairRequestPhoto, AddMessagePhoto): fetch, which the app's transport uses, reports no
 * upload progress, XMLHttpRequest does (`xhr.upload.onprogress`). The request is encoded with
 * protobuf-es and framed as gRPC-web (one envelope: a flags byte, a 4-byte big-endian length,
 * the message); the response's envelopes are read back the same way, a data envelope for the
 * answer and a trailer envelope (flag 0x80) for the status. Statuses are read with connect's
 * own gRPC-web helpers, so a refused upload is the same ConnectError, with the same
 * `grpc-status-details-bin` details (ErrorInfo reason, field violations), as any other call.
 *
 * It is reached through the app's transport (`withUploadProgress`): a unary call whose
 * context values carry an `UPLOAD_PROGRESS` listener goes this way, every other call through
 * fetch. The session transport wraps it like the rest, so the call carries the same
 * `authorization` header and is renewed and sent again the same way when its token ended.
 */
import {
  create,
  fromBinary,
  toBinary,
  type DescMessage,
  type DescMethodUnary,
  type MessageInitShape,
} from '@bufbuild/protobuf';
import {
  Code,
  ConnectError,
  createContextKey,
  createContextValues,
  type ContextValues,
  type Transport,
  type UnaryResponse,
} from '@connectrpc/connect';
import { createMethodUrl } from '@connectrpc/connect/protocol';
import {
  headerGrpcStatus,
  requestHeader,
  trailerFlag,
  trailerParse,
  validateResponse,
  validateTrailer,
} from '@connectrpc/connect/protocol-grpc-web';

/** How much of the request body has gone, in bytes. */
export interface UploadProgress {
  loaded: number;
  total: number;
}

export type UploadProgressListener = (progress: UploadProgress) => void;

/** The context value that sends a unary call over XMLHttpRequest, reporting its progress. */
export const UPLOAD_PROGRESS = createContextKey<UploadProgressListener | null>(null, {
  description: 'upload progress listener',
});

/**
 * The context values that send a call with its upload's progress, as the fraction of its
 * body that went (0 to 1).
 */
export function uploadProgress(onProgress: (fraction: number) => void): ContextValues {
  return createContextValues().set(UPLOAD_PROGRESS, ({ loaded, total }) =>
    onProgress(total > 0 ? Math.min(loaded / total, 1) : 0),
  );
}

/** The flag of a compressed envelope; we never ask for compression, so none may come. */
const COMPRESSED_FLAG = 0b0000_0001;
const PREFIX_BYTES = 5;

/** One gRPC-web envelope: `flags`, the length of `data` (big-endian, 4 bytes), `data`. */
export function encodeFrame(data: Uint8Array, flags = 0): Uint8Array<ArrayBuffer> {
  const frame = new Uint8Array(PREFIX_BYTES + data.byteLength);
  frame[0] = flags;
  new DataView(frame.buffer).setUint32(1, data.byteLength, false);
  frame.set(data, PREFIX_BYTES);
  return frame;
}

export interface Frame {
  flags: number;
  data: Uint8Array;
}

/** The envelopes of a response body; a body cut inside one is a protocol error. */
export function decodeFrames(body: Uint8Array): Frame[] {
  const frames: Frame[] = [];
  const view = new DataView(body.buffer, body.byteOffset, body.byteLength);
  let offset = 0;
  while (offset < body.byteLength) {
    if (body.byteLength - offset < PREFIX_BYTES) {
      throw new ConnectError('protocol error: incomplete envelope', Code.Internal);
    }
    const flags = view.getUint8(offset);
    const length = view.getUint32(offset + 1, false);
    const start = offset + PREFIX_BYTES;
    if (start + length > body.byteLength) {
      throw new ConnectError('protocol error: incomplete envelope', Code.Internal);
    }
    frames.push({ flags, data: body.subarray(start, start + length) });
    offset = start + length;
  }
  return frames;
}

/** The response headers as XMLHttpRequest gives them (`name: value` lines). */
function parseHeaders(raw: string): Headers {
  const headers = new Headers();
  for (const line of raw.trim().split(/[\r\n]+/)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.append(line.slice(0, colon).trim(), line.slice(colon + 1).trim());
  }
  return headers;
}

/** The answer of a unary call from its HTTP status, headers and body; throws its error. */
export function readUnaryResponse<O extends DescMessage>(
  output: O,
  status: number,
  headers: Headers,
  body: Uint8Array,
) {
  const { headerError } = validateResponse(status, headers);
  let trailer: Headers | undefined;
  let message: Uint8Array | undefined;
  for (const { flags, data } of decodeFrames(body)) {
    if ((flags & COMPRESSED_FLAG) === COMPRESSED_FLAG) {
      throw new ConnectError('protocol error: received compressed output', Code.Internal);
    }
    if (flags === trailerFlag) {
      if (trailer !== undefined) throw new ConnectError('extra trailer', Code.Internal);
      trailer = trailerParse(data);
    } else {
      if (message !== undefined) throw new ConnectError('extra message', Code.Unimplemented);
      message = data;
    }
  }
  if (trailer === undefined) {
    // A trailers-only answer: the status is in the headers (a refusal before any output).
    if (headerError !== undefined) throw headerError;
    throw new ConnectError(
      'missing trailer',
      headers.has(headerGrpcStatus) ? Code.Unimplemented : Code.Unknown,
    );
  }
  validateTrailer(trailer, headers);
  if (message === undefined) {
    throw new ConnectError('missing message', Code.Unimplemented);
  }
  return { header: headers, trailer, message: fromBinary(output, message) };
}

/** What `XMLHttpRequest` offers that the call uses (tests give a stand-in). */
export type XhrFactory = () => XMLHttpRequest;

/** Where and how an upload goes, beside the call's own arguments. */
export interface XhrTarget {
  baseUrl: string;
  onUploadProgress: UploadProgressListener;
  createXhr?: XhrFactory;
}

/**
 * Sends one unary gRPC-web call through XMLHttpRequest, calling `onUploadProgress` as the
 * body goes; the other arguments are those of a Transport's `unary`. Resolves with the
 * answer; rejects with a ConnectError: the server's status (with its details), UNAVAILABLE
 * when the network failed, DEADLINE_EXCEEDED after `timeoutMs`, CANCELED when `signal`
 * aborts it.
 */
export function xhrUnary<I extends DescMessage, O extends DescMessage>(
  { baseUrl, onUploadProgress, createXhr = () => new XMLHttpRequest() }: XhrTarget,
  method: DescMethodUnary<I, O>,
  signal: AbortSignal | undefined,
  timeoutMs: number | undefined,
  header: HeadersInit | undefined,
  input: MessageInitShape<I>,
): Promise<UnaryResponse<I, O>> {
  const body = encodeFrame(toBinary(method.input, create(method.input, input)));
  const headers = requestHeader(true, timeoutMs, header, false);
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(new ConnectError('the upload was cancelled', Code.Canceled));
      return;
    }
    const xhr = createXhr();
    const abort = () => xhr.abort();
    const settle = () => signal?.removeEventListener('abort', abort);
    xhr.open('POST', createMethodUrl(baseUrl, method));
    xhr.responseType = 'arraybuffer';
    headers.forEach((value, name) => xhr.setRequestHeader(name, value));
    if (timeoutMs !== undefined) xhr.timeout = timeoutMs;
    xhr.upload.onprogress = (event) =>
      onUploadProgress({
        loaded: event.loaded,
        total: event.lengthComputable ? event.total : body.byteLength,
      });
    xhr.onload = () => {
      settle();
      try {
        const response = xhr.response as ArrayBuffer | null;
        const answer = readUnaryResponse(
          method.output,
          xhr.status,
          parseHeaders(xhr.getAllResponseHeaders()),
          new Uint8Array(response ?? new ArrayBuffer(0)),
        );
        onUploadProgress({ loaded: body.byteLength, total: body.byteLength });
        resolve({ stream: false, service: method.parent, method, ...answer });
      } catch (error) {
        reject(ConnectError.from(error));
      }
    };
    xhr.onerror = () => {
      settle();
      reject(new ConnectError('the upload could not reach the server', Code.Unavailable));
    };
    xhr.ontimeout = () => {
      settle();
      reject(new ConnectError('the upload took too long', Code.DeadlineExceeded));
    };
    xhr.onabort = () => {
      settle();
      reject(new ConnectError('the upload was cancelled', Code.Canceled));
    };
    signal?.addEventListener('abort', abort);
    xhr.send(body);
  });
}

/**
 * `base` with its unary calls sent through XMLHttpRequest when they carry an
 * `UPLOAD_PROGRESS` listener in their context values; everything else goes through `base`.
 */
export function withUploadProgress(
  base: Transport,
  baseUrl: string,
  createXhr?: XhrFactory,
): Transport {
  return {
    unary(method, signal, timeoutMs, header, input, values) {
      const onUploadProgress = values?.get(UPLOAD_PROGRESS);
      if (!onUploadProgress) return base.unary(method, signal, timeoutMs, header, input, values);
      const target = { baseUrl, onUploadProgress, createXhr };
      return xhrUnary(target, method, signal, timeoutMs, header, input);
    },
    stream: (...args) => base.stream(...args),
  };
}
