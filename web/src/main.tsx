import '@fontsource-variable/inter/index.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { createI18n } from './lib/i18n';
import { pageLanguage, readStoredLanguage } from './lib/language';
import { browserStore } from './lib/storage';
import { createAppTransport } from './lib/transport';
import { registerServiceWorker } from './lib/web-push';

const language = pageLanguage(window.location.pathname, readStoredLanguage(browserStore()));
const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

createRoot(root).render(
  <StrictMode>
    <App transport={createAppTransport()} i18n={createI18n(language)} />
  </StrictMode>,
);
registerServiceWorker();
