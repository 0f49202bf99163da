import { create } from '@bufbuild/protobuf';
import { timestampFromDate, timestampFromMs } from '@bufbuild/protobuf/wkt';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ProfessionalState } from '@/gen/repairs/accounts/v1/accounts_pb';
import {
  RepairRequestState,
  TripSchema,
  TripState,
  type Trip,
} from '@/gen/repairs/marketplace/v1/marketplace_pb';
import { fakeGeolocation, PERMISSION_DENIED, WATCH_ID } from '@/test/fake-geolocation';
import { renderApp } from '@/test/render-app';
import {
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

/** The request the signed-in professional was hired on. */
const hired = (trip?: Trip, hiredProfessionalId = PROFESSIONAL_ID) =>
  repairRequest({
    state: RepairRequestState.HIRED,
    hiredProfessionalId,
    hiredProfessionalName: 'Pat Pro',
    hireTime: timestampFromMs(Date.now() - 10 * 60_000),
    trip,
  });

const onTheWay = (minutes: number) =>
  create(TripSchema, {
    state: TripState.ON_THE_WAY,
    startTime: timestampFromMs(Date.now()),
    estimatedArrivalTime: timestampFromMs(Date.now() + minutes * 60_000),
    distanceLeftM: minutes * 600,
  });

/** Arrived at 21:40 today (the reader's clock). */
const arrivedAt2140 = () => {
  const at = new Date();
  at.setHours(21, 40, 0, 0);
  return create(TripSchema, { state: TripState.ARRIVED, arrivalTime: timestampFromDate(at) });
};

function proServer(marketplace: Marketplace) {
  signIn('professional', PROFESSIONAL_ID);
  return stubServer(
    {
      getProfessional: () => ({
        professional: professional({ state: ProfessionalState.APPROVED, membershipActive: true }),
      }),
    },
    {},
    { marketplace },
  );
}

/** Intl and the catalogues hold words together with no-break spaces; compare with plain ones. */
const plain = (text: string | null) => (text ?? '').replace(/[\u00a0\u202f]/g, ' ');

/** The trip's line (the first live region of the trip's section), as read. */
const tripLine = () =>
  plain(
    within(
      screen.getByRole('region', {
        name: /^(Your trip to the job|Votre trajet jusqu’au travail)$/,
      }),
    ).getAllByRole('status')[0]!.textContent,
  );

describe('the hired professional’s trip (/view-request)', () => {
  let phone: ReturnType<typeof fakeGeolocation>;
  beforeEach(() => {
    phone = fakeGeolocation();
    phone.install();
  });
  afterEach(() => {
    Reflect.deleteProperty(navigator, 'geolocation');
  });

  it('sets out, shares the position while on the way, and ends at the door', async () => {
    let trip: Trip | undefined;
    const server = proServer({
      getRepairRequest: () => ({ repairRequest: hired(trip) }),
      startTrip: () => {
        trip = onTheWay(14);
        return { trip };
      },
      shareTripPosition: () => ({ trip: onTheWay(12) }),
      arriveAtJob: () => {
        trip = arrivedAt2140();
        return { trip };
      },
    });
    renderApp(`/view-request/${REQUEST_ID}`, server.transport);
    const go = await screen.findByRole('button', { name: "I'm on my way" });
    expect(phone.calls.watchPosition).not.toHaveBeenCalled();
    const user = userEvent.setup();
    await user.click(go);

    await waitFor(() => expect(tripLine()).toBe('On the way — about 14 min to the job'));
    expect(server.requests('startTrip')).toEqual([
      expect.objectContaining({ repairRequestId: REQUEST_ID }),
    ]);
    expect(phone.calls.watchPosition).toHaveBeenCalledWith(
      expect.any(Function),
      expect.any(Function),
      { enableHighAccuracy: true },
    );
    expect(screen.queryByRole('button', { name: "I'm on my way" })).toBeNull();

    phone.move(51.0447, -114.0719);
    expect(await screen.findByText('Sharing your position with the customer')).toBeVisible();
    await waitFor(() => expect(server.requests('shareTripPosition')).toHaveLength(1));
    expect(server.requests('shareTripPosition')[0]).toMatchObject({
      repairRequestId: REQUEST_ID,
      latitude: 51.0447,
      longitude: -114.0719,
      accuracyM: 15,
    });
    await waitFor(() => expect(tripLine()).toBe('On the way — about 12 min to the job'));
    // Within 20 s of the last one, a new position waits.
    phone.move(51.05, -114.07);
    expect(server.requests('shareTripPosition')).toHaveLength(1);

    await user.click(screen.getByRole('button', { name: "I've arrived" }));
    await waitFor(() => expect(tripLine()).toBe('Arrived at 9:40 p.m.'));
    expect(server.requests('arriveAtJob')).toEqual([
      expect.objectContaining({ repairRequestId: REQUEST_ID }),
    ]);
    expect(phone.calls.clearWatch).toHaveBeenCalledWith(WATCH_ID);
    expect(screen.queryByRole('button', { name: "I've arrived" })).toBeNull();
    expect(screen.queryByText('Sharing your position with the customer')).toBeNull();
    expect(server.requests('shareTripPosition')).toHaveLength(1);
  });

  it('shares again when the page opens on a trip on the way', async () => {
    const server = proServer({
      getRepairRequest: () => ({ repairRequest: hired(onTheWay(9)) }),
      shareTripPosition: () => ({ trip: onTheWay(8) }),
    });
    renderApp(`/view-request/${REQUEST_ID}`, server.transport);
    expect(await screen.findByRole('button', { name: "I've arrived" })).toBeVisible();
    expect(tripLine()).toBe('On the way — about 9 min to the job');
    expect(phone.calls.watchPosition).toHaveBeenCalledTimes(1);
    expect(screen.getByText('Finding your position…')).toBeVisible();
    phone.move(51.0447, -114.0719);
    await waitFor(() => expect(server.requests('shareTripPosition')).toHaveLength(1));
  });

  it('says so when the position is refused, and the trip goes on', async () => {
    const server = proServer({
      getRepairRequest: () => ({ repairRequest: hired(onTheWay(9)) }),
      arriveAtJob: () => ({ trip: arrivedAt2140() }),
    });
    renderApp(`/view-request/${REQUEST_ID}`, server.transport);
    const arrived = await screen.findByRole('button', { name: "I've arrived" });
    phone.fail(PERMISSION_DENIED);
    expect(
      await screen.findByText(
        'Your position is not shared; the customer sees an estimate from your route',
      ),
    ).toBeVisible();
    expect(server.requests('shareTripPosition')).toEqual([]);
    await userEvent.setup().click(arrived);
    await waitFor(() => expect(server.requests('arriveAtJob')).toHaveLength(1));
  });

  it('says the position is not shared when the browser cannot give one', async () => {
    Reflect.deleteProperty(navigator, 'geolocation');
    const server = proServer({
      getRepairRequest: () => ({ repairRequest: hired(onTheWay(9)) }),
    });
    renderApp(`/view-request/${REQUEST_ID}`, server.transport);
    expect(
      await screen.findByText(
        'Your position is not shared; the customer sees an estimate from your route',
      ),
    ).toBeVisible();
  });

  it('shows a refusal in the page', async () => {
    const server = proServer({
      getRepairRequest: () => ({ repairRequest: hired() }),
      startTrip: () => {
        throw rpcError(Code.Unavailable, 'UNAVAILABLE');
      },
    });
    renderApp(`/view-request/${REQUEST_ID}`, server.transport);
    await userEvent.setup().click(await screen.findByRole('button', { name: "I'm on my way" }));
    const trip = screen.getByRole('region', { name: 'Your trip to the job' });
    expect(await within(trip).findByRole('alert')).toHaveTextContent(
      'The service cannot be reached. Check your connection and try again.',
    );
    expect(screen.getByRole('button', { name: "I'm on my way" })).toBeVisible();
    expect(phone.calls.watchPosition).not.toHaveBeenCalled();
  });

  it('shows the time of arrival, in French too', async () => {
    localStorage.setItem('lang', 'fr');
    const server = proServer({
      getRepairRequest: () => ({ repairRequest: hired(arrivedAt2140()) }),
    });
    renderApp(`/view-request/${REQUEST_ID}`, server.transport);
    expect(
      await screen.findByRole('region', { name: 'Votre trajet jusqu’au travail' }),
    ).toBeVisible();
    expect(tripLine()).toBe('Arrivé à 21 h 40');
    expect(screen.queryByRole('button', { name: 'Je suis en route' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Je suis arrivé' })).toBeNull();
    expect(phone.calls.watchPosition).not.toHaveBeenCalled();
  });

  it('offers the trip in French', async () => {
    localStorage.setItem('lang', 'fr');
    const server = proServer({
      getRepairRequest: () => ({ repairRequest: hired() }),
      startTrip: () => ({ trip: onTheWay(14) }),
    });
    renderApp(`/view-request/${REQUEST_ID}`, server.transport);
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Je suis en route' }));
    await waitFor(() => expect(tripLine()).toBe('En route — environ 14 min jusqu’au travail'));
    expect(screen.getByRole('button', { name: 'Je suis arrivé' })).toBeVisible();
  });

  it('offers no trip to a professional not hired on the request', async () => {
    const server = proServer({
      getRepairRequest: () => ({
        repairRequest: hired(undefined, '0190a6c0-9999-7000-8000-000000000009'),
      }),
    });
    renderApp(`/view-request/${REQUEST_ID}`, server.transport);
    expect(await screen.findByText('The kitchen sink leaks under the cabinet.')).toBeVisible();
    expect(screen.queryByRole('button', { name: "I'm on my way" })).toBeNull();
    expect(screen.queryByRole('region', { name: 'Your trip to the job' })).toBeNull();
  });
});
