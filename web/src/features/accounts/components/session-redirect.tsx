import type { ReactNode } from 'react';
import { Outlet } from 'react-router';
import { LocalizedNavigate } from '@/components/localized-navigation';
import {
  professionalLandingRedirect,
  signedInRedirect,
  type Role,
  type SessionEnvironment,
} from '@/lib/session';
import { browserSessionEnvironment } from '@/lib/session-environment';

function RedirectWhen({
  decide,
  children,
}: {
  decide: (env: SessionEnvironment) => string | null;
  children?: ReactNode;
}) {
  const to = decide(browserSessionEnvironment());
  if (to) return <LocalizedNavigate to={to} replace />;
  return children ?? <Outlet />;
}

/**
 * Wraps the sign-in and sign-up pages of a role: someone already signed in as that role goes
 * to their first page (customer: create request; professional: dashboard or profile form;
 * admin: professionals list).
 */
export function RedirectIfSignedIn({ role, children }: { role: Role; children?: ReactNode }) {
  return <RedirectWhen decide={(env) => signedInRedirect(role, env)}>{children}</RedirectWhen>;
}

/** Wraps the professional landing pages: signed-in professionals go to their area. */
export function ProfessionalLandingRedirect({ children }: { children?: ReactNode }) {
  return <RedirectWhen decide={professionalLandingRedirect}>{children}</RedirectWhen>;
}
