// The legacy REST surface against its OpenAPI description (/api/openapi.json), by
// schemathesis: generated calls, signed in as the stack's admin, must never get a 5xx nor a
// reply the description does not allow (status, content type, body). Bounded: a few examples
// per call and a time budget. Run by scripts/test.sh as `scripts/e2e.sh e2e/openapi.contract.mjs`
// (its name keeps it out of the browser suite); schemathesis comes from SCHEMATHESIS, else
// ../target/schemathesis-venv (scripts/test.sh installs it there).
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import assert from 'node:assert/strict';

const BASE_URL = (process.env.E2E_BASE_URL ?? '').replace(/\/$/, '');
const SCHEMATHESIS = process.env.SCHEMATHESIS ?? '../target/schemathesis-venv/bin/st';
const BUDGET_SECONDS = process.env.SCHEMATHESIS_MAX_TIME ?? '50';

async function adminToken() {
  const response = await fetch(`${BASE_URL}/api/admin/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      email: process.env.E2E_ADMIN_EMAIL,
      password: process.env.E2E_ADMIN_PASSWORD,
    }),
  });
  assert.equal(response.status, 200, 'the admin signs in');
  return (await response.json()).admin_token;
}

test('the legacy API keeps to its OpenAPI description', { timeout: 180_000 }, async () => {
  assert.notEqual(BASE_URL, '', 'E2E_BASE_URL is not set: run with scripts/e2e.sh');
  const token = await adminToken();
  const run = spawnSync(
    SCHEMATHESIS,
    [
      'run',
      `${BASE_URL}/api/openapi.json`,
      '--url',
      BASE_URL,
      '--header',
      `Authorization: Bearer ${token}`,
      '--checks',
      'not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance',
      '--max-examples',
      '5',
      '--max-time',
      BUDGET_SECONDS,
      '--request-timeout',
      '10',
      '--generation-database',
      'none',
      '--no-color',
    ],
    { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
  );
  assert.equal(
    run.error,
    undefined,
    `schemathesis could not start (${SCHEMATHESIS}): ${run.error}`,
  );
  const output = `${run.stdout}\n${run.stderr}`;
  const summary = output.slice(output.lastIndexOf('SUMMARY'));
  console.log(summary);
  assert.equal(run.status, 0, output.slice(-20_000));
});
