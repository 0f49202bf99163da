import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { ProfessionalState } from '@/gen/repairs/accounts/v1/accounts_pb';
import type { RepairRequest } from '@/gen/repairs/marketplace/v1/marketplace_pb';
import { RepairRequestState, Urgency } from '@/gen/repairs/marketplace/v1/marketplace_pb';
import { Language } from '@/gen/repairs/type/v1/common_pb';
import { expectLabelInName } from '@/test/label-in-name';
import { renderApp } from '@/test/render-app';
import { setViewportWidth } from '@/test/viewport';
import {
  Code,
  PROFESSIONAL_ID,
  REQUEST_ID,
  TEST_SERVICES,
  professional,
  repairRequest,
  rpcError,
  signIn,
  stubServer,
} from '@/test/stub-server';

const NEW_ID = '0190a6c0-3333-7000-8000-000000000099';

const PHOTOS = [1, 2, 3].map((n) => ({
  id: `photo-${n}`,
  url: `https://files.test/${n}.jpg`,
  thumbnailUrl: `https://files.test/${n}-thumb.jpg`,
}));

/** A request as a professional sees it before hire: city, postal area and distance. */
const seen = (fields: Parameters<typeof repairRequest>[0] = {}, distanceKm = 4): RepairRequest =>
  repairRequest({
    location: {
      case: 'approximateLocation',
      value: { city: 'Calgary', province: 'AB', postalArea: 'T2P', distanceKm },
    },
    ...fields,
  });

/** The server stream's stand-in: messages the test pushes, until the call is aborted. */
function streamOf<T>() {
  const queue: T[] = [];
  let wake: (() => void) | null = null;
  let opened = 0;
  async function* stream(signal: AbortSignal): AsyncGenerator<T> {
    opened += 1;
    while (!signal.aborted) {
      const next = queue.shift();
      if (next !== undefined) {
        yield next;
        continue;
      }
      await new Promise<void>((resolve) => {
        wake = resolve;
        signal.addEventListener('abort', () => resolve());
      });
    }
  }
  const push = (message: T) => {
    queue.push(message);
    wake?.();
  };
  return { stream, push, opened: () => opened };
}

type Matching = NonNullable<Parameters<typeof stubServer>[2]>['matching'];
type Marketplace = NonNullable<Parameters<typeof stubServer>[2]>['marketplace'];

function proServer(matching: Matching, marketplace: Marketplace = {}) {
  signIn('professional', PROFESSIONAL_ID);
  return stubServer(
    {
      getProfessional: () => ({
        professional: professional({ state: ProfessionalState.APPROVED, membershipActive: true }),
      }),
    },
    {},
    { matching, marketplace },
  );
}

