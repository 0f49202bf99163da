import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ProfessionalState } from '@/gen/repairs/accounts/v1/accounts_pb';
import { renderApp } from '@/test/render-app';
import {
  PROFESSIONAL_ID,
  REQUEST_ID,
  professional,
  repairRequest,
  signIn,
  stubServer,
} from '@/test/stub-server';

function dashboardServer(membershipActive: boolean) {
  signIn('professional', PROFESSIONAL_ID);
  localStorage.setItem('professional-status', '1');
  return stubServer(
    {
      getProfessional: () => ({
        professional: professional({ state: ProfessionalState.APPROVED, membershipActive }),
      }),
    },
    {},
    {
      marketplace: {
        getProfessionalDashboard: () => ({
          requestsReceived: 7,
          requestsQuoted: 3,
          requestsHired: 2,
          requestsCompleted: 1,
          latestRepairRequests: [
            repairRequest({
              location: {
                case: 'approximateLocation',
                value: { city: 'Calgary', province: 'AB', postalArea: 'T2P', distanceKm: 4 },
              },
            }),
          ],
        }),
      },
    },
  );
}

describe('professional dashboard', () => {
  it('shows the four counters the server counted and the latest requests', async () => {
    const server = dashboardServer(true);
    renderApp('/professional-dashboard', server.transport);
    const figures = await screen.findByLabelText('Your requests in figures');
    expect(await within(figures).findByText('7')).toBeVisible();
    const expected: [string, string][] = [
      ['Requests Received', '7'],
      ['Quotes sent', '3'],
      ['Accepted', '2'],
      ['Completed', '1'],
    ];
    for (const [label, value] of expected) {
      expect(within(figures).getByText(label).nextElementSibling).toHaveTextContent(value);
    }
    expect(screen.getByRole('link', { name: 'Plumbing Services' })).toHaveAttribute(
      'href',
      `/view-request/${REQUEST_ID}`,
    );
    expect(server.requests('getProfessionalDashboard')[0]).toMatchObject({
      professionalId: PROFESSIONAL_ID,
    });
  });

  it('keeps the membership notice and asks for no counters while the membership is inactive', async () => {
    const server = dashboardServer(false);
    renderApp('/professional-dashboard', server.transport);
    expect(await screen.findByRole('link', { name: 'Buy Membership' })).toBeVisible();
    expect(screen.queryByLabelText('Your requests in figures')).toBeNull();
    expect(server.requests('getProfessionalDashboard')).toEqual([]);
  });
});
