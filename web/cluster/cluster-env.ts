import { readFileSync } from 'node:fs';

/**
 * What `scripts/cluster.sh start` wrote into its cluster.env (CLUSTER_ENV): each replica's
 * addresses, the BFF's, the admin, the settings of Postgres, Redis and the bucket.
 */
export function readCluster(): Record<string, string> {
  const path = process.env.CLUSTER_ENV ?? '';
  if (path === '') throw new Error('CLUSTER_ENV is not set: run scripts/cluster-test.sh');
  return Object.fromEntries(
    readFileSync(path, 'utf8')
      .split('\n')
      .filter((line) => line.includes('='))
      .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
  );
}
