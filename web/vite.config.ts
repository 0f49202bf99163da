/// <reference types="vitest/config" />
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { serviceWorker } from './service-worker-plugin.ts';

// The BFF serves the built app and answers gRPC-web (paths `/repairs.<package>.<Service>/<Method>`)
// and the legacy `/api` on the same origin. In development Vite serves the app and forwards
// both to the BFF.
const BFF_URL = process.env.BFF_URL ?? 'http://127.0.0.1:8080';

export default defineConfig(({ isSsrBuild }) => ({
  // The service worker is the browser build's; the prerender's server build has none.
  plugins: isSsrBuild ? [react()] : [react(), serviceWorker()],
  resolve: {
    alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) },
  },
  server: {
    proxy: {
      '/repairs.': { target: BFF_URL, changeOrigin: true },
      '/api': { target: BFF_URL, changeOrigin: true },
    },
  },
  build: isSsrBuild
    ? {}
    : {
        // scripts/prerender.mjs reads where the boot script of the prerendered pages went.
        manifest: true,
        modulePreload: {
          // A screen's code (a dynamic import) brings its own imports: the browser fetches
          // them as it reads it. Preloading them from script instead put a <link> per chunk
          // into the page in one task, up to 200 ms of a phone's main thread on the
          // request form (30 chunks), right when the screen was to be drawn. The app's
          // entry keeps the preload links written into index.html.
          resolveDependencies: (_file, deps, { hostType }) => (hostType === 'html' ? deps : []),
        },
        rolldownOptions: {
          // The app (index.html) and the one script of the prerendered pages (src/prerender).
          input: { index: 'index.html', boot: 'src/boot.ts' },
          // Chakra makes its default style system (`defaultSystem`, which the app does not
          // use: it makes its own, src/theme.ts) while its code is read: a quarter of a
          // second of a phone's main thread. Marked pure, the unused call is left out.
          // The app's own modules do nothing when imported (package.json's `sideEffects`):
          // a screen that takes one hook from a feature's public entry (its index.ts) gets
          // that hook, not the feature's every component.
          treeshake: { manualPureFunctions: ['createSystem'] },
          output: {
            // Long-lived vendor chunks, so that a deploy that changes only our code keeps
            // the browser's cached libraries.
            codeSplitting: {
              groups: [
                {
                  name: 'react',
                  test: /node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/,
                  priority: 30,
                },
                {
                  // The Chakra the app's shell uses (`$initial`: what the entry imports
                  // statically). What only some screens use (a menu, a drawer, a dialog)
                  // goes with them, in `vendor` below, not into every page's first load.
                  name: 'chakra',
                  test: /node_modules[\\/](@chakra-ui|@ark-ui|@zag-js|@emotion|@pandacss|stylis)/,
                  priority: 20,
                  tags: ['$initial'],
                },
                {
                  // protovalidate and its CEL interpreter: loaded by contract-limits' dynamic
                  // import when a form first validates a request, never with the page. Below
                  // `rpc`, which keeps @bufbuild/protobuf (a group takes its dependencies).
                  name: 'protovalidate',
                  test: /node_modules[\\/]@bufbuild[\\/](protovalidate|cel|cel-spec|re2)[\\/]/,
                  priority: 15,
                },
                {
                  name: 'rpc',
                  test: /node_modules[\\/](@bufbuild[\\/](?!protovalidate|cel|re2)|@connectrpc[\\/]|@tanstack[\\/])/,
                  priority: 20,
                },
                { name: 'vendor', test: /node_modules[\\/]/, priority: 10, entriesAware: true },
              ],
            },
          },
        },
      },
  test: {
    environment: 'jsdom',
    setupFiles: ['./src/test/setup.ts'],
    include: ['src/**/*.test.{ts,tsx}'],
    reporters: ['default', './vitest.summary-reporter.ts'],
    clearMocks: true,
    restoreMocks: true,
    unstubGlobals: true,
    // Form tests type whole forms through user-event in jsdom: a few seconds on an idle
    // machine, more on a busy two-core CI runner. The default 5 s made them fail by load.
    testTimeout: 30_000,
    // Twice as many workers as cores: a worker spends much of its time waiting (user-event's
    // typing, `findBy` polling), and two a core keep the cores busy (on 2 cores, 675 tests in
    // 162 s rather than 237 s; three a core was slower again).
    maxWorkers: '200%',
    // One copy of the router in Node (the prerender's test): `react-router/dom` loads the
    // router's ES build, so our own imports must name that build too, or two copies, each
    // with its own contexts, meet in one page.
    alias: [
      {
        find: /^react-router$/,
        replacement: fileURLToPath(
          new URL('./node_modules/react-router/dist/development/index.mjs', import.meta.url),
        ),
      },
    ],
  },
}));
