/**
 * What a failed call means, read from a ConnectError: the gRPC code, the server's
 * `google.rpc.ErrorInfo` reason (a stable UPPER_SNAKE code the app translates), the
 * `google.rpc.BadRequest` field violations (proto field paths such as
 * `profile.home_base.postal_code`) and the server's own message as the last resort.
 */
import { Code, ConnectError } from '@connectrpc/connect';
import { BadRequestSchema, ErrorInfoSchema } from '@/gen/google/rpc/error_details_pb';

export interface FieldProblem {
  /** The request field in proto path form: `email`, `profile.radius_km`. */
  field: string;
  /** What the server says is wrong, in English. */
  description: string;
}

export interface RpcProblem {
  code: Code;
  /** The ErrorInfo reason; for an error without one, a reason derived from the code. */
  reason: string;
  /** The server's message (English), shown when the reason has no translation. */
  message: string;
  violations: FieldProblem[];
}

/** Reasons for errors that carry no ErrorInfo (a proxy or the network failed). */
const CODE_REASONS: Partial<Record<Code, string>> = {
  [Code.Unavailable]: 'UNAVAILABLE',
  [Code.DeadlineExceeded]: 'UNAVAILABLE',
  [Code.Unimplemented]: 'UNIMPLEMENTED',
  [Code.InvalidArgument]: 'INVALID_ARGUMENT',
  [Code.Unauthenticated]: 'SIGN_IN_REQUIRED',
  [Code.NotFound]: 'NOT_FOUND',
};

export function readRpcError(error: unknown): RpcProblem {
  const connectError = ConnectError.from(error);
  const info = connectError.findDetails(ErrorInfoSchema)[0];
  const violations = connectError
    .findDetails(BadRequestSchema)
    .flatMap((bad) => bad.fieldViolations)
    .map(({ field, description }) => ({ field, description }));
  return {
    code: connectError.code,
    reason: info?.reason || CODE_REASONS[connectError.code] || 'INTERNAL',
    message: connectError.rawMessage,
    violations,
  };
}

/**
 * The reasons that mean the stored session is no longer accepted: renew it (SESSION_EXPIRED,
 * see `./session-renewal`) or sign in again.
 */
export const SESSION_ENDED_REASONS: readonly string[] = [
  'SESSION_EXPIRED',
  'SESSION_INVALID',
  'SESSION_REVOKED',
  'SESSION_TOO_OLD',
  'SIGN_IN_REQUIRED',
];

export function isSessionEnded(problem: RpcProblem): boolean {
  return SESSION_ENDED_REASONS.includes(problem.reason);
}
