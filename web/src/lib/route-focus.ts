import { createContext, useContext, useEffect, useRef } from 'react';
import { useLocation } from 'react-router';

/**
 * The key of the location the app opened on (set by the root route). A screen reached by
 * navigating inside the app moves the focus to its title, so that keyboard and screen-reader
 * users start reading the new screen instead of staying on the link they followed; the
 * first screen leaves the focus where the browser puts it (before the skip link).
 */
export const FirstLocationContext = createContext<string | null>(null);

/** A title's props: focusable by script only, and clear of the sticky header when focused. */
export const titleFocusProps = { tabIndex: -1, scrollMarginTop: '24' } as const;

/** A ref for a screen's `h1`: it takes the focus when the screen was reached by navigation. */
export function useTitleFocus<T extends HTMLElement>() {
  const ref = useRef<T>(null);
  const firstKey = useContext(FirstLocationContext);
  const { key } = useLocation();
  useEffect(() => {
    if (firstKey !== null && key !== firstKey) ref.current?.focus();
  }, [firstKey, key]);
  return ref;
}
