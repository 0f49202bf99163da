/**
 * The pages built ahead as HTML (scripts/prerender.mjs): the landing pages and the sign-in
 * pages, in English and French. The BFF serves each at its path with the current page texts
 * and services filled in (bff/src/landing.rs); the app takes over on the visitor's first
 * interaction (src/boot.ts), after loading the same data (`pageQueries`), so that its first
 * render matches the HTML on screen.
 */
import type { QueryClient } from '@tanstack/react-query';
import type { Transport } from '@connectrpc/connect';
import { createQueryOptions } from '@connectrpc/connect-query';
import { ContentService } from '@/gen/repairs/content/v1/content_pb';
import { pageLanguage, type Language } from '@/lib/language';
import { toProtoLanguage } from '@/lib/proto-language';

/** The server texts a page shows: a landing page's texts and the services, or none. */
export type PageData = 'home' | 'professional' | null;

export interface PrerenderedPage {
  path: string;
  data: PageData;
}

export const PRERENDERED_PAGES: PrerenderedPage[] = [
  { path: '/', data: 'home' },
  { path: '/fr', data: 'home' },
  { path: '/professional', data: 'professional' },
  { path: '/fr/professional', data: 'professional' },
  { path: '/login', data: null },
  { path: '/fr/login', data: null },
  { path: '/login-as-professional', data: null },
  { path: '/fr/login-as-professional', data: null },
];

/** The language a prerendered page is in (the English ones for a visitor with no choice stored). */
export const prerenderedLanguage = (path: string): Language => pageLanguage(path, 'en');

/** The file of a page under dist/pages/: '/' is home.html, '/fr/login' fr-login.html. */
export const pageFile = (path: string) =>
  `${path === '/' ? 'home' : path.slice(1).replaceAll('/', '-')}.html`;

/** Loads into `queryClient` what the page's screen asks the server for. */
export async function prefetchPage(
  path: string,
  queryClient: QueryClient,
  transport: Transport,
): Promise<void> {
  const data = PRERENDERED_PAGES.find((page) => page.path === path)?.data;
  if (!data) return;
  const language = { language: toProtoLanguage(prerenderedLanguage(path)) };
  const pageTexts =
    data === 'home'
      ? queryClient.prefetchQuery(
          createQueryOptions(ContentService.method.getHomePage, language, { transport }),
        )
      : queryClient.prefetchQuery(
          createQueryOptions(ContentService.method.getProfessionalPage, language, { transport }),
        );
  await Promise.all([
    pageTexts,
    queryClient.prefetchQuery(
      createQueryOptions(ContentService.method.listServices, {}, { transport }),
    ),
  ]);
}
