import { describe, expect, it, vi } from 'vitest';
import { ALERT_ICON, installServiceWorker, type AppWindow, type WorkerScope } from './handlers';
import { offlinePage } from './offline-page';

const SCOPE = 'https://repairs.example.ca/';
const OFFLINE = '<!doctype html><title>offline</title>';

/** A tab of the app: `navigate` fails for a tab the worker does not control. */
function tab(url: string, { controlled = true } = {}) {
  const window: AppWindow & {
    focus: ReturnType<typeof vi.fn>;
    navigate: ReturnType<typeof vi.fn>;
  } = {
    url,
    focus: vi.fn(async () => window),
    navigate: vi.fn(async (to: string) => {
      if (!controlled) throw new TypeError('not controlled');
      window.url = to;
      return window;
    }),
  };
  return window;
}

/** A fake worker global scope with the worker installed; `fire` runs a listener to its end. */
function worker({ windows = [] as AppWindow[], network = vi.fn<WorkerScope['fetch']>() } = {}) {
  const listeners = new Map<string, (event: never) => void>();
  const scope = {
    registration: {
      scope: SCOPE,
      showNotification: vi.fn(async () => {}),
      navigationPreload: { enable: vi.fn(async () => {}) },
    },
    clients: {
      matchAll: vi.fn(async () => windows),
      openWindow: vi.fn(async () => null),
      claim: vi.fn(async () => {}),
    },
    skipWaiting: vi.fn(async () => {}),
    fetch: network,
    addEventListener: (type: string, listener: (event: never) => void) => {
      listeners.set(type, listener);
    },
  };
  installServiceWorker(scope as unknown as WorkerScope, OFFLINE);
  const fire = async (type: string, event: object) => {
    const work: Promise<unknown>[] = [];
    listeners.get(type)?.({ ...event, waitUntil: (p: Promise<unknown>) => work.push(p) } as never);
    await Promise.all(work);
  };
  return { scope, fire };
}

const pushOf = (payload: unknown) => ({
  data: { text: () => (typeof payload === 'string' ? payload : JSON.stringify(payload)) },
});

const FRENCH_ALERT = {
  title: 'Nouvelle demande : Plomberie',
  body: 'À Calgary, dès que possible.',
  url: 'https://repairs.example.ca/view-request/0190',
  tag: 'repair-request:0190',
};

