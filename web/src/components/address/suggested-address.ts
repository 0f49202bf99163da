import {
  AddressSuggestionKind,
  type AddressSuggestion,
} from '@/gen/repairs/marketplace/v1/marketplace_pb';

/** The address fields a chosen suggestion fills, named as the forms name them. */
export type AddressField = 'line1' | 'city' | 'province' | 'postalCode';

/**
 * Fills a form's address from a chosen suggestion through `set`: always the city and
 * province; the postal code only from a full code (a postal area is not a postal code); the
 * street from a street address of the map service.
 */
export function fillFromSuggestion(
  suggestion: AddressSuggestion,
  set: (field: AddressField, value: string) => void,
) {
  set('city', suggestion.city);
  set('province', suggestion.province);
  if (suggestion.kind === AddressSuggestionKind.POSTAL_CODE || suggestion.postalCode.length === 7) {
    set('postalCode', suggestion.postalCode);
  }
  if (suggestion.line1) set('line1', suggestion.line1);
}
