import { fromBinary } from '@bufbuild/protobuf';
import {
  Code,
  createClient,
  createContextValues,
  createRouterTransport,
} from '@connectrpc/connect';
import { setTrailerStatus } from '@connectrpc/connect/protocol-grpc-web';
import { describe, expect, it, vi } from 'vitest';
import {
  AddRepairRequestPhotoRequestSchema,
  AddRepairRequestPhotoResponseSchema,
  MarketplaceService,
} from '@/gen/repairs/marketplace/v1/marketplace_pb';
import {
  createXhr,
  FakeXhr,
  GRPC_WEB,
  join,
  messageFrame,
  sent,
  trailerFrame,
} from '@/test/fake-xhr';
import { rpcError } from '@/test/stub-server';
import {
  decodeFrames,
  encodeFrame,
  UPLOAD_PROGRESS,
  withUploadProgress,
  xhrUnary,
  type UploadProgress,
} from './grpc-web-upload';
import { readRpcError } from './rpc-error';

const method = MarketplaceService.method.addRepairRequestPhoto;
const BASE = 'https://repairs.test';
const PHOTO = { id: 'p1', url: `${BASE}/f/p1`, thumbnailUrl: `${BASE}/f/p1-t`, width: 1600 };

const answerFrame = () => messageFrame(AddRepairRequestPhotoResponseSchema, { photo: PHOTO });

function upload(
  options: { signal?: AbortSignal; timeoutMs?: number; header?: HeadersInit } = {},
  onUploadProgress: (progress: UploadProgress) => void = () => {},
) {
  return xhrUnary(
    { baseUrl: BASE, onUploadProgress, createXhr },
    method,
    options.signal,
    options.timeoutMs,
    options.header,
    { repairRequestId: 'r1', content: new Uint8Array([0xff, 0xd8, 0xff, 1, 2, 3]) },
  );
}

describe('gRPC-web framing', () => {
  it('puts a message in one envelope: flags, big-endian length, the bytes', () => {
    const frame = encodeFrame(new Uint8Array([7, 8, 9]));
    expect([...frame]).toEqual([0, 0, 0, 0, 3, 7, 8, 9]);
    const big = encodeFrame(new Uint8Array(70_000), 0x80);
    expect([...big.subarray(0, 5)]).toEqual([0x80, 0, 1, 0x11, 0x70]);
  });

  it('reads the envelopes of a body back, and refuses one cut short', () => {
    const body = join(encodeFrame(new Uint8Array([1, 2])), encodeFrame(new Uint8Array([3]), 0x80));
    expect(decodeFrames(body).map(({ flags, data }) => [flags, [...data]])).toEqual([
      [0, [1, 2]],
      [0x80, [3]],
    ]);
    expect(() => decodeFrames(body.subarray(0, body.byteLength - 1))).toThrow(/incomplete/);
    expect(() => decodeFrames(new Uint8Array([0, 0]))).toThrow(/incomplete/);
  });
});

