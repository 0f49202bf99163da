/**
 * The only script a prerendered page (src/prerender) loads before it is interactive. The
 * page is on screen already, with its links working, so the app's code loads on the
 * visitor's first interaction; or at once when the app has something to do right away: a
 * visitor signed in (whom the sign-in and professional pages send on) or one who prefers the
 * other language, stored or the browser's (sent to the page's twin).
 *
 * Until the app has taken over, what the visitor asks for is held, never lost: a form
 * submitted (by its button or Enter) is not sent by the browser (it would send it as a plain
 * GET, password included) and its button shows it busy; a link or button clicked is held
 * too. The app says when it has the page (the `onTakenOver` handshake, once its handlers are
 * in place and what was typed meanwhile is back in the fields); then the form is submitted
 * once, by the app, with what was typed, or the click is made again (so that the app's router
 * opens the link, as it does for every other link).
 */
import { browserSessionEnvironment } from './lib/session-environment';
import { firstRenderIsServed } from './prerender/served-view';

const INTERACTIONS = ['pointerdown', 'keydown', 'touchstart', 'focusin', 'mousemove'] as const;

/** What the visitor asked for before the app took over: the last form sent or control clicked. */
type Submitter = HTMLButtonElement | HTMLInputElement;
type Held =
  { form: HTMLFormElement; index: number; submitter: Submitter | null } | { control: HTMLElement };
let held: Held | null = null;

/** A busy button, as the app's own buttons show it while their request is on its way. */
const BUSY_STYLE =
  'button[data-held]{cursor:progress}button[data-held]::after{content:"";width:1em;height:1em;' +
  'border:2px solid;border-inline-end-color:transparent;border-radius:50%;' +
  'animation:held-spin .6s linear infinite}@keyframes held-spin{to{transform:rotate(1turn)}}';

function busy(button: HTMLElement | null, on: boolean) {
  if (!button) return;
  if (on && !document.getElementById('held-style')) {
    const style = document.head.appendChild(document.createElement('style'));
    style.id = 'held-style';
    style.textContent = BUSY_STYLE;
  }
  button.toggleAttribute('data-held', on);
  if (on) button.setAttribute('aria-busy', 'true');
  else button.removeAttribute('aria-busy');
}

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
  let next: Held | null = null;
  if (event.type === 'submit' && target instanceof HTMLFormElement) {
    const index = [...document.forms].indexOf(target);
    const submitter =
      ((event as SubmitEvent).submitter as Submitter | null) ??
      target.querySelector<Submitter>('[type="submit"]');
    next = { form: target, index, submitter };
  } else if (event.type === 'click') {
    const control = target?.closest('button, a[href]');
    // A submit button goes on to send its form, which is held as such.
    if (control instanceof HTMLButtonElement && control.type === 'submit' && control.form) return;
    if (control instanceof HTMLAnchorElement && !isAppLink(event as MouseEvent, control)) return;
    if (control instanceof HTMLElement) next = { control };
  }
  if (!next) return;
  // Held back from the browser and from the app (whose handlers may be in place already).
  event.preventDefault();
  event.stopPropagation();
  if (held && 'form' in held) busy(held.submitter, false);
  held = next;
  if ('form' in held) busy(held.submitter, true);
}

/** Hands over what was held: the app has the page now. */
function release() {
  document.removeEventListener('submit', hold, true);
  document.removeEventListener('click', hold, true);
  const asked = held;
  held = null;
  if (!asked) return;
  if ('control' in asked) {
    asked.control.click();
    return;
  }
  busy(asked.submitter, false);
  // The app may have rendered the page anew rather than taking it over: its form then.
  const form = asked.form.isConnected ? asked.form : document.forms[asked.index];
  const submitter = asked.submitter?.form === form ? asked.submitter : null;
  form?.requestSubmit(submitter);
}

let started = false;
function start() {
  if (started) return;
  started = true;
  for (const name of INTERACTIONS) document.removeEventListener(name, start, true);
  let takenOver = false;
  const onTakenOver = () => {
    if (takenOver) return;
    takenOver = true;
    release();
  };
  import('./app/start')
    .then(({ startApp }) => startApp({ prerendered: asServed, onTakenOver }))
    .catch(() => {
      // Without the app, links and buttons work as plain HTML; forms are never sent.
      document.removeEventListener('click', hold, true);
      if (held && 'control' in held) held.control.click();
      else if (held) busy(held.submitter, false);
    });
}

document.addEventListener('submit', hold, true);
document.addEventListener('click', hold, true);
const asServed = firstRenderIsServed(
  browserSessionEnvironment(),
  window.location.pathname,
  document.documentElement.lang,
);
if (!asServed) start();
else
  for (const name of INTERACTIONS)
    document.addEventListener(name, start, { capture: true, passive: true });
