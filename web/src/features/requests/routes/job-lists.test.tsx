import { screen, waitFor, within } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import {
  CustomerRepairRequestView,
  RepairRequestState,
} from '@/gen/repairs/marketplace/v1/marketplace_pb';
import { expectLabelInName } from '@/test/label-in-name';
import { renderApp } from '@/test/render-app';
import {
  Code,
  PROFESSIONAL_ID,
  REQUEST_ID,
  customerServer,
  repairRequest,
  rpcError,
  type MarketplaceImpl,
} from '@/test/stub-server';

const hired = (fields: Parameters<typeof repairRequest>[0] = {}) =>
  repairRequest({
    state: RepairRequestState.HIRED,
    hiredProfessionalId: PROFESSIONAL_ID,
    hiredProfessionalName: 'Paule Pro',
    hiredQuoteId: 'q1',
    ...fields,
  });

/** The hired quote 'q1': its total, fee plus 14 % HST, is what the hire held on the card. */
const hiredQuote = () => ({
  quote: {
    id: 'q1',
    professionalName: 'Paule Pro',
    fee: { amountCents: 12000n, currency: 'CAD' },
    total: { amountCents: 13680n, currency: 'CAD' },
  },
});

/** A customer with one hired job, whose quote's fee the server gives. */
const hiredJobServer = (marketplace: MarketplaceImpl = {}) =>
  customerServer({
    listCustomerRepairRequests: () => ({ repairRequests: [hired()] }),
    getQuote: hiredQuote,
    ...marketplace,
  });

/** Presses the row's Mark Completed; the confirmation dialog it opens. */
const askToComplete = async (user: UserEvent, label = 'Mark Completed: Paule Pro’s job') => {
  const button = await screen.findByRole('button', { name: label });
  expectLabelInName(button);
  await user.click(button);
  return { button, dialog: await screen.findByRole('alertdialog') };
};

describe('requests with applications', () => {
  it('lists the open requests with quotes, each linking to its applications', async () => {
    const { transport, requests } = customerServer({
      listCustomerRepairRequests: () => ({ repairRequests: [repairRequest({ quoteCount: 2 })] }),
    });
    renderApp('/request-applications-list', transport);
    expect(await screen.findByRole('link', { name: 'View quotes' })).toHaveAttribute(
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
      getQuote: hiredQuote,
    });
    const { router } = renderApp('/user-active-requests', transport);
    const user = userEvent.setup();
    const { dialog } = await askToComplete(user);
    await user.click(within(dialog).getByRole('button', { name: 'Mark Completed' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/user-completed-requests'));
    expect(
      await screen.findByText('The job is marked completed and the payment is made.'),
    ).toBeVisible();
    expect(requests('completeRepairRequest')).toEqual([
      expect.objectContaining({ id: REQUEST_ID }),
    ]);
    const review = await screen.findByRole('link', { name: 'Submit Review of Paule Pro' });
    expect(review).toHaveAttribute('href', `/submit-review/${PROFESSIONAL_ID}/${REQUEST_ID}`);
    expectLabelInName(review);
  });

  it('offers to authorise the card again when the hold lapsed', async () => {
    const { transport } = hiredJobServer({
      completeRepairRequest: () => {
        throw rpcError(Code.FailedPrecondition, 'AUTHORIZATION_EXPIRED');
      },
    });
    const { router } = renderApp('/user-active-requests', transport);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: /^Mark Completed: / }));
    const dialog = await screen.findByRole('alertdialog');
    await user.click(within(dialog).getByRole('button', { name: 'Mark Completed' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'The hold on the card has expired. Authorize the card again.',
    );
    expect(screen.getByRole('link', { name: 'Authorize the card again' })).toHaveAttribute(
      'href',
      '/hire/q1',
    );
    expect(router.state.location.pathname).toBe('/user-active-requests');
  });

  it('asks first, naming the amount and the professional; Cancel sends nothing', async () => {
    const { transport, requests } = hiredJobServer({
      completeRepairRequest: () => ({ repairRequest: hired() }),
    });
    const { router } = renderApp('/user-active-requests', transport);
    const user = userEvent.setup();
    const { button, dialog } = await askToComplete(user);
    expect(dialog).toHaveAccessibleName('Mark the job completed?');
    await waitFor(() =>
      expect(dialog).toHaveAccessibleDescription(
        'Your card will be charged $136.80 for the job done by Paule Pro.',
      ),
    );
    expect(requests('getQuote')).toEqual([expect.objectContaining({ id: 'q1' })]);
    await waitFor(() => expect(dialog).toContainElement(document.activeElement as HTMLElement));
    expect(requests('completeRepairRequest')).toEqual([]);

    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    await waitFor(() => expect(button).toHaveFocus());
    expect(requests('completeRepairRequest')).toEqual([]);
    expect(router.state.location.pathname).toBe('/user-active-requests');

    // Escape cancels too.
    await askToComplete(user);
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(requests('completeRepairRequest')).toEqual([]);
  });

  it('names the amount in French and completes once confirmed, with one call', async () => {
    localStorage.setItem('lang', 'fr');
    const { transport, requests } = hiredJobServer({
      completeRepairRequest: () => ({ repairRequest: hired() }),
    });
    const { router } = renderApp('/user-active-requests', transport);
    const user = userEvent.setup();
    const { dialog } = await askToComplete(
      user,
      'Marquer comme terminé\u00a0: le travail de Paule Pro',
    );
    expect(dialog).toHaveAccessibleName('Marquer le travail comme terminé?');
    await waitFor(() =>
      expect(dialog).toHaveAccessibleDescription(
        'Le montant de 136,80\u00a0$ sera prélevé sur votre carte pour le travail fait par Paule Pro.',
      ),
    );
    expect(requests('completeRepairRequest')).toEqual([]);

    await user.click(within(dialog).getByRole('button', { name: 'Marquer comme terminé' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/fr/user-completed-requests'));
    expect(requests('completeRepairRequest')).toEqual([
      expect.objectContaining({ id: REQUEST_ID }),
    ]);
  });

  it('waits for the amount before the job can be marked completed', async () => {
    let answer: (reply: ReturnType<typeof hiredQuote>) => void = () => {};
    const { transport } = hiredJobServer({
      getQuote: () => new Promise((resolve) => (answer = resolve)),
    });
    renderApp('/user-active-requests', transport);
    const user = userEvent.setup();
    const { dialog } = await askToComplete(user);
    expect(await within(dialog).findByRole('status')).toHaveTextContent('Loading...');
    const confirm = within(dialog).getByRole('button', { name: 'Mark Completed' });
    expect(confirm).toBeDisabled();
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toBeEnabled();

    answer(hiredQuote());
    expect(await within(dialog).findByText(/\$136\.80/)).toBeVisible();
    expect(confirm).toBeEnabled();
  });

  it('says in the dialog when the amount cannot be loaded, and charges nothing', async () => {
    const alert = vi.spyOn(window, 'alert').mockImplementation(() => {});
    const { transport, requests } = hiredJobServer({
      getQuote: () => {
        throw rpcError(Code.NotFound, 'NOT_FOUND');
      },
    });
    renderApp('/user-active-requests', transport);
    const user = userEvent.setup();
    const { dialog } = await askToComplete(user);
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'The amount to be charged could not be loaded.',
    );
    expect(within(dialog).getByRole('button', { name: 'Mark Completed' })).toBeDisabled();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(requests('completeRepairRequest')).toEqual([]);
    expect(alert).not.toHaveBeenCalled();
    alert.mockRestore();
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
