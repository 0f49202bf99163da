import type { Transport } from '@connectrpc/connect';
import { useTransport } from '@connectrpc/connect-query';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { FullPageLoader } from '@/components/full-page-loader';
import { forgetDrafts } from '@/lib/drafts';
import { useLocalizedNavigate } from '@/lib/localized-navigation';
import {
  AFTER_LOGOUT_PATHS,
  SESSION_KEYS,
  SIGN_IN_PATHS,
  endSession,
  storedAccountId,
  type Role,
} from '@/lib/session';
import { browserStore, type KeyValueStore } from '@/lib/storage';
import { browserPushDevice, type PushDevice } from '@/lib/web-push';
import { signOut } from '../api/sign-out';
import { deviceAccount, deviceOwner, forgetDeviceOwner } from '../device-owner';
import { readSessionEnded } from '../session-ended';

/**
 * This browser's push subscription when `role`'s account turned its alerts on here (another
 * account's, or none, is left alone).
 */
async function accountsDevice(
  role: Role,
  accountId: string,
  store: KeyValueStore,
  device: PushDevice,
) {
  if (!device.supported()) return null;
  const subscription = await device.current().catch(() => null);
  const owner = subscription && deviceOwner(store, subscription.endpoint);
  return owner === deviceAccount(role, accountId) ? subscription : null;
}

/**
 * A sign-out the person asked for: the server ends the sign-in (AccountsService.SignOut with
 * the refresh token) and forgets this browser's alerts of the account, and the account's
 * drafts are forgotten. The browser's subscription ends too, so a server that cannot be
 * reached still sends no more alerts here (its push service refuses them, and the server
 * then forgets the subscription). Nor does such a server keep anyone signed in: the browser
 * forgets the session all the same.
 */
async function signOutOnServer(
  role: Role,
  store: KeyValueStore,
  transport: Transport,
  device: PushDevice,
) {
  const accountId = storedAccountId(role, store);
  if (accountId) forgetDrafts(store, accountId);
  const alerts = accountId ? await accountsDevice(role, accountId, store, device) : null;
  const refreshToken = store.getItem(SESSION_KEYS[role].refresh);
  if (refreshToken) {
    try {
      await signOut(transport, refreshToken, alerts?.endpoint);
    } catch {
      // Nothing to do: the stored session goes below, the sign-in ends with its lifetime.
    }
  }
  if (alerts) {
    await alerts.unsubscribe().catch(() => false);
    forgetDeviceOwner(store);
  }
}

/**
 * The logout routes (/user-logout, /professional-logout, /admin/logout): sign out on the
 * server, clear the role's stored session and the cached server data, then leave (customers
 * and admins to the home page, professionals to the professional page). Opened because the
 * session ended (with why and where the person was), they skip the sign-out, keep the drafts
 * and the device's alerts (an emergency still reaches a professional whose session lapsed),
 * and open the role's sign-in page, which says why and leads back.
 */
export function Logout({ role, device = browserPushDevice }: { role: Role; device?: PushDevice }) {
  const { t } = useTranslation();
  const navigate = useLocalizedNavigate();
  const queryClient = useQueryClient();
  const transport = useTransport();
  const ended = readSessionEnded(useLocation().state);
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const store = browserStore();
    void (async () => {
      if (!ended) await signOutOnServer(role, store, transport, device);
      endSession(role, store);
      queryClient.clear();
      if (ended) {
        void navigate(SIGN_IN_PATHS[role], { replace: true, state: ended });
      } else {
        void navigate(AFTER_LOGOUT_PATHS[role], { replace: true });
      }
    })();
  }, [role, navigate, queryClient, transport, ended, device]);

  return <FullPageLoader label={t('session.signingOut')} />;
}
