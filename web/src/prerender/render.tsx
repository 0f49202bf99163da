/**
 * Renders a prerendered page (./pages.ts) to HTML at build time, in Node (built by
 * `vite build --ssr`, run by scripts/prerender.mjs). The page's server texts are rendered as
 * markers, `{{banner_h1}}`, `{{how_1.heading}}`, which the BFF fills with the current texts
 * or, for the ones the server leaves empty, the catalogue's (`defaults`). The services become
 * one card per kind of icon (`cards`), with `{{service.name}}`, `{{service.description}}`
 * and `{{service.icon_url}}`, and the list of cards the marker `{{services}}`. The styles
 * (emotion's) are returned apart, for the page's head.
 */
import { createRouterTransport } from '@connectrpc/connect';
import createCache from '@emotion/cache';
import { CacheProvider } from '@emotion/react';
import {
  fromJson,
  toJson,
  type DescMessage,
  type JsonObject,
  type JsonValue,
} from '@bufbuild/protobuf';
import { renderToString } from 'react-dom/server';
import { createMemoryRouter } from 'react-router';
import { App } from '@/app/app';
import { createQueryClient } from '@/app/query-client';
import { routerReady } from '@/app/router';
import { routes } from '@/app/routes';
import { pageFromCatalogue } from '@/features/content/page-texts';
import { DEFAULT_SERVICES } from '@/features/content/service-catalogue';
import {
  ContentService,
  HomePageSchema,
  ProfessionalPageSchema,
} from '@/gen/repairs/content/v1/content_pb';
import { catalogues, createI18n } from '@/lib/i18n';
import { PRERENDERED_PAGES, prefetchPage, prerenderedLanguage, type PageData } from './pages';

export { PRERENDERED_PAGES, pageFile } from './pages';

const marker = (name: string) => `{{${name}}}`;

/** Every text field of a page message as its marker: `{ how_1: { heading: '{{how_1.heading}}' } }`. */
function markers(schema: DescMessage, prefix = ''): JsonObject {
  return Object.fromEntries(
    schema.fields.map((field) => [
      field.name,
      field.message
        ? markers(field.message, `${prefix}${field.name}.`)
        : marker(`${prefix}${field.name}`),
    ]),
  );
}

/** A page message whose every text is its marker (when `shown`), else empty. */
const markerPage = <Desc extends DescMessage>(schema: Desc, shown: boolean) =>
  fromJson(schema, shown ? markers(schema) : {});

/** `{ how_1: { heading: 'x' } }` as `{ 'how_1.heading': 'x' }`. */
function flatten(value: JsonValue, prefix = ''): Record<string, string> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return { [prefix.slice(0, -1)]: String(value ?? '') };
  }
  return Object.assign(
    {},
    ...Object.entries(value).map(([key, inner]) => flatten(inner, `${prefix}${key}.`)),
  );
}

const SCHEMAS = { home: HomePageSchema, professional: ProfessionalPageSchema } as const;

/** Card kinds in the order the stub lists them: the categories, then a wrench, then an image. */
const CARD_KINDS = [...DEFAULT_SERVICES, 'wrench', 'image'] as const;

const englishName = (key: string) =>
  catalogues.en.services.items[key as (typeof DEFAULT_SERVICES)[number]].name;

/** The server as the prerender sees it: every text a marker, one service per kind of card. */
function markerServer(data: Exclude<PageData, null>) {
  const text = (name: string) => ({ en: marker(`service.${name}`) });
  return createRouterTransport(({ service }) => {
    service(ContentService, {
      getHomePage: () => ({ page: markerPage(HomePageSchema, data === 'home') }),
      getProfessionalPage: () => ({
        page: markerPage(ProfessionalPageSchema, data === 'professional'),
      }),
      listServices: () => ({
        services: CARD_KINDS.map((kind) => ({
          id: kind,
          name: kind === 'wrench' || kind === 'image' ? text('name') : { en: englishName(kind) },
          description: text('description'),
          iconUrl: kind === 'image' ? marker('service.icon_url') : '',
        })),
      }),
    });
  });
}

