import type { Transport } from '@connectrpc/connect';
import type { i18n as I18n } from 'i18next';
import { useState } from 'react';
import { createBrowserRouter } from 'react-router';
import { RouterProvider } from 'react-router/dom';
import { AppProvider } from './provider';
import { createQueryClient } from './query-client';
import { routes } from './routes';

/** The whole app in the browser. */
export function App({ transport, i18n }: { transport: Transport; i18n: I18n }) {
  const [queryClient] = useState(createQueryClient);
  const [router] = useState(() => createBrowserRouter(routes));
  return (
    <AppProvider transport={transport} queryClient={queryClient} i18n={i18n}>
      <RouterProvider router={router} />
    </AppProvider>
  );
}
