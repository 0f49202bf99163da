import { useEffect, useState, type ReactNode } from 'react';
import { Navigate, Outlet } from 'react-router';
import { checkSession, guardRedirect, type Role } from '@/lib/session';
import { browserSessionEnvironment } from '@/lib/session-environment';
import { SessionTransport } from './session-transport';

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
  /** What to show; the nested routes when left out. */
  children?: ReactNode;
}

/**
 * Shows its content only to a signed-in `role` whose session is still valid. Otherwise it
 * sends the browser to the role's sign-in page (no token) or logout route (expired token),
 * as the session rules in `@/lib/session` decide. It also leaves when the session expires
 * while the page is open. Inside, every call carries the role's token.
 */
export function RequireRole({ role, children }: RequireRoleProps) {
  const check = checkSession(role, browserSessionEnvironment());
  useRerenderAt(check.status === 'active' ? check.endsAt * 1000 : null);

  const redirect = guardRedirect(role, check);
  if (redirect) return <Navigate to={redirect} replace />;
  return <SessionTransport role={role}>{children ?? <Outlet />}</SessionTransport>;
}
