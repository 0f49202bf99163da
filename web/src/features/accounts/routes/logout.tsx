import type { Transport } from '@connectrpc/connect';
import { useTransport } from '@connectrpc/connect-query';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { FullPageLoader } from '@/components/full-page-loader';
import { forgetDrafts } from '@/lib/drafts';
import {
  AFTER_LOGOUT_PATHS,
  SESSION_KEYS,
  endSession,
  storedAccountId,
  type Role,
} from '@/lib/session';
import { browserStore, type KeyValueStore } from '@/lib/storage';
import { useLanguage } from '@/lib/use-language';
import { signOut } from '../api/sign-out';
import { readSessionEnded, signInPath } from '../session-ended';

/**
 * A sign-out the person asked for: the server ends the sign-in (AccountsService.SignOut with
 * the refresh token) and the account's drafts are forgotten. A server that cannot be reached
 * does not keep anyone signed in: the browser forgets the session all the same.
 */
async function signOutOnServer(role: Role, store: KeyValueStore, transport: Transport) {
  const accountId = storedAccountId(role, store);
  if (accountId) forgetDrafts(store, accountId);
  const refreshToken = store.getItem(SESSION_KEYS[role].refresh);
  if (!refreshToken) return;
  try {
    await signOut(transport, refreshToken);
  } catch {
    // Nothing to do: the stored session goes below, the sign-in ends with its lifetime.
  }
}

/**
 * The logout routes (/user-logout, /professional-logout, /admin/logout): sign out on the
 * server, clear the role's stored session and the cached server data, then leave (customers
 * and admins to the home page, professionals to the professional page). Opened because the
 * session ended (with why and where the person was), they skip the sign-out, keep the drafts
 * and open the role's sign-in page, which says why and leads back.
 */
export function Logout({ role }: { role: Role }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const transport = useTransport();
  const language = useLanguage();
  const ended = readSessionEnded(useLocation().state);
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const store = browserStore();
    void (async () => {
      if (!ended) await signOutOnServer(role, store, transport);
      endSession(role, store);
      queryClient.clear();
      if (ended) {
        void navigate(signInPath(role, language), { replace: true, state: ended });
      } else {
        void navigate(AFTER_LOGOUT_PATHS[role], { replace: true });
      }
    })();
  }, [role, navigate, queryClient, transport, language, ended]);

  return <FullPageLoader label={t('session.signingOut')} />;
}
