// What the end-to-end tests know of the running stack (scripts/e2e.sh sets the variables):
// E2E_DATA_DIR is the server's data dir, whose outbox holds the texts (sms.jsonl) and emails
// the local providers "send"; the admin is created by the runner (E2E_ADMIN_EMAIL /
// E2E_ADMIN_PASSWORD). With E2E_SHOTS_DIR set, tests also save screenshots there.
// E2E_PHOTON_LOG is the log of the Photon stand-in (photon-stand-in.mjs), one line a call.
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { BASE_URL } from './browser.mjs';

// Without it the stories cannot read codes and links: a missing setting fails the run
// (scripts/e2e.sh sets it) rather than skipping the stories.
export const DATA_DIR = process.env.E2E_DATA_DIR ?? '';
if (DATA_DIR === '') {
  throw new Error('E2E_DATA_DIR is not set: run the end-to-end suite with scripts/e2e.sh');
}
export const ADMIN_EMAIL = process.env.E2E_ADMIN_EMAIL ?? 'admin@example.ca';
export const ADMIN_PASSWORD = process.env.E2E_ADMIN_PASSWORD ?? 'admin-password-e2e';
export const SHOTS_DIR = process.env.E2E_SHOTS_DIR ?? '';
/** Tells this run's accounts apart from earlier ones in the same database. */
export const RUN = Date.now().toString(36);

/** A Canadian number nobody else uses in this run: 403 555 + 4 random digits... */
export function freshPhone() {
  const exchange = 200 + Math.floor(Math.random() * 700);
  const line = String(Math.floor(Math.random() * 10_000)).padStart(4, '0');
  return { national: `403${exchange}${line}`, e164: `+1403${exchange}${line}` };
}

/** The outbox lines of `file` (sms.jsonl or email.jsonl), parsed. */
async function outbox(file) {
  const text = await readFile(join(DATA_DIR, 'outbox', file), 'utf8').catch(() => '');
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line));
}

/** The calls the Photon stand-in has had so far: `{ path, query }` each, oldest first. */
export async function photonCalls() {
  const log = process.env.E2E_PHOTON_LOG ?? '';
  if (log === '') throw new Error('E2E_PHOTON_LOG is not set: run the suite with scripts/e2e.sh');
  const text = await readFile(log, 'utf8');
  return text
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line));
}

/** Waits for the newest outbox message to `to` whose body matches `pattern`; its match. */
export async function waitForMessage(file, to, pattern, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const found = (await outbox(file))
      .filter((message) => message.to === to)
      .map((message) => pattern.exec(message.body))
      .filter(Boolean)
      .at(-1);
    if (found) return found;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`no ${file} message to ${to} matching ${pattern} within ${timeoutMs} ms`);
}

/** The phone code just texted to `phone` (E.164). */
export async function phoneCode(phone) {
  const [, code] = await waitForMessage('sms.jsonl', phone, /\b([1-9]\d{3})\b/);
  return code;
}

/** Saves the page at desktop and phone widths when E2E_SHOTS_DIR is set. */
export async function shot(page, name) {
  if (!SHOTS_DIR) return;
  await mkdir(SHOTS_DIR, { recursive: true });
  const size = page.viewportSize();
  for (const [suffix, width] of [
    ['desktop', 1280],
    ['mobile', 390],
  ]) {
    await page.setViewportSize({ width, height: suffix === 'mobile' ? 844 : 800 });
    await page.evaluate(() => globalThis.scrollTo(0, 0));
    await page.waitForTimeout(150);
    await page.screenshot({ path: join(SHOTS_DIR, `${name}-${suffix}.png`), fullPage: true });
  }
  if (size) await page.setViewportSize(size);
}

/** Calls a legacy `/api` path of the BFF with a JSON body; the reply's JSON (throws unless 200). */
export async function legacyApi(path, { body, token } = {}) {
  const response = await fetch(`${BASE_URL}/api${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const reply = await response.json().catch(() => ({}));
  if (response.status !== 200) {
    throw new Error(`${path} answered ${response.status}: ${JSON.stringify(reply)}`);
  }
  return reply;
}
