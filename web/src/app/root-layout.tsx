import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, Outlet, ScrollRestoration, useLocation } from 'react-router';
import { pageLanguage, pathInLanguage, preferredLanguage } from '@/lib/language';
import { FirstLocationContext } from '@/lib/route-focus';
import { browserStore } from '@/lib/storage';

/**
 * The root of every route, where the page's language is decided: French under /fr, else the
 * stored choice, else the browser's. A page outside /fr whose reader prefers French (an email's
 * link, an old bookmark) redirects to its /fr twin; every link and redirect from there stays
 * in the page's language (`@/lib/localized-navigation`). Screens reached by navigating move
 * the focus to their title (`@/lib/route-focus`).
 */
export function RootLayout() {
  const { pathname, search, hash, key, state } = useLocation();
  const [firstKey] = useState(key);
  const { i18n } = useTranslation();
  const language = pageLanguage(pathname, preferredLanguage(browserStore()));
  const twin = pathInLanguage(pathname, language);

  useEffect(() => {
    if (i18n.language !== language) void i18n.changeLanguage(language);
  }, [i18n, language]);

  // The target is in its language already: the one redirect that needs no localizing. What
  // the page was opened with (why a session ended, ...) goes with it.
  if (twin !== pathname) {
    return <Navigate to={`${twin}${search}${hash}`} replace state={state} />;
  }
  return (
    <FirstLocationContext value={firstKey}>
      <ScrollRestoration />
      <Outlet />
    </FirstLocationContext>
  );
}
