import { useQuery } from '@connectrpc/connect-query';
import { keepPreviousData } from '@tanstack/react-query';
import { MarketplaceService } from '@/gen/repairs/marketplace/v1/marketplace_pb';

/** What the server needs before it looks anything up: two characters (spaces ignored). */
export const SUGGEST_MIN_CHARS = 2;
/** The contract's bound on the query. */
export const SUGGEST_MAX_CHARS = 100;

/**
 * Postal codes, postal areas and places starting with `query`, and street addresses when
 * the server has a map service (SuggestAddresses), named in `language`.
 */
export function useAddressSuggestions(query: string, language: string) {
  const trimmed = query.trim().slice(0, SUGGEST_MAX_CHARS);
  return useQuery(
    MarketplaceService.method.suggestAddresses,
    { query: trimmed, pageSize: 8, language: language.startsWith('fr') ? 'fr' : 'en' },
    {
      enabled: trimmed.replace(/\s/g, '').length >= SUGGEST_MIN_CHARS,
      placeholderData: keepPreviousData,
      staleTime: 5 * 60_000,
    },
  );
}
