// What a French reader must never meet on a page of the app, as readable lines: English (a
// text of the English catalogue whose French differs, an English service name, an English
// word), a page or a link outside /fr, a "€" (the product charges Canadian dollars), and a
// target smaller than 44 x 44 px (./targets.mjs).
import { readFile } from 'node:fs/promises';
import { BASE_URL } from './browser.mjs';
import { smallTargets } from './targets.mjs';

/** Texts shorter than this are left out: "OK", "Non", a unit, an initial. */
const SHORTEST = 4;

/** English words that no French text of the app holds (matched as whole words). */
const ENGLISH_WORDS = [
  'the',
  'your',
  'you',
  'with',
  'please',
  'and',
  'this',
  'from',
  'here',
  'sign in',
  'log in',
  'request',
  'requests',
  'quote',
  'quotes',
  'hire',
  'hired',
  'professional',
  'professionals',
  'password',
  'loading',
  'submit',
  'cancel',
  'save',
  'back to',
  'view',
  'dashboard',
  'paid',
];

/** Spaces of every kind as one plain space, trimmed. */
const squash = (text) =>
  String(text ?? '')
    .replace(/[\s\u00a0\u202f]+/g, ' ')
    .trim();

const catalogue = async (language) =>
  JSON.parse(await readFile(new URL(`../src/locales/${language}.json`, import.meta.url), 'utf8'));

/** A catalogue as `key -> text`, nested keys joined with dots. */
function flatten(tree, prefix = '', into = new Map()) {
  for (const [key, value] of Object.entries(tree)) {
    if (value !== null && typeof value === 'object') flatten(value, `${prefix}${key}.`, into);
    else into.set(`${prefix}${key}`, String(value));
  }
  return into;
}

const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The English of the app a French page must not show: the texts of the English catalogue
 * that differ from the French catalogue's (the same key's text and every other French text),
 * and the English names and descriptions of the services; texts with a `{{value}}` become
 * patterns where the value is any text. Short texts (under four letters) are left out.
 */
export async function englishTexts() {
  const [en, fr] = await Promise.all([catalogue('en'), catalogue('fr')]).then((trees) =>
    trees.map((tree) => flatten(tree)),
  );
  const french = new Set([...fr.values()].map(squash));
  // The French texts as a page shows them, each value an "x".
  const frenchSamples = [...french].map((text) => text.replace(/\{\{[^}]*\}\}/g, 'x'));
  const exact = new Map();
  const patterns = [];
  const add = (text, where) => {
    const english = squash(text);
    if (french.has(english)) return;
    const literal = english.replace(/\{\{[^}]*\}\}/g, '');
    if ((literal.match(/\p{L}/gu) ?? []).length < SHORTEST) return;
    if (literal === english) {
      if (!exact.has(english)) exact.set(english, where);
      return;
    }
    // A value is any text that begins and ends with a letter or a figure, not a space.
    const source = `^${english
      .split(/\{\{[^}]*\}\}/)
      .map(escape)
      .join('\\S(?:.*?\\S)?')}$`;
    const pattern = new RegExp(source, 'u');
    if (frenchSamples.some((sample) => pattern.test(sample))) return;
    patterns.push({ source, where });
  };
  for (const [key, text] of en) {
    if (squash(text) !== squash(fr.get(key))) add(text, `en.json ${key}`);
  }
  const [servicesEn, servicesFr] = await Promise.all(
    ['/api/services', '/api/fr/services'].map(async (path) =>
      (await fetch(`${BASE_URL}${path}`)).json(),
    ),
  );
  for (const service of servicesEn) {
    const twin = servicesFr.find((other) => other._id === service._id);
    for (const field of ['name', 'description']) {
      if (twin && squash(twin[field]) !== squash(service[field])) {
        add(service[field], `the English ${field} of service ${twin.name}`);
      }
    }
  }
  return { exact: [...exact.entries()], patterns };
}

/**
 * What the open page shows, or the element `within` selects (run in the page): its visible
 * text nodes, the text of its visible elements that hold little text, the attributes a
 * reader meets (placeholder, label for screen readers, title, alt), the document's title,
 * the language of <html>, and every visible link's address and text.
 */
