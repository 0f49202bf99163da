// Takes full-page screenshots of the main screens at desktop and mobile widths, to look at
// them: `node scripts/screenshots.mjs [outDir]` with E2E_BASE_URL pointing at a served build.
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { BASE_URL, openBrowser } from '../e2e/browser.mjs';

const OUT_DIR = process.argv[2] ?? '/tmp/web-shots';

/** A token of `role` issued now (unsigned: the browser does not verify it). */
function tokenFor(role) {
  const encode = (value) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const payload = { sub: 'screenshot-account', role, iat: Math.floor(Date.now() / 1000) };
  return `${encode({ alg: 'HS256', typ: 'JWT' })}.${encode(payload)}.x`;
}

const SHOTS = [
  { name: 'home', path: '/' },
  { name: 'home-fr', path: '/fr' },
  { name: 'professional', path: '/professional' },
  { name: 'professional-fr', path: '/fr/professional' },
  { name: 'not-found', path: '/no-such-page' },
  { name: 'contact', path: '/contact' },
  { name: 'customer-area', path: '/user-dashboard', storage: { token: tokenFor('user') } },
  { name: 'admin-area', path: '/admin/coupon-list', storage: { admin_token: tokenFor('admin') } },
];

const VIEWPORTS = [
  { suffix: 'desktop', viewport: { width: 1280, height: 800 } },
  { suffix: 'mobile', viewport: { width: 390, height: 844 } },
];

await mkdir(OUT_DIR, { recursive: true });
for (const { suffix, viewport } of VIEWPORTS) {
  for (const shot of SHOTS) {
    const browser = await openBrowser({ viewport });
    try {
      const { page } = browser;
      if (shot.storage) {
        await page.goto(`${BASE_URL}/terms-and-conditions`);
        await page.evaluate((values) => {
          for (const [key, value] of Object.entries(values)) localStorage.setItem(key, value);
        }, shot.storage);
      }
      await page.goto(`${BASE_URL}${shot.path}`);
      await page.getByRole('heading', { level: 1 }).waitFor();
      await page.waitForLoadState('networkidle');
      const file = join(OUT_DIR, `${shot.name}-${suffix}.png`);
      await page.screenshot({ path: file, fullPage: true });
      // What shows before any scrolling, at full resolution.
      await page.screenshot({ path: file.replace(/\.png$/, '-fold.png') });
      console.warn(`saved ${file}`);
    } finally {
      await browser.close();
    }
  }
}
