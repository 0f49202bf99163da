import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { timestampFromMs } from '@bufbuild/protobuf/wkt';
import { RepairRequestState } from '@/gen/repairs/marketplace/v1/marketplace_pb';
import { DeliveryState, NotificationChannel } from '@/gen/repairs/matching/v1/matching_pb';
import { renderApp } from '@/test/render-app';
import {
  Code,
  PROFESSIONAL_ID,
  REQUEST_ID,
  TEST_SERVICES,
  repairRequest,
  rpcError,
  signIn,
  stubServer,
} from '@/test/stub-server';

function adminServer(matches: Parameters<typeof stubServer>[2] = {}) {
  signIn('admin', 'a1');
  return stubServer(
    {},
    {},
    {
      marketplace: {
        listRepairRequests: () => ({ repairRequests: [repairRequest()], nextPageToken: 'p2' }),
        getRepairRequest: () => ({ repairRequest: repairRequest() }),
      },
      ...matches,
    },
  );
}

describe('admin: requests', () => {
  it('lists requests and filters them by state and service, from the first page', async () => {
    const { transport, requests } = adminServer();
    renderApp('/admin/request-list', transport);
    const link = await screen.findByRole('link', { name: 'Plumbing Services' });
    expect(link).toHaveAttribute('href', `/admin/view-request/${REQUEST_ID}`);
    const row = link.closest('tr') as HTMLElement;
    expect(within(row).getByText('Open')).toBeVisible();
    expect(within(row).getByText('Calgary, AB')).toBeVisible();

    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Next page' }));
    await waitFor(() =>
      expect(requests('listRepairRequests').at(-1)).toMatchObject({ pageToken: 'p2' }),
    );
    await user.selectOptions(screen.getByLabelText('Status'), 'Cancelled');
    await user.selectOptions(screen.getByLabelText('Service'), 'Roofing Services');
    await waitFor(() =>
      expect(requests('listRepairRequests').at(-1)).toMatchObject({
        state: RepairRequestState.CANCELLED,
        serviceId: TEST_SERVICES[1]!.id,
        pageToken: '',
      }),
    );
  });

  it('shows a request, whom it matched and how each notification went', async () => {
    const { transport, requests } = adminServer({
      matching: {
        listRepairRequestMatches: () => ({
          matches: [
            {
              professionalId: PROFESSIONAL_ID,
              professionalName: 'Paule Pro',
              distanceKm: 4,
              notifications: [
                {
                  channel: NotificationChannel.EMAIL,
                  state: DeliveryState.SENT,
                  attempts: 1,
                  createTime: timestampFromMs(Date.UTC(2026, 10, 23, 15, 30)),
                },
                {
                  channel: NotificationChannel.SMS,
                  state: DeliveryState.PARKED,
                  attempts: 8,
                  lastError: 'number unreachable',
                  createTime: timestampFromMs(Date.UTC(2026, 10, 23, 15, 30)),
                },
              ],
            },
          ],
        }),
      },
    });
    renderApp(`/admin/view-request/${REQUEST_ID}`, transport);
    expect(await screen.findByText('The kitchen sink leaks under the cabinet.')).toBeVisible();
    const pro = await screen.findByRole('link', { name: 'Paule Pro' });
    expect(pro).toHaveAttribute('href', `/admin/view-professional/${PROFESSIONAL_ID}`);
    const row = pro.closest('tr') as HTMLElement;
    expect(within(row).getByText('about 4 km')).toBeVisible();
    expect(within(row).getByText(/^Email – Sent · 1 try/)).toBeVisible();
    expect(
      within(row).getByText(/^Text – Failed · 8 tries · .* · number unreachable$/),
    ).toBeVisible();
    expect(requests('listRepairRequestMatches')[0]).toMatchObject({ repairRequestId: REQUEST_ID });
  });

  it('says when a request matched nobody', async () => {
    const { transport } = adminServer({
      matching: { listRepairRequestMatches: () => ({ matches: [] }) },
    });
    renderApp(`/admin/view-request/${REQUEST_ID}`, transport);
    expect(await screen.findByText('No professional matched this request.')).toBeVisible();
  });

  it('shows a failed list in the page', async () => {
    signIn('admin', 'a1');
    const { transport } = stubServer(
      {},
      {},
      {
        marketplace: {
          listRepairRequests: () => {
            throw rpcError(Code.PermissionDenied, 'ROLE_NOT_ALLOWED');
          },
        },
      },
    );
    renderApp('/admin/request-list', transport);
    expect(await screen.findByRole('alert')).toBeVisible();
  });
});
