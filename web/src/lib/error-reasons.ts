/**
 * The one place where a server reason code becomes a message key. The reasons are those of the
 * contract, `repairs.errors.v1.ErrorReason` (proto/repairs/errors/v1/errors.proto): protobuf-es
 * names its values without their `ERROR_REASON_` prefix, which is exactly the string the server
 * puts in `ErrorInfo.reason`. Every reason has a text in both catalogues under `errors.reasons`
 * (src/locales/catalogues.test.ts checks it); an unknown reason shows the server's own message.
 */
import { ErrorReason } from '@/gen/repairs/errors/v1/errors_pb';
import type { TranslationKey } from './translation-key';

/** A reason the server can send: a value of the contract's enum but its UNSPECIFIED zero. */
export type ServerReason = Exclude<keyof typeof ErrorReason, 'UNSPECIFIED'>;

/** Every reason of the contract, in its order. */
export const SERVER_REASONS: readonly ServerReason[] = (
  Object.keys(ErrorReason) as (keyof typeof ErrorReason)[]
).filter((name): name is ServerReason => name !== 'UNSPECIFIED');

/**
 * Reasons this app gives an error that reached it without an ErrorInfo (a proxy or the
 * network failed, or a method the server does not have), from its gRPC code (rpc-error.ts).
 * The server never sends them.
 */
export const CLIENT_REASONS = ['UNAVAILABLE', 'UNIMPLEMENTED'] as const;

export type KnownReason = ServerReason | (typeof CLIENT_REASONS)[number];

export const KNOWN_REASONS: readonly KnownReason[] = [...SERVER_REASONS, ...CLIENT_REASONS];

export function isKnownReason(reason: string): reason is KnownReason {
  return (KNOWN_REASONS as readonly string[]).includes(reason);
}

/** The catalogue key of a reason's message, or null when the reason is unknown. */
export function reasonMessageKey(reason: string): TranslationKey | null {
  return isKnownReason(reason) ? (`errors.reasons.${reason}` satisfies TranslationKey) : null;
}
