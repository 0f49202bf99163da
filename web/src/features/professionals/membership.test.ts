import { Code } from '@connectrpc/connect';
import { describe, expect, it } from 'vitest';
import { rpcError } from '@/test/stub-server';
import { isMembershipInactive, purchaseMembershipPath } from './membership';

describe('the membership gate', () => {
  it('is told by the server reason of a refused call', () => {
    expect(isMembershipInactive(rpcError(Code.FailedPrecondition, 'MEMBERSHIP_INACTIVE'))).toBe(
      true,
    );
    expect(
      isMembershipInactive(rpcError(Code.FailedPrecondition, 'PROFESSIONAL_NOT_APPROVED')),
    ).toBe(false);
    expect(isMembershipInactive(null)).toBe(false);
  });

  it('sends the professional to their own purchase page', () => {
    expect(purchaseMembershipPath('a b')).toBe('/purchase-membership/a%20b');
  });
});
