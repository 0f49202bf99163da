import { statusOf } from '@/features/accounts';
import type { ProfessionalState } from '@/gen/repairs/accounts/v1/accounts_pb';

export type AdminAction = 'approve' | 'deny' | 'delete';

/**
 * The buttons an admin sees on a professional: an approved one can be denied or deleted, a
 * denied one approved or deleted, any other (waiting, profile updated) all three.
 */
export function adminActionsFor(state: ProfessionalState): AdminAction[] {
  switch (statusOf(state)) {
    case 'approved':
      return ['deny', 'delete'];
    case 'denied':
      return ['approve', 'delete'];
    default:
      return ['approve', 'deny', 'delete'];
  }
}

export const ADMIN_PATHS = {
  professionals: '/admin/professionals-list',
  professional: (id: string) => `/admin/view-professional/${encodeURIComponent(id)}`,
  approve: (id: string) => `/admin/approve-professional/${encodeURIComponent(id)}`,
  deny: (id: string) => `/admin/disapprove-professional/${encodeURIComponent(id)}`,
  users: '/admin/user-list',
  user: (id: string) => `/view-user/${encodeURIComponent(id)}`,
  /** The register of privacy incidents. */
  privacyIncidents: '/admin/privacy-incidents',
  /** The billing feature's screen of the professional's payouts. */
  payouts: (id: string) => `/admin/professional-payouts/${encodeURIComponent(id)}`,
} as const;
