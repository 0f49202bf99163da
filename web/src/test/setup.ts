import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, vi } from 'vitest';
import { toaster } from '@/components/ui/toast';
import { installMatchMedia, resetViewport } from './viewport';

// Tests of code that runs in Node (`@vitest-environment node`: the prerender) have no DOM.
if (typeof window !== 'undefined') {
  // What jsdom lacks and the UI libraries touch.
  window.scrollTo = vi.fn() as unknown as typeof window.scrollTo;
  installMatchMedia();
  // Image previews of chosen files: a URL per file, as a browser gives.
  let objectUrls = 0;
  URL.createObjectURL ??= () => `blob:test/${++objectUrls}`;
  URL.revokeObjectURL ??= () => {};
  globalThis.ResizeObserver ??= class {
    observe() {}
    unobserve() {}
    disconnect() {}
  };

  afterEach(() => {
    cleanup();
    // The toaster is the app's one store of toasts: one test's never show in the next.
    toaster.remove();
    resetViewport();
    window.localStorage.clear();
    document.documentElement.removeAttribute('lang');
  });

  // Screens load their code lazily: give the first render of each a little more time.
  configure({ asyncUtilTimeout: 4000 });
}
