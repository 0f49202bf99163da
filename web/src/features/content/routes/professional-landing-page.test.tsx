import { createRouterTransport } from '@connectrpc/connect';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { BillingService } from '@/gen/repairs/billing/v1/billing_pb';
import { ContentService } from '@/gen/repairs/content/v1/content_pb';
import { Language } from '@/gen/repairs/type/v1/common_pb';
import { fakeToken, renderApp } from '@/test/render-app';

const plain = (text: string | null) => text?.replace(/[\u00a0\u202f]/g, ' ');

/** A server whose membership costs `cents` Canadian cents a month (a setting). */
const pricedAt = (cents: number) =>
  createRouterTransport(({ service }) => {
    service(BillingService, {
      getMembershipPrice: () => ({ monthlyPrice: { amountCents: BigInt(cents), currency: 'CAD' } }),
    });
  });

describe('professional landing page', () => {
  it('offers the membership at the server’s price with a Buy Now link to the professional login', async () => {
    renderApp('/professional', pricedAt(3499));

    expect(
      await screen.findByRole('heading', { level: 1, name: 'Grow your repair business' }),
    ).toBeVisible();
    expect(screen.getByRole('link', { name: 'Join as a professional' })).toHaveAttribute(
      'href',
      '/register-as-professional',
    );
    const offer = screen.getByRole('region', { name: 'Premium membership' });
    expect(await within(offer).findByTestId('membership-price')).toHaveTextContent(
      '$34.99 per month',
    );
    expect(within(offer).getByRole('link', { name: 'Buy Now' })).toHaveAttribute(
      'href',
      '/login-as-professional',
    );
    expect(screen.getByRole('region', { name: 'How to get started' })).toBeVisible();
    expect(screen.getByRole('heading', { name: 'Get approved' })).toBeVisible();
    expect(screen.getAllByRole('heading', { level: 3 }).length).toBeGreaterThanOrEqual(8 + 3);
  });

  it('shows 29,99 $ and Acheter in French', async () => {
    renderApp('/fr/professional', pricedAt(2999));

    const offer = await screen.findByRole('region', { name: 'Abonnement premium' });
    expect(plain((await within(offer).findByTestId('membership-price')).textContent)).toBe(
      '29,99 $ par mois',
    );
    expect(within(offer).getByRole('link', { name: 'Acheter' })).toHaveAttribute(
      'href',
      '/fr/login-as-professional',
    );
    expect(document.documentElement.lang).toBe('fr');
  });

  it("uses the server's professional page texts when it answers", async () => {
    const transport = createRouterTransport(({ service }) => {
      service(ContentService, {
        getProfessionalPage: (request) => ({
          page: {
            bannerH1: request.language === Language.FR ? 'Titre FR' : 'Earn more',
            section1Link: 'Subscribe',
          },
        }),
      });
    });
    renderApp('/professional', transport);

    expect(await screen.findByRole('heading', { level: 1, name: 'Earn more' })).toBeVisible();
    expect(screen.getByRole('link', { name: 'Subscribe' })).toBeVisible();
    expect(screen.getByRole('heading', { name: 'Premium membership' })).toBeVisible();
  });

  it('sends a signed-in professional to their area', async () => {
    localStorage.setItem(
      'professional-token',
      fakeToken({ sub: 'p1', role: 'professional', iat: Math.floor(Date.now() / 1000) }),
    );
    localStorage.setItem('professional-address', 'Calgary');
    const { router } = renderApp('/professional');
    expect(await screen.findByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
    expect(router.state.location.pathname).toBe('/professional-dashboard');
  });
});
