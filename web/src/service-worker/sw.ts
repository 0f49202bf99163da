// The service worker's entry, built to /sw.js (scope /) by ../../service-worker-plugin.ts.
import offlinePage from 'virtual:offline-page';
import { installServiceWorker, type WorkerScope } from './handlers';

installServiceWorker(self as unknown as WorkerScope, offlinePage);
