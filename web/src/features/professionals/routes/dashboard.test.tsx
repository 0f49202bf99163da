import { timestampDate, timestampFromDate } from '@bufbuild/protobuf/wkt';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import {
  ProfessionalState,
  type SetProfessionalAvailabilityRequest,
} from '@/gen/repairs/accounts/v1/accounts_pb';
import { renderApp } from '@/test/render-app';
import {
  PROFESSIONAL_ID,
  REQUEST_ID,
  professional,
  repairRequest,
  signIn,
  stubServer,
} from '@/test/stub-server';

function dashboardServer(membershipActive: boolean, pendingChange?: { revision: number }) {
  signIn('professional', PROFESSIONAL_ID);
  localStorage.setItem('professional-status', '1');
  return stubServer(
    {
      getProfessional: () => ({
        professional: professional({
          state: ProfessionalState.APPROVED,
          membershipActive,
          pendingChange,
        }),
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

  it('says a change of the approved profile awaits review, and works on meanwhile', async () => {
    const server = dashboardServer(true, { revision: 1 });
    renderApp('/professional-dashboard', server.transport);
    expect(await screen.findByText('A change to your profile awaits review')).toBeVisible();
    expect(screen.getByText(/your approved profile stays in effect/)).toBeVisible();
    expect(await screen.findByLabelText('Your requests in figures')).toBeVisible();
  });

  it.each([
    { language: 'en', name: 'Add a licence', href: '/update-professional-licence' },
    { language: 'fr', name: 'Ajouter un permis', href: '/fr/update-professional-licence' },
  ])(
    'offers an approved professional to add a licence ($language)',
    async ({ language, name, href }) => {
      localStorage.setItem('lang', language);
      const server = dashboardServer(true);
      renderApp('/professional-dashboard', server.transport);
      expect(await screen.findByRole('link', { name })).toHaveAttribute('href', href);
    },
  );

  it('keeps the membership notice and asks for no counters while the membership is inactive', async () => {
    const server = dashboardServer(false);
    renderApp('/professional-dashboard', server.transport);
    expect(await screen.findByRole('link', { name: 'Buy Membership' })).toBeVisible();
    expect(screen.queryByLabelText('Your requests in figures')).toBeNull();
    expect(server.requests('getProfessionalDashboard')).toEqual([]);
  });

  it('resumes a pause and goes on call in one tap each', async () => {
    signIn('professional', PROFESSIONAL_ID);
    localStorage.setItem('professional-status', '1');
    const paused = timestampFromDate(new Date(Date.now() + 86_400_000));
    let current = professional({ state: ProfessionalState.APPROVED, pausedUntil: paused });
    const server = stubServer(
      {
        getProfessional: () => ({ professional: current }),
        setProfessionalAvailability: (request) => {
          current = professional({
            state: ProfessionalState.APPROVED,
            pausedUntil: request.pausedUntil,
            onCallUntil: request.onCallUntil,
          });
          return { professional: current };
        },
      },
      {},
      { marketplace: { getProfessionalDashboard: () => ({}) } },
    );
    const user = userEvent.setup();
    renderApp('/professional-dashboard', server.transport);
    expect(await screen.findByText(/^Paused until/)).toBeVisible();

    await user.click(screen.getByRole('button', { name: 'Resume now' }));
    expect(await screen.findByText(/on your days and hours/)).toBeVisible();
    const sent = () =>
      server.requests<SetProfessionalAvailabilityRequest>('setProfessionalAvailability');
    expect(sent()).toHaveLength(1);
    expect(sent()[0]?.id).toBe(PROFESSIONAL_ID);
    expect(sent()[0]?.pausedUntil).toBeUndefined();
    expect(sent()[0]?.onCallUntil).toBeUndefined();

    await user.selectOptions(screen.getByLabelText('How long to be on call'), '8');
    const before = Date.now();
    await user.click(screen.getByRole('button', { name: 'On call now' }));
    expect(await screen.findByText(/^On call until/)).toBeVisible();
    const onCall = sent()[1];
    expect(onCall?.pausedUntil).toBeUndefined();
    if (!onCall?.onCallUntil) throw new Error('no end of the on-call window was sent');
    const hoursAhead = (timestampDate(onCall.onCallUntil).getTime() - before) / 3_600_000;
    expect(hoursAhead).toBeGreaterThan(7.9);
    expect(hoursAhead).toBeLessThan(8.1);
  });
});
