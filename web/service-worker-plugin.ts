import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';
import { offlinePage, type OfflineWords } from './src/service-worker/offline-page.ts';

const ENTRY = fileURLToPath(new URL('./src/service-worker/sw.ts', import.meta.url));
const OFFLINE_PAGE = 'virtual:offline-page';
const RESOLVED = `\0${OFFLINE_PAGE}`;

/** `deviceAlerts.offline` of a catalogue. */
function offlineWords(language: 'en' | 'fr'): OfflineWords {
  const path = new URL(`./src/locales/${language}.json`, import.meta.url);
  const catalogue = JSON.parse(readFileSync(path, 'utf8')) as {
    deviceAlerts: { offline: OfflineWords };
  };
  return catalogue.deviceAlerts.offline;
}

/**
 * Builds the service worker into `/sw.js` (a fixed name at the root, so its scope is the
 * whole app and the browser finds it at the same address after each deploy), with the
 * offline page in it: a deploy that changes the page's words changes the worker, which the
 * browser then installs again.
 */
export function serviceWorker(): Plugin {
  return {
    name: 'repairs-service-worker',
    apply: 'build',
    buildStart() {
      this.emitFile({ type: 'chunk', id: ENTRY, fileName: 'sw.js' });
    },
    resolveId(id) {
      return id === OFFLINE_PAGE ? RESOLVED : null;
    },
    load(id) {
      if (id !== RESOLVED) return null;
      const html = offlinePage({ en: offlineWords('en'), fr: offlineWords('fr') });
      return `export default ${JSON.stringify(html)};`;
    },
  };
}
