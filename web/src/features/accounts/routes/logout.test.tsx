import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { saveDraft } from '@/lib/drafts';
import { browserStore } from '@/lib/storage';
import { fakeToken, renderApp } from '@/test/render-app';
import {
  CUSTOMER_ID,
  Code,
  PROFESSIONAL_ID,
  rpcError,
  signInLasting,
  stubServer,
} from '@/test/stub-server';

const ENDPOINT = 'https://fcm.googleapis.com/fcm/send/device-1';

/** A browser with push whose worker holds a subscription to ENDPOINT. */
function browserSubscribed() {
  const unsubscribe = vi.fn(async () => true);
  const subscription = {
    endpoint: ENDPOINT,
    unsubscribe,
    toJSON: () => ({ endpoint: ENDPOINT, keys: { p256dh: 'p256dh-key', auth: 'auth-secret' } }),
  };
  vi.stubGlobal('PushManager', class {});
  vi.stubGlobal('Notification', { permission: 'granted' });
  Object.defineProperty(navigator, 'serviceWorker', {
    configurable: true,
    value: {
      getRegistration: async () => ({ pushManager: { getSubscription: async () => subscription } }),
    },
  });
  return unsubscribe;
}

const recordOwner = (account: string) =>
  localStorage.setItem('device-alerts', JSON.stringify({ endpoint: ENDPOINT, account }));

afterEach(() => {
  Reflect.deleteProperty(navigator, 'serviceWorker');
});

describe('the logout routes', () => {
  it('end the sign-in on the server, then forget the session and its drafts', async () => {
    signInLasting('customer', CUSTOMER_ID);
    saveDraft(browserStore(), CUSTOMER_ID, 'create-request', { description: 'Mine' }, Date.now());
    localStorage.setItem('lang', 'fr');
    let storedMeanwhile: string | null = null;
    const signOut = vi.fn(() => {
      storedMeanwhile = localStorage.getItem('refresh-token');
      return {};
    });
    const { transport, calls } = stubServer({ signOut });
    const { router } = renderApp('/user-logout', transport);

    // French is stored: the home page it leaves for is the French one.
    await waitFor(() => expect(router.state.location.pathname).toBe('/fr'));
    expect(signOut).toHaveBeenCalledExactlyOnceWith(
      expect.objectContaining({ refreshToken: 'refresh-1' }),
      expect.anything(),
    );
    expect(calls[0]?.authorization).toBeNull();
    // Signed out on the server first, then forgotten here.
    expect(storedMeanwhile).toBe('refresh-1');
    for (const key of ['token', 'token-ends-at', 'refresh-token', 'refresh-ends-at']) {
      expect(localStorage.getItem(key)).toBeNull();
    }
    expect(localStorage.getItem(`drafts:${CUSTOMER_ID}`)).toBeNull();
    expect(localStorage.getItem('lang')).toBe('fr');
  });

  it('forget the session even when the server cannot be reached', async () => {
    signInLasting('professional', 'p1');
    const { transport } = stubServer({
      signOut: () => {
        throw rpcError(Code.Unavailable, 'UNAVAILABLE');
      },
    });
    const { router } = renderApp('/professional-logout', transport);
    await waitFor(() => expect(router.state.location.pathname).toBe('/professional'));
    expect(localStorage.getItem('professional-refresh-token')).toBeNull();
    expect(localStorage.getItem('professional-token')).toBeNull();
  });

  it('end the account’s alerts on this browser, on the server and in the browser', async () => {
    signInLasting('professional', PROFESSIONAL_ID);
    recordOwner(`professional:${PROFESSIONAL_ID}`);
    const unsubscribe = browserSubscribed();
    const signOut = vi.fn(() => ({}));
    const { transport } = stubServer({ signOut });
    const { router } = renderApp('/professional-logout', transport);

    await waitFor(() => expect(router.state.location.pathname).toBe('/professional'));
    expect(signOut).toHaveBeenCalledExactlyOnceWith(
      expect.objectContaining({ refreshToken: 'refresh-1', pushEndpoint: ENDPOINT }),
      expect.anything(),
    );
    expect(unsubscribe).toHaveBeenCalledOnce();
    expect(localStorage.getItem('device-alerts')).toBeNull();
  });

  it('end the browser’s subscription even when the server cannot be reached', async () => {
    signInLasting('customer', CUSTOMER_ID);
    recordOwner(`customer:${CUSTOMER_ID}`);
    const unsubscribe = browserSubscribed();
    const { transport } = stubServer({
      signOut: () => {
        throw rpcError(Code.Unavailable, 'UNAVAILABLE');
      },
    });
    const { router } = renderApp('/user-logout', transport);
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(unsubscribe).toHaveBeenCalledOnce();
    expect(localStorage.getItem('device-alerts')).toBeNull();
  });

  it('leave the alerts another account turned on in this browser', async () => {
    signInLasting('customer', CUSTOMER_ID);
    recordOwner(`professional:${PROFESSIONAL_ID}`);
    const unsubscribe = browserSubscribed();
    const signOut = vi.fn(() => ({}));
    const { transport } = stubServer({ signOut });
    const { router } = renderApp('/user-logout', transport);

    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(signOut).toHaveBeenCalledExactlyOnceWith(
      expect.objectContaining({ pushEndpoint: '' }),
      expect.anything(),
    );
    expect(unsubscribe).not.toHaveBeenCalled();
    expect(localStorage.getItem('device-alerts')).not.toBeNull();
  });

  it('say why in French on the French sign-in page when a session ended', async () => {
    localStorage.setItem('lang', 'fr');
    const issuedAt = Math.floor(Date.now() / 1000) - 7200;
    localStorage.setItem('token', fakeToken({ sub: CUSTOMER_ID, role: 'user', iat: issuedAt }));
    saveDraft(browserStore(), CUSTOMER_ID, 'create-request', { description: 'Fuite' }, Date.now());
    recordOwner(`customer:${CUSTOMER_ID}`);
    const { router } = renderApp('/user-order-history');
    await waitFor(() => expect(router.state.location.pathname).toBe('/fr/login'));
    expect(await screen.findByText('Votre session a expiré pendant votre absence.')).toBeVisible();
    expect(screen.getByText(/Ce que vous étiez en train d’écrire est conservé/)).toBeVisible();
    // Not a sign-out the person asked for: the draft stays for them.
    expect(localStorage.getItem(`drafts:${CUSTOMER_ID}`)).not.toBeNull();
    // Nor does a lapsed session silence the device.
    expect(localStorage.getItem('device-alerts')).not.toBeNull();
  });
});
