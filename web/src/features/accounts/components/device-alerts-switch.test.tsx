import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { Language } from '@/gen/repairs/type/v1/common_pb';
import type { Language as PageLanguage } from '@/lib/language';
import { base64UrlBytes, type DeviceSubscription, type PushDevice } from '@/lib/web-push';
import { renderApp, renderInApp } from '@/test/render-app';
import {
  CUSTOMER_ID,
  Code,
  PROFESSIONAL_ID,
  professional,
  rpcError,
  signIn,
  stubServer,
} from '@/test/stub-server';
import { DeviceAlertsSwitch } from './device-alerts-switch';
import type { AlertsRole } from './use-device-alerts';

const PUBLIC_KEY =
  'BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM';
const ENDPOINT = 'https://fcm.googleapis.com/fcm/send/device-1';

/** A browser with push whose person answers the permission prompt with `answer`. */
function fakeDevice({
  answer = 'granted' as NotificationPermission,
  permission = 'default' as NotificationPermission,
  subscribed = false,
  subscribeFails = false,
} = {}) {
  let current: DeviceSubscription | null = null;
  const make = (): DeviceSubscription => ({
    endpoint: ENDPOINT,
    p256dh: 'p256dh-key',
    auth: 'auth-secret',
    unsubscribe: vi.fn(async () => {
      current = null;
      return true;
    }),
  });
  if (subscribed) current = make();
  const device = {
    supported: () => true,
    permission: () => permission,
    requestPermission: vi.fn(async () => answer),
    current: vi.fn(async () => current),
    subscribe: vi.fn(async (key: string) => {
      expect(key).toBe(PUBLIC_KEY);
      if (subscribeFails) throw new DOMException('push service error', 'AbortError');
      current = make();
      return current;
    }),
    subscription: () => current,
  } satisfies PushDevice & { subscription(): DeviceSubscription | null };
  return device;
}

function renderSwitch(
  device: PushDevice,
  server = stubServer(),
  { role = 'professional' as AlertsRole, language = 'en' as PageLanguage } = {},
) {
  signIn(role, role === 'professional' ? PROFESSIONAL_ID : CUSTOMER_ID);
  renderInApp(<DeviceAlertsSwitch role={role} device={device} />, server.transport, language);
  return server;
}

const acceptingServer = () =>
  stubServer({
    getPushPublicKey: () => ({ publicKey: PUBLIC_KEY }),
    addPushSubscription: () => ({}),
    removePushSubscription: () => ({}),
  });

