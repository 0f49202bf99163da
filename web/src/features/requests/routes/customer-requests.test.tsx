import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import {
  AddressSuggestionKind,
  CustomerRepairRequestView,
  RepairRequestState,
  Urgency,
  type CreateRepairRequestRequest,
} from '@/gen/repairs/marketplace/v1/marketplace_pb';
import { controlledStream } from '@/test/controlled-stream';
import { chooseMoreAction } from '@/test/more-actions';
import { renderApp } from '@/test/render-app';
import {
  CUSTOMER_ID,
  Code,
  MACLAREN_SUGGESTION,
  REQUEST_ID,
  TEST_SERVICES,
  customerServer,
  repairRequest,
  rpcError,
  type MarketplaceImpl,
} from '@/test/stub-server';

const SUGGESTIONS = [
  {
    kind: AddressSuggestionKind.POSTAL_CODE,
    displayName: 'T2P 2W3, Calgary, AB',
    postalCode: 'T2P 2W3',
    city: 'Calgary',
    province: 'AB',
  },
  {
    kind: AddressSuggestionKind.POSTAL_AREA,
    displayName: 'T2P (Calgary, AB)',
    postalCode: 'T2P',
    city: 'Calgary',
    province: 'AB',
  },
];

/** A signed-in customer's server that suggests addresses and places requests. */
const requestServer = (marketplace: MarketplaceImpl = {}) =>
  customerServer({
    suggestAddresses: () => ({ suggestions: SUGGESTIONS }),
    createRepairRequest: () => ({ repairRequest: repairRequest() }),
    ...marketplace,
  });

/** A customer's open request, which deleting cancels; no request is pending after. */
const deletableRequestServer = () =>
  requestServer({
    getRepairRequest: () => ({ repairRequest: repairRequest() }),
    cancelRepairRequest: () => ({
      repairRequest: repairRequest({ state: RepairRequestState.CANCELLED }),
    }),
    listCustomerRepairRequests: () => ({ repairRequests: [] }),
  });

/** Fills the form as a person using the keyboard for the address look-up. */
async function fillForm(user: ReturnType<typeof userEvent.setup>) {
  await user.click(await screen.findByRole('radio', { name: 'Plumbing Services' }));
  await user.type(screen.getByLabelText(/^What do you need to fix\?/), 'Leaking sink');
  expect(screen.getByText('12 of 5,000 characters')).toBeVisible();
  await user.click(screen.getByRole('radio', { name: 'Yes, it is an emergency' }));
  await user.type(screen.getByLabelText(/^Street address/), '225 7 Ave SW');
  const lookup = screen.getByRole('combobox', { name: 'Find your postal code or city' });
  await user.type(lookup, 't2p');
  await waitFor(() => expect(lookup).toHaveAttribute('aria-expanded', 'true'));
  await user.keyboard('{ArrowDown}');
  const active = screen.getByRole('option', { name: 'T2P 2W3, Calgary, AB' });
  expect(lookup).toHaveAttribute('aria-activedescendant', active.id);
  expect(active).toHaveAttribute('aria-selected', 'true');
  await user.keyboard('{Enter}');
  expect(lookup).toHaveAttribute('aria-expanded', 'false');
}

