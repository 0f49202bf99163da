/**
 * Two server replicas sharing Postgres, Redis and the S3 bucket behave as one service: a
 * change made through one reaches a stream opened on the other, a file uploaded through one
 * downloads through the other, a limit counts calls made through both; and a backup of the
 * cluster, restored into a fresh one, gives back the professional, the request and the file.
 * Run by scripts/cluster-test.sh, against scripts/cluster.sh's cluster.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { Role } from '@/gen/repairs/accounts/v1/accounts_pb';
import {
  adminSession,
  CALGARY,
  customer,
  memberProfessional,
  PASSWORD,
  placeRequest,
} from '../e2e/test-accounts.mjs';
import { bearer, download, failure, logIn, replica, type Replica } from './cluster';
import { readCluster } from './cluster-env';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
const DESCRIPTION = 'Cluster: the pipe under the kitchen sink leaks at the joint.';
/** A licence small enough for a test (a PDF's bytes, as the server sniffs them). */
const LICENCE = new TextEncoder().encode('%PDF-1.4\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n');

/** Adds a licence (LICENCE's bytes) to the professional's profile through `replica`. */
async function addLicence(replica: Replica, token: string, label: string) {
  const { licence } = await replica.accounts.addLicence(
    { label, fileName: 'licence.pdf', contentType: 'application/pdf', content: LICENCE },
    bearer(token),
  );
  return licence;
}

/** Runs one of the repository's scripts with the cluster's settings; its output. */
function script(name: string, args: string[], env: Record<string, string> = {}): string {
  return execFileSync('bash', [join(REPO, 'scripts', name), ...args], {
    cwd: REPO,
    env: { ...process.env, ...env },
    encoding: 'utf8',
  });
}

/** The next message of a stream, or a failure after `ms`. */
async function next<T>(stream: AsyncIterator<T>, ms = 15_000): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no stream message within ${ms} ms`)), ms);
  });
  try {
    const result = await Promise.race([stream.next(), late]);
    if (result.done) throw new Error('the stream ended');
    return result.value;
  } finally {
    clearTimeout(timer);
  }
}

let cluster = readCluster();
let a = replica(cluster, 'A');
let b = replica(cluster, 'B');
/** A customer with a request, and a member professional whom it matches. */
let world: {
  customer: { email: string; token: string };
  pro: { email: string; name: string; token: string };
  requestId: string;
};

beforeAll(async () => {
  const admin = await adminSession();
  const [someone, pro] = await Promise.all([
    customer('Cluster Customer', { verify: true }),
    memberProfessional('Cluster Plumber', CALGARY, admin),
  ]);
  world = {
    customer: { email: someone.email, token: someone.storage.token },
    pro: { email: pro.email, name: 'Cluster Plumber', token: pro.storage['professional-token'] },
    requestId: await placeRequest(someone, DESCRIPTION),
  };
});

describe('two replicas', () => {
  it('a quote sent through replica B reaches the request stream opened on replica A', async () => {
    const abort = new AbortController();
    const calls = a.marketplace.watchRepairRequest(
      { id: world.requestId },
      { ...bearer(world.customer.token), signal: abort.signal },
    );
    const stream = calls[Symbol.asyncIterator]();
    try {
      expect((await next(stream)).event.case).toBe('snapshot');
      const { quote } = await b.marketplace.createQuote(
        { repairRequestId: world.requestId, estimatedMinutes: 90 },
        bearer(world.pro.token),
      );
      const change = await next(stream);
      expect(change.event.case).toBe('change');
      expect(change.event.case === 'change' && change.event.value.quote?.id).toBe(quote?.id);
    } finally {
      abort.abort();
    }
  });

  it('a licence uploaded through replica A downloads through replica B', async () => {
    const licence = await addLicence(a, world.pro.token, 'Journeyperson plumber, Alberta');
    expect(await download(licence?.fileUrl ?? '', a.http)).toEqual(LICENCE);
    expect(await download(licence?.fileUrl ?? '', b.http)).toEqual(LICENCE);
  });

  it('failed sign-ins through both replicas count against one limit', async () => {
    // An account of its own: its sign-in stays refused for 15 minutes.
    const { email } = await customer('Cluster Forgetful', { verify: false });
    for (let attempt = 0; attempt < 10; attempt += 1) {
      const through = attempt % 2 === 0 ? a : b;
      expect(await failure(logIn(through, Role.CUSTOMER, email, 'not-the-password'))).toBe(
        'Unauthenticated INVALID_CREDENTIALS',
      );
    }
    // The eleventh try is refused before its password is checked, on either replica.
    for (const through of [a, b]) {
      expect(await failure(logIn(through, Role.CUSTOMER, email, PASSWORD))).toBe(
        'ResourceExhausted LOG_IN_THROTTLED',
      );
    }
  });
});

describe('backups', () => {
  it('a backup restored into a fresh cluster gives back the professional, the request and the file', async () => {
    const licence = await addLicence(b, world.pro.token, 'Gas fitter, Alberta');
    const folder = mkdtempSync(join(tmpdir(), 'repairs-backup-'));
    try {
      script('backup.sh', [join(folder, 'copy')], cluster);
      script('cluster.sh', ['stop']);
      script('cluster.sh', ['start', '--restore', join(folder, 'copy')]);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
    cluster = readCluster();
    a = replica(cluster, 'A');
    b = replica(cluster, 'B');

    const customerToken = await logIn(a, Role.CUSTOMER, world.customer.email, PASSWORD);
    const { repairRequest } = await a.marketplace.getRepairRequest(
      { id: world.requestId },
      bearer(customerToken),
    );
    expect(repairRequest?.description).toBe(DESCRIPTION);

    const proToken = await logIn(b, Role.PROFESSIONAL, world.pro.email, PASSWORD);
    const { professional } = await b.accounts.getProfessional({}, bearer(proToken));
    expect(professional?.name).toBe(world.pro.name);
    const restored = professional?.licences.find((kept) => kept.id === licence?.id);
    expect(restored?.label).toBe('Gas fitter, Alberta');
    expect(await download(restored?.fileUrl ?? '', a.http)).toEqual(LICENCE);
  });
});
