/**
 * The one place where a server reason code becomes a message key. Every reason the server
 * sends has a text in both catalogues under `errors.reasons` (a test checks it); an unknown
 * reason shows the server's own message.
 */
import type { TranslationKey } from './translation-key';

export const KNOWN_REASONS = [
  'INVALID_ARGUMENT',
  'INVALID_CREDENTIALS',
  'LOG_IN_THROTTLED',
  'EMAIL_TAKEN',
  'SIGN_IN_REQUIRED',
  'SESSION_EXPIRED',
  'SESSION_INVALID',
  'SESSION_REVOKED',
  'ROLE_NOT_ALLOWED',
  'NO_ACCESS_RULE',
  'NOT_OWNER',
  'NOT_FOUND',
  'PHONE_CODE_WRONG',
  'PHONE_CODE_EXPIRED',
  'PHONE_CODE_TOO_MANY_TRIES',
  'PHONE_CODE_COOLDOWN',
  'PHONE_CODE_SEND_LIMIT',
  'PHONE_ALREADY_VERIFIED',
  'SMS_NOT_SENT',
  'RESET_LINK_EXPIRED',
  'SMS_ADDRESS_LIMIT',
  'SMS_COUNTRY_LIMIT',
  'SMS_BUDGET_SPENT',
  'PASSWORD_RESET_EMAIL_LIMIT',
  'PASSWORD_RESET_ADDRESS_LIMIT',
  'PASSWORD_RESET_BUSY',
  'EMAIL_LINK_EXPIRED',
  'SOCIAL_LINK_NEEDS_PASSWORD',
  'PROFESSIONAL_STATE',
  'PROFILE_INCOMPLETE',
  'TOO_MANY_LICENCES',
  'FILE_TYPE_NOT_ALLOWED',
  'FILE_TYPE_MISMATCH',
  'FILE_TOO_LARGE',
  'FILE_EMPTY',
  'GEOCODER_UNAVAILABLE',
  'SIGN_IN_PROVIDER_NOT_CONFIGURED',
  'SIGN_IN_PROVIDER_UNAVAILABLE',
  'SIGN_IN_TOKEN_INVALID',
  'SIGN_IN_TOKEN_EXPIRED',
  'SIGN_IN_TOKEN_WRONG_AUDIENCE',
  'SIGN_IN_TOKEN_WRONG_ISSUER',
  'SIGN_IN_TOKEN_BAD_SIGNATURE',
  'SIGN_IN_TOKEN_UNKNOWN_KEY',
  'SIGN_IN_EMAIL_NOT_VERIFIED',
  'SIGN_IN_EMAIL_MISSING',
  'CACHE_UNAVAILABLE',
  'PASSWORD_CHECKS_BUSY',
  'DATABASE_UNAVAILABLE',
  'REQUEST_TOO_LARGE',
  'SERVICE_NOT_FOUND',
  'DENIAL_NEEDS_REASON',
  'PAYMENT_DECLINED',
  'PAYMENT_METHOD_INVALID',
  'AMOUNT_TOO_SMALL',
  'PAYMENT_STATE',
  'AUTHORIZATION_EXPIRED',
  'REQUEST_ID_REUSED',
  'REQUEST_IN_PROGRESS',
  'PAYMENT_GATEWAY_UNAVAILABLE',
  'PAYMENT_NOT_FOUND',
  'COUPON_INVALID',
  'COUPON_CODE_TAKEN',
  'PHONE_NOT_VERIFIED',
  'PROFESSIONAL_NOT_APPROVED',
  'MEMBERSHIP_INACTIVE',
  'TEST_MODE_ONLY',
  'ADDRESS_NOT_FOUND',
  'REPAIR_REQUEST_NOT_OPEN',
  'REPAIR_REQUEST_LIMIT',
  'DISTANCE_UNAVAILABLE',
  'NO_ROUTE',
  'FEE_BELOW_MINIMUM',
  'QUOTE_EXISTS',
  'QUOTE_NOT_SUBMITTED',
  'STRIPE_NOT_CONFIGURED',
  'UNAVAILABLE',
  'UNIMPLEMENTED',
  'INTERNAL',
] as const;

export type KnownReason = (typeof KNOWN_REASONS)[number];

export function isKnownReason(reason: string): reason is KnownReason {
  return (KNOWN_REASONS as readonly string[]).includes(reason);
}

/** The catalogue key of a reason's message, or null when the reason is unknown. */
export function reasonMessageKey(reason: string): TranslationKey | null {
  return isKnownReason(reason) ? (`errors.reasons.${reason}` as TranslationKey) : null;
}
