/**
 * What the service worker (`/sw.js`, scope `/`) does, written against the few parts of the
 * worker's global scope it uses so that tests can hand it fakes:
 * - `push`: shows the alert the server sent (JSON `{title, body, url, tag}`, already in the
 *   device's language); a newer alert with the same tag replaces the shown one and rings again.
 * - `notificationclick`: focuses a tab of the app already on the alert's page, or takes an open
 *   tab of the app there, or opens a new one.
 * - `fetch`: a page opened while the network is down gets the offline page (English and
 *   French); every other request goes to the network untouched.
 */

/** The alert as the server writes it (`server/src/accounts/push.rs`). */
export interface Alert {
  title: string;
  body: string;
  /** The page a click opens (absolute, under the server's PUBLIC_URL). */
  url: string;
  /** One notification per thing: a newer one with the same tag replaces it. */
  tag: string;
}

export interface AppWindow {
  url: string;
  focus(): Promise<AppWindow>;
  navigate(url: string): Promise<AppWindow | null>;
}

interface Waitable {
  waitUntil(work: Promise<unknown>): void;
}

export interface PushEventLike extends Waitable {
  data: { text(): string } | null;
}

export interface NotificationClickLike extends Waitable {
  notification: { data: unknown; close(): void };
}

export interface FetchEventLike {
  request: { mode: string; url: string };
  preloadResponse?: Promise<Response | undefined>;
  respondWith(response: Promise<Response>): void;
}

/** The parts of `ServiceWorkerGlobalScope` the worker uses. */
export interface WorkerScope {
  registration: {
    scope: string;
    showNotification(
      title: string,
      options: NotificationOptions & { renotify?: boolean },
    ): Promise<void>;
    navigationPreload?: { enable(): Promise<void> };
  };
  clients: {
    matchAll(options: {
      type: 'window';
      includeUncontrolled: boolean;
    }): Promise<readonly AppWindow[]>;
    openWindow(url: string): Promise<unknown>;
    claim(): Promise<void>;
  };
  skipWaiting(): Promise<void>;
  fetch(request: FetchEventLike['request']): Promise<Response>;
  addEventListener(type: 'install' | 'activate', listener: (event: Waitable) => void): void;
  addEventListener(type: 'push', listener: (event: PushEventLike) => void): void;
  addEventListener(
    type: 'notificationclick',
    listener: (event: NotificationClickLike) => void,
  ): void;
  addEventListener(type: 'fetch', listener: (event: FetchEventLike) => void): void;
}

/** The app's name: the title of an alert whose payload cannot be read. */
const APP_NAME = 'Repairs 24/7';
export const ALERT_ICON = '/icons/icon-192.png';

/** The alert in a push's data; one without a readable payload opens the app's home page. */
export function readAlert(data: PushEventLike['data']): Alert {
  const fallback: Alert = { title: APP_NAME, body: '', url: '/', tag: '' };
  if (!data) return fallback;
  try {
    const value: unknown = JSON.parse(data.text());
    if (value === null || typeof value !== 'object') return fallback;
    const field = (name: keyof Alert) => {
      const text = (value as Record<string, unknown>)[name];
      return typeof text === 'string' ? text : '';
    };
    return {
      title: field('title') || APP_NAME,
      body: field('body'),
      url: field('url') || '/',
      tag: field('tag'),
    };
  } catch {
    return fallback;
  }
}

/**
 * `url` as a page of this app: its path, query and fragment under the worker's origin, so a
 * click never opens another site (and an alert written for another host name of the app, say
 * www, still opens here).
 */
export function appPage(url: unknown, scope: string): string {
  const base = new URL(scope);
  try {
    const target = new URL(typeof url === 'string' && url !== '' ? url : '/', base);
    return new URL(`${target.pathname}${target.search}${target.hash}`, base.origin).href;
  } catch {
    return base.href;
  }
}

export async function showAlert(scope: WorkerScope, data: PushEventLike['data']): Promise<void> {
  const alert = readAlert(data);
  await scope.registration.showNotification(alert.title, {
    body: alert.body,
    icon: ALERT_ICON,
    badge: ALERT_ICON,
    data: { url: appPage(alert.url, scope.registration.scope) },
    // A tag lets the newer alert replace the older one; renotify makes it ring again.
    ...(alert.tag ? { tag: alert.tag, renotify: true } : {}),
  });
}

export async function openAlert(
  scope: WorkerScope,
  notification: NotificationClickLike['notification'],
): Promise<void> {
  notification.close();
  const data = notification.data as { url?: unknown } | null;
  const target = appPage(data?.url, scope.registration.scope);
  const windows = await scope.clients.matchAll({ type: 'window', includeUncontrolled: true });
  const there = windows.find((window) => window.url === target);
  if (there) {
    await there.focus();
    return;
  }
  const open = windows[0];
  if (open) {
    // Focus first: the click's permission to raise a window does not last.
    const focused = await open.focus();
    // A tab the worker does not control yet cannot be navigated by it.
    const moved = await focused.navigate(target).catch(() => null);
    if (moved) return;
  }
  await scope.clients.openWindow(target);
}

/** A page request answered by the network, or by the offline page when it is down. */
export function pageOrOffline(
  scope: WorkerScope,
  event: FetchEventLike,
  offlinePage: string,
): Promise<Response> {
  const network = async () => (await event.preloadResponse) ?? (await scope.fetch(event.request));
  return network().catch(
    () =>
      new Response(offlinePage, {
        status: 503,
        headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' },
      }),
  );
}

/** Installs the worker's listeners on `scope` (`self` in the worker). */
export function installServiceWorker(scope: WorkerScope, offlinePage: string): void {
  // A new worker takes over at once: it holds no state an older page relies on.
  scope.addEventListener('install', (event) => event.waitUntil(scope.skipWaiting()));
  scope.addEventListener('activate', (event) =>
    event.waitUntil(
      Promise.all([
        // The page request starts while the worker wakes up, so pages load no slower.
        scope.registration.navigationPreload?.enable(),
        scope.clients.claim(),
      ]),
    ),
  );
  scope.addEventListener('push', (event) => event.waitUntil(showAlert(scope, event.data)));
  scope.addEventListener('notificationclick', (event) =>
    event.waitUntil(openAlert(scope, event.notification)),
  );
  scope.addEventListener('fetch', (event) => {
    if (event.request.mode === 'navigate') {
      event.respondWith(pageOrOffline(scope, event, offlinePage));
    }
  });
}
