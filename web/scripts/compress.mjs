// Brotli and gzip copies of the built files (dist/): the BFF serves `x.js.br` or `x.js.gz` for
// `x.js` to a browser that accepts them (bff/src/static_files.rs). Run by `npm run build`.
// The prerendered pages (dist/pages/) are left out: the BFF fills them in and compresses them
// as it serves them.
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const dist = new URL('../dist/', import.meta.url).pathname;
const COMPRESSIBLE = /\.(js|css|html|svg|json|txt)$/;

let plain = 0;
let brotli = 0;
for (const entry of await readdir(dist, { recursive: true, withFileTypes: true })) {
  if (!entry.isFile() || !COMPRESSIBLE.test(entry.name)) continue;
  if (entry.parentPath.startsWith(join(dist, 'pages'))) continue;
  const path = join(entry.parentPath, entry.name);
  const content = await readFile(path);
  const br = brotliCompressSync(content, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
      [constants.BROTLI_PARAM_SIZE_HINT]: content.length,
    },
  });
  await writeFile(`${path}.br`, br);
  await writeFile(`${path}.gz`, gzipSync(content, { level: 9 }));
  plain += content.length;
  brotli += br.length;
}
console.log(
  `compressed ${(plain / 1000).toFixed(0)} kB of text files to ${(brotli / 1000).toFixed(0)} kB (brotli)`,
);