describe('Alert me on this device', () => {
  it('asks for the permission only once pressed, then subscribes and tells the server in the page’s language', async () => {
    const device = fakeDevice();
    const server = renderSwitch(device, acceptingServer(), { language: 'fr' });
    const toggle = await screen.findByRole('checkbox', { name: 'M’alerter sur cet appareil' });
    await waitFor(() => expect(toggle).toBeEnabled());
    expect(device.requestPermission).not.toHaveBeenCalled();
    expect(server.requests('getPushPublicKey')).toEqual([]);

    await userEvent.setup().click(toggle);
    await waitFor(() => expect(toggle).toBeChecked());
    expect(device.requestPermission).toHaveBeenCalledTimes(1);
    expect(device.subscribe).toHaveBeenCalledWith(PUBLIC_KEY);
    expect(server.requests('addPushSubscription')).toEqual([
      expect.objectContaining({
        endpoint: ENDPOINT,
        keys: expect.objectContaining({ p256dh: 'p256dh-key', auth: 'auth-secret' }),
        language: Language.FR,
      }),
    ]);
    expect(screen.getByRole('status')).toHaveTextContent(
      'Les alertes sont activées sur cet appareil.',
    );
    // Recorded with the language sent, which later pages keep in step with theirs.
    expect(JSON.parse(localStorage.getItem('device-alerts') ?? '{}')).toEqual({
      endpoint: ENDPOINT,
      account: `professional:${PROFESSIONAL_ID}`,
      language: 'fr',
    });
  });

  it('says how to allow notifications when the person blocks them, and subscribes nothing', async () => {
    const device = fakeDevice({ answer: 'denied' });
    const server = renderSwitch(device, acceptingServer());
    const toggle = await screen.findByRole('checkbox', { name: 'Alert me on this device' });
    await waitFor(() => expect(toggle).toBeEnabled());
    await userEvent.setup().click(toggle);
    expect(await screen.findByText(/Notifications are blocked for this site/)).toBeVisible();
    await waitFor(() => expect(toggle).not.toBeChecked());
    expect(toggle).toBeDisabled();
    expect(device.subscribe).not.toHaveBeenCalled();
    expect(server.requests('addPushSubscription')).toEqual([]);
  });

  it('stays off, saying why, when the prompt is closed without an answer', async () => {
    const device = fakeDevice({ answer: 'default' });
    renderSwitch(device, acceptingServer());
    const toggle = await screen.findByRole('checkbox', { name: 'Alert me on this device' });
    await waitFor(() => expect(toggle).toBeEnabled());
    await userEvent.setup().click(toggle);
    expect(await screen.findByText(/notifications were not allowed/)).toBeVisible();
    await waitFor(() => expect(toggle).not.toBeChecked());
    expect(device.subscribe).not.toHaveBeenCalled();
  });

  it('shows the server’s refusal and drops the browser’s subscription it would not keep', async () => {
    const device = fakeDevice();
    renderSwitch(
      device,
      stubServer({
        getPushPublicKey: () => ({ publicKey: PUBLIC_KEY }),
        addPushSubscription: () => {
          throw rpcError(Code.InvalidArgument, 'PUSH_ENDPOINT_NOT_ALLOWED');
        },
      }),
    );
    const toggle = await screen.findByRole('checkbox', { name: 'Alert me on this device' });
    await waitFor(() => expect(toggle).toBeEnabled());
    await userEvent.setup().click(toggle);
    expect(await screen.findByRole('alert')).toBeVisible();
    await waitFor(() => expect(toggle).not.toBeChecked());
    expect(device.subscription()).toBeNull();
  });

  it('says so in the page when the browser cannot subscribe', async () => {
    const device = fakeDevice({ subscribeFails: true });
    const server = renderSwitch(device, acceptingServer());
    const toggle = await screen.findByRole('checkbox', { name: 'Alert me on this device' });
    await waitFor(() => expect(toggle).toBeEnabled());
    await userEvent.setup().click(toggle);
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Alerts could not be changed on this device. Please try again.',
    );
    expect(server.requests('addPushSubscription')).toEqual([]);
  });

  it('turns off: the server forgets the endpoint, then the browser unsubscribes', async () => {
    const device = fakeDevice();
    const server = renderSwitch(device, acceptingServer());
    const toggle = await screen.findByRole('checkbox', { name: 'Alert me on this device' });
    await waitFor(() => expect(toggle).toBeEnabled());
    const user = userEvent.setup();
    await user.click(toggle);
    await waitFor(() => expect(toggle).toBeChecked());
    const subscription = device.subscription();

    await user.click(toggle);
    await waitFor(() => expect(toggle).not.toBeChecked());
    expect(server.requests('removePushSubscription')).toEqual([
      expect.objectContaining({ endpoint: ENDPOINT }),
    ]);
    expect(subscription?.unsubscribe).toHaveBeenCalled();
    expect(screen.getByRole('status')).toHaveTextContent('Alerts are off for this device.');
  });

  it('is on at load only for the account that turned it on in this browser', async () => {
    const first = fakeDevice();
    renderSwitch(first, acceptingServer());
    const toggle = await screen.findByRole('checkbox', { name: 'Alert me on this device' });
    await waitFor(() => expect(toggle).toBeEnabled());
    await userEvent.setup().click(toggle);
    await waitFor(() => expect(toggle).toBeChecked());
    cleanup();

    renderSwitch(fakeDevice({ subscribed: true, permission: 'granted' }));
    const mine = await screen.findByRole('checkbox', { name: /Alert me/ });
    await waitFor(() => expect(mine).toBeChecked());
    cleanup();

    // Another account on the same browser: the subscription is not theirs.
    renderSwitch(fakeDevice({ subscribed: true, permission: 'granted' }), stubServer(), {
      role: 'customer',
    });
    const theirs = await screen.findByRole('checkbox', { name: /Alert me/ });
    await waitFor(() => expect(theirs).toBeEnabled());
    expect(theirs).not.toBeChecked();
  });

  it('says when the browser has no push, or notifications are blocked', async () => {
    renderSwitch({ ...fakeDevice(), supported: () => false });
    expect(await screen.findByText(/This browser cannot show alerts/)).toBeVisible();
    expect(screen.getByRole('checkbox', { name: /Alert me/ })).toBeDisabled();
    cleanup();

    renderSwitch(fakeDevice({ permission: 'denied' }));
    expect(await screen.findByText(/Notifications are blocked for this site/)).toBeVisible();
    expect(screen.getByRole('checkbox', { name: /Alert me/ })).toBeDisabled();
  });
});

describe('where the switch is', () => {
  it('is on the customer’s account page and the professional’s profile', async () => {
    signIn('customer', CUSTOMER_ID);
    const customer = stubServer({ getCustomer: () => ({}) });
    const { unmount } = renderApp('/user-account-setting', customer.transport);
    // jsdom has no service worker: the browser without push says so.
    expect(await screen.findByRole('checkbox', { name: 'Alert me on this device' })).toBeDisabled();
    expect(screen.getByText(/This browser cannot show alerts/)).toBeVisible();
    unmount();

    signIn('professional', PROFESSIONAL_ID);
    const pro = stubServer({ getProfessional: () => ({ professional: professional() }) });
    renderApp('/view-professional-profile', pro.transport);
    expect(await screen.findByRole('checkbox', { name: 'Alert me on this device' })).toBeVisible();
  });
});

describe('base64UrlBytes', () => {
  it('reads the server’s unpadded base64url key as the 65 bytes of a P-256 point', () => {
    const bytes = base64UrlBytes(PUBLIC_KEY);
    expect(bytes).toHaveLength(65);
    expect(bytes[0]).toBe(4);
  });
});
