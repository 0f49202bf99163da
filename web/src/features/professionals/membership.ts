import { readRpcError } from '@/lib/rpc-error';

/** Where a professional buys a month. */
export const purchaseMembershipPath = (professionalId: string) =>
  `/purchase-membership/${encodeURIComponent(professionalId)}`;

/**
 * Whether a call was refused by the server's membership gate (FAILED_PRECONDITION, reason
 * MEMBERSHIP_INACTIVE): the screen then shows the inactive-membership notice
 * (`./components/membership-notice`) instead of a plain error.
 */
export function isMembershipInactive(error: unknown): boolean {
  return error != null && readRpcError(error).reason === 'MEMBERSHIP_INACTIVE';
}
