import { TransportProvider, useTransport } from '@connectrpc/connect-query';
import { useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { LOGOUT_PATHS, SESSION_KEYS, type Role } from '@/lib/session';
import { browserStore } from '@/lib/storage';
import { withSession } from '../session-transport';

/**
 * Gives the screens of a role's area a transport that sends that role's token, and handles
 * an ended session once for all of them: SESSION_EXPIRED, SESSION_INVALID, SESSION_REVOKED
 * or SIGN_IN_REQUIRED sends the browser to the role's logout route.
 */
export function SessionTransport({ role, children }: { role: Role; children: ReactNode }) {
  const base = useTransport();
  const navigate = useNavigate();
  const [transport] = useState(() => {
    let leaving = false;
    return withSession(base, {
      token: () => browserStore().getItem(SESSION_KEYS[role].token),
      onSessionEnded: () => {
        if (leaving) return;
        leaving = true;
        void navigate(LOGOUT_PATHS[role], { replace: true });
      },
    });
  });
  return <TransportProvider transport={transport}>{children}</TransportProvider>;
}
