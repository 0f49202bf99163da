// The web app's routes as the router defines them (src/app/route-views.ts over
// src/app/routes.tsx), loaded in Node through Vite so that the walk follows the table.
import { fileURLToPath } from 'node:url';
import { createServer } from 'vite';

const WEB_ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Every route's pattern and audience, plus `fillPattern` to give its parameters values. */
export async function loadRouteViews() {
  const server = await createServer({
    root: WEB_ROOT,
    configFile: `${WEB_ROOT}/vite.config.ts`,
    appType: 'custom',
    logLevel: 'error',
    server: { middlewareMode: true, hmr: false, ws: false },
    optimizeDeps: { noDiscovery: true, include: [] },
  });
  try {
    const { routeViews, fillPattern } = await server.ssrLoadModule('/src/app/route-views.ts');
    const { routes } = await server.ssrLoadModule('/src/app/routes.tsx');
    return { views: routeViews(routes), fillPattern };
  } finally {
    await server.close();
  }
}
