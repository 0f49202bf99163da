/**
 * The only script a prerendered page (src/prerender) loads before it is interactive. The
 * page is on screen already, with its links working, so the app's code loads on the
 * visitor's first interaction; or at once when the app has something to do right away: a
 * visitor signed in (whom the sign-in and professional pages send on) or one whose stored
 * language is not the page's (sent to its French twin). Until the app has taken over, a form
 * submitted is held back (the browser would send it as a plain GET, password included) and
 * submitted after, and a button clicked is clicked again.
 */
import { pageLanguage, readStoredLanguage } from './lib/language';
import { activeSessions } from './lib/session';
import { browserSessionEnvironment } from './lib/session-environment';

const INTERACTIONS = ['pointerdown', 'keydown', 'touchstart', 'focusin', 'mousemove'] as const;

let held: HTMLFormElement | HTMLButtonElement | null = null;

function hold(event: Event) {
  const target = event.target instanceof Element ? event.target : null;
  const form = event.type === 'submit' && target instanceof HTMLFormElement ? target : null;
  const button = event.type === 'click' ? target?.closest('button') : null;
  if (!form && !button) return;
  event.preventDefault();
  held = form ?? button ?? null;
}

let started = false;
function start() {
  if (started) return;
  started = true;
  for (const name of INTERACTIONS) document.removeEventListener(name, start, true);
  void import('./app/start')
    .then(({ startApp }) => startApp({ prerendered: true }))
    .finally(() => {
      document.removeEventListener('submit', hold, true);
      document.removeEventListener('click', hold, true);
      if (held instanceof HTMLFormElement) held.requestSubmit();
      else held?.click();
    });
}

document.addEventListener('submit', hold, true);
document.addEventListener('click', hold, true);
const env = browserSessionEnvironment();
const language = pageLanguage(window.location.pathname, readStoredLanguage(env.store));
if (activeSessions(env).length > 0 || language !== document.documentElement.lang) start();
else
  for (const name of INTERACTIONS)
    document.addEventListener(name, start, { capture: true, passive: true });
