// Prints the best Lighthouse run of each page (by performance score) from the reports that
// scripts/bench/web.sh wrote: lh<page with / as _>-<run>.json in the folder given.
//   node scripts/bench/lighthouse-summary.mjs <folder> / /fr ...
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

const [folder, ...pages] = process.argv.slice(2);
const files = await readdir(folder);
const score = (report, id) => Math.round((report.categories[id]?.score ?? 0) * 100);
const seconds = (report, id) => (report.audits[id].numericValue / 1000).toFixed(2);

const rows = [];
for (const page of pages) {
  const prefix = `lh${page.replaceAll('/', '_')}-`;
  const reports = await Promise.all(
    files
      .filter((file) => file.startsWith(prefix) && file.endsWith('.json'))
      .map(async (file) => JSON.parse(await readFile(join(folder, file), 'utf8'))),
  );
  const best = reports
    .filter((report) => report.categories?.performance)
    .sort((a, b) => score(b, 'performance') - score(a, 'performance'))[0];
  if (!best) {
    rows.push([page, 'no report']);
    continue;
  }
  rows.push([
    page,
    score(best, 'performance'),
    score(best, 'accessibility'),
    score(best, 'best-practices'),
    score(best, 'seo'),
    `${seconds(best, 'first-contentful-paint')} s`,
    `${seconds(best, 'largest-contentful-paint')} s`,
    `${Math.round(best.audits['total-blocking-time'].numericValue)} ms`,
    best.audits['cumulative-layout-shift'].numericValue.toFixed(3),
    `${reports.length} runs`,
  ]);
}
const header = ['page', 'perf', 'a11y', 'bp', 'seo', 'FCP', 'LCP', 'TBT', 'CLS', ''];
const widths = header.map((_, i) => Math.max(...[header, ...rows].map((row) => String(row[i] ?? '').length)));
for (const row of [header, ...rows]) {
  console.log(row.map((cell, i) => String(cell ?? '').padEnd(widths[i])).join('  ').trimEnd());
}
