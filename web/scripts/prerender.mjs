// Writes the prerendered pages (src/prerender) into dist/pages/ after `vite build` and
// `vite build --ssr src/prerender/render.tsx --outDir dist-ssr`: each page is the built
// index.html with the page's markup in #root, its styles and title in the head, and the boot
// script (src/boot.ts) instead of the app's entry. dist/pages/index.json tells the BFF which
// file serves which path, and what to fill in (src/prerender/render.tsx).
import { mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

const dist = new URL('../dist/', import.meta.url).pathname;
const ssr = new URL('../dist-ssr/', import.meta.url).pathname;
const { renderPage, PRERENDERED_PAGES, pageFile } = await import(join(ssr, 'render.js'));

const manifest = JSON.parse(await readFile(join(dist, '.vite/manifest.json'), 'utf8'));
const boot = manifest['src/boot.ts'];
const asset = (file) => `/${file}`;
const preloads = (boot.imports ?? []).map(
  (key) => `<link rel="modulepreload" crossorigin href="${asset(manifest[key].file)}">`,
);
// The Latin subset of the one font: the text of every page uses it.
const font = (await readdir(join(dist, 'assets'))).find((file) =>
  /^inter-latin-wght-normal-.*\.woff2$/.test(file),
);

const index = await readFile(join(dist, 'index.html'), 'utf8');
const shell = index
  .replace(/\s*<script type="module"[^>]*><\/script>/, '')
  .replaceAll(/\s*<link rel="modulepreload"[^>]*>/g, '')
  .replace(
    '</head>',
    [
      font && `<link rel="preload" as="font" type="font/woff2" crossorigin href="/assets/${font}">`,
      `<script type="module" crossorigin src="${asset(boot.file)}"></script>`,
      ...preloads,
      '</head>',
    ]
      .filter(Boolean)
      .join('\n'),
  );

const escapeHtml = (text) =>
  text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');

await rm(join(dist, 'pages'), { recursive: true, force: true });
await mkdir(join(dist, 'pages'));
const pages = {};
for (const { path } of PRERENDERED_PAGES) {
  const { html, styles, title, language, ...fill } = await renderPage(path);
  const file = pageFile(path);
  const page = shell
    .replace(/<html lang="[^"]*">/, `<html lang="${language}">`)
    .replace(/<title>[^<]*<\/title>/, `<title>${escapeHtml(title)}</title>`)
    .replace('</head>', `${styles}\n</head>`)
    .replace(
      '<div id="root"></div>',
      `<div id="root">${html.replace(/<title>[^<]*<\/title>/, '')}</div>`,
    );
  await writeFile(join(dist, 'pages', file), page);
  pages[path] = { file, language, ...fill };
  console.log(`prerendered ${path} -> pages/${file} (${(page.length / 1000).toFixed(0)} kB)`);
}
await writeFile(join(dist, 'pages', 'index.json'), `${JSON.stringify(pages, null, 2)}\n`);
await rm(ssr, { recursive: true, force: true });
