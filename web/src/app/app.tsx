import type { Transport } from '@connectrpc/connect';
import type { QueryClient } from '@tanstack/react-query';
import type { i18n as I18n } from 'i18next';
import { useState } from 'react';
import { RouterProvider } from 'react-router/dom';
import { AppProvider } from './provider';
import { createQueryClient } from './query-client';
import { createAppRouter, type AppRouter } from './router';

interface AppProps {
  transport: Transport;
  i18n: I18n;
  /** Given when the page was prerendered: the router and the query cache it was filled with. */
  router?: AppRouter;
  queryClient?: QueryClient;
}

/** The whole app in the browser. */
export function App({ transport, i18n, router: given, queryClient: givenClient }: AppProps) {
  const [queryClient] = useState(() => givenClient ?? createQueryClient());
  const [router] = useState(() => given ?? createAppRouter());
  return (
    <AppProvider transport={transport} queryClient={queryClient} i18n={i18n}>
      <RouterProvider router={router} />
    </AppProvider>
  );
}
