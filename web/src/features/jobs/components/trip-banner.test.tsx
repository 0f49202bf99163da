import { timestampFromMs } from '@bufbuild/protobuf/wkt';
import { act, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  ArrivalEstimateSource,
  RepairRequestState,
  TripState,
} from '@/gen/repairs/marketplace/v1/marketplace_pb';
import { renderInApp, unimplementedTransport } from '@/test/render-app';
import { repairRequest } from '@/test/stub-server';
import { TripBanner } from './trip-banner';

const NOW = new Date('2026-11-23T21:00:00Z').getTime();
const MINUTE = 60_000;

/** A request hired, with Marc on his way and due at `eta`, his phone last heard at `seen`. */
const onTheWay = (eta: number, seen = NOW) =>
  repairRequest({
    state: RepairRequestState.HIRED,
    hiredProfessionalName: 'Marc',
    trip: {
      state: TripState.ON_THE_WAY,
      professionalName: 'Marc',
      estimatedArrivalTime: timestampFromMs(eta),
      distanceLeftM: 6200,
      estimateSource: ArrivalEstimateSource.POSITION,
      lastPositionTime: timestampFromMs(seen),
    },
  });

describe('the trip banner', () => {
  afterEach(() => vi.useRealTimers());

  it('counts the minutes down every 30 seconds, changing its live region only when they change', async () => {
    vi.useFakeTimers({ now: NOW, toFake: ['Date', 'setInterval', 'clearInterval'] });
    renderInApp(
      <TripBanner request={onTheWay(NOW + 14 * MINUTE + 20_000)} />,
      unimplementedTransport(),
    );
    const live = screen.getByRole('status');
    expect(live).toHaveAttribute('aria-live', 'polite');
    expect(live).toHaveTextContent('Marc is on the way: about 14 min');

    // What a screen reader would hear: each change of the live region's text.
    const changes: string[] = [];
    const observer = new MutationObserver(() => changes.push(live.textContent ?? ''));
    observer.observe(live, { childList: true, characterData: true, subtree: true });

    // 30 seconds on, 13 min 50 s are left: still about 14 minutes, nothing to announce.
    await act(async () => vi.advanceTimersByTime(30_000));
    expect(live).toHaveTextContent('about 14 min');
    expect(changes).toEqual([]);

    // A minute on, 13 min 20 s: about 13 minutes, announced once.
    await act(async () => vi.advanceTimersByTime(30_000));
    expect(live).toHaveTextContent('Marc is on the way: about 13 min');
    expect(changes.length).toBeGreaterThan(0);
    const heard = changes.length;

    await act(async () => vi.advanceTimersByTime(14 * MINUTE));
    expect(live).toHaveTextContent('Marc is on the way: less than 1 min');
    const due = changes.length;
    expect(due).toBeGreaterThan(heard);
    await act(async () => vi.advanceTimersByTime(5 * MINUTE));
    expect(changes).toHaveLength(due);
    observer.disconnect();
  });

  it('says the estimate is not live once the phone was last heard ten minutes ago', async () => {
    vi.useFakeTimers({ now: NOW, toFake: ['Date', 'setInterval', 'clearInterval'] });
    renderInApp(
      <TripBanner request={onTheWay(NOW + 20 * MINUTE, NOW - 9 * MINUTE)} />,
      unimplementedTransport(),
    );
    const note = 'Estimated from the route; no live position right now';
    expect(screen.queryByText(note)).toBeNull();
    await act(async () => vi.advanceTimersByTime(MINUTE));
    expect(screen.getByText(note)).toBeVisible();
  });

  it('holds its empty live region in the page from the hire on, so the start is heard', () => {
    renderInApp(
      <TripBanner
        request={repairRequest({ state: RepairRequestState.HIRED, hiredProfessionalName: 'Marc' })}
      />,
      unimplementedTransport(),
    );
    expect(screen.getByRole('status')).toBeEmptyDOMElement();
  });

  it('is not there before the hire', () => {
    renderInApp(<TripBanner request={repairRequest()} />, unimplementedTransport());
    expect(screen.queryByTestId('trip-banner')).toBeNull();
  });
});