function readPage(within) {
  const { document } = globalThis;
  const root = within ? document.querySelector(within) : document.body;
  const squashed = (text) =>
    String(text ?? '')
      .replace(/[\s\u00a0\u202f]+/g, ' ')
      .trim();
  const texts = new Map();
  const seen = (element) =>
    element.checkVisibility({ visibilityProperty: true, opacityProperty: true });
  const describe = (element) => {
    const tag = element.tagName.toLowerCase();
    const id = element.id ? `#${element.id}` : '';
    const role = element.getAttribute('role');
    return `<${tag}${id}${role ? ` role=${role}` : ''}>`;
  };
  const note = (text, where) => {
    const value = squashed(text);
    if (value !== '' && !texts.has(value)) texts.set(value, where);
  };
  const walker = document.createTreeWalker(root, 4 /* NodeFilter.SHOW_TEXT */);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (!parent || ['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE'].includes(parent.tagName)) continue;
    if (seen(parent)) note(node.textContent, `text in ${describe(parent)}`);
  }
  for (const element of root.querySelectorAll('*')) {
    if (!seen(element)) continue;
    const text = element.textContent ?? '';
    if (text.length <= 300) note(text, `text of ${describe(element)}`);
    for (const attribute of ['placeholder', 'aria-label', 'title', 'alt', 'aria-description']) {
      const value = element.getAttribute(attribute);
      if (value) note(value, `${attribute} of ${describe(element)}`);
    }
    if (element.matches('input[type="submit"], input[type="button"]')) {
      note(element.value, `value of ${describe(element)}`);
    }
  }
  note(document.title, 'the document title');
  return {
    texts: [...texts.entries()],
    lang: document.documentElement.lang,
    links: [...root.querySelectorAll('a[href]')]
      .filter(seen)
      .map((link) => ({ href: link.href, name: squashed(link.textContent).slice(0, 60) })),
  };
}

/** Whether a path is a French page's: /fr or under /fr/. */
export const isFrench = (pathname) => pathname === '/fr' || pathname.startsWith('/fr/');

/** Paths of the app that are files or the server's, not pages: they have no French twin. */
const NOT_A_PAGE = /^\/(api|files|uploads|assets|icons)\/|\.[a-z0-9]{2,5}$/i;

/**
 * Everything wrong on the open page for a French reader: `{ where, what }` each, `where`
 * being `step` (the page as the reader reached it) and the page's path, `what` the problem
 * and its element. `english` is `englishTexts()`; `within` (a CSS selector) reads and
 * measures only what is inside its first match (an open dialog).
 */
export async function frenchReaderProblems(page, step, english, { within } = {}) {
  const problems = [];
  const url = new URL(page.url());
  const where = `${step} (${url.pathname})`;
  const say = (what) => problems.push({ where, what });
  if (!isFrench(url.pathname)) say(`the page is not under /fr: ${url.pathname}${url.search}`);
  const read = await page.evaluate(readPage, within);
  if (read.lang !== 'fr') say(`<html lang="${read.lang}">, not "fr"`);

  // (a) No English.
  const patterns = english.patterns.map(({ source, where: from }) => ({
    pattern: new RegExp(source, 'u'),
    from,
  }));
  const exact = new Map(english.exact);
  for (const [text, found] of read.texts) {
    const from = exact.get(text) ?? patterns.find(({ pattern }) => pattern.test(text))?.from;
    if (from) say(`English text "${text}" (${found}), from ${from}`);
  }
  for (const word of ENGLISH_WORDS) {
    const pattern = new RegExp(`(?<![\\p{L}\\p{N}])${escape(word)}(?![\\p{L}\\p{N}])`, 'iu');
    for (const [text, found] of read.texts) {
      if (pattern.test(text) && !exact.has(text)) {
        say(`the English word "${word}" in "${text.slice(0, 120)}" (${found})`);
        break;
      }
    }
  }
  // Links that would take the reader to an English page.
  for (const { href, name } of read.links) {
    const target = new URL(href);
    if (target.origin !== url.origin || NOT_A_PAGE.test(target.pathname)) continue;
    if (!isFrench(target.pathname)) {
      say(`the link "${name}" leads to the English page ${target.pathname}${target.search}`);
    }
  }

  // (b) No euro.
  for (const [text, found] of read.texts) {
    if (text.includes('€')) say(`"€" in "${text.slice(0, 120)}" (${found})`);
  }

  // (c) Targets of 44 x 44 px at least.
  for (const target of await smallTargets(page, { within }))
    say(`target under 44 x 44 px: ${target}`);
  return problems;
}

/**
 * Problems as one readable report: each problem once, with every place it was met (the
 * footer's links on every page are one line, not one a page). `checked` are the places that
 * were checked: a problem met on all of them is said to be on every page.
 */
export function problemReport(problems, checked) {
  const places = new Map();
  for (const { where, what } of problems) {
    places.set(what, new Set([...(places.get(what) ?? []), where]));
  }
  const everywhere = new Set(checked);
  const lines = [...places].map(([what, wheres]) => {
    const all = everywhere.size > 1 && [...everywhere].every((where) => wheres.has(where));
    const on = all ? `every page of the walk (${everywhere.size})` : [...wheres].join('; ');
    return `- ${what}\n    on ${on}`;
  });
  return `${places.size} problems for a French reader on a phone:\n${lines.join('\n')}`;
}