describe('the service worker', () => {
  it('shows the alert in the words the server wrote, replacing the one with its tag', async () => {
    const { scope, fire } = worker();
    await fire('push', pushOf(FRENCH_ALERT));
    expect(scope.registration.showNotification).toHaveBeenCalledWith(FRENCH_ALERT.title, {
      body: FRENCH_ALERT.body,
      icon: ALERT_ICON,
      badge: ALERT_ICON,
      data: { url: FRENCH_ALERT.url },
      tag: FRENCH_ALERT.tag,
      renotify: true,
    });
  });

  it.each([['not json'], ['null'], ['{"title": 4}']])(
    'shows the app’s name and opens its home page for a payload it cannot read (%s)',
    async (payload) => {
      const { scope, fire } = worker();
      await fire('push', pushOf(payload));
      expect(scope.registration.showNotification).toHaveBeenCalledWith('Repairs 24/7', {
        body: '',
        icon: ALERT_ICON,
        badge: ALERT_ICON,
        data: { url: SCOPE },
      });
    },
  );

  it('keeps a click on this site: a link to another host opens its page here', async () => {
    const { scope, fire } = worker();
    await fire('push', pushOf({ ...FRENCH_ALERT, url: 'https://evil.example/view-request/1?a=b' }));
    expect(scope.registration.showNotification).toHaveBeenCalledWith(
      FRENCH_ALERT.title,
      expect.objectContaining({ data: { url: `${SCOPE}view-request/1?a=b` } }),
    );
  });

  const click = (url: unknown) => ({ notification: { data: { url }, close: vi.fn() } });

  it('focuses a tab already on the alert’s page', async () => {
    const there = tab(FRENCH_ALERT.url);
    const other = tab(`${SCOPE}request-list`);
    const { scope, fire } = worker({ windows: [other, there] });
    const event = click(FRENCH_ALERT.url);
    await fire('notificationclick', event);
    expect(event.notification.close).toHaveBeenCalled();
    expect(there.focus).toHaveBeenCalled();
    expect(other.navigate).not.toHaveBeenCalled();
    expect(scope.clients.openWindow).not.toHaveBeenCalled();
  });

  it('takes an open tab of the app to the alert’s page', async () => {
    const open = tab(`${SCOPE}request-list`);
    const { scope, fire } = worker({ windows: [open] });
    await fire('notificationclick', click(FRENCH_ALERT.url));
    expect(open.focus).toHaveBeenCalled();
    expect(open.navigate).toHaveBeenCalledWith(FRENCH_ALERT.url);
    expect(scope.clients.openWindow).not.toHaveBeenCalled();
  });

  it('opens the alert’s page in a new tab when no tab of the app can go there', async () => {
    const uncontrolled = tab(`${SCOPE}request-list`, { controlled: false });
    const { scope, fire } = worker({ windows: [uncontrolled] });
    await fire('notificationclick', click(FRENCH_ALERT.url));
    expect(scope.clients.openWindow).toHaveBeenCalledWith(FRENCH_ALERT.url);

    const none = worker();
    await none.fire('notificationclick', click(undefined));
    expect(none.scope.clients.openWindow).toHaveBeenCalledWith(SCOPE);
  });

  it('answers a page opened while the network is down with the offline page', async () => {
    const network = vi.fn<WorkerScope['fetch']>(async () => {
      throw new TypeError('Failed to fetch');
    });
    const { fire } = worker({ network });
    let answer: Promise<Response> | undefined;
    await fire('fetch', {
      request: { mode: 'navigate', url: `${SCOPE}request-list` },
      respondWith: (response: Promise<Response>) => (answer = response),
    });
    const response = await answer;
    expect(response?.status).toBe(503);
    expect(response?.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await response?.text()).toBe(OFFLINE);
  });

  it('leaves pages it can load, and every other request, to the network', async () => {
    const page = new Response('<!doctype html>app');
    const network = vi.fn<WorkerScope['fetch']>(async () => page);
    const { fire } = worker({ network });
    let answer: Promise<Response> | undefined;
    const respondWith = (response: Promise<Response>) => (answer = response);
    await fire('fetch', { request: { mode: 'navigate', url: SCOPE }, respondWith });
    expect(await answer).toBe(page);

    // The page request the browser started while the worker woke up is used as it is.
    const preloaded = new Response('preloaded');
    await fire('fetch', {
      request: { mode: 'navigate', url: SCOPE },
      preloadResponse: Promise.resolve(preloaded),
      respondWith,
    });
    expect(await answer).toBe(preloaded);
    expect(network).toHaveBeenCalledTimes(1);

    answer = undefined;
    await fire('fetch', { request: { mode: 'cors', url: `${SCOPE}assets/app.js` }, respondWith });
    expect(answer).toBeUndefined();
  });

  it('takes over at once and turns on navigation preload', async () => {
    const { scope, fire } = worker();
    await fire('install', {});
    expect(scope.skipWaiting).toHaveBeenCalled();
    await fire('activate', {});
    expect(scope.clients.claim).toHaveBeenCalled();
    expect(scope.registration.navigationPreload.enable).toHaveBeenCalled();
  });
});

describe('the offline page', () => {
  it('says it in English and French, escaped, with no script', () => {
    const words = (title: string) => ({
      title,
      body: 'Check <your> connection & try again.',
      emergency: 'Call 911.',
      retry: 'Again',
    });
    const html = offlinePage({ en: words('You are offline'), fr: words('Vous êtes hors ligne') });
    expect(html).toContain('<section lang="en">');
    expect(html).toContain('<section lang="fr">');
    expect(html).toContain('<h1>You are offline</h1>');
    expect(html).toContain('<h2>Vous êtes hors ligne</h2>');
    expect(html).toContain('Check &lt;your&gt; connection &amp; try again.');
    expect(html).not.toContain('<script');
  });
});
