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
import { setViewportWidth } from '@/test/viewport';
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
    const second = await screen.findByRole('link', { name: 'Sam Second' });
    expect(second).toBeVisible();
    expect(within(second.closest('article')!).getByText('No reviews yet')).toBeVisible();
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

describe('arrival first: how soon, sorted, side by side', () => {
  /** Three quotes: one that said nothing of the arrival, one dear and soon, one cheap and late. */
  const three = () => [
    quote('silent', {
      professionalName: 'Sam Silent',
      fee: CAD(9000),
      total: CAD(9000),
      createTime: timestampFromMs(Date.UTC(2026, 10, 23, 18)),
      professionalReviews: undefined,
    }),
    quote('soon', {
      professionalName: 'Marc Soon',
      arrivalMinutes: 40,
      fee: CAD(20000),
      taxes: montrealTaxes(),
      total: CAD(22995),
      taxTreatment: QuoteTaxTreatment.ADDED,
      createTime: timestampFromMs(Date.UTC(2026, 10, 23, 16)),
      professionalReviews: { reviewCount: 3, averageRating: 4 },
    }),
    quote('late', {
      professionalName: 'Lea Late',
      arrivalMinutes: 150,
      fee: CAD(12000),
      total: CAD(12000),
      taxTreatment: QuoteTaxTreatment.NOT_REGISTERED,
      createTime: timestampFromMs(Date.UTC(2026, 10, 23, 17)),
      professionalReviews: { reviewCount: 20, averageRating: 4.8 },
    }),
  ];
  const cardNames = () =>
    screen.getAllByRole('article').map((card) => within(card).getByRole('heading').textContent);
  const plain = (text: string | null) => text?.replace(/[\u00a0\u202f]/g, ' ');

  it('says how soon each can come, lists the soonest first, and sorts as asked', async () => {
    const { transport } = customerServer({
      listRepairRequestQuotes: () => ({ quotes: three() }),
    });
    renderApp(`/application-list/${REQUEST_ID}`, transport);
    await screen.findAllByRole('article');
    expect(cardNames()).toEqual(['Marc Soon', 'Lea Late', 'Sam Silent']);
    const [soon, late, silent] = screen.getAllByRole('article');
    expect(plain(within(soon!).getByText(/^Can be there in/).textContent)).toBe(
      'Can be there in about 40 min',
    );
    expect(plain(within(late!).getByText(/^Can be there in/).textContent)).toBe(
      'Can be there in about 2 h 30 min',
    );
    expect(within(silent!).queryByText(/Can be there/)).toBeNull();
    expect(within(silent!).queryByText('Arrival')).toBeNull();

    const sort = screen.getByRole('combobox', { name: 'Sort by' });
    expect(sort).toHaveValue('arrival');
    expect(
      within(sort)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['Soonest arrival', 'Lowest total', 'Best rated', 'Newest']);
    const user = userEvent.setup();
    await user.selectOptions(sort, 'Lowest total');
    expect(cardNames()).toEqual(['Sam Silent', 'Lea Late', 'Marc Soon']);
    await user.selectOptions(sort, 'Best rated');
    expect(cardNames()).toEqual(['Lea Late', 'Marc Soon', 'Sam Silent']);
    await user.selectOptions(sort, 'Newest');
    expect(cardNames()).toEqual(['Sam Silent', 'Lea Late', 'Marc Soon']);
  });

  it('compares the live quotes in a table with its caption and headers, in the chosen order', async () => {
    const { transport } = customerServer({
      listRepairRequestQuotes: () => ({
        quotes: [...three(), quote('gone', { state: QuoteState.NOT_SELECTED })],
      }),
    });
    renderApp(`/application-list/${REQUEST_ID}`, transport);
    const section = await screen.findByRole('region', { name: 'Compare the quotes' });
    const table = within(section).getByRole('table', {
      name: 'The quotes side by side: fee, taxes, total, arrival and reviews',
    });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((header) => header.textContent),
    ).toEqual(['Professional', 'Fee', 'Taxes', 'Total', 'Arrival', 'Reviews']);
    const rows = within(table)
      .getAllByRole('row')
      .slice(1)
      .map((row) =>
        within(row)
          .getAllByRole('cell')
          .map((cell) => plain(cell.textContent)),
      );
    expect(rows.map((row) => row.slice(0, 5))).toEqual([
      ['Marc Soon', '$200.00', 'GST 5% $10.00QST 9.975% $19.95', '$229.95', 'about 40 min'],
      ['Lea Late', '$120.00', 'No tax (not registered)', '$120.00', 'about 2 h 30 min'],
      ['Sam Silent', '$90.00', '', '$90.00', 'Not said'],
    ]);
    expect(
      within(table).getByRole('img', { name: 'Rated 4.8 out of 5, from 20 reviews' }),
    ).toBeVisible();
  });

  it('compares them as one card each on a phone, in French', async () => {
    localStorage.setItem('lang', 'fr');
    setViewportWidth(390);
    const { transport } = customerServer({
      listRepairRequestQuotes: () => ({ quotes: three() }),
    });
    renderApp(`/application-list/${REQUEST_ID}`, transport);
    const section = await screen.findByRole('region', { name: 'Comparer les soumissions' });
    expect(within(section).queryByRole('table')).toBeNull();
    const cards = within(section).getAllByRole('listitem');
    expect(cards).toHaveLength(3);
    expect(within(cards[0]!).getByText('Marc Soon')).toBeVisible();
    const arrival = within(cards[0]!).getByText('Arrivée', { selector: 'dt' });
    expect(plain(arrival.nextElementSibling!.textContent)).toBe('environ 40 min');
    expect(screen.getByRole('combobox', { name: 'Trier par' })).toHaveValue('arrival');
    expect(
      within(screen.getAllByRole('article')[0]!).getByText((_, node) =>
        node?.tagName === 'DD'
          ? plain(node.textContent) === 'Peut être là dans environ 40 min'
          : false,
      ),
    ).toBeVisible();
  });

  it('offers neither a sort nor a comparison for a single quote', async () => {
    const { transport } = customerServer({
      listRepairRequestQuotes: () => ({ quotes: [quote('q1')] }),
    });
    renderApp(`/application-list/${REQUEST_ID}`, transport);
    await screen.findByRole('article');
    expect(screen.queryByRole('combobox', { name: 'Sort by' })).toBeNull();
    expect(screen.queryByRole('region', { name: 'Compare the quotes' })).toBeNull();
  });

  it.each([
    ['en', 'Should be there by 9:40 p.m.'],
    ['fr', 'Devrait être là vers 21 h 40'],
  ])('says by when the hired professional should be there (%s)', async (language, text) => {
    localStorage.setItem('lang', language);
    const arriveBy = new Date();
    arriveBy.setHours(21, 40, 0, 0);
    const { transport } = customerServer({
      listRepairRequestQuotes: () => ({
        quotes: [
          quote('q1', {
            state: QuoteState.HIRED,
            arrivalMinutes: 40,
            arriveBy: timestampFromMs(arriveBy.getTime()),
          }),
        ],
      }),
    });
    renderApp(`/application-list/${REQUEST_ID}`, transport);
    const card = await screen.findByRole('article');
    expect(
      within(card).getByText((_, node) =>
        node?.tagName === 'DD' ? plain(node.textContent) === text : false,
      ),
    ).toBeVisible();
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
