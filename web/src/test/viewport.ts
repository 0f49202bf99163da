/**
 * The window's width in tests, and a `matchMedia` that answers width queries from it (jsdom
 * has none). Tests run at a desktop width unless one sets another with `setViewportWidth`,
 * which also tells the components listening, as a browser does on a resize.
 */
export const DESKTOP_WIDTH = 1024;
const REM_PX = 16;

const px = (value: string, unit: string) => Number(value) * (unit === 'px' ? 1 : REM_PX);

/** Whether `query` holds at `width`: its min-/max-width parts; any other feature does not. */
function holds(query: string, width: number): boolean {
  const parts = [...query.matchAll(/\((min|max)-width:\s*([\d.]+)(px|r?em)\)/g)];
  if (parts.length === 0) return false;
  return parts.every(([, bound, value = '0', unit = 'px']) =>
    bound === 'min' ? width >= px(value, unit) : width <= px(value, unit),
  );
}

class TestMediaQueryList extends EventTarget {
  onchange: ((event: MediaQueryListEvent) => void) | null = null;
  readonly media: string;
  constructor(media: string) {
    super();
    this.media = media;
  }
  get matches() {
    return holds(this.media, window.innerWidth);
  }
  addListener(listener: (event: MediaQueryListEvent) => void) {
    this.addEventListener('change', listener as EventListener);
  }
  removeListener(listener: (event: MediaQueryListEvent) => void) {
    this.removeEventListener('change', listener as EventListener);
  }
}

/** One list per query, as components ask for the same query on every render. */
const lists = new Map<string, TestMediaQueryList>();

export function installMatchMedia() {
  window.matchMedia = (query: string) => {
    const list = lists.get(query) ?? new TestMediaQueryList(query);
    lists.set(query, list);
    return list as unknown as MediaQueryList;
  };
}

/** Resizes the window to `width` pixels and fires `change` where a query's answer changed. */
export function setViewportWidth(width: number) {
  const before = new Map([...lists.values()].map((list) => [list, list.matches]));
  Object.defineProperty(window, 'innerWidth', { configurable: true, writable: true, value: width });
  for (const [list, matched] of before) {
    if (list.matches === matched) continue;
    const event = Object.assign(new Event('change'), { matches: list.matches, media: list.media });
    list.dispatchEvent(event);
    list.onchange?.(event as MediaQueryListEvent);
  }
}

/** Back to the desktop width, forgetting the queries of the test that ended. */
export function resetViewport() {
  setViewportWidth(DESKTOP_WIDTH);
  lists.clear();
}
