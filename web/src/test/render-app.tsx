import type { Transport } from '@connectrpc/connect';
import { createRouterTransport } from '@connectrpc/connect';
import { render } from '@testing-library/react';
import { StrictMode, type ReactNode } from 'react';
import { RouterProvider, createMemoryRouter } from 'react-router';
import { AppProvider } from '@/app/provider';
import { createQueryClient } from '@/app/query-client';
import { routes } from '@/app/routes';
import { createI18n } from '@/lib/i18n';
import { pageLanguage, preferredLanguage, type Language } from '@/lib/language';
import { browserStore } from '@/lib/storage';

/** A transport whose every call fails with UNIMPLEMENTED, like the server today. */
export const unimplementedTransport = (): Transport => createRouterTransport(() => {});

/**
 * Renders the whole app at `path`, as main.tsx does in the browser, but with a memory router
 * and the given transport (UNIMPLEMENTED everywhere by default). `strict` wraps it in
 * StrictMode as main.tsx does, for screens whose effects must run once all the same.
 */
/**
 * The app's query client with its retries (the same calls retried as often) but without
 * their growing wait (1 s, then 2 s): a refusal shows in a test within its find timeout
 * even on a busy machine.
 */
function testQueryClient() {
  const client = createQueryClient();
  const queries = client.getDefaultOptions().queries;
  client.setDefaultOptions({
    ...client.getDefaultOptions(),
    queries: { ...queries, retryDelay: 50 },
  });
  return client;
}

export function renderApp(
  path: string,
  transport: Transport = unimplementedTransport(),
  { strict = false } = {},
) {
  const i18n = createI18n(pageLanguage(path, preferredLanguage(browserStore())));
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const queryClient = testQueryClient();
  const app = (
    <AppProvider transport={transport} queryClient={queryClient} i18n={i18n}>
      <RouterProvider router={router} />
    </AppProvider>
  );
  const view = render(strict ? <StrictMode>{app}</StrictMode> : app);
  return { ...view, router, i18n, queryClient };
}

/** Renders one piece of a screen with the app's providers (no router), in `language`. */
export function renderInApp(element: ReactNode, transport: Transport, language: Language = 'en') {
  return render(
    <AppProvider transport={transport} queryClient={testQueryClient()} i18n={createI18n(language)}>
      {element}
    </AppProvider>,
  );
}

/**
 * How long the test server's sessions last: the server's default setting (SESSION_TTL_SECS).
 * Tokens minted here end this long after they are issued, as the server's do.
 */
export const TEST_SESSION_SECONDS = 3600;

/**
 * A JWT with the given payload (unsigned: the browser never verifies tokens). As the server
 * signs every token with `exp`, one with a numeric `iat` and no `exp` of its own gets
 * `exp = iat + TEST_SESSION_SECONDS`; `exp: undefined` mints a token without one.
 */
export function fakeToken(payload: Record<string, unknown>): string {
  const claims =
    typeof payload.iat === 'number' && !('exp' in payload)
      ? { ...payload, exp: payload.iat + TEST_SESSION_SECONDS }
      : payload;
  const encode = (value: object) => {
    const utf8 = String.fromCharCode(...new TextEncoder().encode(JSON.stringify(value)));
    return btoa(utf8).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
  };
  return `${encode({ alg: 'HS256', typ: 'JWT' })}.${encode(claims)}.signature`;
}
