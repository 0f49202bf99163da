import { startTransition, StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { createI18n } from '@/lib/i18n';
import { pageLanguage, preferredLanguage } from '@/lib/language';
import { browserStore } from '@/lib/storage';
import { createAppTransport } from '@/lib/transport';
import { registerServiceWorker } from '@/lib/web-push';
import { prefetchPage } from '@/prerender/pages';
import { appSystem } from '@/theme';
import { App } from './app';
import { createQueryClient } from './query-client';
import { createAppRouter, routerReady } from './router';
import { TakeOver } from './take-over';
import { keepTypedValues } from './typed-values';

interface StartOptions {
  /**
   * Whether #root holds a prerendered page that the app's first render equals
   * (src/prerender/served-view.ts): hydrated then, drawn anew otherwise.
   */
  prerendered: boolean;
  /** Called once the app has the page (src/boot.ts's handshake), hydrated or drawn anew. */
  onTakenOver?: () => void;
}

/** Resolves in a later task of the browser's: what comes before and after block it apart. */
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/** A page drawn anew keeps nothing of the markup it replaces, typed values included. */
const nothingTyped = () => {};

/**
 * Starts the app in #root. A prerendered page (src/prerender) is hydrated: the screen's code
 * and data are loaded first, so that the first render is the HTML already on screen, and what
 * the visitor typed meanwhile is kept.
 */
export async function startApp({ prerendered, onTakenOver = () => {} }: StartOptions) {
  const root = document.getElementById('root');
  if (!root) throw new Error('the page has no #root element');
  const { pathname } = window.location;
  const language = pageLanguage(pathname, preferredLanguage(browserStore()));
  const transport = createAppTransport();
  const i18n = createI18n(language);
  registerServiceWorker();
  // Reading the app's code, making its style system and drawing the first screen are each
  // long on a phone: in tasks of their own, the browser answers a tap between them.
  await nextTask();
  appSystem();
  await nextTask();
  if (!prerendered) {
    // Whatever markup #root holds is replaced by the first render, drawn as a transition:
    // in slices that leave the browser free to answer meanwhile.
    const app = createRoot(root);
    startTransition(() =>
      app.render(
        <StrictMode>
          <TakeOver restoreTyped={nothingTyped} onTakenOver={onTakenOver}>
            <App transport={transport} i18n={i18n} />
          </TakeOver>
        </StrictMode>,
      ),
    );
    return;
  }
  const queryClient = createQueryClient();
  const router = createAppRouter();
  await Promise.all([routerReady(router), prefetchPage(pathname, queryClient, transport)]);
  const restoreTyped = keepTypedValues(root);
  hydrateRoot(
    root,
    <StrictMode>
      <TakeOver restoreTyped={restoreTyped} onTakenOver={onTakenOver}>
        <App transport={transport} i18n={i18n} router={router} queryClient={queryClient} />
      </TakeOver>
    </StrictMode>,
  );
}
