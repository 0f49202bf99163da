/// <reference types="vitest/config" />
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { readCluster } from './cluster-env';

/**
 * The cluster test (`scripts/cluster-test.sh`): Node, not jsdom, against the cluster that
 * `scripts/cluster.sh` started (its cluster.env is CLUSTER_ENV). The accounts are made with
 * the end-to-end suite's helpers, through the cluster's BFF; the outbox is replica a's, where
 * both replicas write.
 */
const cluster = readCluster();

export default defineConfig({
  resolve: {
    alias: { '@': fileURLToPath(new URL('../src', import.meta.url)) },
  },
  test: {
    environment: 'node',
    root: fileURLToPath(new URL('..', import.meta.url)),
    include: ['cluster/**/*.test.ts'],
    reporters: ['default', './vitest.summary-reporter.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    env: {
      E2E_BASE_URL: cluster.BFF_URL ?? '',
      E2E_DATA_DIR: cluster.SERVER_A_DATA_DIR ?? '',
      E2E_ADMIN_EMAIL: cluster.ADMIN_EMAIL ?? '',
      E2E_ADMIN_PASSWORD: cluster.ADMIN_PASSWORD ?? '',
    },
  },
});
