import type { Transport } from '@connectrpc/connect';
import { useTransport } from '@connectrpc/connect-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useLocation } from 'react-router';
import { useLocalizedNavigate } from '@/lib/localized-navigation';
import {
  checkSession,
  LOGOUT_PATHS,
  renewalTime,
  type Role,
  type SessionCheck,
  type SessionEndReason,
} from '@/lib/session';
import { browserSessionEnvironment } from '@/lib/session-environment';
import { withLock } from '@/lib/session-lock';
import { currentToken, renewSession, type RenewalDependencies } from '@/lib/session-renewal';
import { refreshSession } from '../api/refresh-session';
import { sessionEndedState } from '../session-ended';
import { withSession } from '../session-transport';

/** setTimeout's longest delay (about 24.8 days). */
const MAX_TIMER_MS = 2 ** 31 - 1;
/** Wait before trying again a renewal that could not be done (the network). */
const RETRY_MS = 30_000;

interface SessionKeeper {
  deps: RenewalDependencies;
  /** Sends the role's token on every call, renewed as needed. */
  transport: Transport;
  /** Where an ended session is announced (an `ended` event whose detail is the reason). */
  ended: EventTarget;
}

/**
 * The session of `role` for the screens of its area: a transport that sends its token, and,
 * when the session ends, the way to the logout route with why and where the person was.
 */
export function useSessionKeeper(role: Role): { keeper: SessionKeeper; end: EndSession } {
  const base = useTransport();
  const end = useEndSession(role);
  const [keeper] = useState<SessionKeeper>(() => {
    const deps: RenewalDependencies = {
      env: browserSessionEnvironment(),
      lock: withLock,
      refresh: (refreshToken) => refreshSession(base, refreshToken),
    };
    const ended = new EventTarget();
    const transport = withSession(base, {
      token: () => currentToken(role, deps),
      renew: (refused) => renewSession(role, deps, refused),
      onSessionEnded: (reason) => ended.dispatchEvent(new CustomEvent('ended', { detail: reason })),
    });
    return { deps, transport, ended };
  });
  useEffect(() => {
    const listener = (event: Event) => end((event as CustomEvent<SessionEndReason>).detail);
    keeper.ended.addEventListener('ended', listener);
    return () => keeper.ended.removeEventListener('ended', listener);
  }, [keeper, end]);
  return { keeper, end };
}

type EndSession = (reason: SessionEndReason) => void;

/** Leaves for the role's logout route, once, saying why and from where. */
function useEndSession(role: Role): EndSession {
  const navigate = useLocalizedNavigate();
  const location = useLocation();
  const leaving = useRef(false);
  return useCallback(
    (reason: SessionEndReason) => {
      if (leaving.current) return;
      leaving.current = true;
      void navigate(LOGOUT_PATHS[role], {
        replace: true,
        state: sessionEndedState(reason, location),
      });
    },
    [navigate, location, role],
  );
}

const delayUntil = (epochSeconds: number) =>
  Math.min(Math.max(epochSeconds * 1000 - Date.now(), 0), MAX_TIMER_MS);

/**
 * The role's session as it stands, kept going while the page is open: renewed silently a
 * little before its token ends (and at once when it ended already), or, without a refresh
 * token, checked again when it ends so the guard can leave. A renewal refused ends it.
 */
export function useSessionUpkeep(role: Role, keeper: SessionKeeper, end: EndSession): SessionCheck {
  const [tick, setTick] = useState(0);
  const check = checkSession(role, keeper.deps.env);
  const renewAt = renewalTime(check);
  const endsAt = check.status === 'active' ? check.endsAt : null;

  useEffect(() => {
    let stopped = false;
    let timer: number | undefined;
    const again = (delay: number) => {
      timer = window.setTimeout(() => setTick((n) => n + 1), delay);
    };
    if (renewAt !== null) {
      timer = window.setTimeout(() => {
        void renewSession(role, keeper.deps).then((outcome) => {
          if (stopped) return;
          if (outcome.kind === 'ended') end(outcome.reason);
          else if (outcome.kind === 'failed') again(RETRY_MS);
          else setTick((n) => n + 1);
        });
      }, delayUntil(renewAt));
    } else if (endsAt !== null && Number.isFinite(endsAt)) {
      again(delayUntil(endsAt));
    }
    return () => {
      stopped = true;
      window.clearTimeout(timer);
    };
  }, [role, keeper, end, renewAt, endsAt, tick]);

  return check;
}
