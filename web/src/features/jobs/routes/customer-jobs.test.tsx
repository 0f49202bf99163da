import { create, type MessageInitShape } from '@bufbuild/protobuf';
import { timestampFromMs } from '@bufbuild/protobuf/wkt';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { OrderState, PaymentState } from '@/gen/repairs/billing/v1/billing_pb';
import {
  QuoteSchema,
  QuoteState,
  QuoteTaxTreatment,
  RepairRequestState,
  type CreateReviewRequest,
  type Quote,
} from '@/gen/repairs/marketplace/v1/marketplace_pb';
import { controlledStream } from '@/test/controlled-stream';
import { renderApp } from '@/test/render-app';
import { montrealTaxes } from '@/test/taxes';
import {
  Code,
  CUSTOMER_ID,
  PROFESSIONAL_ID,
  REQUEST_ID,
  customerServer,
  repairRequest,
  rpcError,
} from '@/test/stub-server';

const CAD = (amountCents: number) => ({ amountCents: BigInt(amountCents), currency: 'CAD' });

function quote(id: string, fields: MessageInitShape<typeof QuoteSchema> = {}): Quote {
  const base: MessageInitShape<typeof QuoteSchema> = {
    id,
    repairRequestId: REQUEST_ID,
    professionalId: PROFESSIONAL_ID,
    professionalName: 'Paule Pro',
    estimatedMinutes: 90,
    fee: CAD(123450),
    state: QuoteState.SUBMITTED,
    createTime: timestampFromMs(Date.UTC(2026, 10, 23, 16)),
    serviceName: 'Plumbing Services',
    requestDescription: 'The kitchen sink leaks under the cabinet.',
    professionalReviews: { reviewCount: 12, averageRating: 4.5 },
  };
  return create(QuoteSchema, { ...base, ...fields } as MessageInitShape<typeof QuoteSchema>);
}

