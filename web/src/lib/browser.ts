/**
 * Full page loads. Kept apart so components that reload can be tested with a stand-in.
 * Loads `url`, or reloads the page when `url` is where the browser already is.
 */
export function reloadTo(url: string): void {
  const { pathname, search, hash } = window.location;
  if (url === `${pathname}${search}${hash}`) window.location.reload();
  else window.location.assign(url);
}

const scripts = new Map<string, Promise<void>>();

/** Loads an outside script once (Google Identity Services, the Facebook SDK). */
export function loadScript(src: string): Promise<void> {
  let loading = scripts.get(src);
  if (!loading) {
    loading = new Promise<void>((resolve, reject) => {
      const script = document.createElement('script');
      script.src = src;
      script.async = true;
      script.onload = () => resolve();
      script.onerror = () => {
        scripts.delete(src);
        reject(new Error(`could not load ${src}`));
      };
      document.head.append(script);
    });
    scripts.set(src, loading);
  }
  return loading;
}
