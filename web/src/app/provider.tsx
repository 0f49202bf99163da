import { ChakraProvider } from '@chakra-ui/react';
import type { Transport } from '@connectrpc/connect';
import { TransportProvider } from '@connectrpc/connect-query';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import type { i18n as I18n } from 'i18next';
import type { ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { Toaster } from '@/components/ui/toaster';
import { appSystem } from '@/theme';

interface AppProviderProps {
  /** How RPCs reach the server: gRPC-web in the browser, a stub in tests. */
  transport: Transport;
  queryClient: QueryClient;
  i18n: I18n;
  children: ReactNode;
}

/** Everything the screens rely on: theme, translations, RPC transport and query cache. */
export function AppProvider({ transport, queryClient, i18n, children }: AppProviderProps) {
  return (
    <ChakraProvider value={appSystem()}>
      <I18nextProvider i18n={i18n}>
        <TransportProvider transport={transport}>
          <QueryClientProvider client={queryClient}>
            {children}
            <Toaster />
          </QueryClientProvider>
        </TransportProvider>
      </I18nextProvider>
    </ChakraProvider>
  );
}
