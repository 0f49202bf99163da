import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, Outlet, ScrollRestoration, useLocation } from 'react-router';
import { pageLanguage, pathInLanguage, readStoredLanguage } from '@/lib/language';
import { FirstLocationContext } from '@/lib/route-focus';
import { browserStore } from '@/lib/storage';

/**
 * The root of every route. With French stored, an English page that has a French twin
 * (/, /professional, /login, ...) redirects to it. Otherwise the page renders in its
 * language: French under /fr, the stored choice elsewhere. Screens reached by navigating
 * from there move the focus to their title (`@/lib/route-focus`).
 */
export function RootLayout() {
  const { pathname, search, hash, key } = useLocation();
  const [firstKey] = useState(key);
  const { i18n } = useTranslation();
  const stored = readStoredLanguage(browserStore());
  const language = pageLanguage(pathname, stored);
  const frenchTwin = stored === 'fr' ? pathInLanguage(pathname, 'fr') : pathname;

  useEffect(() => {
    if (i18n.language !== language) void i18n.changeLanguage(language);
  }, [i18n, language]);

  if (frenchTwin !== pathname) return <Navigate to={`${frenchTwin}${search}${hash}`} replace />;
  return (
    <FirstLocationContext value={firstKey}>
      <ScrollRestoration />
      <Outlet />
    </FirstLocationContext>
  );
}
