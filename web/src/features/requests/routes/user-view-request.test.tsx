import { create, type MessageInitShape } from '@bufbuild/protobuf';
import { timestampFromMs } from '@bufbuild/protobuf/wkt';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import {
  ArrivalEstimateSource,
  JobProblemSchema,
  JobProblemState,
  QuoteSchema,
  QuoteState,
  RepairRequestState,
  TripSchema,
  TripState,
  type Quote,
  type RepairRequest,
  type ReportJobProblemRequest,
} from '@/gen/repairs/marketplace/v1/marketplace_pb';
import { controlledStream } from '@/test/controlled-stream';
import { renderApp } from '@/test/render-app';
import {
  CUSTOMER_ID,
  PROFESSIONAL_ID,
  REQUEST_ID,
  Code,
  customer,
  repairRequest,
  rpcError,
  signIn,
  stubServer,
  type BillingImpl,
  type MarketplaceImpl,
} from '@/test/stub-server';

const PHOTO_URL = 'https://files.test/professionals/paule.jpg';

function quote(fields: MessageInitShape<typeof QuoteSchema> = {}): Quote {
  return create(QuoteSchema, {
    id: 'q1',
    repairRequestId: REQUEST_ID,
    professionalId: PROFESSIONAL_ID,
    professionalName: 'Paule Pro',
    estimatedMinutes: 90,
    fee: { amountCents: 12000n, currency: 'CAD' },
    state: QuoteState.SUBMITTED,
    ...fields,
  } as MessageInitShape<typeof QuoteSchema>);
}

/** The request once Paule Pro is hired on it, with both parties' contacts. */
const hired = (state: RepairRequestState = RepairRequestState.HIRED) =>
  repairRequest({
    state,
    quoteCount: 1,
    hiredQuoteId: 'q1',
    hiredProfessionalId: PROFESSIONAL_ID,
    hiredProfessionalName: 'Paule Pro',
    hireTime: timestampFromMs(Date.UTC(2026, 10, 24)),
    contacts: {
      customer: {
        id: CUSTOMER_ID,
        name: 'Casey Customer',
        phone: '+14035550100',
      },
      professional: {
        id: PROFESSIONAL_ID,
        name: 'Paule Pro',
        email: 'paule@example.ca',
        phone: '+14035550111',
      },
    },
  });

/** A signed-in customer's server showing `request`, with the marketplace methods given. */
function requestServer(
  request: RepairRequest,
  marketplace: MarketplaceImpl = {},
  billing: BillingImpl = {},
) {
  signIn('customer', CUSTOMER_ID);
  return stubServer(
    {
      getCustomer: () => ({ customer: customer() }),
      getPublicProfessional: () => ({
        professional: {
          id: PROFESSIONAL_ID,
          name: 'Paule Pro',
          photoUrl: PHOTO_URL,
        },
      }),
    },
    billing,
    {
      marketplace: {
        getRepairRequest: () => ({ repairRequest: request }),
        listRepairRequestQuotes: () => ({ quotes: [] }),
        listConversations: () => ({ conversations: [], unreadTotal: 0 }),
        listBlockedProfessionals: () => ({ blockedProfessionals: [] }),
        ...marketplace,
      },
    },
  );
}

/** The first render waits for the page's code, loaded lazily: longer on a busy machine. */
const FIRST_RENDER = { timeout: 10_000 };

/** The value beside a label of the request's facts. */
const fact = (label: string) => screen.getByText(label).nextElementSibling;

