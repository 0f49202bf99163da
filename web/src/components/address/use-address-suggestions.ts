import { useQuery } from '@connectrpc/connect-query';
import { keepPreviousData } from '@tanstack/react-query';
import {
  MarketplaceService,
  SuggestAddressesRequestSchema,
} from '@/gen/repairs/marketplace/v1/marketplace_pb';
import { bound, limitOf } from '@/lib/contract-limits';

/**
 * What the server needs before it looks anything up: two characters (spaces ignored). The
 * contract does not state it (an empty query is valid and finds nothing).
 */
export const SUGGEST_MIN_CHARS = 2;
/** The contract's bound on the query: SuggestAddressesRequest.query's max_len. */
export const SUGGEST_MAX_CHARS = bound(
  limitOf(SuggestAddressesRequestSchema, 'query').maxLen,
  'address query',
);

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
