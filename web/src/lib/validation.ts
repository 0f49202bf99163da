import { SignUpRequestSchema } from '@/gen/repairs/accounts/v1/accounts_pb';
import { bound, limitOf } from './contract-limits';

/** Input rules shared by the forms; the bounds are SignUpRequest's. */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const NAME = limitOf(SignUpRequestSchema, 'name');
const PASSWORD = limitOf(SignUpRequestSchema, 'password');
/**
 * SignUpRequest.password: "at least 8 characters". Not an annotation: signing in must still
 * take the old app's shorter passwords, so the server checks a new one's length itself.
 */
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = bound(PASSWORD.maxLen, 'longest password');

export const notBlank = (value: string) => value.trim() !== '';
