import { pageLanguage, preferredLanguage } from '@/lib/language';
import { activeSessions, type SessionEnvironment } from '@/lib/session';

/**
 * Whether the app's first render of this page is the prerendered HTML the server sent: that
 * HTML is the page as a signed-out visitor sees it in the page's language. A signed-in visitor
 * (whose header names them, and whom some pages send on) or one who prefers the other language
 * (stored, else the browser's; sent to the page's twin) gets a page drawn anew, never
 * hydrated: hydrating it would make React find the difference, throw the markup away with
 * error #418 and draw it anyway.
 */
export function firstRenderIsServed(
  env: SessionEnvironment,
  pathname: string,
  servedLanguage: string,
): boolean {
  const language = pageLanguage(pathname, preferredLanguage(env.store));
  return activeSessions(env).length === 0 && language === servedLanguage;
}
