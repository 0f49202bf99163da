import { useChakraContext } from '@chakra-ui/react';
import { useCallback, useSyncExternalStore } from 'react';

/**
 * Whether the window is at least as wide as the theme's breakpoint `name` (`md` is 48rem),
 * following resizes and rotations. For components that render one layout or another rather
 * than both with one hidden by CSS, so the page (and a screen reader, and a test) holds one
 * copy of each thing. Without a window (rendering on a server) the answer is true: wide.
 */
export function useMinWidth(name: string): boolean {
  const { breakpoints } = useChakraContext();
  const min = breakpoints.values.find((breakpoint) => breakpoint.name === name)?.min ?? '0px';
  const query = `(min-width: ${min})`;
  const subscribe = useCallback(
    (onChange: () => void) => {
      const list = window.matchMedia(query);
      list.addEventListener('change', onChange);
      return () => list.removeEventListener('change', onChange);
    },
    [query],
  );
  return useSyncExternalStore(
    subscribe,
    () => window.matchMedia(query).matches,
    () => true,
  );
}