describe('open requests (professional)', () => {
  it('lists matching requests with their distance and shows new ones as they are placed', async () => {
    const live = streamOf<{ repairRequest: { repairRequest: RepairRequest } }>();
    const { transport, requests } = proServer({
      listOpenRequests: () => ({ repairRequests: [{ repairRequest: seen() }] }),
      watchOpenRequests: (_request, context) => live.stream(context.signal),
    });
    renderApp('/request-list', transport);
    const view = await screen.findByRole('link', { name: 'View request Plumbing Services' });
    expect(view).toHaveAttribute('href', `/view-request/${REQUEST_ID}`);
    const row = view.closest('tr') as HTMLElement;
    expect(within(row).getByText('Calgary, AB T2P')).toBeVisible();
    expect(within(row).getByText('about 4 km')).toBeVisible();
    const quote = within(row).getByRole('link', { name: 'Send a quote on Plumbing Services' });
    expect(quote).toHaveAttribute('href', `/request-apply/${REQUEST_ID}`);
    expectLabelInName(quote);
    expect(requests('listOpenRequests')[0]).toMatchObject({ professionalId: PROFESSIONAL_ID });
    await waitFor(() => expect(live.opened()).toBe(1));

    act(() =>
      live.push({
        repairRequest: {
          repairRequest: seen(
            { id: NEW_ID, serviceId: TEST_SERVICES[1]!.id, serviceName: 'Roofing Services' },
            12,
          ),
        },
      }),
    );
    const arrived = await screen.findByRole('link', { name: 'View request Roofing Services' });
    const newRow = arrived.closest('tr') as HTMLElement;
    expect(within(newRow).getByText('New')).toBeVisible();
    expect(within(newRow).getByText('about 12 km')).toBeVisible();
    expect(screen.getByText('1 new request arrived.')).toBeInTheDocument();
    expect(requests('watchOpenRequests')[0]).toMatchObject({ professionalId: PROFESSIONAL_ID });
  });

  it('says each distance as the estimate it is, in French too', async () => {
    localStorage.setItem('lang', 'fr');
    const { transport } = proServer({
      listOpenRequests: () => ({ repairRequests: [{ repairRequest: seen({}, 7) }] }),
      watchOpenRequests: (_request, context) => streamOf<never>().stream(context.signal),
    });
    renderApp('/request-list', transport);
    expect(await screen.findByText('environ 7 km')).toBeVisible();
  });

  it.each([
    ['en', 'Emergency', 'less than 1 km'],
    ['fr', 'Urgence', 'moins de 1 km'],
  ])(
    'marks an emergency, shows a line of what is wrong and a distance under 1 km (%s)',
    async (language, badge, near) => {
      localStorage.setItem('lang', language);
      const emergency = seen(
        { urgency: Urgency.IMMEDIATE, description: 'Water pours from the ceiling light.' },
        0,
      );
      const calm = seen({ id: NEW_ID, urgency: Urgency.CAN_WAIT, description: 'A slow drip.' });
      const { transport } = proServer({
        listOpenRequests: () => ({
          repairRequests: [{ repairRequest: emergency }, { repairRequest: calm }],
        }),
        watchOpenRequests: (_request, context) => streamOf<never>().stream(context.signal),
      });
      renderApp(language === 'fr' ? '/fr/request-list' : '/request-list', transport);
      const first = (await screen.findByText('Water pours from the ceiling light.')).closest('tr');
      const second = screen.getByText('A slow drip.').closest('tr');
      expect(within(first!).getByText(badge)).toBeVisible();
      expect(within(first!).getByText(near)).toBeVisible();
      expect(within(second!).queryByText(badge)).toBeNull();
    },
  );

  it('reloads the list on each snapshot the stream sends (its first message, and after a gap)', async () => {
    const live = streamOf<{ snapshot: { repairRequests: never[] } }>();
    const { transport, requests } = proServer({
      listOpenRequests: () => ({ repairRequests: [{ repairRequest: seen() }] }),
      watchOpenRequests: (_request, context) => live.stream(context.signal),
    });
    renderApp('/request-list', transport);
    await screen.findByRole('link', { name: 'View request Plumbing Services' });
    await waitFor(() => expect(live.opened()).toBe(1));
    const listed = requests('listOpenRequests').length;
    act(() => live.push({ snapshot: { repairRequests: [] } }));
    await waitFor(() => expect(requests('listOpenRequests').length).toBe(listed + 1));
    act(() => live.push({ snapshot: { repairRequests: [] } }));
    await waitFor(() => expect(requests('listOpenRequests').length).toBe(listed + 2));
  });

  it('shows each request as a card of label and value pairs on a phone, and a table when wider', async () => {
    setViewportWidth(390);
    const live = streamOf<never>();
    const { transport } = proServer({
      listOpenRequests: () => ({
        repairRequests: [
          { repairRequest: seen({ photos: PHOTOS }) },
          { repairRequest: seen({ id: NEW_ID }, 9), applied: true },
        ],
      }),
      watchOpenRequests: (_request, context) => live.stream(context.signal),
    });
    renderApp('/request-list', transport);
    const cards = await screen.findByRole('list', {
      name: 'Open requests near you, nearest first',
    });
    expect(screen.queryByRole('table')).toBeNull();
    const [first, second] = [...cards.children] as [HTMLElement, HTMLElement];
    const pairs = (card: HTMLElement) =>
      [...card.querySelectorAll('dt')].map((label) => [
        label.textContent,
        label.nextElementSibling?.textContent,
      ]);
    expect(pairs(first)).toEqual([
      ['Service', 'Plumbing ServicesEmergencyThe kitchen sink leaks under the cabinet.'],
      ['Photos of the damage', expect.any(String)],
      ['Location', 'Calgary, AB T2P'],
      ['Distance', 'about 4 km'],
      ['Placed', expect.any(String)],
    ]);
    // The actions are buttons across the card, the quote the main one.
    const quote = within(first).getByRole('link', { name: 'Send a quote on Plumbing Services' });
    expect(quote).toHaveAttribute('href', `/request-apply/${REQUEST_ID}`);
    expect(quote.closest('dd')).toBeNull();
    expect(
      within(first).getByRole('link', { name: 'View request Plumbing Services' }),
    ).toBeVisible();
    // Two thumbnails, and a button to the third.
    const thumbnails = within(first).getByRole('list', { name: 'Photos of the damage' });
    expect(
      within(thumbnails)
        .getAllByRole('img')
        .map((image) => [image.getAttribute('alt'), image.getAttribute('src')]),
    ).toEqual([
      ['Photo 1 of 3 of the damage', 'https://files.test/1-thumb.jpg'],
      ['Photo 2 of 3 of the damage', 'https://files.test/2-thumb.jpg'],
    ]);
    expect(within(thumbnails).getByRole('button', { name: '1 more photo' })).toBeVisible();
    expect(pairs(second).map(([label]) => label)).not.toContain('Photos of the damage');
    expect(within(second).getByText('about 9 km')).toBeVisible();
    expect(within(second).getByText('Quote sent')).toBeVisible();
    expect(within(second).queryByRole('link', { name: /Send a quote/ })).toBeNull();

    // Turned to landscape on a tablet: the same rows, once, as a table.
    act(() => setViewportWidth(800));
    const table = screen.getByRole('table', { name: 'Open requests near you, nearest first' });
    expect(
      within(table).getAllByRole('link', { name: 'View request Plumbing Services' }),
    ).toHaveLength(2);
    expect(
      screen.queryByRole('list', { name: 'Open requests near you, nearest first' }),
    ).toBeNull();
  });

  it('keeps a photo open large when the phone turns and the cards become a table', async () => {
    setViewportWidth(390);
    const live = streamOf<never>();
    const { transport } = proServer({
      listOpenRequests: () => ({ repairRequests: [{ repairRequest: seen({ photos: PHOTOS }) }] }),
      watchOpenRequests: (_request, context) => live.stream(context.signal),
    });
    renderApp('/request-list', transport);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: '1 more photo' }));
    expect(await screen.findByRole('dialog', { name: 'Photo 3 of 3 of the damage' })).toBeVisible();

    act(() => setViewportWidth(800));
    // Behind the dialog (hidden from screen readers meanwhile), the cards are a table now.
    await screen.findByRole('table', {
      name: 'Open requests near you, nearest first',
      hidden: true,
    });
    expect(screen.getByRole('dialog', { name: 'Photo 3 of 3 of the damage' })).toBeVisible();
    await user.keyboard('{ArrowLeft}');
    expect(screen.getByRole('dialog', { name: 'Photo 2 of 3 of the damage' })).toBeVisible();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    // The focus is back on the thumbnail of the photo last seen, in the table.
    await waitFor(() =>
      expect(
        within(screen.getByRole('table')).getByRole('button', {
          name: 'Photo 2 of 3 of the damage',
        }),
      ).toHaveFocus(),
    );
  });

  it.each([
    ['en', 'There are currently no requests'],
    ['fr', 'Il n’y a actuellement aucune demande'],
  ])('says when there are none (%s)', async (language, text) => {
    localStorage.setItem('lang', language);
    const live = streamOf<never>();
    const { transport } = proServer({
      listOpenRequests: () => ({ repairRequests: [] }),
      watchOpenRequests: (_request, context) => live.stream(context.signal),
    });
    renderApp('/request-list', transport);
    expect(await screen.findByText(text)).toBeVisible();
  });

  it('shows the membership notice when the server answers the membership reason', async () => {
    const { transport, requests } = proServer({
      listOpenRequests: () => {
        throw rpcError(Code.FailedPrecondition, 'MEMBERSHIP_INACTIVE');
      },
      watchOpenRequests: () => {
        throw rpcError(Code.FailedPrecondition, 'MEMBERSHIP_INACTIVE');
      },
    });
    renderApp('/request-list', transport);
    expect(await screen.findByRole('link', { name: 'Buy Membership' })).toHaveAttribute(
      'href',
      `/purchase-membership/${PROFESSIONAL_ID}`,
    );
    expect(screen.queryByRole('table')).toBeNull();
    // The stream may have been tried before the list answered, never again after.
    const tries = requests('watchOpenRequests').length;
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(requests('watchOpenRequests').length).toBe(tries);
  });

  it('says live updates stopped when the stream is refused for good', async () => {
    const { transport } = proServer({
      listOpenRequests: () => ({ repairRequests: [{ repairRequest: seen() }] }),
      watchOpenRequests: () => {
        throw rpcError(Code.Unimplemented, 'UNIMPLEMENTED');
      },
    });
    renderApp('/request-list', transport);
    expect(
      await screen.findByText(
        'New requests cannot be shown live right now; reload the page to see them.',
      ),
    ).toBeVisible();
  });
});

