import { createClient, createContextValues, createRouterTransport } from '@connectrpc/connect';
import { describe, expect, it, vi } from 'vitest';
import { AccountsService } from '@/gen/repairs/accounts/v1/accounts_pb';
import {
  AddMessagePhotoResponseSchema,
  MarketplaceService,
} from '@/gen/repairs/marketplace/v1/marketplace_pb';
import { UPLOAD_PROGRESS, withUploadProgress } from '@/lib/grpc-web-upload';
import type { RenewalOutcome } from '@/lib/session-renewal';
import {
  createXhr,
  FakeXhr,
  GRPC_WEB,
  join,
  messageFrame,
  sent,
  trailerFrame,
} from '@/test/fake-xhr';
import { Code, rpcError } from '@/test/stub-server';
import { withSession, type SessionTransportOptions } from './session-transport';

/** A server whose GetCustomer answers each bearer token as `answer` says. */
function server(answer: (authorization: string | null) => string | undefined = () => undefined) {
  const seen: (string | null)[] = [];
  const base = createRouterTransport(({ service }) => {
    service(AccountsService, {
      getCustomer: (_request, context) => {
        const authorization = context.requestHeader.get('authorization');
        seen.push(authorization);
        const fail = answer(authorization);
        if (fail) throw rpcError(Code.Unauthenticated, fail);
        return {};
      },
    });
  });
  return { base, seen };
}

const ready = (token: string): RenewalOutcome => ({ kind: 'ready', token });

function options(overrides: Partial<SessionTransportOptions> = {}): SessionTransportOptions {
  return {
    token: () => Promise.resolve(ready('t')),
    renew: vi.fn(() => Promise.resolve(ready('renewed'))),
    onSessionEnded: vi.fn(),
    ...overrides,
  };
}