describe('the customer’s request, live', () => {
  it('counts a new quote, lists its professional, and moves to the hire as the stream tells', async () => {
    const stream = controlledStream();
    const { transport } = requestServer(repairRequest(), {
      watchRepairRequest: () => stream.watch(),
    });
    renderApp(`/user-view-request/${REQUEST_ID}`, transport);
    expect(await screen.findByText('No messages yet', undefined, FIRST_RENDER)).toBeVisible();
    expect(fact('Quotes received')).toHaveTextContent('0');
    expect(screen.getByRole('link', { name: 'Back to pending requests' })).toHaveAttribute(
      'href',
      '/pending-requests',
    );

    stream.push({
      revision: 2n,
      event: {
        case: 'snapshot',
        value: { repairRequest: repairRequest(), quotes: [] } as never,
      },
    });
    stream.push({
      revision: 3n,
      event: {
        case: 'change',
        value: {
          repairRequest: repairRequest({ quoteCount: 1 }),
          quote: quote(),
        } as never,
      },
    });
    await waitFor(() => expect(fact('Quotes received')).toHaveTextContent('1'));
    const people = await screen.findByRole('list', {
      name: 'Conversations on this request',
    });
    expect(within(people).getByRole('button')).toHaveAccessibleName(
      'Paule Pro Sent a quote; no messages yet',
    );
    expect(screen.queryByText('No messages yet')).toBeNull();
    expect(screen.queryByRole('heading', { name: 'Your professional' })).toBeNull();

    // The hire: the page turns to the job, the hired professional first.
    stream.push({
      revision: 4n,
      event: {
        case: 'change',
        value: {
          repairRequest: hired(),
          quote: quote({ state: QuoteState.HIRED }),
        } as never,
      },
    });
    const card = await screen.findByRole('region', {
      name: 'Your professional',
    });
    expect(within(card).getByText('Paule Pro')).toBeVisible();
    expect(
      within(card).getByRole('link', {
        name: 'Call +1\u00a0403\u00a0555\u00a00111',
      }),
    ).toHaveAttribute('href', 'tel:+14035550111');
    expect(within(card).getByRole('link', { name: 'Messages with Paule Pro' })).toHaveAttribute(
      'href',
      `/user-view-request/${REQUEST_ID}?professional=${PROFESSIONAL_ID}#messages`,
    );
    expect(
      within(card).getByRole('link', {
        name: 'View the professional’s profile',
      }),
    ).toHaveAttribute('href', `/view-professional/${PROFESSIONAL_ID}`);
    await waitFor(() => expect(card.querySelector(`img[src="${PHOTO_URL}"]`)).not.toBeNull());
    expect(fact('Status')).toHaveTextContent('Hired');
    expect(screen.queryByRole('link', { name: 'Edit' })).toBeNull();
    expect(screen.getByRole('link', { name: 'Back to active requests' })).toHaveAttribute(
      'href',
      '/user-active-requests',
    );
  });

  it('keeps the job card as a record once done, leading back to the completed requests, in French', async () => {
    localStorage.setItem('lang', 'fr');
    const { transport, requests } = requestServer(
      hired(RepairRequestState.COMPLETED),
      {},
      {
        listOrders: () => ({
          orders: [
            { id: 'o0', repairRequestId: 'another-request', payment: { id: 'p0' } },
            { id: 'o1', repairRequestId: REQUEST_ID, payment: { id: 'p1' } },
          ],
        }),
      },
    );
    renderApp(`/user-view-request/${REQUEST_ID}`, transport);
    const card = await screen.findByRole('region', { name: 'Votre professionnel' }, FIRST_RENDER);
    // The hire's receipt, from the customer's orders.
    expect(await within(card).findByRole('link', { name: 'Reçu' })).toHaveAttribute(
      'href',
      '/fr/receipts/p1?as=customer',
    );
    expect(requests('listOrders')[0]).toMatchObject({
      party: { case: 'customerId', value: CUSTOMER_ID },
    });
    expect(
      within(card).getByRole('link', {
        name: 'Appeler le +1\u00a0403\u00a0555\u00a00111',
      }),
    ).toHaveAttribute('href', 'tel:+14035550111');
    expect(within(card).getByRole('link', { name: 'Messages avec Paule Pro' })).toBeVisible();
    expect(screen.getByRole('link', { name: 'Retour aux demandes terminées' })).toHaveAttribute(
      'href',
      expect.stringMatching(/\/user-completed-requests$/),
    );
    // A finished request changes no more: nothing to watch.
    expect(requests('watchRepairRequest')).toEqual([]);
  });

  it('leads the profile opened from the job card back to the request', async () => {
    const { transport } = requestServer(hired());
    const { router } = renderApp(`/user-view-request/${REQUEST_ID}`, transport);
    const card = await screen.findByRole('region', { name: 'Your professional' }, FIRST_RENDER);
    await userEvent.setup().click(
      within(card).getByRole('link', {
        name: 'View the professional’s profile',
      }),
    );
    expect(await screen.findByRole('heading', { level: 1, name: 'Paule Pro' })).toBeVisible();
    expect(screen.getByRole('link', { name: 'Back to the request' })).toHaveAttribute(
      'href',
      `/user-view-request/${REQUEST_ID}`,
    );
    // The hire is done: no way to hire again.
    expect(screen.queryByRole('link', { name: /^Hire/ })).toBeNull();
    expect(router.state.location.pathname).toBe(`/view-professional/${PROFESSIONAL_ID}`);
  });
});