describe('application list', () => {
  it('shows the quotes with fee, time, surge and rating, and new ones live', async () => {
    const stream = controlledStream();
    const first = quote('q1', { surge: true });
    const { transport, requests } = customerServer({
      listRepairRequestQuotes: () => ({ quotes: [first] }),
      watchRepairRequest: () => stream.watch(),
    });
    renderApp(`/application-list/${REQUEST_ID}`, transport);
    const card = await screen.findByRole('article');
    expect(within(card).getByRole('link', { name: 'Paule Pro' })).toHaveAttribute(
      'href',
      `/view-professional/${PROFESSIONAL_ID}`,
    );
    for (const text of ['$1,234.50', '1.5 hrs', 'Surge cost']) {
      expect(within(card).getAllByText(text)[0]).toBeVisible();
    }
    expect(
      within(card).getByRole('img', { name: 'Rated 4.5 out of 5, from 12 reviews' }),
    ).toBeVisible();
    expect(within(card).getByRole('link', { name: 'Hire Paule Pro' })).toHaveAttribute(
      'href',
      '/hire/q1',
    );
    expect(screen.getByRole('status')).toHaveTextContent('1 quote');

    stream.push({
      revision: 3n,
      event: {
        case: 'snapshot',
        value: { repairRequest: repairRequest({ quoteCount: 1 }), quotes: [first] } as never,
      },
    });
    expect(
      await screen.findByText('New quotes appear here as professionals send them.'),
    ).toBeVisible();
    stream.push({
      revision: 4n,
      event: {
        case: 'change',
        value: {
          repairRequest: repairRequest({ quoteCount: 2 }),
          quote: quote('q2', { professionalName: 'Sam Second', professionalReviews: undefined }),
        } as never,
      },
    });
    expect(await screen.findByRole('link', { name: 'Sam Second' })).toBeVisible();
    expect(screen.getByText('No reviews yet')).toBeVisible();
    expect(screen.getByRole('status')).toHaveTextContent('2 quotes');

    // A withdrawn quote leaves the list.
    stream.push({
      revision: 5n,
      event: {
        case: 'change',
        value: { quote: quote('q1', { state: QuoteState.WITHDRAWN }) } as never,
      },
    });
    await waitFor(() => expect(screen.queryByRole('link', { name: 'Paule Pro' })).toBeNull());
    expect(requests('watchRepairRequest')[0]).toMatchObject({ id: REQUEST_ID, revision: 0n });
  });

  it('stops offering Hire once the request is hired', async () => {
    const stream = controlledStream();
    const { transport } = customerServer({
      listRepairRequestQuotes: () => ({ quotes: [quote('q1')] }),
      watchRepairRequest: () => stream.watch(),
    });
    renderApp(`/application-list/${REQUEST_ID}`, transport);
    expect(await screen.findByRole('link', { name: 'Hire Paule Pro' })).toBeVisible();
    stream.push({
      revision: 9n,
      event: {
        case: 'snapshot',
        value: {
          repairRequest: repairRequest({
            state: RepairRequestState.HIRED,
            hiredProfessionalName: 'Paule Pro',
          }),
          quotes: [quote('q1', { state: QuoteState.HIRED })],
        } as never,
      },
    });
    expect(await screen.findByText('You hired Paule Pro for this request.')).toBeVisible();
    expect(screen.queryByRole('link', { name: 'Hire Paule Pro' })).toBeNull();
  });

  it.each([
    ['en', 'No quotes found'],
    ['fr', 'Aucune soumission trouvée'],
  ])('says when there are none, without the stream (%s)', async (language, text) => {
    localStorage.setItem('lang', language);
    const { transport } = customerServer({ listRepairRequestQuotes: () => ({ quotes: [] }) });
    renderApp(`/application-list/${REQUEST_ID}`, transport);
    expect(await screen.findByText(text)).toBeVisible();
  });

  it('shows the fee in French', async () => {
    localStorage.setItem('lang', 'fr');
    const { transport } = customerServer({
      listRepairRequestQuotes: () => ({ quotes: [quote('q1')] }),
    });
    renderApp(`/application-list/${REQUEST_ID}`, transport);
    const card = await screen.findByRole('article');
    // The fee, then the total (no tax on this quote).
    expect(
      within(card).getAllByText((_, node) => node?.textContent === '1\u00a0234,50\u00a0$'),
    ).toHaveLength(2);
    expect(within(card).getByRole('link', { name: 'Engager Paule Pro' })).toBeVisible();
  });

  it('shows fee, TPS, TVQ and total on a card in French, with the professional’s taxes', async () => {
    localStorage.setItem('lang', 'fr');
    const taxed = quote('q1', {
      fee: CAD(20000),
      taxes: montrealTaxes(),
      total: CAD(22995),
      taxTreatment: QuoteTaxTreatment.ADDED,
    });
    const { transport } = customerServer({
      listRepairRequestQuotes: () => ({ quotes: [taxed] }),
    });
    renderApp(`/application-list/${REQUEST_ID}`, transport);
    const card = await screen.findByRole('article');
    const rows = Array.from(
      within(card).getByTestId('sale').querySelectorAll(':scope > div'),
      (row) => Array.from(row.children, (cell) => cell.textContent).join(' '),
    );
    expect(rows).toEqual([
      'Frais 200,00\u00a0$',
      'TPS 5\u00a0% 10,00\u00a0$',
      'TVQ 9,975\u00a0% 19,95\u00a0$',
      'Total 229,95\u00a0$',
    ]);
  });

  it.each([
    [QuoteTaxTreatment.NOT_REGISTERED, 'No tax: this professional is not registered for GST/HST.'],
    [QuoteTaxTreatment.NOT_ADDED, 'Taxes not added: the fee is all the professional asks.'],
  ])('says why a quote carries no tax (%s)', async (taxTreatment, note) => {
    const { transport } = customerServer({
      listRepairRequestQuotes: () => ({
        quotes: [quote('q1', { total: CAD(123450), taxTreatment })],
      }),
    });
    renderApp(`/application-list/${REQUEST_ID}`, transport);
    const card = await screen.findByRole('article');
    expect(within(card).getByText(note)).toBeVisible();
    expect(within(card).getByTestId('total')).toHaveTextContent('$1,234.50');
  });

  it('says the quote from the customer’s side in French: theirs to choose, its fee, no surge', async () => {
    localStorage.setItem('lang', 'fr');
    const { transport } = customerServer({
      listRepairRequestQuotes: () => ({ quotes: [quote('q1')] }),
    });
    renderApp(`/application-list/${REQUEST_ID}`, transport);
    const card = await screen.findByRole('article');
    expect(within(card).getByText('En attente de votre choix')).toBeVisible();
    expect(within(card).queryByText('En attente du client')).toBeNull();
    for (const text of ['Frais', 'Tarif particulier', 'Non']) {
      expect(within(card).getByText(text)).toBeVisible();
    }
  });
});

describe('one application', () => {
  it('shows the quote and its request, with Hire while it can be chosen', async () => {
    const { transport } = customerServer({
      getQuote: () => ({ quote: quote('q1'), repairRequest: repairRequest() }),
    });
    renderApp('/view-application/q1', transport);
    expect(await screen.findByText('The kitchen sink leaks under the cabinet.')).toBeVisible();
    expect(screen.getByText('Waiting for your choice')).toBeVisible();
    expect(screen.getByRole('link', { name: 'Hire Paule Pro' })).toHaveAttribute(
      'href',
      '/hire/q1',
    );
    expect(screen.getByRole('link', { name: 'Back to the quotes' })).toHaveAttribute(
      'href',
      `/application-list/${REQUEST_ID}`,
    );
  });

  it('names the service in French on a French page, whatever the account’s language', async () => {
    localStorage.setItem('lang', 'fr');
    // The quote names its service in the account's language: English here.
    const { transport } = customerServer({
      getQuote: () => ({ quote: quote('q1'), repairRequest: repairRequest() }),
    });
    renderApp('/fr/view-application/q1', transport);
    expect(await screen.findByText('The kitchen sink leaks under the cabinet.')).toBeVisible();
    expect(await screen.findByText('Services de plomberie')).toBeVisible();
    expect(screen.queryByText('Plumbing Services')).toBeNull();
  });

  it('shows another customer’s quote as not found', async () => {
    const { transport } = customerServer({
      getQuote: () => {
        throw rpcError(Code.NotFound, 'NOT_FOUND');
      },
    });
    renderApp('/view-application/q1', transport);
    expect(await screen.findByRole('alert')).toBeVisible();
  });
});

