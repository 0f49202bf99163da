import { Code, ConnectError } from '@connectrpc/connect';
import { useEffect, useState } from 'react';
import { toProtoLanguage } from '@/lib/proto-language';
import { browserStore } from '@/lib/storage';
import { useLanguage } from '@/lib/use-language';
import { useSignedInId } from '@/lib/use-signed-in-id';
import type { PushDevice } from '@/lib/web-push';
import { useAddPushSubscription } from '../api/add-push-subscription';
import { useFetchPushPublicKey } from '../api/get-push-public-key';
import { useRemovePushSubscription } from '../api/remove-push-subscription';
import {
  deviceAccount,
  deviceOwner,
  forgetDeviceOwner,
  rememberDeviceOwner,
} from '../device-owner';

export type AlertsRole = 'customer' | 'professional';

/**
 * `checking`: reading this browser's subscription; `unsupported`: no push in this browser;
 * `denied`: notifications blocked for the site (only the browser's settings can allow them).
 */
export type AlertsStatus = 'checking' | 'unsupported' | 'denied' | 'off' | 'on';

export type AlertsProblem =
  | { kind: 'rpc'; error: unknown }
  /** The browser failed to subscribe or unsubscribe. */
  | { kind: 'failed' }
  /** The person closed the permission prompt without allowing. */
  | { kind: 'dismissed' };

const initialStatus = (device: PushDevice): AlertsStatus => {
  if (!device.supported()) return 'unsupported';
  return device.permission() === 'denied' ? 'denied' : 'checking';
};

/**
 * The "Alert me on this device" switch's state and actions. The permission is asked only in
 * `turn(true)`, that is once the person pressed the switch.
 */
export function useDeviceAlerts(role: AlertsRole, device: PushDevice) {
  const account = deviceAccount(role, useSignedInId(role) ?? '');
  // Read once: `browserStore` probes localStorage with a write at each call.
  const [store] = useState(browserStore);
  const language = useLanguage();
  const fetchKey = useFetchPushPublicKey();
  const add = useAddPushSubscription();
  const remove = useRemovePushSubscription();
  const [status, setStatus] = useState<AlertsStatus>(() => initialStatus(device));
  const [busy, setBusy] = useState(false);
  /** What the person asked for, shown by the switch while it is being done. */
  const [asked, setAsked] = useState(false);
  const [problem, setProblem] = useState<AlertsProblem | null>(null);
  /** What the last change did, said to screen readers. */
  const [done, setDone] = useState<'on' | 'off' | null>(null);

  useEffect(() => {
    if (status !== 'checking') return;
    let live = true;
    device.current().then(
      (subscription) => {
        if (live)
          setStatus(
            subscription && deviceOwner(store, subscription.endpoint) === account ? 'on' : 'off',
          );
      },
      () => live && setStatus('off'),
    );
    return () => {
      live = false;
    };
  }, [device, status, account, store]);

  const turnOn = async () => {
    const permission = await device.requestPermission();
    if (permission === 'denied') return setStatus('denied');
    if (permission !== 'granted') return setProblem({ kind: 'dismissed' });
    const { publicKey } = await fetchKey();
    const subscription = await device.subscribe(publicKey);
    try {
      await add.mutateAsync({
        endpoint: subscription.endpoint,
        keys: { p256dh: subscription.p256dh, auth: subscription.auth },
        language: toProtoLanguage(language),
      });
    } catch (error) {
      // The server does not have it: a subscription nobody sends to would show "on".
      await subscription.unsubscribe().catch(() => false);
      throw error;
    }
    rememberDeviceOwner(store, subscription.endpoint, account, language);
    setStatus('on');
    setDone('on');
  };

  const turnOff = async () => {
    const subscription = await device.current();
    if (subscription) {
      try {
        await remove.mutateAsync({ endpoint: subscription.endpoint });
      } catch (error) {
        // Not (or no longer) this account's: nothing to forget on the server.
        if (!(error instanceof ConnectError && error.code === Code.NotFound)) throw error;
      }
      await subscription.unsubscribe();
    }
    forgetDeviceOwner(store);
    setStatus('off');
    setDone('off');
  };

  const turn = (on: boolean) => {
    setBusy(true);
    setAsked(on);
    setProblem(null);
    setDone(null);
    (on ? turnOn() : turnOff())
      .catch((error: unknown) =>
        setProblem(error instanceof ConnectError ? { kind: 'rpc', error } : { kind: 'failed' }),
      )
      .finally(() => setBusy(false));
  };

  return { status, busy, problem, done, turn, checked: busy ? asked : status === 'on' };
}
