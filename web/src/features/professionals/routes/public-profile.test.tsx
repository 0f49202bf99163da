import { timestampFromMs } from '@bufbuild/protobuf/wkt';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { QuoteState, RepairRequestState } from '@/gen/repairs/marketplace/v1/marketplace_pb';
import { renderApp } from '@/test/render-app';
import {
  CUSTOMER_ID,
  PROFESSIONAL_ID,
  REQUEST_ID,
  customer,
  professional,
  signIn,
  repairRequest,
  stubServer,
  type MarketplaceImpl,
} from '@/test/stub-server';

/** A customer reading a professional's public profile, or the professional their own. */
function profileServer(
  reviews: { rating: number; text: string }[],
  reader: 'customer' | 'professional' = 'customer',
  marketplace: MarketplaceImpl = {},
) {
  signIn(reader, reader === 'customer' ? CUSTOMER_ID : PROFESSIONAL_ID);
  return stubServer(
    {
      getCustomer: () => ({ customer: customer() }),
      getProfessional: () => ({ professional: professional() }),
      getPublicProfessional: () => ({
        professional: { id: PROFESSIONAL_ID, name: 'Paule Pro', radiusKm: 50, experience: 3 },
      }),
    },
    {},
    {
      marketplace: {
        listProfessionalReviews: () => ({
          reviews: reviews.map((review, index) => ({
            id: `r${index}`,
            customerName: 'Casey Customer',
            createTime: timestampFromMs(Date.UTC(2026, 10, 23)),
            ...review,
          })),
          summary: {
            reviewCount: reviews.length,
            averageRating:
              reviews.reduce((sum, review) => sum + review.rating, 0) / (reviews.length || 1),
          },
        }),
        ...marketplace,
      },
    },
  );
}

describe('public profile reviews', () => {
  it('shows the average and each review with its stars', async () => {
    const { transport } = profileServer([
      { rating: 5, text: 'Came within the hour.' },
      { rating: 4, text: '' },
    ]);
    renderApp(`/view-professional/${PROFESSIONAL_ID}`, transport);
    const section = await screen.findByRole('region', { name: 'Reviews' });
    expect(
      await within(section).findByRole('img', { name: 'Rated 4.5 out of 5, from 2 reviews' }),
    ).toBeVisible();
    expect(within(section).getByText('Came within the hour.')).toBeVisible();
    expect(within(section).getByRole('img', { name: 'Rated 5 out of 5' })).toBeVisible();
    expect(within(section).getByRole('img', { name: 'Rated 4 out of 5' })).toBeVisible();
    // Opened on its own (a shared link), it has nowhere in particular to lead back to.
    expect(screen.queryByRole('link', { name: /^Back/ })).toBeNull();
    expect(screen.queryByRole('link', { name: /^Hire/ })).toBeNull();
  });

  it('shows a professional the reviews of their work on their own profile', async () => {
    const { transport, requests } = profileServer(
      [{ rating: 4, text: 'Quick, tidy and kind.' }],
      'professional',
    );
    renderApp('/view-professional-profile', transport);
    const section = await screen.findByRole('region', { name: 'Reviews' });
    expect(await within(section).findByText('Quick, tidy and kind.')).toBeVisible();
    expect(
      within(section).getByRole('img', { name: 'Rated 4 out of 5, from 1 review' }),
    ).toBeVisible();
    expect(requests('listProfessionalReviews')[0]).toMatchObject({
      professionalId: PROFESSIONAL_ID,
    });
  });

  it('says when there are none, in French', async () => {
    localStorage.setItem('lang', 'fr');
    const { transport } = profileServer([]);
    renderApp(`/view-professional/${PROFESSIONAL_ID}`, transport);
    expect(await screen.findByText('Aucune évaluation pour le moment.')).toBeVisible();
  });
});

describe('public profile opened from a quote', () => {
  const quote = (state: QuoteState = QuoteState.SUBMITTED) => ({
    id: 'q1',
    repairRequestId: REQUEST_ID,
    professionalId: PROFESSIONAL_ID,
    professionalName: 'Paule Pro',
    state,
  });

  it('leads back to the quotes, and to them to hire while the quote can be chosen', async () => {
    const { transport } = profileServer([], 'customer', {
      listRepairRequestQuotes: () => ({ quotes: [quote()] }),
    });
    const { router } = renderApp(`/application-list/${REQUEST_ID}`, transport);
    const card = await screen.findByRole('article');
    const user = userEvent.setup();
    await user.click(within(card).getByRole('link', { name: 'Paule Pro' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Paule Pro' })).toBeVisible();
    const quotes = `/application-list/${REQUEST_ID}`;
    expect(screen.getByRole('link', { name: 'Back to the quotes' })).toHaveAttribute(
      'href',
      quotes,
    );
    expect(screen.getByRole('link', { name: 'Hire Paule Pro from the quotes' })).toHaveAttribute(
      'href',
      quotes,
    );
    await user.click(screen.getByRole('link', { name: 'Back to the quotes' }));
    expect(router.state.location.pathname).toBe(quotes);
  });

  it('leads back to the quote, without a hire once the request is hired, in French', async () => {
    localStorage.setItem('lang', 'fr');
    const { transport } = profileServer([], 'customer', {
      getQuote: () => ({
        quote: quote(QuoteState.HIRED),
        repairRequest: repairRequest({ state: RepairRequestState.HIRED }),
      }),
    });
    renderApp('/view-application/q1', transport);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('link', { name: 'Voir le profil du professionnel' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Paule Pro' })).toBeVisible();
    expect(screen.getByRole('link', { name: 'Retour à la soumission' })).toHaveAttribute(
      'href',
      expect.stringMatching(/\/view-application\/q1$/),
    );
    expect(screen.queryByRole('link', { name: /^Engager/ })).toBeNull();
  });
});
