import { TransportProvider } from '@connectrpc/connect-query';
import type { ReactNode } from 'react';
import { Outlet, useLocation } from 'react-router';
import { LocalizedNavigate } from '@/components/localized-navigation';
import { RouteLoader } from '@/components/route-loader';
import { guardRedirect, type Role } from '@/lib/session';
import { sessionEndedState } from '../session-ended';
import { useSessionKeeper, useSessionUpkeep } from './session-keeper';

interface RequireRoleProps {
  role: Role;
  /** What to show; the nested routes when left out. */
  children?: ReactNode;
}

/**
 * Shows its content only to a signed-in `role`, as the session rules in `@/lib/session`
 * decide: without a session it sends the browser to the role's sign-in page; a session whose
 * token ended but whose sign-in goes on is renewed in place (the page stays, with what is
 * typed in it); a session that is over goes through the logout route to the sign-in page,
 * which says why. Inside, every call carries the role's token, renewed before it ends.
 */
export function RequireRole({ role, children }: RequireRoleProps) {
  const location = useLocation();
  const { keeper, end } = useSessionKeeper(role);
  const check = useSessionUpkeep(role, keeper, end);

  const redirect = guardRedirect(role, check);
  if (redirect) {
    const state =
      check.status === 'expired' ? sessionEndedState(check.reason, location) : undefined;
    return <LocalizedNavigate to={redirect} replace state={state} />;
  }
  // Renewable, but nothing says whose session it is until it is renewed.
  if (check.status === 'renewable' && !check.claims) return <RouteLoader />;
  return (
    <TransportProvider transport={keeper.transport}>{children ?? <Outlet />}</TransportProvider>
  );
}
