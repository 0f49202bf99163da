import { timestampFromMs } from '@bufbuild/protobuf/wkt';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderApp } from '@/test/render-app';
import {
  CUSTOMER_ID,
  PROFESSIONAL_ID,
  customer,
  professional,
  signIn,
  stubServer,
} from '@/test/stub-server';

/** A customer reading a professional's public profile, or the professional their own. */
function profileServer(
  reviews: { rating: number; text: string }[],
  reader: 'customer' | 'professional' = 'customer',
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
