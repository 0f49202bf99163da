/**
 * A French reader never lands on an English page: every link, redirect and navigation of the
 * app goes through the localized ones (`@/components/localized-navigation`,
 * `@/lib/localized-navigation`), which put its path in the page's language. This test reads
 * the app's source and fails on a way around them: react-router's own Link, NavLink,
 * Navigate or navigate, or an internal path written into an address the router never sees
 * (an `href`, a full page load).
 */
import { describe, expect, it } from 'vitest';

/** Where react-router's navigation may be used as it is. */
const ROUTER_NAVIGATION_ALLOWED = [
  // The localized link, nav link and redirect, and the localized navigate.
  '/src/components/localized-navigation.tsx',
  '/src/lib/localized-navigation.ts',
  // The root decides the page's language: its redirect goes to the page's twin, already in it.
  '/src/app/root-layout.tsx',
];

/** react-router's exports that take the browser to a path. */
const ROUTER_NAVIGATION = new Set(['Link', 'NavLink', 'Navigate', 'useNavigate', 'redirect']);

/**
 * Internal paths written into an address the router never sees, where the language would be
 * lost: `href="/..."`, `location.href = '/...'`, `location.assign('/...')`, `reloadTo('/...')`,
 * `window.open('/...')`.
 */
const RAW_ADDRESS =
  /(?:\bhref\s*=\s*\{?\s*|\blocation(?:\.href)?\s*=\s*|\blocation\.(?:assign|replace)\(\s*|\b(?:reloadTo|window\.open)\(\s*)(['"`])(\/[^'"`]*)/g;

/** Addresses that are the same in both languages: not pages of the app. */
const LANGUAGE_NEUTRAL = [
  '/api/', // the BFF's JSON API
  '/assets/', // the built scripts, styles and fonts
  '/icons/', // the app's icons
  '/sw.js', // the service worker
];

const isNeutral = (path: string) =>
  path.startsWith('//') || LANGUAGE_NEUTRAL.some((prefix) => path.startsWith(prefix));

/** The ways around the localized navigation in one file's source. */
function navigationViolations(file: string, source: string): string[] {
  const found: string[] = [];
  if (!ROUTER_NAVIGATION_ALLOWED.includes(file)) {
    const imports = source.matchAll(/import\s*\{([^}]*)\}\s*from\s*'react-router(?:\/dom)?'/g);
    for (const [, names = ''] of imports) {
      for (const name of names.split(',')) {
        const [imported = ''] = name.trim().split(/\s+as\s+/);
        if (!ROUTER_NAVIGATION.has(imported)) continue;
        found.push(`${file}: imports react-router's ${imported}`);
      }
    }
    // The whole module under a name of its own would hide which parts are used.
    if (/import\s*\*\s*as\s+\w+\s+from\s*'react-router(?:\/dom)?'/.test(source)) {
      found.push(`${file}: imports all of react-router`);
    }
  }
  for (const [match, , path = ''] of source.matchAll(RAW_ADDRESS)) {
    if (!isNeutral(path)) found.push(`${file}: ${match}`);
  }
  return found;
}

const APP_SOURCES = import.meta.glob<string>(
  ['/src/**/*.{ts,tsx}', '!/src/**/*.test.{ts,tsx}', '!/src/test/**', '!/src/gen/**'],
  { query: '?raw', import: 'default', eager: true },
);

describe('navigation paths', () => {
  it('reads the app source', () => {
    expect(Object.keys(APP_SOURCES)).toContain('/src/components/ui/links.tsx');
    expect(Object.keys(APP_SOURCES)).not.toContain('/src/app/navigation-paths.test.ts');
  });

  it('finds no way around the localized links, redirects and navigation', () => {
    const found = Object.entries(APP_SOURCES).flatMap(([file, source]) =>
      navigationViolations(file, source),
    );
    expect(found).toEqual([]);
  });

  it.each([
    ["imports react-router's Link", "import { Link as RouterLink } from 'react-router';"],
    ["imports react-router's NavLink", "import { NavLink, useParams } from 'react-router';"],
    ["imports react-router's Navigate", "import { Navigate } from 'react-router';"],
    [
      "imports react-router's useNavigate",
      "import {\n  useLocation,\n  useNavigate,\n} from 'react-router';",
    ],
    ['imports all of react-router', "import * as Router from 'react-router';"],
    ['href="/terms-and-conditions', '<a href="/terms-and-conditions">'],
    ["href={'/contact", "<Link href={'/contact'}>"],
    ['href={`/view-request/${id}', '<Link href={`/view-request/${id}`}>'],
    ["location.href = '/login", "window.location.href = '/login';"],
    ["location.assign('/user-dashboard", "window.location.assign('/user-dashboard');"],
    ["reloadTo('/admin/login", "reloadTo('/admin/login')"],
  ])('catches what %s', (what, source) => {
    const found = navigationViolations('/src/features/x/screen.tsx', source);
    expect(found).toHaveLength(1);
    expect(found[0]).toContain(what);
  });

  it.each([
    "import { useLocation, useParams, type To } from 'react-router';",
    '<AppLink to="/contact">',
    'navigate(REQUEST_PATHS.pending, { replace: true })',
    '<a href="#main-content">',
    '<a href={`mailto:${email}`}>',
    '<Link href={licence.fileUrl}>',
    "<a href='/api/files/licence.pdf'>",
    "<link href='//fonts.example/x.css'>",
  ])('lets %s through', (source) => {
    expect(navigationViolations('/src/features/x/screen.tsx', source)).toEqual([]);
  });

  it("lets the localized navigation use react-router's own", () => {
    const source = "import { Link, Navigate, NavLink } from 'react-router';";
    expect(navigationViolations('/src/components/localized-navigation.tsx', source)).toEqual([]);
  });
});
