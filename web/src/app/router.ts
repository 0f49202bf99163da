import { createBrowserRouter } from 'react-router';
import { routes } from './routes';

export type AppRouter = ReturnType<typeof createBrowserRouter>;

/** The app's router in the browser, over the routes table. */
export const createAppRouter = (): AppRouter => createBrowserRouter(routes);