describe('one request (professional)', () => {
  it('shows where it is without the street, and the Quote button while open', async () => {
    const { transport } = proServer({}, { getRepairRequest: () => ({ repairRequest: seen() }) });
    renderApp(`/view-request/${REQUEST_ID}`, transport);
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Plumbing Services' }),
    ).toBeVisible();
    expect(screen.getByText('Calgary, AB T2P')).toBeVisible();
    expect(screen.getByText('about 4 km')).toBeVisible();
    expect(screen.queryByText(/225 7 Ave SW/)).toBeNull();
    expect(screen.getByText('The street address is shown once you are hired.')).toBeVisible();
    expect(screen.getByRole('link', { name: 'Quote' })).toHaveAttribute(
      'href',
      `/request-apply/${REQUEST_ID}`,
    );
  });

  it('names the service in the page’s language, whatever language the reply used', async () => {
    localStorage.setItem('lang', 'fr');
    const { transport } = proServer({}, { getRepairRequest: () => ({ repairRequest: seen() }) });
    renderApp(`/view-request/${REQUEST_ID}`, transport);
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Services de plomberie' }),
    ).toBeVisible();
  });

  it('names each quote link with the words it shows, in French too', async () => {
    localStorage.setItem('lang', 'fr');
    const { transport } = proServer({
      listOpenRequests: () => ({ repairRequests: [{ repairRequest: seen() }] }),
      watchOpenRequests: (_request, context) => streamOf<never>().stream(context.signal),
    });
    renderApp('/request-list', transport);
    const quote = await screen.findByRole('link', {
      name: 'Soumissionner pour Services de plomberie',
    });
    expect(quote).toHaveTextContent('Soumissionner');
    expectLabelInName(quote);
  });

  it('offers no quote once the request is no longer open', async () => {
    const { transport } = proServer(
      {},
      { getRepairRequest: () => ({ repairRequest: seen({ state: RepairRequestState.HIRED }) }) },
    );
    renderApp(`/view-request/${REQUEST_ID}`, transport);
    await screen.findByText('Calgary, AB T2P');
    expect(screen.queryByRole('link', { name: 'Quote' })).toBeNull();
  });

  it('shows the machine translation the server offers beside the original, labelled', async () => {
    const { transport } = proServer(
      {},
      {
        getRepairRequest: () => ({
          repairRequest: seen({
            description: 'L’évier de la cuisine fuit.',
            descriptionLanguage: Language.FR,
            descriptionTranslation: 'The kitchen sink leaks.',
          }),
        }),
      },
    );
    renderApp(`/view-request/${REQUEST_ID}`, transport);
    expect(await screen.findByText('L’évier de la cuisine fuit.')).toHaveAttribute('lang', 'fr');
    expect(screen.getByText('Translated from French')).toBeVisible();
    expect(screen.getByText('The kitchen sink leaks.')).toHaveAttribute('lang', 'en');
  });

  it('labels the translation in French for a French reader of an English request', async () => {
    localStorage.setItem('lang', 'fr');
    const { transport } = proServer(
      {},
      {
        getRepairRequest: () => ({
          repairRequest: seen({
            description: 'The kitchen sink leaks.',
            descriptionLanguage: Language.EN,
            descriptionTranslation: 'L’évier de la cuisine fuit.',
          }),
        }),
      },
    );
    renderApp(`/view-request/${REQUEST_ID}`, transport);
    expect(await screen.findByText('The kitchen sink leaks.')).toHaveAttribute('lang', 'en');
    expect(screen.getByText('Traduit de l’anglais')).toBeVisible();
    expect(screen.getByText('L’évier de la cuisine fuit.')).toHaveAttribute('lang', 'fr');
  });

  it('shows no translation when the server offers none', async () => {
    const { transport } = proServer(
      {},
      {
        getRepairRequest: () => ({
          repairRequest: seen({
            description: 'L’évier de la cuisine fuit.',
            descriptionLanguage: Language.FR,
          }),
        }),
      },
    );
    renderApp(`/view-request/${REQUEST_ID}`, transport);
    await screen.findByText('L’évier de la cuisine fuit.');
    expect(screen.queryByText('Translated from French')).toBeNull();
  });
});
