import { Code, ConnectError } from '@connectrpc/connect';
import { describe, expect, it } from 'vitest';
import { createQueryClient, shouldRetry } from './query-client';

describe('query defaults', () => {
  it('retries transient failures twice', () => {
    const unavailable = new ConnectError('down', Code.Unavailable);
    expect(shouldRetry(0, unavailable)).toBe(true);
    expect(shouldRetry(1, new Error('network'))).toBe(true);
    expect(shouldRetry(2, unavailable)).toBe(false);
  });

  it.each([
    Code.Unimplemented,
    Code.NotFound,
    Code.PermissionDenied,
    Code.Unauthenticated,
    Code.InvalidArgument,
  ])('does not retry code %s', (code) => {
    expect(shouldRetry(0, new ConnectError('final', code))).toBe(false);
  });

  it('never retries mutations', () => {
    expect(createQueryClient().getDefaultOptions().mutations?.retry).toBe(false);
  });
});
