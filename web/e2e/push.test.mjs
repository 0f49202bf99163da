// End-to-end: alerts on a professional's device, and the installable app. A member
// professional reading French opens their profile and presses « M’alerter sur cet appareil »
// with the keyboard (the notification permission granted through the DevTools protocol, as a
// person allowing the prompt would): the page subscribes with the server's VAPID key and the
// server keeps the subscription. A customer then places a matching request: the server posts
// the alert, encrypted for this browser (RFC 8291), to the push service this test runs on
// 127.0.0.1 (scripts/e2e.sh sets PUSH_ENDPOINT_HOSTS=127.0.0.1), which decrypts it to the
// request's service and city in French. That payload, delivered to the service worker through
// the DevTools protocol (ServiceWorker.deliverPushMessage), shows the notification in French;
// a second alert with the same tag replaces it. Clicking an OS notification is out of a
// headless browser's reach: src/service-worker/handlers.test.ts covers what a click opens.
// Last, Chromium's own checks find the app installable (Page.getInstallabilityErrors) and
// its manifest without errors (Page.getAppManifest), and with the network down a page opens
// as the worker's offline page.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { hkdfSync, createDecipheriv, randomBytes, webcrypto } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { BASE_URL, heading, openBrowser, signedIn } from './browser.mjs';
import { translator } from './i18n.mjs';
import {
  adminSession,
  CALGARY,
  customer,
  memberProfessional,
  placeRequest,
} from './test-accounts.mjs';

const { subtle } = webcrypto;

/**
 * A browser's push keys, made with WebCrypto: the P-256 pair whose public half is
 * `keys.p256dh`, and the 16-byte `keys.auth` secret.
 */
async function browserKeys() {
  const pair = await subtle.generateKey({ name: 'ECDH', namedCurve: 'P-256' }, true, [
    'deriveBits',
  ]);
  const publicKey = Buffer.from(await subtle.exportKey('raw', pair.publicKey));
  return { pair, publicKey, auth: randomBytes(16) };
}

/** Reads an `aes128gcm` push body (RFC 8188, keys as RFC 8291 derives them) as the browser would. */
async function decrypt(body, { pair, publicKey, auth }) {
  const salt = body.subarray(0, 16);
  const idLength = body[20];
  const serverKey = body.subarray(21, 21 + idLength);
  const records = body.subarray(21 + idLength);
  const server = await subtle.importKey(
    'raw',
    serverKey,
    { name: 'ECDH', namedCurve: 'P-256' },
    false,
    [],
  );
  const shared = Buffer.from(
    await subtle.deriveBits({ name: 'ECDH', public: server }, pair.privateKey, 256),
  );
  const info = (text, ...parts) => Buffer.concat([Buffer.from(`${text}\0`), ...parts]);
  const ikm = hkdfSync('sha256', shared, auth, info('WebPush: info', publicKey, serverKey), 32);
  const key = Buffer.from(hkdfSync('sha256', ikm, salt, info('Content-Encoding: aes128gcm'), 16));
  const nonce = Buffer.from(hkdfSync('sha256', ikm, salt, info('Content-Encoding: nonce'), 12));
  const decipher = createDecipheriv('aes-128-gcm', key, nonce);
  decipher.setAuthTag(records.subarray(records.length - 16));
  const padded = Buffer.concat([decipher.update(records.subarray(0, -16)), decipher.final()]);
  // The last record ends with the delimiter 2, then any zeros of padding.
  let end = padded.length - 1;
  while (padded[end] === 0) end -= 1;
  assert.equal(padded[end], 2, 'the last record’s delimiter');
  return JSON.parse(padded.subarray(0, end).toString('utf8'));
}

