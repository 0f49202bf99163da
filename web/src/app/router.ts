import { createBrowserRouter } from 'react-router';
import { routes } from './routes';

export type AppRouter = ReturnType<typeof createBrowserRouter>;

/** The app's router in the browser, over the routes table. */
export const createAppRouter = (): AppRouter => createBrowserRouter(routes);

/** Resolves once the router has loaded the code of the first screen (lazy routes). */
export function routerReady(router: AppRouter): Promise<void> {
  if (router.state.initialized) return Promise.resolve();
  return new Promise((resolve) => {
    const stop = router.subscribe((state) => {
      if (!state.initialized) return;
      stop();
      resolve();
    });
  });
}
