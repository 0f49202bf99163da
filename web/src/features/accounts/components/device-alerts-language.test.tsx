import { waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { Language } from '@/gen/repairs/type/v1/common_pb';
import type { Language as PageLanguage } from '@/lib/language';
import type { DeviceSubscription, PushDevice } from '@/lib/web-push';
import { renderInApp } from '@/test/render-app';
import { CUSTOMER_ID, PROFESSIONAL_ID, signIn, stubServer } from '@/test/stub-server';
import { DeviceAlertsFollowLanguage } from './device-alerts-language';

const ENDPOINT = 'https://fcm.googleapis.com/fcm/send/device-1';

/** A browser subscribed to push, its notifications allowed (or `permission`). */
function subscribedDevice(permission: NotificationPermission = 'granted') {
  const subscription: DeviceSubscription = {
    endpoint: ENDPOINT,
    p256dh: 'p256dh-key',
    auth: 'auth-secret',
    unsubscribe: vi.fn(async () => true),
  };
  return {
    supported: () => true,
    permission: () => permission,
    requestPermission: vi.fn(async () => permission),
    current: vi.fn(async () => subscription),
    subscribe: vi.fn(async () => subscription),
  } satisfies PushDevice;
}

function owned(account: string, language?: PageLanguage) {
  localStorage.setItem('device-alerts', JSON.stringify({ endpoint: ENDPOINT, account, language }));
}

const serverThat = ({ fails = false } = {}) =>
  stubServer({
    addPushSubscription: () => {
      if (fails) throw new Error('server away');
      return {};
    },
  });

function render(device: PushDevice, language: PageLanguage, server = serverThat()) {
  signIn('professional', PROFESSIONAL_ID);
  const view = renderInApp(
    <DeviceAlertsFollowLanguage role="professional" device={device} />,
    server.transport,
    language,
  );
  return { server, view };
}

const record = () => JSON.parse(localStorage.getItem('device-alerts') ?? '{}') as object;

describe('Alerts follow the language of the pages', () => {
  it('tells the server the new language once, after the site was switched to French', async () => {
    owned(`professional:${PROFESSIONAL_ID}`, 'en');
    const device = subscribedDevice();
    const { server, view } = render(device, 'fr');
    await waitFor(() => expect(record()).toMatchObject({ language: 'fr' }));
    expect(server.requests('addPushSubscription')).toEqual([
      expect.objectContaining({
        endpoint: ENDPOINT,
        keys: expect.objectContaining({ p256dh: 'p256dh-key', auth: 'auth-secret' }),
        language: Language.FR,
      }),
    ]);
    expect(record()).toEqual({
      endpoint: ENDPOINT,
      account: `professional:${PROFESSIONAL_ID}`,
      language: 'fr',
    });

    // Another signed-in page in French: nothing more to say.
    view.unmount();
    render(device, 'fr', server);
    await waitFor(() => expect(device.current).toHaveBeenCalledTimes(2));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(server.requests('addPushSubscription')).toHaveLength(1);
  });

  it('sends a record written before alerts followed the language once', async () => {
    owned(`professional:${PROFESSIONAL_ID}`);
    const { server } = render(subscribedDevice(), 'en');
    await waitFor(() => expect(record()).toMatchObject({ language: 'en' }));
    expect(server.requests('addPushSubscription')).toEqual([
      expect.objectContaining({ language: Language.EN }),
    ]);
  });

  it('leaves another account’s alerts, and alerts already in the page’s language, alone', async () => {
    owned(`customer:${CUSTOMER_ID}`, 'en');
    const device = subscribedDevice();
    const { server, view } = render(device, 'fr');
    await waitFor(() => expect(device.current).toHaveBeenCalled());
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(server.requests('addPushSubscription')).toEqual([]);
    expect(record()).toMatchObject({ language: 'en' });
    view.unmount();

    owned(`professional:${PROFESSIONAL_ID}`, 'fr');
    render(device, 'fr', server);
    await waitFor(() => expect(device.current).toHaveBeenCalledTimes(2));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(server.requests('addPushSubscription')).toEqual([]);
  });

  it('asks nothing of a browser whose notifications are not allowed', async () => {
    owned(`professional:${PROFESSIONAL_ID}`, 'en');
    const device = subscribedDevice('default');
    const { server } = render(device, 'fr');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(device.current).not.toHaveBeenCalled();
    expect(device.requestPermission).not.toHaveBeenCalled();
    expect(server.requests('addPushSubscription')).toEqual([]);
  });

  it('keeps the old language recorded when the server cannot be told, so the next page tries again', async () => {
    owned(`professional:${PROFESSIONAL_ID}`, 'en');
    const { server } = render(subscribedDevice(), 'fr', serverThat({ fails: true }));
    await waitFor(() => expect(server.requests('addPushSubscription')).toHaveLength(1));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(record()).toMatchObject({ language: 'en' });
  });
});