describe('xhrUnary', () => {
  it('posts the request encoded in one envelope, with the gRPC-web headers and the caller’s', async () => {
    const call = upload({ header: { authorization: 'Bearer abc' }, timeoutMs: 30_000 });
    const xhr = sent();
    expect(xhr.method).toBe('POST');
    expect(xhr.url).toBe(`${BASE}/repairs.marketplace.v1.MarketplaceService/AddRepairRequestPhoto`);
    expect(xhr.responseType).toBe('arraybuffer');
    expect(xhr.requestHeaders.get('content-type')).toBe('application/grpc-web+proto');
    expect(xhr.requestHeaders.get('x-grpc-web')).toBe('1');
    expect(xhr.requestHeaders.get('authorization')).toBe('Bearer abc');
    expect(xhr.requestHeaders.get('grpc-timeout')).toBe('30000m');
    const [frame, ...rest] = decodeFrames(xhr.body ?? new Uint8Array());
    expect(rest).toEqual([]);
    expect(frame?.flags).toBe(0);
    const request = fromBinary(AddRepairRequestPhotoRequestSchema, frame?.data ?? new Uint8Array());
    expect(request.repairRequestId).toBe('r1');
    expect([...request.content]).toEqual([0xff, 0xd8, 0xff, 1, 2, 3]);
    xhr.answer(200, GRPC_WEB, join(answerFrame(), trailerFrame()));
    const response = await call;
    expect(response.message.photo?.thumbnailUrl).toBe(PHOTO.thumbnailUrl);
    expect(response.trailer.get('grpc-status')).toBe('0');
  });

  it('reports the progress of the body as it goes, and all of it once answered', async () => {
    const seen: UploadProgress[] = [];
    const call = upload({}, (progress) => seen.push(progress));
    const xhr = sent();
    const total = xhr.body?.byteLength ?? 0;
    xhr.progress(4, total);
    xhr.progress(8, 999, false);
    xhr.answer(200, GRPC_WEB, join(answerFrame(), trailerFrame()));
    await call;
    expect(seen).toEqual([
      { loaded: 4, total },
      // Without a computable length the body's own size is the total.
      { loaded: 8, total },
      { loaded: total, total },
    ]);
  });

  it('rejects with the server’s status, reason and field violations from the trailer', async () => {
    const call = upload();
    sent().answer(
      200,
      GRPC_WEB,
      trailerFrame(
        rpcError(Code.InvalidArgument, 'PHOTO_TOO_MANY_PIXELS', {
          content: 'at most 40 million pixels',
        }),
      ),
    );
    const problem = readRpcError(await call.catch((error: unknown) => error));
    expect(problem).toMatchObject({
      code: Code.InvalidArgument,
      reason: 'PHOTO_TOO_MANY_PIXELS',
      violations: [{ field: 'content', description: 'at most 40 million pixels' }],
    });
  });

  it('reads a refusal sent in the headers alone (trailers-only)', async () => {
    const call = upload();
    const headers: Record<string, string> = { ...GRPC_WEB };
    setTrailerStatus(new Headers(), rpcError(Code.FailedPrecondition, 'TOO_MANY_PHOTOS')).forEach(
      (value, name) => (headers[name] = value),
    );
    sent().answer(200, headers, new Uint8Array());
    const problem = readRpcError(await call.catch((error: unknown) => error));
    expect(problem).toMatchObject({ code: Code.FailedPrecondition, reason: 'TOO_MANY_PHOTOS' });
  });

  it('turns an HTTP failure, a network failure and a timeout into their codes', async () => {
    const refused = upload();
    sent().answer(503, { 'content-type': 'text/plain' }, new TextEncoder().encode('busy'));
    await expect(refused).rejects.toMatchObject({ code: Code.Unavailable });

    const down = upload();
    sent().onerror?.();
    expect(readRpcError(await down.catch((error: unknown) => error)).reason).toBe('UNAVAILABLE');

    const slow = upload({ timeoutMs: 5 });
    expect(sent().timeout).toBe(5);
    sent().ontimeout?.();
    await expect(slow).rejects.toMatchObject({ code: Code.DeadlineExceeded });
  });

  it('refuses an answer without its trailer, or cut inside an envelope', async () => {
    const noTrailer = upload();
    sent().answer(200, GRPC_WEB, answerFrame());
    await expect(noTrailer).rejects.toMatchObject({ code: Code.Unknown });

    const cut = upload();
    const whole = join(answerFrame(), trailerFrame());
    sent().answer(200, GRPC_WEB, whole.subarray(0, whole.byteLength - 2));
    await expect(cut).rejects.toMatchObject({ code: Code.Internal });
  });

  it('stops the upload when its signal aborts', async () => {
    const stop = new AbortController();
    const call = upload({ signal: stop.signal });
    stop.abort();
    expect(sent().aborted).toBe(true);
    await expect(call).rejects.toMatchObject({ code: Code.Canceled });
    // Already aborted: nothing is sent at all.
    FakeXhr.last = null;
    await expect(upload({ signal: stop.signal })).rejects.toMatchObject({ code: Code.Canceled });
    expect(FakeXhr.last).toBeNull();
  });
});

describe('withUploadProgress', () => {
  const base = () => {
    const getRepairRequest = vi.fn(() => ({}));
    const addRepairRequestPhoto = vi.fn(() => ({ photo: PHOTO }));
    const transport = createRouterTransport(({ service }) =>
      service(MarketplaceService, { getRepairRequest, addRepairRequestPhoto }),
    );
    return { transport, getRepairRequest, addRepairRequestPhoto };
  };

  it('sends the calls that ask for progress through XMLHttpRequest, the others as before', async () => {
    const server = base();
    FakeXhr.last = null;
    const client = createClient(
      MarketplaceService,
      withUploadProgress(server.transport, BASE, createXhr),
    );
    await client.getRepairRequest({ id: 'r1' });
    await client.addRepairRequestPhoto({ repairRequestId: 'r1' });
    expect(server.getRepairRequest).toHaveBeenCalledTimes(1);
    expect(server.addRepairRequestPhoto).toHaveBeenCalledTimes(1);
    expect(FakeXhr.last).toBeNull();

    const seen: UploadProgress[] = [];
    const call = client.addRepairRequestPhoto(
      { repairRequestId: 'r1' },
      { contextValues: createContextValues().set(UPLOAD_PROGRESS, (p) => seen.push(p)) },
    );
    const xhr = sent();
    xhr.progress(3, 10);
    xhr.answer(200, GRPC_WEB, join(answerFrame(), trailerFrame()));
    expect((await call).photo?.id).toBe('p1');
    expect(seen[0]).toEqual({ loaded: 3, total: 10 });
    expect(server.addRepairRequestPhoto).toHaveBeenCalledTimes(1);
  });
});
