import type { ReactNode } from 'react';
import type { RouteObject } from 'react-router';

/** A screen whose code loads when it is first opened. */
export const page = (path: string, load: () => Promise<ReactNode>): RouteObject => ({
  path,
  lazy: async () => ({ element: await load() }),
});

/** The same screen at a path and at its /fr twin. */
export const twins = (path: string, load: () => Promise<ReactNode>) => [
  page(path, load),
  page(`/fr${path}`, load),
];
