import { create } from '@bufbuild/protobuf';
import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TripSchema, TripState, type Trip } from '@/gen/repairs/marketplace/v1/marketplace_pb';
import { fakeGeolocation, PERMISSION_DENIED, POSITION_UNAVAILABLE } from '@/test/fake-geolocation';
import { Code, rpcError } from '@/test/stub-server';
import { SHARE_EVERY_MS, useTripSharing, type SharedPosition } from './use-trip-sharing';

const onTheWay = (minutes: number): Trip =>
  create(TripSchema, { state: TripState.ON_THE_WAY, distanceLeftM: minutes * 500 });

/** Lets the timers run `ms` and the answers come. */
const wait = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));

function render(
  share: (position: SharedPosition) => Promise<Trip | undefined>,
  fake = fakeGeolocation(),
  active = true,
) {
  const onTrip = vi.fn();
  const onEnded = vi.fn();
  const hook = renderHook(
    ({ on }: { on: boolean }) =>
      useTripSharing({ active: on, share, onTrip, onEnded, geolocation: fake.geolocation }),
    { initialProps: { on: active } },
  );
  return { ...hook, ...fake, onTrip, onEnded };
}

describe('useTripSharing', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('watches the position with high accuracy and sends the latest at most every 20 s', async () => {
    const share = vi.fn(async () => onTheWay(14));
    const { result, calls, move, onTrip } = render(share);
    expect(calls.watchPosition).toHaveBeenCalledWith(expect.any(Function), expect.any(Function), {
      enableHighAccuracy: true,
    });
    expect(result.current.status).toBe('locating');

    move(51.04, -114.07, 12);
    expect(result.current.status).toBe('sharing');
    await wait(0);
    expect(share).toHaveBeenCalledTimes(1);
    expect(share).toHaveBeenLastCalledWith({ latitude: 51.04, longitude: -114.07, accuracyM: 12 });
    expect(onTrip).toHaveBeenCalledWith(onTheWay(14));

    await wait(3_000);
    move(51.05, -114.06);
    await wait(3_000);
    move(51.06, -114.05);
    await wait(SHARE_EVERY_MS - 6_001);
    expect(share).toHaveBeenCalledTimes(1);
    await wait(1);
    expect(share).toHaveBeenCalledTimes(2);
    expect(share).toHaveBeenLastCalledWith({ latitude: 51.06, longitude: -114.05, accuracyM: 15 });
  });

  it('never sends two positions at once', async () => {
    let answer: (trip: Trip) => void = () => {};
    const share = vi.fn(() => new Promise<Trip>((resolve) => (answer = resolve)));
    const { move } = render(share);
    move(51.04, -114.07);
    await wait(0);
    move(51.05, -114.06);
    await wait(SHARE_EVERY_MS * 3);
    expect(share).toHaveBeenCalledTimes(1);
    answer(onTheWay(10));
    await wait(0);
    expect(share).toHaveBeenCalledTimes(2);
  });

  it('keeps a position accuracy within what the contract takes', async () => {
    const share = vi.fn(async () => onTheWay(14));
    const { move } = render(share);
    move(51.04, -114.07, 250_000);
    await wait(0);
    expect(share).toHaveBeenLastCalledWith(expect.objectContaining({ accuracyM: 100_000 }));
  });

  it('skips a position refused as too soon, without a word', async () => {
    const share = vi.fn(async (): Promise<Trip> => {
      throw rpcError(Code.ResourceExhausted, 'TRIP_POSITION_TOO_SOON');
    });
    const { result, move } = render(share);
    move(51.04, -114.07);
    await wait(0);
    expect(share).toHaveBeenCalledTimes(1);
    expect(result.current.problem).toBeNull();
    expect(result.current.status).toBe('sharing');
  });

  it('keeps any other refusal to show, and goes on sharing', async () => {
    const share = vi
      .fn<(position: SharedPosition) => Promise<Trip>>()
      .mockRejectedValueOnce(rpcError(Code.Unavailable, 'UNAVAILABLE'))
      .mockResolvedValue(onTheWay(12));
    const { result, move } = render(share);
    move(51.04, -114.07);
    await wait(0);
    expect(result.current.problem?.reason).toBe('UNAVAILABLE');
    move(51.05, -114.06);
    await wait(SHARE_EVERY_MS);
    expect(share).toHaveBeenCalledTimes(2);
    expect(result.current.problem).toBeNull();
  });

  it('stops for good when the trip has ended (TRIP_ENDED)', async () => {
    const share = vi.fn(async (): Promise<Trip> => {
      throw rpcError(Code.FailedPrecondition, 'TRIP_ENDED');
    });
    const { calls, move, onEnded, result } = render(share);
    move(51.04, -114.07);
    await wait(0);
    expect(onEnded).toHaveBeenCalledTimes(1);
    expect(calls.clearWatch).toHaveBeenCalledWith(7);
    expect(result.current.problem).toBeNull();
    move(51.05, -114.06);
    await wait(SHARE_EVERY_MS * 2);
    expect(share).toHaveBeenCalledTimes(1);
  });

  it('stops when the trip is no longer on the way, and when the page closes', async () => {
    const share = vi.fn(async () => onTheWay(14));
    const first = render(share);
    first.move(51.04, -114.07);
    await wait(0);
    first.move(51.05, -114.06);
    first.rerender({ on: false });
    expect(first.result.current.status).toBe('off');
    expect(first.calls.clearWatch).toHaveBeenCalledWith(7);
    await wait(SHARE_EVERY_MS * 2);
    expect(share).toHaveBeenCalledTimes(1);

    const second = render(share);
    second.move(51.04, -114.07);
    await wait(0);
    second.move(51.05, -114.06);
    second.unmount();
    expect(second.calls.clearWatch).toHaveBeenCalledWith(7);
    await wait(SHARE_EVERY_MS * 2);
    expect(share).toHaveBeenCalledTimes(2);
  });

  it('does not watch before the trip is on the way', () => {
    const share = vi.fn(async () => onTheWay(14));
    const { result, calls } = render(share, fakeGeolocation(), false);
    expect(result.current.status).toBe('off');
    expect(calls.watchPosition).not.toHaveBeenCalled();
  });

  it('says when the position is refused (and asks no more) or cannot be found', async () => {
    const share = vi.fn(async () => onTheWay(14));
    const refused = render(share);
    refused.fail(PERMISSION_DENIED);
    expect(refused.result.current.status).toBe('refused');
    expect(refused.calls.clearWatch).toHaveBeenCalledWith(7);
    refused.unmount();

    const lost = render(share);
    lost.fail(POSITION_UNAVAILABLE);
    expect(lost.result.current.status).toBe('unavailable');
    expect(lost.calls.clearWatch).not.toHaveBeenCalled();
    lost.move(51.04, -114.07);
    expect(lost.result.current.status).toBe('sharing');
    await wait(0);
    expect(share).toHaveBeenCalledTimes(1);
  });

  it('says the position is unavailable when the browser has no geolocation', () => {
    const share = vi.fn(async () => onTheWay(14));
    const { result } = renderHook(() => useTripSharing({ active: true, share, geolocation: null }));
    expect(result.current.status).toBe('unavailable');
    expect(share).not.toHaveBeenCalled();
  });
});