describe('submit review', () => {
  const path = `/submit-review/${PROFESSIONAL_ID}/${REQUEST_ID}`;

  it('asks for a rating, then sends it with the text and goes to the completed requests', async () => {
    const { transport, requests } = customerServer({
      createReview: () => ({ review: { id: 'r1', rating: 4 } }),
      listCustomerRepairRequests: () => ({ repairRequests: [] }),
    });
    const { router } = renderApp(path, transport);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Submit Review' }));
    expect(await screen.findByText('Please choose a rating from 1 to 5 stars.')).toBeVisible();
    expect(requests('createReview')).toEqual([]);

    const group = screen.getByRole('radiogroup');
    expect(within(group).getAllByRole('radio')).toHaveLength(5);
    await user.click(screen.getByRole('radio', { name: '4 stars: very good' }));
    const text = screen.getByLabelText('Your review (optional)');
    await user.type(text, 'Quick and tidy.');
    expect(text).toHaveAccessibleDescription('15 of 2,000 characters');
    await user.click(screen.getByRole('button', { name: 'Submit Review' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/user-completed-requests'));
    expect(requests<CreateReviewRequest>('createReview')[0]).toMatchObject({
      repairRequestId: REQUEST_ID,
      rating: 4,
      text: 'Quick and tidy.',
    });
  });

  it('says when the job was reviewed already', async () => {
    const { transport } = customerServer({
      createReview: () => {
        throw rpcError(Code.AlreadyExists, 'REVIEW_EXISTS');
      },
    });
    renderApp(path, transport);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('radio', { name: '5 stars: excellent' }));
    await user.click(screen.getByRole('button', { name: 'Submit Review' }));
    expect(await screen.findByText('You already reviewed this job.')).toBeVisible();
  });

  it('is in French', async () => {
    localStorage.setItem('lang', 'fr');
    const { transport } = customerServer();
    renderApp(path, transport);
    expect(await screen.findByRole('radio', { name: '5 étoiles\u00a0: excellent' })).toBeDefined();
    expect(screen.getByRole('button', { name: 'Envoyer l’évaluation' })).toBeVisible();
  });
});

describe('order history', () => {
  const order = {
    id: 'o1',
    customerId: CUSTOMER_ID,
    customerName: 'Casey Customer',
    professionalId: PROFESSIONAL_ID,
    professionalName: 'Paule Pro',
    repairRequestId: REQUEST_ID,
    estimatedMinutes: 120,
    state: OrderState.CAPTURED,
    payment: { id: 'p1', amount: CAD(123450), state: PaymentState.CAPTURED },
    createTime: timestampFromMs(Date.UTC(2026, 10, 23, 16)),
  };

  it.each([
    ['en', '$1,234.50', '2 hrs', 'Charged', ''],
    ['fr', '1\u00a0234,50\u00a0$', '2\u00a0h', 'Prélevé', '/fr'],
  ])('lists the customer’s orders (%s)', async (language, charges, time, state, prefix) => {
    localStorage.setItem('lang', language);
    const { transport, requests } = customerServer({}, { listOrders: () => ({ orders: [order] }) });
    renderApp('/user-order-history', transport);
    const row = (await screen.findByText('Paule Pro')).closest('tr')!;
    const cells = within(row)
      .getAllByRole('cell')
      .map((cell) => cell.textContent);
    expect(cells).toContain(charges);
    expect(cells).toContain(time);
    expect(cells).toContain(state);
    const [view, receipt] = within(row).getAllByRole('link');
    expect(view).toHaveAttribute('href', `${prefix}/user-view-request/${REQUEST_ID}`);
    expect(receipt).toHaveAttribute('href', `${prefix}/receipts/p1?as=customer`);
    expect(requests('listOrders')[0]).toMatchObject({
      party: { case: 'customerId', value: CUSTOMER_ID },
    });
  });

  it('says when there are none', async () => {
    const { transport } = customerServer({}, { listOrders: () => ({ orders: [] }) });
    renderApp('/user-order-history', transport);
    expect(await screen.findByText('No Records Found')).toBeVisible();
  });
});
