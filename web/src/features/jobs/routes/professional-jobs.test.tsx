import { timestampFromMs } from '@bufbuild/protobuf/wkt';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { ProfessionalState } from '@/gen/repairs/accounts/v1/accounts_pb';
import {
  ProfessionalRepairRequestView,
  QuoteState,
  QuoteTaxTreatment,
  RepairRequestState,
  Urgency,
  type QuotedRepairRequestSchema,
} from '@/gen/repairs/marketplace/v1/marketplace_pb';
import type { MessageInitShape } from '@bufbuild/protobuf';
import { renderApp } from '@/test/render-app';
import {
  CUSTOMER_ID,
  Code,
  PROFESSIONAL_ID,
  REQUEST_ID,
  professional,
  repairRequest,
  rpcError,
  signIn,
  stubServer,
} from '@/test/stub-server';

type Marketplace = NonNullable<Parameters<typeof stubServer>[2]>['marketplace'];

const QUOTE_ID = '0190a6c0-4444-7000-8000-000000000004';

/** Intl separates French amounts with no-break spaces; compare with plain ones. */
const plain = (text: string | null) => (text ?? '').replace(/[\u00a0\u202f]/g, ' ');

/** The request as a professional sees it before the hire: no street. */
const approximate = (fields: Parameters<typeof repairRequest>[0] = {}) =>
  repairRequest({
    customerId: '',
    location: {
      case: 'approximateLocation',
      value: { city: 'Calgary', province: 'AB', postalArea: 'T2P', distanceKm: 4 },
    },
    ...fields,
  });

const quote = (fields: Record<string, unknown> = {}) => ({
  id: QUOTE_ID,
  repairRequestId: REQUEST_ID,
  professionalId: PROFESSIONAL_ID,
  estimatedMinutes: 90,
  fee: { amountCents: 4550n, currency: 'CAD' },
  state: QuoteState.SUBMITTED,
  createTime: timestampFromMs(Date.UTC(2026, 10, 23, 16)),
  ...fields,
});

/**
 * An approved professional with a paid membership and a minimum fee of 30.00 CAD, registered
 * for GST/HST and QST when `numbers`.
 */
function proServer(marketplace: Marketplace, { numbers = false } = {}) {
  signIn('professional', PROFESSIONAL_ID);
  const account = professional({ state: ProfessionalState.APPROVED, membershipActive: true });
  if (numbers && account.profile) {
    account.profile.gstHstNumber = '123456789RT0001';
    account.profile.qstNumber = '1234567890TQ0001';
  }
  return stubServer({ getProfessional: () => ({ professional: account }) }, {}, { marketplace });
}

/** The quote form's "When can you be there?" (required on an emergency, as the stub's request). */
const ARRIVAL_LABEL = /^When can you be there\?/;

/**
 * Opens the quote form on the request and sends it with `hours`, the fee as filled and
 * `arrival` minutes.
 */
async function sendQuote(server: ReturnType<typeof proServer>, hours: string, arrival = '45') {
  renderApp(`/request-apply/${REQUEST_ID}`, server.transport);
  await screen.findByLabelText(/^Fee \(CAD\)/);
  const user = userEvent.setup();
  await user.type(screen.getByLabelText(/^Estimated time/), hours);
  if (arrival) await user.type(screen.getByLabelText(ARRIVAL_LABEL), arrival);
  await user.click(screen.getByRole('button', { name: 'Send the quote' }));
  return user;
}

