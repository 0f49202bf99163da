/**
 * How the app goes from page to page without leaving its reader's language: every link,
 * redirect and navigation takes its path through `pathInLanguage` in the page's language, so
 * that a French reader stays under /fr. The components that link or redirect are in
 * `@/components/localized-navigation`; a test (`src/app/navigation-paths.test.ts`) fails on
 * a screen that navigates around them.
 */
import { useCallback } from 'react';
import { useNavigate, type NavigateFunction, type NavigateOptions, type To } from 'react-router';
import { pathInLanguage, type Language } from './language';
import { useLanguage } from './use-language';

/** A link's target in a language: its path, if it has one, goes to that language's twin. */
export function localizedTo(to: To, language: Language): To {
  if (typeof to === 'string') return pathInLanguage(to, language);
  return to.pathname === undefined
    ? to
    : { ...to, pathname: pathInLanguage(to.pathname, language) };
}

/** Puts a target in the language of the page (French under /fr, as the page's text). */
export function useLocalizedPath(): (to: To) => To {
  const language = useLanguage();
  return useCallback((to: To) => localizedTo(to, language), [language]);
}

/** react-router's `navigate`, whose targets stay in the language of the page. */
export function useLocalizedNavigate(): NavigateFunction {
  const navigate = useNavigate();
  const localize = useLocalizedPath();
  return useCallback(
    (to: To | number, options?: NavigateOptions) =>
      typeof to === 'number' ? navigate(to) : navigate(localize(to), options),
    [navigate, localize],
  );
}
