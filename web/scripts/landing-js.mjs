// The JavaScript a page loads before it is interactive, gzip-compressed: its <script src>
// and modulepreload files and every module they import statically (dynamic import() is left
// out: what loads on demand, after the page is interactive). Reads a built dist/ folder
// (the page the BFF serves for the path, from dist/pages/index.json, else index.html) or a
// running product's URL.
//
//   node scripts/landing-js.mjs dist [/path]           # prints "<kB> kB gzip" and the files
//   node scripts/landing-js.mjs http://127.0.0.1:8080 [/path]
//   node scripts/landing-js.mjs dist / --max 150        # exits 1 over 150 kB
//   node scripts/landing-js.mjs dist /create-request \
//     --screen src/features/requests/routes/create-request-page.tsx --max 400
// A screen the app's router loads when it opens (a lazy route) is named by its source file
// (`--screen`, read from a built dist's Vite manifest): its code and what it imports count too,
// as the page is not interactive before the screen is drawn.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

const [source = 'dist', path = '/', ...rest] = process.argv.slice(2);
const maxIndex = rest.indexOf('--max');
const maxKb = maxIndex >= 0 ? Number(rest[maxIndex + 1]) : undefined;
const remote = /^https?:\/\//.test(source);
const screenIndex = rest.indexOf('--screen');
const screen = screenIndex >= 0 ? rest[screenIndex + 1] : undefined;

/** A file of the site by its URL path. */
async function read(urlPath) {
  if (remote) {
    const response = await fetch(new URL(urlPath, source), {
      headers: { 'accept-encoding': 'identity' },
    });
    if (!response.ok) throw new Error(`${urlPath}: HTTP ${response.status}`);
    return response.text();
  }
  return readFile(join(source, urlPath), 'utf8');
}

/** The HTML served for `path`: a prerendered page when the build made one for it. */
async function page() {
  if (remote) return read(path);
  const pages = await readFile(join(source, 'pages', 'index.json'), 'utf8')
    .then((text) => JSON.parse(text))
    .catch(() => ({}));
  return read(pages[path] ? `/pages/${pages[path].file}` : '/index.html');
}

const html = await page();
const tags = [...html.matchAll(/<(script|link)\b[^>]*>/g)].map(([tag]) => tag);
const entries = tags
  .filter((tag) => tag.startsWith('<script') || /rel="modulepreload"/.test(tag))
  .map((tag) => /(?:src|href)="([^"]+\.js)"/.exec(tag)?.[1])
  .filter((url) => url !== undefined);

if (screen !== undefined) {
  if (remote) throw new Error('--screen reads a built dist folder, not a URL');
  const manifest = JSON.parse(await readFile(join(source, '.vite', 'manifest.json'), 'utf8'));
  if (!manifest[screen]) throw new Error(`${screen}: not in the build's manifest`);
  entries.push(`/${manifest[screen].file}`);
}

const sizes = new Map();
const queue = [...entries];
while (queue.length > 0) {
  const url = queue.shift();
  if (sizes.has(url)) continue;
  const code = await read(url);
  sizes.set(url, gzipSync(code, { level: 9 }).length);
  // Static imports of a built module: `import{a as b}from"./x.js"` and `import"./y.js"`.
  for (const [, spec] of code.matchAll(
    /\bimport\s*(?:[\w*{}\s,$]+from\s*)?["']([^"']+\.js)["']/g,
  )) {
    queue.push(new URL(spec, new URL(url, 'http://x')).pathname);
  }
}

const total = [...sizes.values()].reduce((sum, size) => sum + size, 0);
const kb = (bytes) => (bytes / 1000).toFixed(1);
for (const [url, size] of sizes) console.log(`  ${kb(size).padStart(7)} kB  ${url}`);
console.log(`${path}: ${kb(total)} kB of JavaScript (gzip) before interactive`);
if (maxKb !== undefined && total > maxKb * 1000) {
  console.log(`over the budget of ${maxKb} kB`);
  process.exit(1);
}
