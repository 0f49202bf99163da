import type { ReactNode } from 'react';
import type { RouteObject } from 'react-router';
import { isFrenchPath, pathInLanguage } from './language';

/** A screen whose code loads when it is first opened. */
export const page = (path: string, load: () => Promise<ReactNode>): RouteObject => ({
  path,
  lazy: async () => ({ element: await load() }),
});

/**
 * The routes with every page also at its /fr twin, beside it (same layout, same guards):
 * '/login' and '/fr/login', '/' and '/fr'. Routes without a path of their own (layouts,
 * guards, the catch-all) are kept as they are, their children twinned.
 */
export function withFrenchTwins(routes: RouteObject[]): RouteObject[] {
  return routes.flatMap((route): RouteObject[] => {
    const twinned = route.children
      ? ({ ...route, children: withFrenchTwins(route.children) } as RouteObject)
      : route;
    const { path } = route;
    if (path === undefined || !path.startsWith('/') || isFrenchPath(path)) return [twinned];
    return [twinned, { ...twinned, path: pathInLanguage(path, 'fr') } as RouteObject];
  });
}
