import { useEffect, useState } from 'react';
import { toProtoLanguage } from '@/lib/proto-language';
import { browserStore } from '@/lib/storage';
import { useLanguage } from '@/lib/use-language';
import { useSignedInId } from '@/lib/use-signed-in-id';
import { browserPushDevice, type PushDevice } from '@/lib/web-push';
import { useAddPushSubscription } from '../api/add-push-subscription';
import {
  deviceAccount,
  deviceAlertsLanguage,
  deviceOwner,
  rememberDeviceOwner,
} from '../device-owner';
import type { AlertsRole } from './use-device-alerts';

/**
 * Keeps this browser's alerts in the language of the pages: once the language switch has
 * reloaded the site in the other language, the first signed-in page tells the server, so the
 * alert of a 2 a.m. emergency reads in the language the person uses the site in. Only the
 * account that turned alerts on here sends it, only when the language differs from the one
 * last sent, and nothing is asked of the person. Renders nothing.
 */
export function DeviceAlertsFollowLanguage({
  role,
  device = browserPushDevice,
}: {
  role: AlertsRole;
  device?: PushDevice;
}) {
  const account = deviceAccount(role, useSignedInId(role) ?? '');
  // Read once: `browserStore` probes localStorage with a write at each call.
  const [store] = useState(browserStore);
  const language = useLanguage();
  const { mutateAsync: add } = useAddPushSubscription();

  useEffect(() => {
    if (!device.supported() || device.permission() !== 'granted') return;
    const follow = async () => {
      const subscription = await device.current();
      if (!subscription || deviceOwner(store, subscription.endpoint) !== account) return;
      if (deviceAlertsLanguage(store, subscription.endpoint) === language) return;
      await add({
        endpoint: subscription.endpoint,
        keys: { p256dh: subscription.p256dh, auth: subscription.auth },
        language: toProtoLanguage(language),
      });
      rememberDeviceOwner(store, subscription.endpoint, account, language);
    };
    // Not recorded as sent: the next signed-in page tries again.
    follow().catch(() => undefined);
  }, [device, store, account, language, add]);

  return null;
}
