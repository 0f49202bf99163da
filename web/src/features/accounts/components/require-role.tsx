import { useEffect, useState, type ReactNode } from 'react';
import { Navigate, Outlet } from 'react-router';
import {
  PROFESSIONAL_STATUS_PATHS,
  checkSession,
  guardRedirect,
  readProfessionalStatus,
  type Role,
} from '@/lib/session';
import { browserSessionEnvironment } from '../session-environment';

/** setTimeout's longest delay (about 24.8 days). */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** Re-renders when `atMs` (epoch ms) is reached, so an expiring session is noticed in place. */
function useRerenderAt(atMs: number | null) {
  const [, setTick] = useState(0);
  useEffect(() => {
    if (atMs === null || !Number.isFinite(atMs)) return;
    const delay = Math.min(Math.max(atMs - Date.now(), 0), MAX_TIMER_MS);
    const timer = window.setTimeout(() => setTick((tick) => tick + 1), delay);
    return () => window.clearTimeout(timer);
  }, [atMs]);
}

interface RequireRoleProps {
  role: Role;
  /**
   * For the professional work screens: a professional who is not approved is sent to the
   * page of their status (waiting for approval, denied, profile review pending).
   */
  requireApproval?: boolean;
  /** What to show; the nested routes when left out. */
  children?: ReactNode;
}

/**
 * Shows its content only to a signed-in `role` whose session is still valid. Otherwise it
 * sends the browser to the role's sign-in page (no token) or logout route (expired token),
 * as the session rules in `@/lib/session` decide. It also leaves when the session expires
 * while the page is open.
 */
export function RequireRole({ role, requireApproval = false, children }: RequireRoleProps) {
  const env = browserSessionEnvironment();
  const check = checkSession(role, env);
  useRerenderAt(check.status === 'active' ? check.endsAt * 1000 : null);

  const redirect =
    guardRedirect(role, check) ??
    (requireApproval && role === 'professional'
      ? PROFESSIONAL_STATUS_PATHS[readProfessionalStatus(env.store)]
      : null);
  if (redirect) return <Navigate to={redirect} replace />;
  return children ?? <Outlet />;
}
