import { createClient, createRouterTransport } from '@connectrpc/connect';
import { describe, expect, it, vi } from 'vitest';
import { AccountsService } from '@/gen/repairs/accounts/v1/accounts_pb';
import { Code, rpcError } from '@/test/stub-server';
import { withSession } from './session-transport';

function server(fail?: string) {
  const seen: (string | null)[] = [];
  const base = createRouterTransport(({ service }) => {
    service(AccountsService, {
      getCustomer: (_request, context) => {
        seen.push(context.requestHeader.get('authorization'));
        if (fail) throw rpcError(Code.Unauthenticated, fail);
        return {};
      },
    });
  });
  return { base, seen };
}

describe('withSession', () => {
  it('sends the stored token as a bearer token, read at each call', async () => {
    const { base, seen } = server();
    let token: string | null = 'first';
    const client = createClient(
      AccountsService,
      withSession(base, { token: () => token, onSessionEnded: vi.fn() }),
    );
    await client.getCustomer({ id: 'c1' });
    token = null;
    await client.getCustomer({ id: 'c1' });
    expect(seen).toEqual(['Bearer first', null]);
  });

  it.each(['SESSION_EXPIRED', 'SESSION_INVALID', 'SESSION_REVOKED', 'SIGN_IN_REQUIRED'])(
    'reports %s once and still fails the call',
    async (reason) => {
      const onSessionEnded = vi.fn();
      const client = createClient(
        AccountsService,
        withSession(server(reason).base, { token: () => 't', onSessionEnded }),
      );
      await expect(client.getCustomer({ id: 'c1' })).rejects.toThrow();
      expect(onSessionEnded).toHaveBeenCalledOnce();
    },
  );

  it('leaves other failures to the screen', async () => {
    const onSessionEnded = vi.fn();
    const client = createClient(
      AccountsService,
      withSession(server('INVALID_CREDENTIALS').base, { token: () => 't', onSessionEnded }),
    );
    await expect(client.getCustomer({ id: 'c1' })).rejects.toThrow();
    expect(onSessionEnded).not.toHaveBeenCalled();
  });
});
