import { Role as ProtoRole } from '@/gen/repairs/accounts/v1/accounts_pb';
import type { Role } from '@/lib/session';

/** The contract's role of each session role. */
export const PROTO_ROLES: Record<Role, ProtoRole> = {
  customer: ProtoRole.CUSTOMER,
  professional: ProtoRole.PROFESSIONAL,
  admin: ProtoRole.ADMIN,
};

/** The session role of the contract's role (customer when unknown). */
export function sessionRole(role: ProtoRole): Role {
  if (role === ProtoRole.PROFESSIONAL) return 'professional';
  if (role === ProtoRole.ADMIN) return 'admin';
  return 'customer';
}

/** The roles that sign up themselves and verify a phone. */
export type MemberRole = Exclude<Role, 'admin'>;

export const REGISTER_PATHS: Record<MemberRole, string> = {
  customer: '/register',
  professional: '/register-as-professional',
};

export const FORGOT_PASSWORD_PATHS: Record<MemberRole, string> = {
  customer: '/forgot-password',
  professional: '/prof-forgot-password',
};

export const THANKS_PATHS: Record<MemberRole, string> = {
  customer: '/thanks-signup',
  professional: '/professional-thanks-signup',
};
