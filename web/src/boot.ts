/**
 * The only script a prerendered page (src/prerender) loads before it is interactive. The
 * page is on screen already, with its links working, so the app's code loads on the
 * visitor's first interaction; or at once when the app has something to do right away: a
 * visitor signed in (whom the sign-in and professional pages send on) or one whose stored
 * language is not the page's (sent to its French twin). Until the app has taken over, a form
 * submitted is held back (the browser would send it as a plain GET, password included) and
 * submitted after, and a button or link clicked is clicked again (so that the app's router
 * opens the link, as it does for every other link).
 */
import { pageLanguage, readStoredLanguage } from './lib/language';
import { activeSessions } from './lib/session';
import { browserSessionEnvironment } from './lib/session-environment';

const INTERACTIONS = ['pointerdown', 'keydown', 'touchstart', 'focusin', 'mousemove'] as const;

let held: HTMLFormElement | HTMLElement | null = null;

/**
 * A plain click on a link to another page of this site, which the app's router would open
 * (a link within the page, such as "Skip to main content", works as it is).
 */
function isAppLink(event: MouseEvent, link: HTMLAnchorElement) {
  const modified = event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey;
  const here = window.location;
  const inPage = link.pathname === here.pathname && link.search === here.search && link.hash !== '';
  return !modified && !inPage && link.target === '' && link.origin === here.origin;
}

function hold(event: Event) {
  const target = event.target instanceof Element ? event.target : null;
  const form = event.type === 'submit' && target instanceof HTMLFormElement ? target : null;
  const control = event.type === 'click' ? target?.closest('button, a[href]') : null;
  if (control instanceof HTMLAnchorElement && !isAppLink(event as MouseEvent, control)) return;
  const heldBack = form ?? (control instanceof HTMLElement ? control : null);
  if (!heldBack) return;
  event.preventDefault();
  held = heldBack;
}

let started = false;
function start() {
  if (started) return;
  started = true;
  for (const name of INTERACTIONS) document.removeEventListener(name, start, true);
  const takeOver = import('./app/start').then(({ startApp }) => startApp({ prerendered: true }));
  void takeOver.then(
    () => {
      document.removeEventListener('submit', hold, true);
      document.removeEventListener('click', hold, true);
      if (held instanceof HTMLFormElement) held.requestSubmit();
      else held?.click();
    },
    // Without the app, links and buttons work as plain HTML; forms are never sent.
    () => {
      document.removeEventListener('click', hold, true);
      if (!(held instanceof HTMLFormElement)) held?.click();
    },
  );
}

document.addEventListener('submit', hold, true);
document.addEventListener('click', hold, true);
const env = browserSessionEnvironment();
const language = pageLanguage(window.location.pathname, readStoredLanguage(env.store));
if (activeSessions(env).length > 0 || language !== document.documentElement.lang) start();
else
  for (const name of INTERACTIONS)
    document.addEventListener(name, start, { capture: true, passive: true });
