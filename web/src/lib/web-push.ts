/**
 * This browser's side of Web Push: the service worker (`/sw.js`, built from
 * `src/service-worker/`), the notification permission and the push subscription. Kept behind
 * [`PushDevice`] so screens can be tested with a stand-in; the server's side (the VAPID key,
 * keeping the subscription) is the accounts feature's.
 */

export const SERVICE_WORKER_URL = '/sw.js';

/** A subscription as the server takes it (`PushSubscription.toJSON()`), and its way out. */
export interface DeviceSubscription {
  endpoint: string;
  p256dh: string;
  auth: string;
  unsubscribe(): Promise<boolean>;
}

export interface PushDevice {
  /** Whether this browser has service workers, push and notifications. */
  supported(): boolean;
  permission(): NotificationPermission;
  /** Asks the person (only ever after they pressed something). */
  requestPermission(): Promise<NotificationPermission>;
  /** This browser's subscription, if it has one. */
  current(): Promise<DeviceSubscription | null>;
  /** Registers the worker and subscribes with the server's VAPID key (base64url). */
  subscribe(publicKey: string): Promise<DeviceSubscription>;
}

/** The bytes of base64url `text` (the VAPID key as the server gives it). */
export function base64UrlBytes(text: string): Uint8Array<ArrayBuffer> {
  const base64 = text.replace(/-/g, '+').replace(/_/g, '/');
  const binary = atob(base64.padEnd(Math.ceil(base64.length / 4) * 4, '='));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

function deviceSubscription(subscription: PushSubscription): DeviceSubscription {
  const { keys } = subscription.toJSON();
  return {
    endpoint: subscription.endpoint,
    p256dh: keys?.p256dh ?? '',
    auth: keys?.auth ?? '',
    unsubscribe: () => subscription.unsubscribe(),
  };
}

const sameBytes = (a: ArrayBuffer | null | undefined, b: Uint8Array) =>
  !!a && a.byteLength === b.length && new Uint8Array(a).every((byte, i) => byte === b[i]);

function register(): Promise<ServiceWorkerRegistration> {
  return navigator.serviceWorker.register(SERVICE_WORKER_URL, { scope: '/' });
}

export const browserPushDevice: PushDevice = {
  supported: () =>
    typeof window !== 'undefined' &&
    'serviceWorker' in navigator &&
    'PushManager' in window &&
    'Notification' in window,
  permission: () => Notification.permission,
  requestPermission: () => Notification.requestPermission(),
  async current() {
    const registration = await navigator.serviceWorker.getRegistration('/');
    const subscription = await registration?.pushManager.getSubscription();
    return subscription ? deviceSubscription(subscription) : null;
  },
  async subscribe(publicKey) {
    await register();
    // A subscription needs the worker active, not just registered.
    const registration = await navigator.serviceWorker.ready;
    const key = base64UrlBytes(publicKey);
    const old = await registration.pushManager.getSubscription();
    // One made with another key (the server's changed) cannot be subscribed over.
    if (old && !sameBytes(old.options.applicationServerKey, key)) await old.unsubscribe();
    const subscription = await registration.pushManager.subscribe({
      userVisibleOnly: true,
      applicationServerKey: key,
    });
    return deviceSubscription(subscription);
  },
};

/**
 * Registers the worker once the page has loaded (at once when it already has: a prerendered
 * page starts the app on the first interaction), in built apps (not under the dev server),
 * so that pages opened later without a network get the offline page, and the app can be
 * installed.
 */
export function registerServiceWorker(): void {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  const start = () => {
    register().catch((error: unknown) => console.warn('service worker not registered', error));
  };
  if (document.readyState === 'complete') start();
  else window.addEventListener('load', start, { once: true });
}
