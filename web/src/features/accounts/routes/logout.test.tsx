import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { saveDraft } from '@/lib/drafts';
import { browserStore } from '@/lib/storage';
import { fakeToken, renderApp } from '@/test/render-app';
import { CUSTOMER_ID, Code, rpcError, signInLasting, stubServer } from '@/test/stub-server';

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

    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
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

  it('say why in French on the French sign-in page when a session ended', async () => {
    localStorage.setItem('lang', 'fr');
    const issuedAt = Math.floor(Date.now() / 1000) - 7200;
    localStorage.setItem('token', fakeToken({ sub: CUSTOMER_ID, role: 'user', iat: issuedAt }));
    saveDraft(browserStore(), CUSTOMER_ID, 'create-request', { description: 'Fuite' }, Date.now());
    const { router } = renderApp('/user-order-history');
    await waitFor(() => expect(router.state.location.pathname).toBe('/fr/login'));
    expect(await screen.findByText('Votre session a expiré pendant votre absence.')).toBeVisible();
    expect(screen.getByText(/Ce que vous étiez en train d’écrire est conservé/)).toBeVisible();
    // Not a sign-out the person asked for: the draft stays for them.
    expect(localStorage.getItem(`drafts:${CUSTOMER_ID}`)).not.toBeNull();
  });
});
