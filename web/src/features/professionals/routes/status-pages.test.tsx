import { timestampFromMs } from '@bufbuild/protobuf/wkt';
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ProfessionalState } from '@/gen/repairs/accounts/v1/accounts_pb';
import { renderApp } from '@/test/render-app';
import { PROFESSIONAL_ID, professional, signIn, stubServer } from '@/test/stub-server';

function as(fields: Parameters<typeof professional>[0]) {
  signIn('professional', PROFESSIONAL_ID);
  return stubServer({ getProfessional: () => ({ professional: professional(fields) }) }).transport;
}

describe('professional state pages', () => {
  it.each([
    [ProfessionalState.APPROVED, '/waiting-for-approval', '/professional-dashboard'],
    [ProfessionalState.DENIED, '/waiting-for-approval', '/disapproved-professional'],
    [ProfessionalState.PROFILE_UPDATED, '/disapproved-professional', '/waiting-for-profile-review'],
    [
      ProfessionalState.WAITING_FOR_APPROVAL,
      '/waiting-for-profile-review',
      '/waiting-for-approval',
    ],
    [ProfessionalState.DENIED, '/request-list', '/disapproved-professional'],
  ])('sends a professional in state %i from %s to %s', async (state, from, to) => {
    const { router } = renderApp(from, as({ state }));
    await waitFor(() => expect(router.state.location.pathname).toBe(to));
  });

  it('lets an approved professional open the request screens, whatever was stored before', async () => {
    localStorage.setItem('professional-status', 'waiting-for-approval');
    const { router } = renderApp('/request-list', as({ state: ProfessionalState.APPROVED }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Open requests' })).toBeVisible();
    expect(router.state.location.pathname).toBe('/request-list');
    await waitFor(() => expect(localStorage.getItem('professional-status')).toBe('approved'));
  });

  it('sends a professional without a verified phone to the phone step', async () => {
    const { router } = renderApp('/professional-dashboard', as({ phoneVerified: false }));
    await waitFor(() =>
      expect(router.state.location.pathname).toBe(`/professional-phone-otp/${PROFESSIONAL_ID}`),
    );
  });

  it('shows the inactive-membership notice with its Buy Membership link on the dashboard', async () => {
    renderApp(
      '/professional-dashboard',
      as({ state: ProfessionalState.APPROVED, membershipActive: false }),
    );
    expect(await screen.findByText('Your membership is inactive')).toBeVisible();
    expect(screen.getByRole('link', { name: 'Buy Membership' })).toHaveAttribute(
      'href',
      `/purchase-membership/${PROFESSIONAL_ID}`,
    );
  });

  it('shows until when the membership is paid, and no notice', async () => {
    renderApp(
      '/professional-dashboard',
      as({
        state: ProfessionalState.APPROVED,
        membershipActive: true,
        membershipExpireTime: timestampFromMs(Date.UTC(2031, 0, 15, 12)),
      }),
    );
    expect(
      await screen.findByText('Your membership is active until January 15, 2031.'),
    ).toBeVisible();
    expect(screen.queryByText('Your membership is inactive')).toBeNull();
  });

  it('shows the own profile with its licences', async () => {
    renderApp(
      '/view-professional-profile',
      as({ licences: [{ id: 'l1', label: 'Plumbing', fileUrl: '/files/l1.pdf?sig=x' }] }),
    );
    expect(await screen.findByRole('link', { name: 'Open Plumbing' })).toHaveAttribute(
      'href',
      '/files/l1.pdf?sig=x',
    );
    expect(screen.getByText('Licensed plumber.')).toBeVisible();
  });
});
