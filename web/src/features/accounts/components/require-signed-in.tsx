import type { ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { activeSessions, AS_ROLE_PARAM, chosenRole, type Role } from '@/lib/session';
import { browserSessionEnvironment } from '@/lib/session-environment';
import { RequireRole } from './require-role';

interface RequireSignedInProps {
  /** Each role's area (its gates and layout), around the page. */
  areas: Record<Role, ReactNode>;
}

/**
 * Shows a page to whoever is signed in, in their own area, with their session: RequireRole of
 * the role chosen (`chosenRole`), which sends a visitor to that role's sign-in.
 */
export function RequireSignedIn({ areas }: RequireSignedInProps) {
  const [params] = useSearchParams();
  const signedIn = activeSessions(browserSessionEnvironment()).map((session) => session.role);
  const role = chosenRole(params.get(AS_ROLE_PARAM), signedIn);
  return (
    <RequireRole key={role} role={role}>
      {areas[role]}
    </RequireRole>
  );
}
