import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, Outlet, ScrollRestoration, useLocation } from 'react-router';
import { pageLanguage, pathInLanguage, readStoredLanguage } from '@/lib/language';
import { browserStore } from '@/lib/storage';

/**
 * The root of every route. With French stored, an English page that has a French twin
 * (/, /professional, /login, ...) redirects to it. Otherwise the page renders in its
 * language: French under /fr, the stored choice elsewhere.
 */
export function RootLayout() {
  const { pathname, search, hash } = useLocation();
  const { i18n } = useTranslation();
  const stored = readStoredLanguage(browserStore());
  const language = pageLanguage(pathname, stored);
  const frenchTwin = stored === 'fr' ? pathInLanguage(pathname, 'fr') : pathname;

  useEffect(() => {
    if (i18n.language !== language) void i18n.changeLanguage(language);
  }, [i18n, language]);

  if (frenchTwin !== pathname) return <Navigate to={`${frenchTwin}${search}${hash}`} replace />;
  return (
    <>
      <ScrollRestoration />
      <Outlet />
    </>
  );
}
