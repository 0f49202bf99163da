// A Photon server for the end-to-end stack (scripts/e2e.sh starts it on 127.0.0.1 and runs the
// server with GEOCODER=photon and PHOTON_URL pointing here): it answers Photon's two calls with
// the GeoJSON recorded for the server's own tests (server/tests/api/data/photon/):
// - GET /api?q=..&lang=..&countrycode=CA&limit=..[&lat=..&lon=..]: "800 Macl..." finds 800
//   Maclaren Street, Ottawa; anything else finds nothing, so the gazetteer places every other
//   address of the suite as it would without Photon;
// - GET /reverse?lat=..&lon=..&lang=..&limit=..: Centretown, Ottawa finds 800 Maclaren Street;
//   anywhere else nothing.
// A call without the parameters Photon needs (or with a language it does not know) is a 400,
// so the server falls back to the gazetteer and the stories see it. Each call is written to
// standard output as a JSON line ({ path, query }); photonCalls() in stack.mjs reads them.
// It listens on a port the system gives it and writes that port to PORT_FILE once listening.
//
//   node e2e/photon-stand-in.mjs PORT_FILE
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';

const recorded = (name) =>
  readFileSync(new URL(`../../server/tests/api/data/photon/${name}`, import.meta.url), 'utf8');
const SEARCH_800_MACL = recorded('search-800-macl.json');
const REVERSE_CENTRETOWN = recorded('reverse-centretown.json');
const EMPTY = recorded('empty.json');

const LANGUAGES = new Set(['en', 'fr', 'de', 'it', 'default']);
const number = (value) => value !== null && value.trim() !== '' && Number.isFinite(Number(value));

/** What is wrong with the query of `path`, or null. */
function refusal(path, query) {
  if (!LANGUAGES.has(query.get('lang') ?? '')) return 'lang: en, fr, de, it or default';
  if (!/^[1-9]\d*$/.test(query.get('limit') ?? '')) return 'limit: a positive whole number';
  if (path === '/api') {
    if (!query.get('q')?.trim()) return 'q: what to search for';
    if (query.get('countrycode') !== 'CA') return 'countrycode: CA for this stand-in';
    if (query.has('lat') !== query.has('lon')) return 'lat and lon: both or neither';
  }
  if (
    (path === '/reverse' || query.has('lat')) &&
    !(number(query.get('lat')) && number(query.get('lon')))
  ) {
    return 'lat and lon: numbers';
  }
  return null;
}

/** The recorded answer to a well-formed call. */
function answer(path, query) {
  if (path === '/api') {
    return query.get('q').trimStart().toLowerCase().startsWith('800 macl')
      ? SEARCH_800_MACL
      : EMPTY;
  }
  const lat = Number(query.get('lat'));
  return lat >= 45.4 && lat <= 45.42 ? REVERSE_CENTRETOWN : EMPTY;
}

const portFile = process.argv[2];
if (!portFile) {
  console.error('usage: node e2e/photon-stand-in.mjs PORT_FILE');
  process.exit(2);
}

const server = createServer((request, response) => {
  const url = new URL(request.url ?? '/', 'http://127.0.0.1');
  if (request.method !== 'GET' || (url.pathname !== '/api' && url.pathname !== '/reverse')) {
    response.writeHead(404).end();
    return;
  }
  process.stdout.write(
    `${JSON.stringify({ path: url.pathname, query: Object.fromEntries(url.searchParams) })}\n`,
  );
  const problem = refusal(url.pathname, url.searchParams);
  if (problem) {
    response.writeHead(400, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ message: problem }));
    return;
  }
  response.writeHead(200, { 'content-type': 'application/json' });
  response.end(answer(url.pathname, url.searchParams));
});
server.listen(0, '127.0.0.1', () => {
  // Written whole or not at all: the runner reads the file as soon as it is there.
  writeFileSync(`${portFile}.partial`, String(server.address().port));
  renameSync(`${portFile}.partial`, portFile);
});