describe('sending a quote (/request-apply)', () => {
  it('starts from the minimum fee and sends hours as minutes and dollars as CAD cents', async () => {
    const server = proServer({
      getRepairRequest: () => ({ repairRequest: approximate() }),
      createQuote: (request) => ({ quote: quote({ fee: request.fee }) }),
    });
    const { router } = renderApp(`/request-apply/${REQUEST_ID}`, server.transport);
    const fee = await screen.findByLabelText(/^Fee \(CAD\)/);
    expect(fee).toHaveValue('30.00');
    expect(screen.getByText('Your standard fee is $30.00.')).toBeVisible();
    expect(screen.getByText('Calgary, AB T2P')).toBeVisible();

    const user = userEvent.setup();
    await user.type(screen.getByLabelText(/^Estimated time/), '1.5');
    await user.clear(fee);
    await user.type(fee, '45.50');
    await user.type(screen.getByLabelText(ARRIVAL_LABEL), '40');
    await user.click(screen.getByRole('button', { name: 'Send the quote' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/applied-requests'));
    expect(server.requests('createQuote')).toEqual([
      expect.objectContaining({
        repairRequestId: REQUEST_ID,
        estimatedMinutes: 90,
        fee: expect.objectContaining({ amountCents: 4550n, currency: 'CAD' }),
        surge: false,
        addTaxes: false,
        arrivalMinutes: 40,
      }),
    ]);
  });

  it('says a professional without a GST/HST number quotes without taxes, with a way to the profile', async () => {
    const server = proServer({ getRepairRequest: () => ({ repairRequest: approximate() }) });
    renderApp(`/request-apply/${REQUEST_ID}`, server.transport);
    expect(
      await screen.findByText(
        'Your quote carries no tax: your profile has no GST/HST registration number.',
      ),
    ).toBeVisible();
    expect(screen.queryByRole('checkbox', { name: /^Add taxes/ })).toBeNull();
    expect(screen.getByRole('link', { name: 'Add it to your profile' })).toHaveAttribute(
      'href',
      '/update-professional-profile',
    );
  });

  it('adds taxes by default for a registered professional, and sends the choice', async () => {
    const server = proServer(
      {
        getRepairRequest: () => ({ repairRequest: approximate() }),
        createQuote: (request) => ({ quote: quote({ fee: request.fee }) }),
      },
      { numbers: true },
    );
    const { router } = renderApp(`/request-apply/${REQUEST_ID}`, server.transport);
    const box = await screen.findByRole('checkbox', { name: 'Add taxes (GST/HST, QST in Quebec)' });
    expect(box).toBeChecked();
    const user = userEvent.setup();
    await user.type(screen.getByLabelText(/^Estimated time/), '2');
    await user.click(screen.getByRole('button', { name: /^60\smin$/ }));
    await user.click(screen.getByRole('button', { name: 'Send the quote' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/applied-requests'));
    expect(server.requests('createQuote')[0]).toMatchObject({ addTaxes: true });
  });

  it('sends a quote without taxes when a registered professional unticks the box (French)', async () => {
    localStorage.setItem('lang', 'fr');
    const server = proServer(
      {
        getRepairRequest: () => ({ repairRequest: approximate() }),
        createQuote: (request) => ({ quote: quote({ fee: request.fee }) }),
      },
      { numbers: true },
    );
    renderApp(`/request-apply/${REQUEST_ID}`, server.transport);
    const box = await screen.findByRole('checkbox', {
      name: 'Ajouter les taxes (TPS/TVH, TVQ au Québec)',
    });
    const user = userEvent.setup();
    await user.click(box);
    expect(box).not.toBeChecked();
    await user.type(screen.getByLabelText(/^Durée estimée/), '1');
    await user.type(screen.getByLabelText(/^Dans combien de temps/), '30');
    await user.click(screen.getByRole('button', { name: 'Envoyer la soumission' }));
    await waitFor(() => expect(server.requests('createQuote')).toHaveLength(1));
    expect(server.requests('createQuote')[0]).toMatchObject({ addTaxes: false });
  });

  it('shows TAX_REGISTRATION_REQUIRED in the page with a link to the profile', async () => {
    const server = proServer(
      {
        getRepairRequest: () => ({ repairRequest: approximate() }),
        createQuote: () => {
          throw rpcError(Code.FailedPrecondition, 'TAX_REGISTRATION_REQUIRED');
        },
      },
      { numbers: true },
    );
    await sendQuote(server, '1');
    const alert = await screen.findByRole('alert');
    expect(
      within(alert).getByText(
        'Add your GST/HST registration number to your profile before adding taxes to a quote, or send the quote without taxes.',
      ),
    ).toBeVisible();
    expect(within(alert).getByRole('link', { name: 'Open my profile' })).toHaveAttribute(
      'href',
      '/update-professional-profile',
    );
  });

  it('keeps what is typed until the quote is sent, should the page close meanwhile', async () => {
    const server = proServer({
      getRepairRequest: () => ({ repairRequest: approximate() }),
      createQuote: (request) => ({ quote: quote({ fee: request.fee }) }),
    });
    const first = renderApp(`/request-apply/${REQUEST_ID}`, server.transport);
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText(/^Estimated time/), '2.5');
    await user.clear(screen.getByLabelText(/^Fee \(CAD\)/));
    await user.type(screen.getByLabelText(/^Fee \(CAD\)/), '80.00');
    await user.type(screen.getByLabelText(ARRIVAL_LABEL), '25');
    first.unmount();

    const { router } = renderApp(`/request-apply/${REQUEST_ID}`, server.transport);
    expect(await screen.findByLabelText(/^Estimated time/)).toHaveValue('2.5');
    expect(screen.getByLabelText(/^Fee \(CAD\)/)).toHaveValue('80.00');
    expect(screen.getByLabelText(ARRIVAL_LABEL)).toHaveValue('25');
    await user.click(screen.getByRole('button', { name: 'Send the quote' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/applied-requests'));
    expect(localStorage.getItem(`drafts:${PROFESSIONAL_ID}`)).toBeNull();
  });

  it('says beside the field when the fee is below the minimum, unless Surge Cost is ticked', async () => {
    const server = proServer({
      getRepairRequest: () => ({ repairRequest: approximate() }),
      createQuote: (request) => ({ quote: quote({ fee: request.fee, surge: request.surge }) }),
    });
    renderApp(`/request-apply/${REQUEST_ID}`, server.transport);
    const fee = await screen.findByLabelText(/^Fee \(CAD\)/);
    const user = userEvent.setup();
    await user.type(screen.getByLabelText(/^Estimated time/), '2');
    await user.clear(fee);
    await user.type(fee, '20');
    await user.type(screen.getByLabelText(ARRIVAL_LABEL), '45');
    await user.click(screen.getByRole('button', { name: 'Send the quote' }));
    expect(
      await screen.findByText(
        'The fee is below your standard fee of $30.00. Raise it, or tick Surge Cost to ask less for this job.',
      ),
    ).toBeVisible();
    expect(fee).toHaveAttribute('aria-invalid', 'true');
    expect(server.requests('createQuote')).toEqual([]);

    await user.click(screen.getByRole('checkbox', { name: 'Surge Cost' }));
    await user.click(screen.getByRole('button', { name: 'Send the quote' }));
    await waitFor(() => expect(server.requests('createQuote')).toHaveLength(1));
    expect(server.requests('createQuote')[0]).toMatchObject({
      estimatedMinutes: 120,
      surge: true,
    });
  });

  it('shows the server’s FEE_BELOW_MINIMUM beside the fee', async () => {
    const server = proServer({
      getRepairRequest: () => ({ repairRequest: approximate() }),
      createQuote: () => {
        throw rpcError(Code.InvalidArgument, 'FEE_BELOW_MINIMUM', { fee: 'below the minimum' });
      },
    });
    await sendQuote(server, '1');
    expect(
      await screen.findByText(
        'The fee is below your standard fee. Raise it, or tick Surge Cost to ask less for this job.',
      ),
    ).toBeVisible();
    expect(screen.getByLabelText(/^Fee \(CAD\)/)).toHaveAttribute('aria-invalid', 'true');
    expect(screen.queryByRole('alert', { name: /below/ })).toBeNull();
  });

  it('reads French amounts and hours, and writes the minimum fee the French way', async () => {
    localStorage.setItem('lang', 'fr');
    const server = proServer({
      getRepairRequest: () => ({ repairRequest: approximate() }),
      createQuote: (request) => ({ quote: quote({ fee: request.fee }) }),
    });
    renderApp(`/request-apply/${REQUEST_ID}`, server.transport);
    const fee = await screen.findByLabelText(/^Frais \(CAD\)/);
    expect(fee).toHaveValue('30,00');
    expect(fee).toHaveAttribute('placeholder', '30,00');
    expect(plain(screen.getByText(/^Votre tarif minimum est de/).textContent)).toBe(
      'Votre tarif minimum est de 30,00 $.',
    );
    const user = userEvent.setup();
    await user.type(screen.getByLabelText(/^Durée estimée/), '0,5');
    await user.clear(fee);
    await user.type(fee, '1 234,50');
    await user.type(screen.getByLabelText(/^Dans combien de temps/), '45');
    await user.click(screen.getByRole('button', { name: 'Envoyer la soumission' }));
    await waitFor(() => expect(server.requests('createQuote')).toHaveLength(1));
    expect(server.requests('createQuote')[0]).toMatchObject({
      estimatedMinutes: 30,
      fee: { amountCents: 123450n },
    });
  });

  it('tells when a quote was already sent, with a way to the applied requests', async () => {
    const server = proServer({
      getRepairRequest: () => ({ repairRequest: approximate() }),
      createQuote: () => {
        throw rpcError(Code.AlreadyExists, 'QUOTE_EXISTS');
      },
    });
    await sendQuote(server, '1');
    const alert = await screen.findByRole('alert');
    expect(
      within(alert).getByText(
        'You already have a quote on this request. Withdraw it to send another.',
      ),
    ).toBeVisible();
    expect(within(alert).getByRole('link', { name: 'See the quotes you sent' })).toHaveAttribute(
      'href',
      '/applied-requests',
    );
  });

  it('refuses a time that is not a number of hours', async () => {
    const server = proServer({ getRepairRequest: () => ({ repairRequest: approximate() }) });
    await sendQuote(server, 'soon');
    expect(
      await screen.findByText('Enter the time in hours, up to 720 (for example 1.5).'),
    ).toBeVisible();
    expect(server.requests('createQuote')).toEqual([]);
  });

  it('asks how soon the professional can be there on an emergency, within a day', async () => {
    const server = proServer({
      getRepairRequest: () => ({ repairRequest: approximate() }),
      createQuote: (request) => ({ quote: quote({ arrivalMinutes: request.arrivalMinutes }) }),
    });
    const user = await sendQuote(server, '1', '');
    const arrival = screen.getByLabelText(ARRIVAL_LABEL);
    expect(await screen.findByText('Say how soon you can be there')).toBeVisible();
    expect(arrival).toHaveAttribute('aria-invalid', 'true');
    expect(arrival).toBeRequired();
    expect(server.requests('createQuote')).toEqual([]);

    await user.type(arrival, '1500');
    await user.click(screen.getByRole('button', { name: 'Send the quote' }));
    expect(
      await screen.findByText(
        'On an emergency you must be there within a day: enter from 1 to 1,440 minutes.',
      ),
    ).toBeVisible();
    expect(server.requests('createQuote')).toEqual([]);

    const choices = screen.getByRole('group', { name: 'Quick choices' });
    const ninety = within(choices).getByRole('button', { name: /^90\smin$/ });
    await user.click(ninety);
    expect(arrival).toHaveValue('90');
    expect(ninety).toHaveAttribute('aria-pressed', 'true');
    expect(screen.queryByText(/within a day/)).toBeNull();
    expect(screen.getByText('Minutes after you are hired')).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Send the quote' }));
    await waitFor(() => expect(server.requests('createQuote')).toHaveLength(1));
    expect(server.requests('createQuote')[0]).toMatchObject({ arrivalMinutes: 90 });
  });

  it('leaves the arrival optional on a request that can wait, up to 30 days', async () => {
    const server = proServer({
      getRepairRequest: () => ({ repairRequest: approximate({ urgency: Urgency.CAN_WAIT }) }),
      createQuote: () => ({ quote: quote() }),
    });
    const user = await sendQuote(server, '1', '50000');
    const arrival = screen.getByLabelText(ARRIVAL_LABEL);
    expect(arrival).not.toBeRequired();
    expect(
      await screen.findByText('Enter a whole number of minutes from 1 to 43,200.'),
    ).toBeVisible();
    expect(server.requests('createQuote')).toEqual([]);

    await user.clear(arrival);
    await user.click(screen.getByRole('button', { name: 'Send the quote' }));
    await waitFor(() => expect(server.requests('createQuote')).toHaveLength(1));
    expect(server.requests('createQuote')[0]!.arrivalMinutes).toBeUndefined();
  });

  it('shows the server’s ARRIVAL_TIME_REQUIRED beside the arrival', async () => {
    const server = proServer({
      getRepairRequest: () => ({ repairRequest: approximate() }),
      createQuote: () => {
        throw rpcError(Code.InvalidArgument, 'ARRIVAL_TIME_REQUIRED', {
          arrival_minutes: 'say how soon after the hire you can be at the door',
        });
      },
    });
    await sendQuote(server, '1', '45');
    expect(
      await screen.findByText(
        'Say how soon after the hire you can be at the door: on an emergency, within a day (1,440 minutes).',
      ),
    ).toBeVisible();
    expect(screen.getByLabelText(ARRIVAL_LABEL)).toHaveAttribute('aria-invalid', 'true');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('asks for the arrival in French, with French figures', async () => {
    localStorage.setItem('lang', 'fr');
    const server = proServer({ getRepairRequest: () => ({ repairRequest: approximate() }) });
    renderApp(`/request-apply/${REQUEST_ID}`, server.transport);
    const arrival = await screen.findByLabelText(
      /^Dans combien de temps pouvez-vous être sur place\?/,
    );
    expect(screen.getByText('Minutes après avoir été engagé')).toBeVisible();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Envoyer la soumission' }));
    expect(
      await screen.findByText('Indiquez dans combien de temps vous pouvez être là'),
    ).toBeVisible();
    await user.type(arrival, '2000');
    await user.click(screen.getByRole('button', { name: 'Envoyer la soumission' }));
    expect(
      plain(
        (await screen.findByText(/^Pour une urgence, vous devez être là en moins d’une journée/))
          .textContent,
      ),
    ).toBe(
      'Pour une urgence, vous devez être là en moins d’une journée : entrez de 1 à 1 440 minutes.',
    );
    expect(
      within(screen.getByRole('group', { name: 'Choix rapides' })).getByRole('button', {
        name: /^2\sh$/,
      }),
    ).toBeVisible();
  });

  it('shows the membership notice when the server answers the membership reason', async () => {
    const server = proServer({
      getRepairRequest: () => ({ repairRequest: approximate() }),
      createQuote: () => {
        throw rpcError(Code.FailedPrecondition, 'MEMBERSHIP_INACTIVE');
      },
    });
    await sendQuote(server, '1');
    expect(await screen.findByRole('link', { name: 'Buy Membership' })).toHaveAttribute(
      'href',
      `/purchase-membership/${PROFESSIONAL_ID}`,
    );
  });

  it('offers no form once the request is no longer open', async () => {
    const server = proServer({
      getRepairRequest: () => ({
        repairRequest: approximate({ state: RepairRequestState.HIRED }),
      }),
    });
    renderApp(`/request-apply/${REQUEST_ID}`, server.transport);
    expect(
      await screen.findByText('This request is no longer open, so it cannot take quotes.'),
    ).toBeVisible();
    expect(screen.queryByRole('button', { name: 'Send the quote' })).toBeNull();
  });
});

type Quoted = MessageInitShape<typeof QuotedRepairRequestSchema>;

/** The professional's lists by view, as the server answers them. */
function listsServer(lists: Partial<Record<ProfessionalRepairRequestView, Quoted[]>>, more = {}) {
  return proServer({
    listProfessionalRepairRequests: ({ view }) => ({ repairRequests: lists[view] ?? [] }),
    ...more,
  });
}

describe('the professional’s lists', () => {
  it('lists applied quotes with hours and fee, withdraws one after asking, and shows lost ones', async () => {
    const server = listsServer(
      {
        [ProfessionalRepairRequestView.APPLIED]: [{ repairRequest: approximate(), quote: quote() }],
        [ProfessionalRepairRequestView.LOST]: [
          {
            repairRequest: approximate({ id: 'r-lost', state: RepairRequestState.HIRED }),
            quote: quote({ id: 'q-lost', state: QuoteState.NOT_SELECTED }),
          },
        ],
      },
      { withdrawQuote: () => ({ quote: quote({ state: QuoteState.WITHDRAWN }) }) },
    );
    renderApp('/applied-requests', server.transport);
    const tables = await screen.findAllByRole('table');
    const applied = within(tables[0]!);
    expect(applied.getByText('1.5 hrs')).toBeVisible();
    // The fee, then the total: no tax on this quote.
    expect(applied.getAllByText('$45.50')).toHaveLength(2);
    expect(applied.getByRole('link', { name: 'View request Plumbing Services' })).toHaveAttribute(
      'href',
      `/view-request/${REQUEST_ID}`,
    );
    await waitFor(() => expect(screen.getAllByRole('table')).toHaveLength(2));
    expect(within(screen.getAllByRole('table')[1]!).getByText('Not selected')).toBeVisible();

    const user = userEvent.setup();
    await user.click(
      applied.getByRole('button', { name: 'Withdraw the quote on Plumbing Services' }),
    );
    const dialog = await screen.findByRole('alertdialog', { name: 'Withdraw this quote?' });
    await user.click(within(dialog).getByRole('button', { name: 'Withdraw' }));
    expect(await screen.findByText('Quote withdrawn.')).toBeVisible();
    expect(server.requests('withdrawQuote')).toEqual([expect.objectContaining({ id: QUOTE_ID })]);
  });

  it('shows each tax and the total of a quote with taxes, and why another has none', async () => {
    const taxed = quote({
      fee: { amountCents: 20000n, currency: 'CAD' },
      taxes: [
        {
          name: 'HST',
          ratePercent: '14',
          amount: { amountCents: 2800n, currency: 'CAD' },
          registrationNumber: '123456789RT0001',
        },
      ],
      total: { amountCents: 22800n, currency: 'CAD' },
      taxTreatment: QuoteTaxTreatment.ADDED,
    });
    const untaxed = quote({
      id: 'q-untaxed',
      total: { amountCents: 4550n, currency: 'CAD' },
      taxTreatment: QuoteTaxTreatment.NOT_REGISTERED,
    });
    const server = listsServer({
      [ProfessionalRepairRequestView.APPLIED]: [
        { repairRequest: approximate(), quote: taxed },
        { repairRequest: approximate({ id: 'r-2' }), quote: untaxed },
      ],
    });
    renderApp('/applied-requests', server.transport);
    const table = within((await screen.findAllByRole('table'))[0]!);
    expect(table.getByText('HST 14%').nextSibling).toHaveTextContent('$28.00');
    expect(table.getByText('$228.00')).toBeVisible();
    expect(
      table.getByText('No tax: this professional is not registered for GST/HST.'),
    ).toBeVisible();
  });

  it('says when nothing was quoted', async () => {
    const server = listsServer({});
    renderApp('/applied-requests', server.transport);
    expect(await screen.findByText('No quotes found')).toBeVisible();
    expect(await screen.findByText('None of your quotes was turned down.')).toBeVisible();
  });

  it('gives the hired professional the street address and the customer’s phone', async () => {
    const hired = repairRequest({
      state: RepairRequestState.HIRED,
      hireTime: timestampFromMs(Date.UTC(2026, 10, 23, 17)),
      contacts: {
        customer: {
          id: CUSTOMER_ID,
          name: 'Casey Customer',
          email: 'casey@example.ca',
          phone: '+14035550100',
        },
        address: {
          line1: '225 7 Ave SW',
          city: 'Calgary',
          province: 'AB',
          postalCode: 'T2P 2W3',
          country: 'CA',
        },
      },
    });
    const server = listsServer({
      [ProfessionalRepairRequestView.ACTIVE]: [
        { repairRequest: hired, quote: quote({ state: QuoteState.HIRED }) },
      ],
    });
    renderApp('/professional-active-requests', server.transport);
    const job = await screen.findByRole('listitem', { name: 'Plumbing Services' });
    expect(within(job).getByText('225 7 Ave SW, Calgary, AB T2P 2W3')).toBeVisible();
    expect(within(job).getByText('Casey Customer')).toBeVisible();
    expect(within(job).getByRole('link', { name: /^\+1.403.555.0100$/ })).toHaveAttribute(
      'href',
      'tel:+14035550100',
    );
    expect(server.requests('listProfessionalRepairRequests')[0]).toMatchObject({
      professionalId: PROFESSIONAL_ID,
      view: ProfessionalRepairRequestView.ACTIVE,
    });
  });

  it('lists completed jobs', async () => {
    const server = listsServer({
      [ProfessionalRepairRequestView.COMPLETED]: [
        {
          repairRequest: repairRequest({
            state: RepairRequestState.COMPLETED,
            completeTime: timestampFromMs(Date.UTC(2026, 10, 24, 12)),
          }),
          quote: quote({ state: QuoteState.HIRED }),
        },
      ],
    });
    renderApp('/completed-requests', server.transport);
    const table = await screen.findByRole('table');
    expect(within(table).getByText('225 7 Ave SW, Calgary, AB T2P 2W3')).toBeVisible();
    expect(within(table).getByText('Nov 24, 2026')).toBeVisible();
  });

  it('shows the membership notice instead of a list when the membership lapsed', async () => {
    const server = proServer({
      listProfessionalRepairRequests: () => {
        throw rpcError(Code.FailedPrecondition, 'MEMBERSHIP_INACTIVE');
      },
    });
    renderApp('/completed-requests', server.transport);
    expect(await screen.findByRole('link', { name: 'Buy Membership' })).toBeVisible();
  });
});
