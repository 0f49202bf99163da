import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import {
  CustomerRepairRequestView,
  RepairRequestState,
} from '@/gen/repairs/marketplace/v1/marketplace_pb';
import { renderApp } from '@/test/render-app';
import {
  Code,
  PROFESSIONAL_ID,
  REQUEST_ID,
  customerServer,
  repairRequest,
  rpcError,
} from '@/test/stub-server';

const hired = (fields: Parameters<typeof repairRequest>[0] = {}) =>
  repairRequest({
    state: RepairRequestState.HIRED,
    hiredProfessionalId: PROFESSIONAL_ID,
    hiredProfessionalName: 'Paule Pro',
    hiredQuoteId: 'q1',
    ...fields,
  });

describe('requests with applications', () => {
  it('lists the open requests with quotes, each linking to its applications', async () => {
    const { transport, requests } = customerServer({
      listCustomerRepairRequests: () => ({ repairRequests: [repairRequest({ quoteCount: 2 })] }),
    });
    renderApp('/request-applications-list', transport);
    expect(await screen.findByRole('link', { name: 'View Applications' })).toHaveAttribute(
      'href',
      `/application-list/${REQUEST_ID}`,
    );
    expect(requests('listCustomerRepairRequests')[0]).toMatchObject({
      view: CustomerRepairRequestView.WITH_QUOTES,
    });
  });
});

describe('active requests', () => {
  it('marks a job completed, then shows the completed requests', async () => {
    let done = false;
    const { transport, requests } = customerServer({
      listCustomerRepairRequests: ({ view }) => ({
        repairRequests:
          view === CustomerRepairRequestView.ACTIVE && !done
            ? [hired()]
            : view === CustomerRepairRequestView.COMPLETED && done
              ? [hired({ state: RepairRequestState.COMPLETED })]
              : [],
      }),
      completeRepairRequest: () => {
        done = true;
        return { repairRequest: hired({ state: RepairRequestState.COMPLETED }) };
      },
    });
    const { router } = renderApp('/user-active-requests', transport);
    const user = userEvent.setup();
    await user.click(
      await screen.findByRole('button', { name: 'Mark the job of Paule Pro completed' }),
    );
    await waitFor(() => expect(router.state.location.pathname).toBe('/user-completed-requests'));
    expect(
      await screen.findByText('The job is marked completed and the payment is made.'),
    ).toBeVisible();
    expect(requests('completeRepairRequest')).toEqual([
      expect.objectContaining({ id: REQUEST_ID }),
    ]);
    expect(
      await screen.findByRole('link', { name: 'Submit a review of Paule Pro' }),
    ).toHaveAttribute('href', `/submit-review/${PROFESSIONAL_ID}/${REQUEST_ID}`);
  });

  it('offers to authorise the card again when the hold lapsed', async () => {
    const { transport } = customerServer({
      listCustomerRepairRequests: () => ({ repairRequests: [hired()] }),
      completeRepairRequest: () => {
        throw rpcError(Code.FailedPrecondition, 'AUTHORIZATION_EXPIRED');
      },
    });
    const { router } = renderApp('/user-active-requests', transport);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: /^Mark the job/ }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'The hold on the card has expired. Authorise the card again.',
    );
    expect(screen.getByRole('link', { name: 'Authorise the card again' })).toHaveAttribute(
      'href',
      '/hire/q1',
    );
    expect(router.state.location.pathname).toBe('/user-active-requests');
  });

  it('shows a job waiting on the payment without Mark Completed, in French', async () => {
    localStorage.setItem('lang', 'fr');
    const { transport } = customerServer({
      listCustomerRepairRequests: () => ({
        repairRequests: [repairRequest({ state: RepairRequestState.PENDING_PAYMENT })],
      }),
    });
    renderApp('/user-active-requests', transport);
    expect(await screen.findByText('En attente du paiement')).toBeVisible();
    expect(screen.queryByRole('button', { name: /Marquer/ })).toBeNull();
  });
});

describe('completed requests', () => {
  it('says Review Submitted once reviewed', async () => {
    const { transport } = customerServer({
      listCustomerRepairRequests: () => ({
        repairRequests: [hired({ state: RepairRequestState.COMPLETED, reviewed: true })],
      }),
    });
    renderApp('/user-completed-requests', transport);
    const row = (await screen.findByText('Review Submitted')).closest('tr')!;
    expect(within(row).getByText('Paule Pro')).toBeVisible();
    expect(within(row).queryByRole('link', { name: /Submit a review/ })).toBeNull();
  });
});
