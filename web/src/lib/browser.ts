/**
 * Full page loads. Kept apart so components that reload can be tested with a stand-in.
 * Loads `url`, or reloads the page when `url` is where the browser already is.
 */
export function reloadTo(url: string): void {
  const { pathname, search, hash } = window.location;
  if (url === `${pathname}${search}${hash}`) window.location.reload();
  else window.location.assign(url);
}
