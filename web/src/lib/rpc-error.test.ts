import { Code, ConnectError } from '@connectrpc/connect';
import { describe, expect, it } from 'vitest';
import { rpcError } from '@/test/stub-server';
import { isSessionEnded, readRpcError } from './rpc-error';

describe('readRpcError', () => {
  it('reads the reason and the field violations the server sends', () => {
    const problem = readRpcError(
      rpcError(Code.InvalidArgument, 'INVALID_ARGUMENT', {
        email: 'enter a valid email address',
        'profile.home_base.postal_code': 'we could not find this postal code',
      }),
    );
    expect(problem).toEqual({
      code: Code.InvalidArgument,
      reason: 'INVALID_ARGUMENT',
      message: 'server says INVALID_ARGUMENT',
      violations: [
        { field: 'email', description: 'enter a valid email address' },
        {
          field: 'profile.home_base.postal_code',
          description: 'we could not find this postal code',
        },
      ],
    });
  });

  it('derives a reason from the code when the error has no ErrorInfo', () => {
    expect(readRpcError(new ConnectError('down', Code.Unavailable)).reason).toBe('UNAVAILABLE');
    expect(readRpcError(new Error('boom')).reason).toBe('INTERNAL');
  });

  it('knows which reasons end a session', () => {
    for (const reason of [
      'SESSION_EXPIRED',
      'SESSION_INVALID',
      'SESSION_REVOKED',
      'SIGN_IN_REQUIRED',
    ]) {
      expect(isSessionEnded(readRpcError(rpcError(Code.Unauthenticated, reason)))).toBe(true);
    }
    expect(
      isSessionEnded(readRpcError(rpcError(Code.Unauthenticated, 'INVALID_CREDENTIALS'))),
    ).toBe(false);
  });
});
