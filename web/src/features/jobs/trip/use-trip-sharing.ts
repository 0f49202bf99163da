import { useEffect, useRef, useState } from 'react';
import {
  ShareTripPositionRequestSchema,
  type Trip,
} from '@/gen/repairs/marketplace/v1/marketplace_pb';
import { bound, limitOf } from '@/lib/contract-limits';
import { readRpcError, type RpcProblem } from '@/lib/rpc-error';
import { throttledSender } from './throttled-sender';

/**
 * How often a position goes to the server at most: the contract asks for one every 15 to 30
 * seconds (and refuses two within 10).
 */
export const SHARE_EVERY_MS = 20_000;

/** The largest accuracy the contract takes (ShareTripPositionRequest.accuracy_m's `lte`). */
const MAX_ACCURACY_M = bound(
  limitOf(ShareTripPositionRequestSchema, 'accuracyM').max,
  'largest position accuracy',
);

/** A phone's position as ShareTripPosition takes it. */
export interface SharedPosition {
  latitude: number;
  longitude: number;
  accuracyM: number;
}

/**
 * Where the sharing is: not sharing (`off`, not on the way), waiting for the phone's first
 * position (`locating`), positions coming (`sharing`), or no position: the browser has no
 * geolocation or cannot find one (`unavailable`), or the professional refused it (`refused`).
 */
export type SharingStatus = 'off' | 'locating' | 'sharing' | 'unavailable' | 'refused';

export interface TripSharingOptions {
  /** Whether to share: the trip is on the way (the page being open, the hook is mounted). */
  active: boolean;
  /** Sends one position (ShareTripPosition); answers the trip with its new estimate. */
  share: (position: SharedPosition) => Promise<Trip | undefined>;
  /** A position was taken: the trip with its new estimate. */
  onTrip?: (trip: Trip) => void;
  /** The server says the trip has ended (TRIP_ENDED): the sharing has stopped. */
  onEnded?: () => void;
  /** The browser's geolocation; null when it has none (the default reads `navigator`). */
  geolocation?: Geolocation | null;
}

const browserGeolocation = (): Geolocation | null =>
  typeof navigator !== 'undefined' && 'geolocation' in navigator ? navigator.geolocation : null;

/** A phone's position in the contract's terms, its accuracy within the contract's bounds. */
export const sharedPosition = ({ coords }: GeolocationPosition): SharedPosition => ({
  latitude: coords.latitude,
  longitude: coords.longitude,
  accuracyM: Math.min(Math.max(coords.accuracy, 0), MAX_ACCURACY_M),
});

/**
 * Shares the phone's position while the trip is on the way and the page is open: the browser's
 * `watchPosition` (high accuracy) gives the positions, and the latest goes to the server at
 * most every 20 seconds, never two at once. A position refused as too soon is skipped; a trip
 * that ended (TRIP_ENDED) stops the sharing, as do unmounting and `active` turning false. Any
 * other refusal is kept as `problem` (cleared by the next position taken) and the sharing goes
 * on. Without a position (no geolocation, refused), the trip goes on from the route estimate.
 */
export function useTripSharing({
  active,
  share,
  onTrip,
  onEnded,
  geolocation = browserGeolocation(),
}: TripSharingOptions): { status: SharingStatus; problem: RpcProblem | null } {
  const [watched, setWatched] = useState<'locating' | 'sharing' | 'unavailable' | 'refused'>(
    'locating',
  );
  const [problem, setProblem] = useState<RpcProblem | null>(null);
  const handlers = useRef({ share, onTrip, onEnded });
  useEffect(() => {
    handlers.current = { share, onTrip, onEnded };
  });

  useEffect(() => {
    if (!active || !geolocation) return;
    let closed = false;
    const send = async (position: SharedPosition) => {
      try {
        const trip = await handlers.current.share(position);
        if (closed) return;
        setProblem(null);
        if (trip) handlers.current.onTrip?.(trip);
      } catch (error) {
        if (closed) return;
        const refused = readRpcError(error);
        if (refused.reason === 'TRIP_POSITION_TOO_SOON') return;
        if (refused.reason === 'TRIP_ENDED') {
          close();
          handlers.current.onEnded?.();
          return;
        }
        setProblem(refused);
      }
    };
    const sender = throttledSender(send, SHARE_EVERY_MS);
    const watch = geolocation.watchPosition(
      (position) => {
        if (closed) return;
        setWatched('sharing');
        sender.push(sharedPosition(position));
      },
      (error) => {
        if (closed) return;
        if (error.code === error.PERMISSION_DENIED) {
          // Asked once: the watch is over, the browser would not ask again.
          geolocation.clearWatch(watch);
          setWatched('refused');
        } else {
          setWatched('unavailable');
        }
      },
      { enableHighAccuracy: true },
    );
    function close() {
      closed = true;
      sender.stop();
      geolocation?.clearWatch(watch);
    }
    return () => {
      close();
      setWatched('locating');
      setProblem(null);
    };
  }, [active, geolocation]);

  if (!active) return { status: 'off', problem: null };
  return { status: geolocation ? watched : 'unavailable', problem };
}