describe('create request', () => {
  it('places the request with the address the look-up filled, then says so', async () => {
    const { transport, requests } = requestServer();
    const { router } = renderApp('/create-request', transport);
    await screen.findByRole('heading', { level: 1, name: 'Create request' });
    const user = userEvent.setup();
    await fillForm(user);
    expect(screen.getByLabelText(/^City/)).toHaveValue('Calgary');
    expect(screen.getByLabelText(/^Province or territory/)).toHaveValue('AB');
    expect(screen.getByLabelText(/^Postal code/)).toHaveValue('T2P 2W3');
    await user.click(screen.getByRole('button', { name: 'Create Request' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/request-created'));
    expect(await screen.findByText('Your Request is Successfully Created!')).toBeVisible();
    expect(screen.getByRole('link', { name: 'Create New Request' })).toHaveAttribute(
      'href',
      '/create-request',
    );
    expect(screen.getByRole('link', { name: 'View the request' })).toHaveAttribute(
      'href',
      `/user-view-request/${REQUEST_ID}`,
    );
    const [sent] = requests<CreateRepairRequestRequest>('createRepairRequest');
    expect(sent?.requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(sent?.draft).toMatchObject({
      serviceId: TEST_SERVICES[0]!.id,
      description: 'Leaking sink',
      urgency: Urgency.IMMEDIATE,
      address: {
        line1: '225 7 Ave SW',
        city: 'Calgary',
        province: 'AB',
        postalCode: 'T2P 2W3',
        country: 'CA',
      },
    });
  });

  it('sends the photos chosen to the request once placed, keeping those not sent on the page', async () => {
    let calls = 0;
    const { transport, requests } = requestServer({
      addRepairRequestPhoto: (request) => {
        calls += 1;
        // The second photo meets a network failure once; the third cannot be read.
        if (calls === 2) throw rpcError(Code.Unavailable, 'UNAVAILABLE');
        if (calls === 3) {
          throw rpcError(Code.InvalidArgument, 'PHOTO_UNREADABLE', { content: 'cut short' });
        }
        return {
          photo: { id: `photo-${calls}`, url: `https://files.test/${request.repairRequestId}` },
        };
      },
    });
    const { router } = renderApp('/create-request', transport);
    await screen.findByRole('heading', { level: 1, name: 'Create request' });
    const user = userEvent.setup();
    await fillForm(user);
    const photo = (name: string) =>
      new File([new Uint8Array([0xff, 0xd8, 0xff])], name, { type: 'image/jpeg' });
    await user.upload(screen.getByLabelText('Choose photos', { selector: 'input' }), [
      photo('sink.jpg'),
      photo('pipe.jpg'),
      photo('broken.jpg'),
    ]);
    const chosen = screen.getByRole('list', { name: 'Photos chosen' });
    expect(within(chosen).getAllByText('Sent once your request is placed')).toHaveLength(3);
    expect(requests('addRepairRequestPhoto')).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'Create Request' }));
    const retry = await screen.findByRole('button', { name: 'Try again: Photo 2: pipe.jpg' });
    const sending = screen.getByRole('list', { name: 'Photos chosen' });
    expect(await within(sending).findByText(/This image cannot be read/)).toBeVisible();
    expect(screen.getByRole('status')).toHaveTextContent('Your Request is Successfully Created!');
    expect(screen.getByText(/Some photos could not be sent/)).toBeVisible();
    expect(screen.getByRole('link', { name: 'View the request' })).toHaveAttribute(
      'href',
      `/user-view-request/${REQUEST_ID}`,
    );
    expect(router.state.location.pathname).toBe('/create-request');
    // The alerts wait for the three photos, so they count them.
    expect(requests<CreateRepairRequestRequest>('createRepairRequest')).toMatchObject([
      { photosToFollow: 3 },
    ]);
    expect(
      requests<{ repairRequestId: string }>('addRepairRequestPhoto').map(
        (sent) => sent.repairRequestId,
      ),
    ).toEqual([REQUEST_ID, REQUEST_ID, REQUEST_ID]);

    // The failed one goes again; once the unreadable one is removed, the page moves on.
    await user.click(retry);
    await waitFor(() => expect(within(sending).getAllByText('Sent')).toHaveLength(2));
    await user.click(screen.getByRole('button', { name: 'Remove: Photo 3: broken.jpg' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/request-created'));
    expect(requests('createRepairRequest')).toHaveLength(1);
  });

  it('closes the suggestions with Escape and fills only the city from a postal area', async () => {
    const { transport } = requestServer();
    renderApp('/create-request', transport);
    const user = userEvent.setup();
    const lookup = await screen.findByRole('combobox', { name: 'Find your postal code or city' });
    await user.type(lookup, 'T2');
    await waitFor(() => expect(lookup).toHaveAttribute('aria-expanded', 'true'));
    await user.keyboard('{Escape}');
    expect(lookup).toHaveAttribute('aria-expanded', 'false');
    await user.keyboard('{ArrowUp}');
    expect(lookup).toHaveAttribute('aria-expanded', 'true');
    expect(lookup).toHaveAttribute(
      'aria-activedescendant',
      screen.getByRole('option', { name: 'T2P (Calgary, AB)' }).id,
    );
    await user.keyboard('{Enter}');
    expect(screen.getByLabelText(/^City/)).toHaveValue('Calgary');
    expect(screen.getByLabelText(/^Postal code/)).toHaveValue('');
  });

  it('fills the street from a street address the map service suggests, crediting its data', async () => {
    const asked: string[] = [];
    const { transport } = requestServer({
      suggestAddresses: (request) => {
        asked.push(`${request.query}|${request.language}`);
        return { suggestions: [MACLAREN_SUGGESTION] };
      },
    });
    renderApp('/create-request', transport);
    const user = userEvent.setup();
    const lookup = await screen.findByRole('combobox', { name: 'Find your postal code or city' });
    await user.type(lookup, '800 Macl');
    await waitFor(() => expect(lookup).toHaveAttribute('aria-expanded', 'true'));
    expect(screen.getByText('© OpenStreetMap contributors')).toBeVisible();
    await user.click(screen.getByRole('option', { name: MACLAREN_SUGGESTION.displayName }));
    expect(screen.getByLabelText(/^Street address/)).toHaveValue('800 Maclaren Street');
    expect(screen.getByLabelText(/^City/)).toHaveValue('Ottawa');
    expect(screen.getByLabelText(/^Postal code/)).toHaveValue('K2P 0T4');
    expect(asked.at(-1)).toBe('800 Macl|en');
  });

  it('fills the address from the position only once Use my location is pressed, and says what failed', async () => {
    const asked: [number, number, string][] = [];
    const getCurrentPosition = vi.fn(
      (found: PositionCallback, failed?: PositionErrorCallback | null) => {
        if (getCurrentPosition.mock.calls.length === 1) {
          found({ coords: { latitude: 45.4127, longitude: -75.6951 } } as GeolocationPosition);
        } else {
          failed?.({ code: 1 } as GeolocationPositionError);
        }
      },
    );
    Object.defineProperty(navigator, 'geolocation', {
      configurable: true,
      value: { getCurrentPosition },
    });
    const { transport } = requestServer({
      reverseGeocode: (request) => {
        asked.push([request.latitude, request.longitude, request.language]);
        return {
          address: {
            line1: '800 Maclaren Street',
            city: 'Ottawa',
            province: 'ON',
            postalCode: 'K2P 0T4',
            country: 'CA',
          },
        };
      },
    });
    renderApp('/create-request', transport);
    const user = userEvent.setup();
    const button = await screen.findByRole('button', { name: 'Use my location' });
    expect(getCurrentPosition).not.toHaveBeenCalled();
    await user.click(button);
    await waitFor(() =>
      expect(screen.getByLabelText(/^Street address/)).toHaveValue('800 Maclaren Street'),
    );
    expect(screen.getByLabelText(/^City/)).toHaveValue('Ottawa');
    expect(screen.getByLabelText(/^Postal code/)).toHaveValue('K2P 0T4');
    expect(asked).toEqual([[45.4127, -75.6951, 'en']]);
    expect(screen.queryByText(/but not your street/)).toBeNull();
    await user.click(button);
    expect(await screen.findByRole('alert')).toHaveTextContent(/could not get your position/);
    Reflect.deleteProperty(navigator, 'geolocation');
  });

  // Texts as the page reads them: white space, the French no-break one too, as single spaces.
  it.each([
    {
      language: 'en',
      none: 'Nothing found. Type a postal code, such as T2P 1J9, or the name of a city; you can also fill in the address fields yourself.',
    },
    {
      language: 'fr',
      none: 'Aucun résultat. Tapez un code postal, comme T2P 1J9, ou le nom d’une ville; vous pouvez aussi remplir vous-même les champs de l’adresse.',
    },
  ])(
    'shows everyone a search that finds nothing, with what can be typed ($language)',
    async ({ language, none }) => {
      localStorage.setItem('lang', language);
      const { transport } = requestServer({
        suggestAddresses: (request) => ({
          suggestions: request.query.startsWith('250') ? [] : SUGGESTIONS,
        }),
      });
      const { i18n } = renderApp('/create-request', transport);
      const user = userEvent.setup();
      const lookup = await screen.findByRole('combobox', { name: i18n.t('requests.lookup') });
      await user.type(lookup, '250 6 Ave SW');
      expect(await screen.findByText(none)).toBeVisible();
      expect(lookup).toHaveAttribute('aria-expanded', 'false');
      // Still there once the field is left, gone once a search finds something.
      await user.tab();
      expect(screen.getByText(none)).toBeVisible();
      await user.clear(lookup);
      await user.type(lookup, 't2p');
      await waitFor(() => expect(lookup).toHaveAttribute('aria-expanded', 'true'));
      expect(screen.queryByText(none)).toBeNull();
    },
  );

  it.each([
    {
      language: 'en',
      note: 'We found your postal code and city, but not your street: please type the street address.',
    },
    {
      language: 'fr',
      note: 'Nous avons trouvé votre code postal et votre ville, mais pas votre rue : tapez l’adresse municipale, s’il vous plaît.',
    },
  ])(
    'says when Use my location placed the postal code but not the street ($language)',
    async ({ language, note }) => {
      localStorage.setItem('lang', language);
      const getCurrentPosition = vi.fn((found: PositionCallback) =>
        found({ coords: { latitude: 51.0447, longitude: -114.0719 } } as GeolocationPosition),
      );
      Object.defineProperty(navigator, 'geolocation', {
        configurable: true,
        value: { getCurrentPosition },
      });
      const { transport } = requestServer({
        reverseGeocode: () => ({
          address: { city: 'Calgary', province: 'AB', postalCode: 'T2P 2W3', country: 'CA' },
        }),
      });
      const { i18n } = renderApp('/create-request', transport);
      const user = userEvent.setup();
      await user.click(
        await screen.findByRole('button', { name: i18n.t('requests.location.use') }),
      );
      expect(await screen.findByRole('status')).toHaveTextContent(note);
      expect(screen.getByLabelText(new RegExp(`^${i18n.t('requests.postalCode')}`))).toHaveValue(
        'T2P 2W3',
      );
      expect(screen.getByLabelText(new RegExp(`^${i18n.t('requests.line1')}`))).toHaveValue('');
      Reflect.deleteProperty(navigator, 'geolocation');
    },
  );

  it('says what is missing beside each field and sends nothing', async () => {
    const { transport, requests } = requestServer();
    renderApp('/create-request', transport);
    const user = userEvent.setup();
    await screen.findByRole('radio', { name: 'Plumbing Services' });
    await user.type(screen.getByLabelText(/^Postal code/), '12345');
    await user.click(screen.getByRole('button', { name: 'Create Request' }));
    for (const message of [
      'Please choose a service.',
      'Please say what you need to fix.',
      'Please say whether you need help right away.',
      'Please enter the street address.',
      'Please enter the city.',
      'Please choose the province or territory.',
      'Please enter a postal code like T2P 1J9.',
    ]) {
      expect(await screen.findByText(message)).toBeVisible();
    }
    expect(requests('createRepairRequest')).toEqual([]);
  });

  it('shows an address the server cannot place beside the look-up, then tries with a new key', async () => {
    let calls = 0;
    const { transport, requests } = requestServer({
      createRepairRequest: () => {
        calls += 1;
        if (calls === 1) {
          throw rpcError(Code.InvalidArgument, 'ADDRESS_NOT_FOUND', {
            'draft.address': 'we could not find this address',
          });
        }
        return { repairRequest: repairRequest() };
      },
    });
    const { router } = renderApp('/create-request', transport);
    const user = userEvent.setup();
    await fillForm(user);
    await user.click(screen.getByRole('button', { name: 'Create Request' }));
    const lookup = screen.getByRole('combobox', { name: 'Find your postal code or city' });
    await waitFor(() => expect(lookup).toHaveAttribute('aria-invalid', 'true'));
    expect(lookup).toHaveAccessibleDescription(
      'We could not find this address on the map. Check the postal code, or the city and province.',
    );
    await user.click(screen.getByRole('button', { name: 'Create Request' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/request-created'));
    const [first, second] = requests<CreateRepairRequestRequest>('createRepairRequest');
    expect(second?.requestId).not.toBe(first?.requestId);
  });

  it('resends the same key after a lost answer, so a retry places one request', async () => {
    let calls = 0;
    const { transport, requests } = requestServer({
      createRepairRequest: () => {
        calls += 1;
        if (calls === 1) throw rpcError(Code.Unavailable, 'UNAVAILABLE');
        return { repairRequest: repairRequest() };
      },
    });
    const { router } = renderApp('/create-request', transport);
    const user = userEvent.setup();
    await fillForm(user);
    await user.click(screen.getByRole('button', { name: 'Create Request' }));
    expect(await screen.findByRole('alert')).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Create Request' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/request-created'));
    const [first, second] = requests<CreateRepairRequestRequest>('createRepairRequest');
    expect(second?.requestId).toBe(first?.requestId);
  });

  it('sends to the pending requests when the lost first answer had placed the request before an edit', async () => {
    let calls = 0;
    const { transport, requests } = requestServer({
      createRepairRequest: () => {
        calls += 1;
        if (calls === 1) throw rpcError(Code.Unavailable, 'UNAVAILABLE');
        throw rpcError(Code.FailedPrecondition, 'REQUEST_ID_REUSED');
      },
      listCustomerRepairRequests: () => ({ repairRequests: [repairRequest()] }),
    });
    const { router } = renderApp('/create-request', transport);
    const user = userEvent.setup();
    await fillForm(user);
    await user.click(screen.getByRole('button', { name: 'Create Request' }));
    expect(await screen.findByRole('alert')).toBeVisible();
    await user.type(screen.getByLabelText(/^What do you need to fix\?/), ' Now.');
    await user.click(screen.getByRole('button', { name: 'Create Request' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/pending-requests'));
    expect(
      await screen.findByText(
        'Your request was already placed before this change. You can edit it from your pending requests.',
      ),
    ).toBeVisible();
    expect(requests('createRepairRequest')).toHaveLength(2);
  });

  it('is in French', async () => {
    localStorage.setItem('lang', 'fr');
    const { transport } = requestServer();
    renderApp('/create-request', transport);
    expect(await screen.findByRole('radio', { name: 'Services de plomberie' })).toBeVisible();
    expect(screen.getByLabelText(/^Que faut-il réparer\?/)).toBeVisible();
    expect(screen.getByRole('button', { name: 'Créer la demande' })).toBeVisible();
  });
});

describe('pending requests', () => {
  it('lists open requests with View, Edit, and Delete in their More actions', async () => {
    const { transport, requests } = requestServer({
      listCustomerRepairRequests: () => ({ repairRequests: [repairRequest()] }),
    });
    renderApp('/pending-requests', transport);
    const view = await screen.findByRole('link', { name: 'View request Plumbing Services' });
    expect(view).toHaveAttribute('href', `/user-view-request/${REQUEST_ID}`);
    expect(screen.getByRole('link', { name: 'Edit request Plumbing Services' })).toHaveAttribute(
      'href',
      `/edit-request/${REQUEST_ID}`,
    );
    expect(screen.queryByRole('link', { name: /Delete/ })).toBeNull();
    await chooseMoreAction(userEvent.setup(), 'Delete the request', {
      menu: 'More actions: Plumbing Services',
    });
    expect(
      await screen.findByRole('alertdialog', { name: 'Do you want to delete this request?' }),
    ).toBeVisible();
    expect(requests('listCustomerRepairRequests')[0]).toMatchObject({
      customerId: CUSTOMER_ID,
      view: CustomerRepairRequestView.PENDING,
    });
  });

  it.each([
    ['en', 'There are currently no requests'],
    ['fr', 'Il n’y a actuellement aucune demande'],
  ])('says when there are none (%s)', async (language, text) => {
    localStorage.setItem('lang', language);
    const { transport } = requestServer({
      listCustomerRepairRequests: () => ({ repairRequests: [] }),
    });
    renderApp('/pending-requests', transport);
    expect(await screen.findByText(text)).toBeVisible();
  });

  it('shows a failed load in the page', async () => {
    const { transport } = requestServer({
      listCustomerRepairRequests: () => {
        throw rpcError(Code.Unavailable, 'DATABASE_UNAVAILABLE');
      },
    });
    renderApp('/pending-requests', transport);
    expect(await screen.findByRole('alert')).toBeVisible();
  });
});

describe('one request', () => {
  it('shows the request with its links while open', async () => {
    const { transport } = requestServer({
      getRepairRequest: () => ({ repairRequest: repairRequest() }),
    });
    renderApp(`/user-view-request/${REQUEST_ID}`, transport);
    expect(await screen.findByText('The kitchen sink leaks under the cabinet.')).toBeVisible();
    expect(screen.getByText(/225 7 Ave SW/)).toBeVisible();
    expect(screen.getByRole('link', { name: 'View quotes' })).toHaveAttribute(
      'href',
      `/application-list/${REQUEST_ID}`,
    );
    expect(screen.getByRole('link', { name: 'Edit' })).toBeVisible();
  });

  it('updates an open request from the filled form', async () => {
    const { transport, requests } = requestServer({
      getRepairRequest: () => ({ repairRequest: repairRequest() }),
      updateRepairRequest: () => ({ repairRequest: repairRequest() }),
    });
    const { router } = renderApp(`/edit-request/${REQUEST_ID}`, transport);
    const description = await screen.findByLabelText(/^What do you need to fix\?/);
    expect(description).toHaveValue('The kitchen sink leaks under the cabinet.');
    const user = userEvent.setup();
    await user.clear(description);
    await user.type(description, 'The sink and the tap leak.');
    await user.click(screen.getByRole('button', { name: 'Update Request' }));
    await waitFor(() =>
      expect(router.state.location.pathname).toBe(`/user-view-request/${REQUEST_ID}`),
    );
    expect(await screen.findByText('Request Updated')).toBeVisible();
    expect(requests('updateRepairRequest')[0]).toMatchObject({
      id: REQUEST_ID,
      draft: { description: 'The sink and the tap leak.', address: { postalCode: 'T2P 2W3' } },
    });
  });

  it('does not offer the form once the request is no longer open', async () => {
    const { transport } = requestServer({
      getRepairRequest: () => ({
        repairRequest: repairRequest({ state: RepairRequestState.HIRED }),
      }),
    });
    renderApp(`/edit-request/${REQUEST_ID}`, transport);
    expect(
      await screen.findByText('This request is no longer open, so it cannot be changed.'),
    ).toBeVisible();
    expect(screen.queryByRole('button', { name: 'Update Request' })).toBeNull();
  });

  it('deletes from its More actions, after a confirmation saying what will happen', async () => {
    const { transport, requests } = deletableRequestServer();
    const { router } = renderApp(`/user-view-request/${REQUEST_ID}`, transport);
    const user = userEvent.setup();
    await screen.findByText('The kitchen sink leaks under the cabinet.');
    expect(screen.queryByRole('link', { name: 'Delete' })).toBeNull();
    await chooseMoreAction(user, 'Delete the request');
    const question = await screen.findByRole('alertdialog', {
      name: 'Do you want to delete this request?',
    });
    expect(question).toHaveTextContent(
      'The request is closed: professionals can no longer send quotes on it, and those who already did will be told.',
    );
    await user.click(within(question).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(requests('cancelRepairRequest')).toEqual([]);

    await chooseMoreAction(user, 'Delete the request');
    const again = await screen.findByRole('alertdialog');
    await user.click(within(again).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/pending-requests'));
    expect(await screen.findByText('Deleted Successfully')).toBeVisible();
    expect(requests('cancelRepairRequest')).toEqual([expect.objectContaining({ id: REQUEST_ID })]);
  });

  it('keeps the question when the deletion is refused, saying why', async () => {
    const { transport } = requestServer({
      getRepairRequest: () => ({ repairRequest: repairRequest() }),
      cancelRepairRequest: () => {
        throw rpcError(Code.FailedPrecondition, 'REPAIR_REQUEST_NOT_OPEN');
      },
    });
    const { router } = renderApp(`/user-view-request/${REQUEST_ID}`, transport);
    const user = userEvent.setup();
    await screen.findByText('The kitchen sink leaks under the cabinet.');
    await chooseMoreAction(user, 'Delete the request');
    const question = await screen.findByRole('alertdialog');
    await user.click(within(question).getByRole('button', { name: 'Delete' }));
    expect(
      await screen.findByText('This request is no longer open, so it cannot be changed.'),
    ).toBeVisible();
    expect(screen.getByRole('alertdialog')).toBeVisible();
    expect(router.state.location.pathname).toBe(`/user-view-request/${REQUEST_ID}`);
  });

  it('deletes only after the confirmation, then goes back to the pending requests', async () => {
    const { transport, requests } = deletableRequestServer();
    const { router } = renderApp(`/delete-request/${REQUEST_ID}`, transport);
    const dialog = await screen.findByRole('alertdialog', {
      name: 'Do you want to delete this request?',
    });
    const user = userEvent.setup();
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/pending-requests'));
    expect(await screen.findByText('Deleted Successfully')).toBeVisible();
    expect(requests('cancelRepairRequest')).toEqual([expect.objectContaining({ id: REQUEST_ID })]);
  });

  it('goes back without deleting when the dialog is cancelled', async () => {
    const { transport, requests } = requestServer({
      getRepairRequest: () => ({ repairRequest: repairRequest() }),
      listCustomerRepairRequests: () => ({ repairRequests: [repairRequest()] }),
    });
    const { router } = renderApp(`/delete-request/${REQUEST_ID}`, transport);
    const dialog = await screen.findByRole('alertdialog');
    const user = userEvent.setup();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/pending-requests'));
    expect(requests('cancelRepairRequest')).toEqual([]);
  });

  it.each([
    [
      'en',
      '1 professional alerted · 0 opened your request',
      '3 professionals alerted · 1 opened your request',
      '3 professionals alerted · 2 opened your request',
    ],
    [
      'fr',
      '1 professionnel alerté · 0 a ouvert votre demande',
      '3 professionnels alertés · 1 a ouvert votre demande',
      '3 professionnels alertés · 2 ont ouvert votre demande',
    ],
  ])(
    'shows how many professionals were alerted and opened it, live (%s)',
    async (language, first, snapshot, later) => {
      localStorage.setItem('lang', language);
      const stream = controlledStream();
      const { transport, requests } = requestServer({
        getRepairRequest: () => ({
          repairRequest: repairRequest(),
          reach: { professionalsAlerted: 1, professionalsOpened: 0 },
        }),
        watchRepairRequest: () => stream.watch(),
      });
      renderApp(`/user-view-request/${REQUEST_ID}`, transport);
      const region = await screen.findByText(first);
      expect(region).toHaveAttribute('aria-live', 'polite');
      stream.push({
        revision: 4n,
        event: {
          case: 'snapshot',
          value: {
            repairRequest: repairRequest(),
            quotes: [],
            reach: { professionalsAlerted: 3, professionalsOpened: 1 },
          } as never,
        },
      });
      await waitFor(() => expect(region).toHaveTextContent(snapshot));
      stream.push({
        revision: 4n,
        event: {
          case: 'reach',
          value: { professionalsAlerted: 3, professionalsOpened: 2 } as never,
        },
      });
      await waitFor(() => expect(region).toHaveTextContent(later));
      expect(requests('watchRepairRequest')[0]).toMatchObject({ id: REQUEST_ID, revision: 0n });
    },
  );

  it('leaves the counts out once the request is no longer open', async () => {
    const { transport } = requestServer({
      getRepairRequest: () => ({
        repairRequest: repairRequest({ state: RepairRequestState.HIRED }),
        reach: { professionalsAlerted: 3, professionalsOpened: 2 },
      }),
    });
    renderApp(`/user-view-request/${REQUEST_ID}`, transport);
    expect(await screen.findByText('The kitchen sink leaks under the cabinet.')).toBeVisible();
    expect(screen.queryByText(/professionals alerted/)).toBeNull();
  });

  it('shows another customer’s request as not found, in the page', async () => {
    const { transport } = requestServer({
      getRepairRequest: () => {
        throw rpcError(Code.NotFound, 'NOT_FOUND');
      },
    });
    renderApp(`/user-view-request/${REQUEST_ID}`, transport);
    expect(await screen.findByRole('alert')).toBeVisible();
    expect(screen.queryByText(/225 7 Ave SW/)).toBeNull();
  });
});

describe('customer dashboard', () => {
  it('shows the four counters and the pending requests', async () => {
    const { transport } = requestServer({
      getCustomerDashboard: () => ({
        requestsPosted: 7,
        quotesReceived: 4,
        professionalsHired: 2,
        requestsCompleted: 1,
      }),
      listCustomerRepairRequests: () => ({ repairRequests: [repairRequest()] }),
    });
    renderApp('/user-dashboard', transport);
    // The cards are there from the start, their figures filled in when they arrive.
    expect(await screen.findByText('Total Requests Posted')).toBeVisible();
    await waitFor(() =>
      expect(screen.getByText('Total Requests Posted').nextElementSibling).toHaveTextContent('7'),
    );
    const figures: [string, string][] = [
      ['Total Requests Posted', '7'],
      ['Quotes received', '4'],
      ['Professionals hired', '2'],
      ['Requests Completed', '1'],
    ];
    for (const [label, value] of figures) {
      expect(screen.getByText(label).nextElementSibling).toHaveTextContent(value);
    }
    expect(await screen.findByRole('link', { name: 'View quotes' })).toHaveAttribute(
      'href',
      `/application-list/${REQUEST_ID}`,
    );
  });
});
