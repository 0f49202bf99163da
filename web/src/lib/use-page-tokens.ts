import { useCallback, useState } from 'react';

/**
 * Pages of a list that answers with `next_page_token` (AIP-158): the token of the page shown,
 * its number, and moves forward (with the answer's next token) and back.
 */
export function usePageTokens() {
  const [tokens, setTokens] = useState<string[]>(['']);
  const next = useCallback((token: string) => setTokens((shown) => [...shown, token]), []);
  const previous = useCallback(
    () => setTokens((shown) => (shown.length > 1 ? shown.slice(0, -1) : shown)),
    [],
  );
  const reset = useCallback(() => setTokens(['']), []);
  return { token: tokens.at(-1) ?? '', page: tokens.length, next, previous, reset };
}
