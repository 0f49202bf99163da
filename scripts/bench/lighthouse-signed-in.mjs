// Lighthouse on the pages a customer reaches once signed in (the emergency path after the
// landing pages), as scripts/bench/web.sh runs it on the landing pages: mobile defaults, RUNS
// runs of each, reports named as lighthouse-summary.mjs reads them. The customer is a new one
// with a verified phone, made through the legacy `/api` as the end-to-end tests make theirs
// (the code read from the product's outbox, so the product must be the one web.sh started).
// Its session is put in the browser's storage first, in a Chromium that Lighthouse then
// drives through its debugging port without resetting storage.
//   E2E_BASE_URL=<product> E2E_DATA_DIR=<its data dir> \
//     node scripts/bench/lighthouse-signed-in.mjs <reports folder> <runs> <free port> /create-request ...
import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { chromium } from "../../web/node_modules/playwright-core/index.mjs";
import { BASE_URL } from "../../web/e2e/browser.mjs";
import { customer } from "../../web/e2e/test-accounts.mjs";

const [folder, runs, port, ...pages] = process.argv.slice(2);
const lighthouse = new URL("./node_modules/.bin/lighthouse", import.meta.url)
  .pathname;

const account = await customer("Bench Customer", { verify: true });
const profile = await mkdtemp(join(tmpdir(), "repairs-bench-profile-"));
const browser = await chromium.launchPersistentContext(profile, {
  executablePath: process.env.CHROME_PATH ?? "/usr/bin/chromium",
  headless: true,
  args: [
    `--remote-debugging-port=${port}`,
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
  ],
});
try {
  const page = browser.pages()[0] ?? (await browser.newPage());
  await page.goto(`${BASE_URL}/no-such-page`);
  await page.evaluate((entries) => {
    for (const [key, value] of Object.entries(entries))
      localStorage.setItem(key, value);
  }, account.storage);
  for (let run = 1; run <= Number(runs); run++) {
    for (const path of pages) {
      const output = join(folder, `lh${path.replaceAll("/", "_")}-${run}.json`);
      await promisify(execFile)(lighthouse, [
        `${BASE_URL}${path}`,
        `--port=${port}`,
        "--disable-storage-reset",
        "--quiet",
        "--output=json",
        `--output-path=${output}`,
      ]).catch((error) =>
        console.error(
          `lighthouse failed on ${path} (run ${run}): ${error.message}`,
        ),
      );
    }
  }
} finally {
  await browser.close();
  await rm(profile, { recursive: true, force: true });
}