/** The markers' values while the server has not set them: the catalogue's page section. */
function defaults(data: Exclude<PageData, null>, language: 'en' | 'fr'): Record<string, string> {
  const schema = SCHEMAS[data];
  const section = catalogues[language][data === 'home' ? 'home' : 'professionalPage'];
  return flatten(toJson(schema, pageFromCatalogue(schema, section), { useProtoFieldName: true }));
}

/** Splits the services list out of the page: one card template per kind, `{{services}}` in its place. */
function servicesTemplate(html: string) {
  const first = html.indexOf(marker('service.description'));
  const open = html.indexOf('>', html.lastIndexOf('<ul', first)) + 1;
  const close = html.indexOf('</ul>', open);
  const items = html.slice(open, close).split('</li>').slice(0, -1);
  if (items.length !== CARD_KINDS.length)
    throw new Error(`expected ${CARD_KINDS.length} service cards`);
  const cards = Object.fromEntries(
    CARD_KINDS.map((kind, index) => {
      const card = `${items[index]}</li>`;
      const named = DEFAULT_SERVICES.includes(kind as never)
        ? card.replace(`>${englishName(kind)}<`, `>${marker('service.name')}<`)
        : card;
      return [kind, named];
    }),
  );
  return { html: `${html.slice(0, open)}${marker('services')}${html.slice(close)}`, cards };
}

/**
 * Emotion's <style> tags, taken out of the page's markup; and React's image preloads, which
 * would name the icon marker (an icon shows once the card is there).
 */
function takeStyles(html: string) {
  const styles: string[] = [];
  const body = html
    .replaceAll(/<link rel="preload" as="image"[^>]*>/g, '')
    .replace(/<style data-emotion="[^"]*">[^<]*<\/style>/g, (tag) => {
      styles.push(tag);
      return '';
    });
  return { body, styles: styles.join('') };
}

export interface RenderedPage {
  path: string;
  language: 'en' | 'fr';
  data: PageData;
  title: string;
  styles: string;
  html: string;
  defaults?: Record<string, string>;
  cards?: Record<string, string>;
  /** English category names -> the card kind of their icon. */
  categories?: Record<string, string>;
  /** The cards shown while the server lists no service: the catalogue's categories. */
  defaultServices?: { kind: string; name: string; description: string }[];
}

export async function renderPage(path: string): Promise<RenderedPage> {
  const page = PRERENDERED_PAGES.find((candidate) => candidate.path === path);
  if (!page) throw new Error(`${path} is not prerendered`);
  const language = prerenderedLanguage(path);
  const transport = page.data ? markerServer(page.data) : createRouterTransport(() => {});
  const queryClient = createQueryClient();
  await prefetchPage(path, queryClient, transport);
  // The app itself, on a router of its own at the path: the same tree as the browser's, so
  // that the ids React gives (useId) are the same when it hydrates the page.
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  await routerReady(router);
  const i18n = createI18n(language, { lang: language } as HTMLElement);
  const markup = renderToString(
    <CacheProvider value={createCache({ key: 'css' })}>
      <App transport={transport} i18n={i18n} router={router} queryClient={queryClient} />
    </CacheProvider>,
  );
  // The cache's timers (a query is kept for minutes) would keep the prerender's process alive.
  queryClient.clear();
  const { body, styles } = takeStyles(markup);
  const title = /<title>([^<]*)<\/title>/.exec(body)?.[1] ?? '';
  const rendered = { path, language, data: page.data, title, styles, html: body };
  if (!page.data) return rendered;
  const { html, cards } = servicesTemplate(body);
  const categories = Object.fromEntries(DEFAULT_SERVICES.map((key) => [englishName(key), key]));
  const items = catalogues[language].services.items;
  const defaultServices = DEFAULT_SERVICES.map((kind) => ({ kind, ...items[kind] }));
  return {
    ...rendered,
    html,
    cards,
    categories,
    defaultServices,
    defaults: defaults(page.data, language),
  };
}