/** A push service on 127.0.0.1: keeps what the server posts to `/push/<device>`, answers 201. */
async function pushService() {
  const received = [];
  const server = createServer((request, response) => {
    const chunks = [];
    request.on('data', (chunk) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ path: request.url, headers: request.headers, body: Buffer.concat(chunks) });
      response.writeHead(201).end();
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

/**
 * Stands in for the browser's registration at its vendor's push service, and only for that:
 * `PushManager.subscribe` in this headless Chromium asks Google's service for an endpoint, which
 * it cannot reach without the internet: tried here, the real call had not answered after 30 s
 * (neither an endpoint nor an error). The stand-in checks what the page asks for and gives back a
 * subscription as the browser would, whose endpoint is the test's push service and whose keys
 * are `keys`; the service worker, the permission and everything the app does stay real.
 */
function standInRegistration({ endpoint, p256dh, auth }) {
  const encode = (buffer) =>
    btoa(String.fromCharCode(...new Uint8Array(buffer)))
      .replace(/\+/g, '-')
      .replace(/\//g, '_')
      .replace(/=+$/, '');
  let current = null;
  globalThis.PushManager.prototype.getSubscription = async () => current;
  globalThis.PushManager.prototype.subscribe = async function (options) {
    if (!options.userVisibleOnly) throw new DOMException('userVisibleOnly', 'NotAllowedError');
    if (globalThis.Notification.permission !== 'granted')
      throw new DOMException('no permission', 'NotAllowedError');
    const applicationServerKey =
      options.applicationServerKey.buffer ?? options.applicationServerKey;
    globalThis.subscribedWithKey = encode(applicationServerKey);
    current = {
      endpoint,
      expirationTime: null,
      options: { userVisibleOnly: true, applicationServerKey },
      toJSON: () => ({ endpoint, expirationTime: null, keys: { p256dh, auth } }),
      unsubscribe: async () => {
        current = null;
        return true;
      },
    };
    return current;
  };
}

describe('alerts on this device', () => {
  /** @type {Awaited<ReturnType<typeof openBrowser>>} */
  let browser;
  /** @type {Awaited<ReturnType<typeof pushService>>} */
  let service;

  before(async () => {
    [browser, service] = await Promise.all([openBrowser(), pushService()]);
  });

  after(async () => {
    await Promise.all([browser?.close(), service?.close()]);
  });

  it('a professional turns alerts on, and a new request shows as a notification in French', async () => {
    const t = await translator('fr');
    const admin = await adminSession();
    const [pro, casey] = await Promise.all([
      memberProfessional('Fanny Alerte', CALGARY, admin, { lang: 'fr' }),
      customer('Casey Alerted', { verify: true }),
    ]);
    const keys = await browserKeys();
    const endpoint = `${service.url}/push/${pro.id}`;
    const { page, context } = browser;
    await context.addInitScript(standInRegistration, {
      endpoint,
      p256dh: keys.publicKey.toString('base64url'),
      auth: keys.auth.toString('base64url'),
    });
    const cdp = await context.newCDPSession(page);
    await cdp.send('Browser.grantPermissions', {
      origin: BASE_URL,
      permissions: ['notifications'],
    });
    const registrations = new Map();
    cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations: updated }) => {
      for (const r of updated) registrations.set(r.scopeURL, r.registrationId);
    });
    await cdp.send('ServiceWorker.enable');

    await signedIn(page, { ...pro.storage, lang: 'fr' });
    await page.goto(`${BASE_URL}/view-professional-profile`);
    await heading(page, t('pages.viewProfessionalProfile'));
    const toggle = page.getByRole('checkbox', { name: t('deviceAlerts.label') });
    await assert.doesNotReject(() =>
      page.waitForFunction(() => !globalThis.document.querySelector('[aria-busy="true"]')),
    );
    assert.equal(await toggle.isChecked(), false);
    await toggle.focus();
    await page.keyboard.press('Space');
    await page
      .getByRole('status')
      .filter({ hasText: t('deviceAlerts.turnedOn') })
      .waitFor();
    assert.equal(await toggle.isChecked(), true);

    // The page subscribed with the server's key, which signs what the server posts.
    const pageKey = await page.evaluate(() => globalThis.subscribedWithKey);
    assert.match(pageKey, /^[\w-]{87}$/);

    const requestId = await placeRequest(casey, 'The water heater leaks into the basement.');
    const deadline = Date.now() + 15_000;
    while (!service.received.some((push) => push.path === `/push/${pro.id}`)) {
      assert.ok(Date.now() < deadline, 'no push reached the push service within 15 s');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const push = service.received.find((each) => each.path === `/push/${pro.id}`);
    assert.equal(push.headers['content-encoding'], 'aes128gcm');
    assert.ok(push.headers.authorization.includes(`k=${pageKey}`), push.headers.authorization);
    const alert = await decrypt(push.body, keys);
    // The device subscribed in French: the alert opens the French page.
    assert.equal(alert.url, `${BASE_URL}/fr/view-request/${requestId}`);
    assert.equal(alert.tag, `repair-request:${requestId}`);
    assert.match(`${alert.title} ${alert.body}`, /Calgary/);
    assert.match(`${alert.title} ${alert.body}`, /plomberie/i);
    assert.doesNotMatch(`${alert.title} ${alert.body}`, /225 7 Ave/);

    // The service worker shows it, in the words the server wrote in French.
    const registrationId = registrations.get(`${BASE_URL}/`);
    assert.ok(registrationId, `no service worker registered for ${BASE_URL}/`);
    const shown = () =>
      page.evaluate(async () => {
        const registration = await navigator.serviceWorker.ready;
        return (await registration.getNotifications()).map((n) => ({
          title: n.title,
          body: n.body,
          tag: n.tag,
          url: n.data?.url,
        }));
      });
    const deliver = async (payload) => {
      await cdp.send('ServiceWorker.deliverPushMessage', {
        origin: BASE_URL,
        registrationId,
        data: JSON.stringify(payload),
      });
    };
    const waitShown = async (body) => {
      const until = Date.now() + 10_000;
      for (;;) {
        const notifications = await shown();
        if (notifications.some((n) => n.body === body) || Date.now() > until) return notifications;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    };
    await deliver(alert);
    assert.deepEqual(await waitShown(alert.body), [
      { title: alert.title, body: alert.body, tag: alert.tag, url: alert.url },
    ]);
    // A newer alert about the same request replaces it.
    const newer = { ...alert, body: `${alert.body} (2)` };
    await deliver(newer);
    assert.deepEqual(await waitShown(newer.body), [
      { title: alert.title, body: newer.body, tag: alert.tag, url: alert.url },
    ]);
  });

  it('is installable, and a page opened offline is the offline page in English and French', async () => {
    const { page, context } = browser;
    await page.goto(`${BASE_URL}/`);
    const cdp = await context.newCDPSession(page);
    const manifest = await cdp.send('Page.getAppManifest');
    assert.equal(manifest.url, `${BASE_URL}/manifest.webmanifest`);
    assert.deepEqual(manifest.errors, []);
    const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors');
    assert.deepEqual(installabilityErrors, []);

    const [en, fr] = await Promise.all([translator('en'), translator('fr')]);
    await page.evaluate(() => navigator.serviceWorker.ready);
    await context.setOffline(true);
    try {
      const response = await page.goto(`${BASE_URL}/request-list`);
      assert.equal(response?.status(), 503);
      assert.equal(response?.fromServiceWorker(), true);
      const title = (level, language) =>
        page.getByRole('heading', { level, name: language('deviceAlerts.offline.title') });
      await title(1, en).waitFor();
      await title(2, fr).waitFor();
    } finally {
      await context.setOffline(false);
    }
  });
});
