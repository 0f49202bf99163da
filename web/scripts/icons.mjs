// Draws the app's icons (public/icons/*.png, named in public/manifest.webmanifest) from
// public/favicon.svg with Debian's Chromium (CHROMIUM_PATH overrides it) through
// playwright-core: `node scripts/icons.mjs`, then commit the PNGs.
// - icon-192.png, icon-512.png: the favicon as it is (rounded square, see-through corners);
// - maskable-512.png: the square filled edge to edge with the favicon's colour and the wrench
//   within the middle 80 %, the safe zone a phone's mask (circle, squircle) never cuts.
import { mkdir, readFile } from 'node:fs/promises';
import { chromium } from 'playwright-core';

const PUBLIC = new URL('../public/', import.meta.url);
const favicon = await readFile(new URL('favicon.svg', PUBLIC), 'utf8');
const fill = /<rect[^>]*fill="([^"]+)"/.exec(favicon)?.[1];
const wrench = /<path[^>]*\/>/.exec(favicon)?.[0];
if (!fill || !wrench) throw new Error('favicon.svg: no <rect fill> or <path> to draw from');
const maskable =
  `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" fill="${fill}"/>` +
  `<g transform="translate(16 16) scale(0.72) translate(-16 -16)">${wrench}</g></svg>`;

const ICONS = [
  { file: 'icon-192.png', size: 192, svg: favicon },
  { file: 'icon-512.png', size: 512, svg: favicon },
  { file: 'maskable-512.png', size: 512, svg: maskable },
];

await mkdir(new URL('icons/', PUBLIC), { recursive: true });
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu'],
});
try {
  for (const { file, size, svg } of ICONS) {
    const page = await browser.newPage({ viewport: { width: size, height: size } });
    const source = `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
    await page.setContent(
      `<style>html,body{margin:0;background:transparent}</style>` +
        `<img src="${source}" width="${size}" height="${size}" style="display:block">`,
    );
    await page.locator('img').evaluate((img) => img.decode());
    await page.screenshot({
      path: new URL(`icons/${file}`, PUBLIC).pathname,
      omitBackground: true,
    });
    await page.close();
    console.warn(`public/icons/${file} (${size} × ${size})`);
  }
} finally {
  await browser.close();
}
