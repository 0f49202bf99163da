import { ChakraProvider } from '@chakra-ui/react';
import type { Transport } from '@connectrpc/connect';
import { TransportProvider } from '@connectrpc/connect-query';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import type { i18n as I18n } from 'i18next';
import { lazy, Suspense, useSyncExternalStore, type ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { appSystem } from '@/theme';

/**
 * The toasts' code loads once the app is on screen: a toast made before (`toaster.create`) is
 * kept by the toaster and shown as it arrives.
 */
const Toaster = lazy(() =>
  import('@/components/ui/toaster').then((module) => ({ default: module.Toaster })),
);

const unchanging = () => () => {};

/**
 * Whether the app runs in the browser: not while a page is prerendered nor while the browser
 * hydrates it (its markup holds no toaster), at once when the app draws the page anew.
 */
const useInBrowser = () =>
  useSyncExternalStore(
    unchanging,
    () => true,
    () => false,
  );

interface AppProviderProps {
  /** How RPCs reach the server: gRPC-web in the browser, a stub in tests. */
  transport: Transport;
  queryClient: QueryClient;
  i18n: I18n;
  children: ReactNode;
}

/** Everything the screens rely on: theme, translations, RPC transport and query cache. */
export function AppProvider({ transport, queryClient, i18n, children }: AppProviderProps) {
  const inBrowser = useInBrowser();
  return (
    <ChakraProvider value={appSystem()}>
      <I18nextProvider i18n={i18n}>
        <TransportProvider transport={transport}>
          <QueryClientProvider client={queryClient}>
            {children}
            {inBrowser && (
              <Suspense fallback={null}>
                <Toaster />
              </Suspense>
            )}
          </QueryClientProvider>
        </TransportProvider>
      </I18nextProvider>
    </ChakraProvider>
  );
}
