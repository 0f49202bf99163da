import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useLocation } from 'react-router';
import {
  AccountsService,
  type LogInResponse,
  type Session,
} from '@/gen/repairs/accounts/v1/accounts_pb';
import { storeLanguage } from '@/lib/language';
import { useLocalizedNavigate } from '@/lib/localized-navigation';
import { forget } from '@/lib/query-keys';
import { homePath, startSession, type Role, type SessionDetails } from '@/lib/session';
import { browserSessionEnvironment } from '@/lib/session-environment';
import { browserStore } from '@/lib/storage';
import { useLanguage } from '@/lib/use-language';
import {
  PHONE_STEP_PATHS,
  customerLandingPath,
  professionalDetails,
  professionalLandingPath,
} from './account-paths';
import { issuedSession } from './issued-session';
import { sessionRole } from './roles';
import { readSessionEnded } from './session-ended';

/** The account a sign-in or sign-up answers with (none for Google and Facebook). */
export type SignedInAccount = LogInResponse['account'] | { case: undefined; value?: undefined };

/** What the browser keeps besides the token (names, and a professional's state). */
export function sessionDetails(account: SignedInAccount): SessionDetails {
  switch (account.case) {
    case 'customer':
    case 'admin':
      return { name: account.value.name };
    case 'professional':
      return professionalDetails(account.value);
    default:
      return {};
  }
}

/**
 * The first page after signing in: a new account goes to its phone step; otherwise the
 * account decides (phone step, profile form, approval state) and without one the role's home.
 */
export function landingPath(
  role: Role,
  session: Pick<Session, 'accountId'>,
  account: SignedInAccount,
  justSignedUp: boolean,
  store = browserStore(),
): string {
  if (justSignedUp && role !== 'admin') return PHONE_STEP_PATHS[role](session.accountId);
  switch (account.case) {
    case 'customer':
      return customerLandingPath(account.value);
    case 'professional':
      return professionalLandingPath(account.value);
    default:
      return homePath(role, store);
  }
}

/**
 * Stores a new session and goes to its first page, or back to the page the person was on
 * when their previous session ended (the sign-in page was opened saying so). The page's
 * language becomes the stored one, so that someone who signed up in French goes on in French.
 */
export function useStartSession() {
  const navigate = useLocalizedNavigate();
  const queryClient = useQueryClient();
  const language = useLanguage();
  const ended = readSessionEnded(useLocation().state);
  const returnTo = ended?.returnTo ?? null;
  return useCallback(
    (session: Session | undefined, account: SignedInAccount, justSignedUp = false) => {
      if (!session) return;
      const role = sessionRole(session.role);
      const env = browserSessionEnvironment();
      // Whatever was cached about accounts belongs to the previous session.
      forget(queryClient, AccountsService);
      startSession(role, issuedSession(session), sessionDetails(account), env);
      storeLanguage(env.store, language);
      const first = landingPath(role, session, account, justSignedUp, env.store);
      void navigate(returnTo && !justSignedUp ? returnTo : first, { replace: true });
    },
    [navigate, queryClient, language, returnTo],
  );
}