describe('the hired professional on the way', () => {
  const MINUTE = 60_000;
  const plain = (text: string | null) => text?.replace(/[\u00a0\u202f]/g, ' ');
  /** The hired request with Paule Pro's trip as `fields` say. */
  const withTrip = (fields: MessageInitShape<typeof TripSchema>) =>
    repairRequest({
      ...hired(),
      trip: create(TripSchema, {
        professionalName: 'Marc',
        startTime: timestampFromMs(Date.now() - 5 * MINUTE),
        ...fields,
      } as MessageInitShape<typeof TripSchema>),
    });
  const change = (revision: bigint, request: RepairRequest) => ({
    revision,
    event: { case: 'change' as const, value: { repairRequest: request } as never },
  });
  const hiredQuote = () => {
    const arriveBy = new Date();
    arriveBy.setHours(21, 40, 0, 0);
    return quote({
      state: QuoteState.HIRED,
      arrivalMinutes: 40,
      arriveBy: timestampFromMs(arriveBy.getTime()),
    });
  };

  it('says by when they should come, then the minutes and the way left as the stream tells, then that they arrived', async () => {
    const stream = controlledStream();
    const { transport } = requestServer(hired(), {
      listRepairRequestQuotes: () => ({ quotes: [hiredQuote()] }),
      watchRepairRequest: () => stream.watch(),
    });
    renderApp(`/user-view-request/${REQUEST_ID}`, transport);
    const banner = await screen.findByTestId('trip-banner', undefined, FIRST_RENDER);
    await waitFor(() => expect(plain(banner.textContent)).toBe('Should be there by 9:40 p.m.'));
    const live = within(banner).getByRole('status');
    expect(live).toHaveAttribute('aria-live', 'polite');
    expect(live).toBeEmptyDOMElement();

    stream.push({
      revision: 5n,
      event: {
        case: 'snapshot',
        value: { repairRequest: hired(), quotes: [hiredQuote()] } as never,
      },
    });
    stream.push(
      change(
        6n,
        withTrip({
          state: TripState.ON_THE_WAY,
          estimatedArrivalTime: timestampFromMs(Date.now() + 14 * MINUTE),
          distanceLeftM: 6200,
          estimateSource: ArrivalEstimateSource.ROUTE,
        }),
      ),
    );
    await waitFor(() => expect(plain(live.textContent)).toBe('Marc is on the way: about 14 min'));
    expect(plain(within(banner).getByText(/left$/).textContent)).toBe('6.2 km left');
    expect(
      within(banner).getByText('Estimated from the route; no live position right now'),
    ).toBeVisible();
    expect(within(banner).queryByText(/Should be there/)).toBeNull();
    // The banner stands before the hired professional's card.
    const card = screen.getByRole('region', { name: 'Your professional' });
    expect(banner.compareDocumentPosition(card) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();

    // A live position, with no road router: the estimate is approximate.
    stream.push(
      change(
        7n,
        withTrip({
          state: TripState.ON_THE_WAY,
          estimatedArrivalTime: timestampFromMs(Date.now() + 20_000),
          distanceLeftM: 150,
          estimateSource: ArrivalEstimateSource.POSITION,
          lastPositionTime: timestampFromMs(Date.now()),
          roadEstimateUnavailable: true,
        }),
      ),
    );
    await waitFor(() =>
      expect(plain(live.textContent)).toBe('Marc is on the way: less than 1 min'),
    );
    expect(plain(within(banner).getByText(/left$/).textContent)).toBe('150 m left');
    expect(within(banner).queryByText(/Estimated from the route/)).toBeNull();
    expect(
      within(banner).getByText('Approximate estimate: road directions are unavailable right now'),
    ).toBeVisible();

    stream.push(change(8n, withTrip({ state: TripState.ARRIVED })));
    await waitFor(() => expect(live).toHaveTextContent('Marc has arrived'));
    // The same live region says it: a screen reader hears the arrival.
    expect(within(banner).getByRole('status')).toBe(live);
    expect(within(banner).queryByText(/left$/)).toBeNull();
  });

  it('is in French', async () => {
    localStorage.setItem('lang', 'fr');
    const { transport } = requestServer(
      withTrip({
        state: TripState.ON_THE_WAY,
        estimatedArrivalTime: timestampFromMs(Date.now() + 14 * MINUTE),
        distanceLeftM: 6200,
        estimateSource: ArrivalEstimateSource.ROUTE,
        roadEstimateUnavailable: true,
      }),
    );
    renderApp(`/user-view-request/${REQUEST_ID}`, transport);
    const banner = await screen.findByTestId('trip-banner', undefined, FIRST_RENDER);
    const live = within(banner).getByRole('status');
    await waitFor(() =>
      expect(live.textContent).toBe('Marc est en route\u00a0: environ 14\u00a0min'),
    );
    expect(plain(within(banner).getByText(/^Reste/).textContent)).toBe('Reste 6,2 km');
    expect(
      within(banner).getByText(
        'Estimation selon l’itinéraire; pas de position en direct pour l’instant',
      ),
    ).toBeVisible();
    expect(
      within(banner).getByText(
        // (the matcher's spaces are plain: Testing Library reads a no-break space as one)
        'Estimation approximative : l’itinéraire routier n’est pas disponible pour l’instant',
      ),
    ).toBeVisible();
  });

  it('shows nothing of a trip on a request not hired', async () => {
    const { transport } = requestServer(repairRequest());
    renderApp(`/user-view-request/${REQUEST_ID}`, transport);
    expect(await screen.findByText('No messages yet', undefined, FIRST_RENDER)).toBeVisible();
    expect(screen.queryByTestId('trip-banner')).toBeNull();
  });
});

describe('when the hired professional does not come', () => {
  it('says from when the customer may choose again, before that time', async () => {
    const { transport } = requestServer(
      repairRequest({
        ...hired(),
        customerReleaseTime: timestampFromMs(Date.now() + 3_600_000),
      }),
    );
    renderApp(`/user-view-request/${REQUEST_ID}`, transport);
    const card = await screen.findByRole('region', { name: 'Your professional' }, FIRST_RENDER);
    expect(within(card).getByText(/If nobody has come by/)).toBeVisible();
    expect(within(card).queryByRole('button', { name: 'They didn’t come' })).toBeNull();
  });

  it('asks what happened, releases the hire and offers the other quotes on the same page, in French', async () => {
    localStorage.setItem('lang', 'fr');
    let released = false;
    const other = quote({ id: 'q2', professionalId: 'p2', professionalName: 'Marc Plombier' });
    const { transport, requests } = requestServer(
      repairRequest({ ...hired(), customerReleaseTime: timestampFromMs(Date.now() - 60_000) }),
      {
        getRepairRequest: () => ({
          repairRequest: released
            ? repairRequest({ state: RepairRequestState.OPEN, quoteCount: 1 })
            : repairRequest({
                ...hired(),
                customerReleaseTime: timestampFromMs(Date.now() - 60_000),
              }),
        }),
        listRepairRequestQuotes: () => ({
          quotes: released
            ? [quote({ state: QuoteState.RELEASED }), other]
            : [quote({ state: QuoteState.HIRED }), other],
        }),
        releaseHire: () => {
          released = true;
          return { repairRequest: repairRequest({ state: RepairRequestState.OPEN }) };
        },
      },
    );
    renderApp(`/user-view-request/${REQUEST_ID}`, transport);
    const card = await screen.findByRole('region', { name: 'Votre professionnel' }, FIRST_RENDER);
    await userEvent.click(within(card).getByRole('button', { name: 'Personne n’est venu' }));
    const dialog = await screen.findByRole('dialog', { name: 'Choisir un autre professionnel?' });
    await userEvent.click(
      within(dialog).getByRole('button', { name: 'Choisir un autre professionnel' }),
    );
    expect(
      await within(dialog).findByText('Dites en quelques mots ce qui s’est passé.'),
    ).toBeVisible();
    expect(requests('releaseHire')).toEqual([]);

    await userEvent.type(
      within(dialog).getByRole('textbox', { name: /Ce qui s’est passé/ }),
      'Personne après trois heures',
    );
    await userEvent.click(
      within(dialog).getByRole('button', { name: 'Choisir un autre professionnel' }),
    );
    await waitFor(() => expect(requests('releaseHire')).toHaveLength(1));
    expect(requests('releaseHire')[0]).toMatchObject({
      repairRequestId: REQUEST_ID,
      reason: 'Personne après trois heures',
    });
    const again = await screen.findByRole('region', { name: 'Choisir un autre professionnel' });
    expect(within(again).getByText('Paule Pro ne peut pas venir')).toBeVisible();
    expect(within(again).getByRole('link', { name: 'Marc Plombier' })).toBeVisible();
    expect(within(again).getByRole('link', { name: 'Engager Marc Plombier' })).toHaveAttribute(
      'href',
      expect.stringContaining('q2'),
    );
    expect(within(again).queryByRole('link', { name: 'Engager Paule Pro' })).toBeNull();
  });
});

const DAY_MS = 24 * 3600 * 1000;

/** Paule Pro's completed job, whose problem deadline is `daysLeft` days away. */
const completedJob = (daysLeft: number, openProblem?: { text: string }) =>
  repairRequest({
    state: RepairRequestState.COMPLETED,
    hiredProfessionalId: PROFESSIONAL_ID,
    hiredProfessionalName: 'Paule Pro',
    completeTime: timestampFromMs(Date.now() - (14 - daysLeft) * DAY_MS),
    problemReportDeadline: timestampFromMs(Date.now() + daysLeft * DAY_MS),
    openProblem: openProblem && {
      id: 'problem-1',
      text: openProblem.text,
      state: JobProblemState.OPEN,
      createTime: timestampFromMs(Date.now() - DAY_MS),
    },
  });

describe('a problem after the job', () => {
  it('is reported from the completed request, saying what is wrong first', async () => {
    const reports: ReportJobProblemRequest[] = [];
    const { transport } = requestServer(completedJob(5), {
      reportJobProblem: (request) => {
        reports.push(request);
        return { problem: create(JobProblemSchema, { id: 'problem-1', text: request.text }) };
      },
    });
    renderApp(`/user-view-request/${REQUEST_ID}`, transport);
    const open = await screen.findByRole('button', { name: 'Report a problem' }, FIRST_RENDER);
    await userEvent.click(open);
    const form = screen.getByRole('form', { name: 'A problem with this job?' });
    await userEvent.click(within(form).getByRole('button', { name: 'Send the report' }));
    expect(await within(form).findByText('Say what is wrong.')).toBeVisible();
    expect(reports).toHaveLength(0);

    await userEvent.type(within(form).getByLabelText(/What is wrong/), '  The leak is back ');
    await userEvent.click(within(form).getByRole('button', { name: 'Send the report' }));
    await waitFor(() => expect(reports).toHaveLength(1));
    expect(reports[0]).toMatchObject({ repairRequestId: REQUEST_ID, text: 'The leak is back' });
    expect(reports[0]?.requestId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('shows the server’s refusal in the form, in French', async () => {
    const { transport } = requestServer(completedJob(1), {
      reportJobProblem: () => {
        throw rpcError(Code.FailedPrecondition, 'PROBLEM_REPORT_CLOSED');
      },
    });
    renderApp(`/fr/user-view-request/${REQUEST_ID}`, transport);
    await userEvent.click(
      await screen.findByRole('button', { name: 'Signaler un problème' }, FIRST_RENDER),
    );
    await userEvent.type(screen.getByLabelText(/Ce qui ne va pas/), 'La fuite est revenue');
    await userEvent.click(screen.getByRole('button', { name: 'Envoyer le signalement' }));
    expect(await screen.findByText(/jusqu’à 14 jours après la fin du travail/)).toBeVisible();
  });

  it('is not offered after the deadline', async () => {
    const { transport } = requestServer(completedJob(-1));
    renderApp(`/user-view-request/${REQUEST_ID}`, transport);
    await screen.findAllByText('Paule Pro', undefined, FIRST_RENDER);
    expect(screen.queryByRole('button', { name: 'Report a problem' })).toBeNull();
  });

  it('once reported, shows on the page instead of the button', async () => {
    const { transport } = requestServer(completedJob(5, { text: 'The leak is back' }));
    renderApp(`/user-view-request/${REQUEST_ID}`, transport);
    expect(
      await screen.findByText('You reported a problem with this job', undefined, FIRST_RENDER),
    ).toBeVisible();
    expect(screen.getByText('“The leak is back”')).toBeVisible();
    expect(screen.queryByRole('button', { name: 'Report a problem' })).toBeNull();
  });
});