describe('withSession', () => {
  it('sends the token of the moment as a bearer token, and none when signed out', async () => {
    const { base, seen } = server();
    let next: RenewalOutcome | { kind: 'signed-out' } = ready('first');
    const client = createClient(
      AccountsService,
      withSession(base, options({ token: () => Promise.resolve(next) })),
    );
    await client.getCustomer({ id: 'c1' });
    next = { kind: 'signed-out' };
    await client.getCustomer({ id: 'c1' });
    expect(seen).toEqual(['Bearer first', null]);
  });

  it('renews once when the server says the token expired, and sends the call again', async () => {
    const { base, seen } = server((auth) => (auth === 'Bearer t' ? 'SESSION_EXPIRED' : undefined));
    const renew = vi.fn(() => Promise.resolve(ready('renewed')));
    const onSessionEnded = vi.fn();
    const client = createClient(
      AccountsService,
      withSession(base, options({ renew, onSessionEnded })),
    );
    await client.getCustomer({ id: 'c1' });
    expect(renew).toHaveBeenCalledExactlyOnceWith('t');
    expect(seen).toEqual(['Bearer t', 'Bearer renewed']);
    expect(onSessionEnded).not.toHaveBeenCalled();
  });

  it('does not loop: a renewed token refused again ends the session', async () => {
    const { base, seen } = server(() => 'SESSION_EXPIRED');
    const onSessionEnded = vi.fn();
    const client = createClient(AccountsService, withSession(base, options({ onSessionEnded })));
    await expect(client.getCustomer({ id: 'c1' })).rejects.toThrow();
    expect(seen).toHaveLength(2);
    expect(onSessionEnded).toHaveBeenCalledExactlyOnceWith('SESSION_EXPIRED');
  });

  it('ends the session with the reason a refused renewal gives', async () => {
    const { base } = server(() => 'SESSION_EXPIRED');
    const onSessionEnded = vi.fn();
    const renew = () =>
      Promise.resolve<RenewalOutcome>({ kind: 'ended', reason: 'SESSION_REVOKED' });
    const client = createClient(
      AccountsService,
      withSession(base, options({ renew, onSessionEnded })),
    );
    await expect(client.getCustomer({ id: 'c1' })).rejects.toThrow();
    expect(onSessionEnded).toHaveBeenCalledExactlyOnceWith('SESSION_REVOKED');
  });

  it('sends nothing for a session already over, and says why', async () => {
    const { base, seen } = server();
    const onSessionEnded = vi.fn();
    const token = () =>
      Promise.resolve<RenewalOutcome>({ kind: 'ended', reason: 'SESSION_TOO_OLD' });
    const client = createClient(
      AccountsService,
      withSession(base, options({ token, onSessionEnded })),
    );
    await expect(client.getCustomer({ id: 'c1' })).rejects.toThrow();
    expect(seen).toEqual([]);
    expect(onSessionEnded).toHaveBeenCalledExactlyOnceWith('SESSION_TOO_OLD');
  });

  it.each(['SESSION_INVALID', 'SESSION_REVOKED', 'SIGN_IN_REQUIRED'])(
    'reports %s once, without renewing, and still fails the call',
    async (reason) => {
      const renew = vi.fn(() => Promise.resolve(ready('renewed')));
      const onSessionEnded = vi.fn();
      const client = createClient(
        AccountsService,
        withSession(server(() => reason).base, options({ renew, onSessionEnded })),
      );
      await expect(client.getCustomer({ id: 'c1' })).rejects.toThrow();
      expect(onSessionEnded).toHaveBeenCalledExactlyOnceWith(reason);
      expect(renew).not.toHaveBeenCalled();
    },
  );

  it('has a live stream that ended with its token opened again once the session is renewed', async () => {
    const base = createRouterTransport(({ service }) => {
      service(MarketplaceService, {
        // eslint-disable-next-line require-yield
        async *watchRepairRequest() {
          throw rpcError(Code.Unauthenticated, 'SESSION_EXPIRED');
        },
      });
    });
    const renew = vi.fn(() => Promise.resolve(ready('renewed')));
    const onSessionEnded = vi.fn();
    const client = createClient(
      MarketplaceService,
      withSession(base, options({ renew, onSessionEnded })),
    );
    const watching = async () => {
      for await (const update of client.watchRepairRequest({ id: 'r1' })) void update;
    };
    // UNAVAILABLE: the screen's reconnection (keepWatching) opens it again with the new token.
    await expect(watching()).rejects.toMatchObject({ code: Code.Unavailable });
    expect(renew).toHaveBeenCalledExactlyOnceWith('t');
    expect(onSessionEnded).not.toHaveBeenCalled();
  });

  it('leaves other failures to the screen', async () => {
    const onSessionEnded = vi.fn();
    const client = createClient(
      AccountsService,
      withSession(server(() => 'INVALID_CREDENTIALS').base, options({ onSessionEnded })),
    );
    await expect(client.getCustomer({ id: 'c1' })).rejects.toThrow();
    expect(onSessionEnded).not.toHaveBeenCalled();
  });

  it('sends an upload over XMLHttpRequest with the same token, and again once renewed', async () => {
    const base = withUploadProgress(
      createRouterTransport(() => {}),
      'https://repairs.test',
      createXhr,
    );
    const renew = vi.fn(() => Promise.resolve(ready('renewed')));
    const client = createClient(MarketplaceService, withSession(base, options({ renew })));
    const progress = vi.fn();
    FakeXhr.last = null;
    const call = client.addMessagePhoto(
      { repairRequestId: 'r1' },
      { contextValues: createContextValues().set(UPLOAD_PROGRESS, progress) },
    );
    await vi.waitFor(() => expect(FakeXhr.last).not.toBeNull());
    const first = sent();
    expect(first.requestHeaders.get('authorization')).toBe('Bearer t');
    first.answer(200, GRPC_WEB, trailerFrame(rpcError(Code.Unauthenticated, 'SESSION_EXPIRED')));
    await vi.waitFor(() => expect(sent()).not.toBe(first));
    const second = sent();
    expect(second.requestHeaders.get('authorization')).toBe('Bearer renewed');
    second.answer(
      200,
      GRPC_WEB,
      join(messageFrame(AddMessagePhotoResponseSchema, { photo: { id: 'p1' } }), trailerFrame()),
    );
    expect((await call).photo?.id).toBe('p1');
    expect(renew).toHaveBeenCalledExactlyOnceWith('t');
  });
});
