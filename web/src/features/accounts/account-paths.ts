/**
 * Where an account goes, decided from what the server says about it: the phone step while
 * the phone is not verified, the profile form while a professional has none, then the page of
 * the professional's approval state. Pure functions over the contract's messages.
 */
import { ProfessionalState, type Professional } from '@/gen/repairs/accounts/v1/accounts_pb';
import {
  PROFESSIONAL_STATUS_PATHS,
  type ProfessionalStatus,
  type SessionDetails,
} from '@/lib/session';

/** The phone step of each role that verifies a phone. */
export const PHONE_STEP_PATHS = {
  customer: (id: string) => `/phone-otp/${encodeURIComponent(id)}`,
  professional: (id: string) => `/professional-phone-otp/${encodeURIComponent(id)}`,
} as const;

/** The code step, with the phone as digits (E.164 without the '+'). */
export const CODE_STEP_PATHS = {
  customer: (id: string, phoneDigits: string) =>
    `/otp-verify/${encodeURIComponent(id)}/${encodeURIComponent(phoneDigits)}`,
  professional: (id: string, phoneDigits: string) =>
    `/professional-otp-verify/${encodeURIComponent(id)}/${encodeURIComponent(phoneDigits)}`,
} as const;

export const CUSTOMER_HOME_PATH = '/create-request';
export const PROFESSIONAL_DASHBOARD_PATH = '/professional-dashboard';
export const PROFESSIONAL_PROFILE_FORM_PATH = '/update-professional-profile';

const STATUS_BY_STATE: Partial<Record<ProfessionalState, ProfessionalStatus>> = {
  [ProfessionalState.WAITING_FOR_APPROVAL]: 'waiting-for-approval',
  [ProfessionalState.APPROVED]: 'approved',
  [ProfessionalState.DENIED]: 'denied',
  [ProfessionalState.PROFILE_UPDATED]: 'profile-updated',
};

/** The contract's state as the session's status (an unknown state counts as waiting). */
export function statusOf(state: ProfessionalState): ProfessionalStatus {
  return STATUS_BY_STATE[state] ?? 'waiting-for-approval';
}

/** The page of a status: its notice, or the dashboard once approved. */
export function statusPath(status: ProfessionalStatus): string {
  return PROFESSIONAL_STATUS_PATHS[status] ?? PROFESSIONAL_DASHBOARD_PATH;
}

/** Where a customer goes after signing in. */
export function customerLandingPath(customer: { id: string; phoneVerified: boolean }): string {
  return customer.phoneVerified ? CUSTOMER_HOME_PATH : PHONE_STEP_PATHS.customer(customer.id);
}

type ProfessionalFacts = Pick<Professional, 'id' | 'phoneVerified' | 'profile' | 'state'>;

/**
 * Where a professional goes after signing in: phone step, profile form (no saved profile),
 * then the page of the approval state (the dashboard once approved).
 */
export function professionalLandingPath(professional: ProfessionalFacts): string {
  if (!professional.phoneVerified) return PHONE_STEP_PATHS.professional(professional.id);
  if (!professional.profile) return PROFESSIONAL_PROFILE_FORM_PATH;
  return statusPath(statusOf(professional.state));
}

/** What a professional's session keeps besides the token. */
export function professionalDetails(
  professional: Pick<Professional, 'name' | 'state' | 'denialReason' | 'profile'>,
): SessionDetails {
  return {
    name: professional.name,
    professionalStatus: statusOf(professional.state),
    denialReason: professional.denialReason,
    address: professional.profile?.registeredAddress,
  };
}
