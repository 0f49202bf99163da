import { timestampMs } from '@bufbuild/protobuf/wkt';
import type { Quote } from '@/gen/repairs/marketplace/v1/marketplace_pb';

/** The orders the customer may list their quotes in, as the sort control offers them. */
export const QUOTE_ORDERS = ['arrival', 'total', 'rating', 'newest'] as const;
export type QuoteOrder = (typeof QUOTE_ORDERS)[number];

export const isQuoteOrder = (value: string): value is QuoteOrder =>
  (QUOTE_ORDERS as readonly string[]).includes(value);

/** Soonest arrival when any professional said how soon they can come; else the newest first. */
export const defaultQuoteOrder = (quotes: readonly Quote[]): QuoteOrder =>
  quotes.some((quote) => quote.arrivalMinutes > 0) ? 'arrival' : 'newest';

type Compare = (a: Quote, b: Quote) => number;

/** Those that have a value first, in `compare`'s order; those without after them. */
const missingLast =
  <T>(value: (quote: Quote) => T | undefined, compare: (a: T, b: T) => number): Compare =>
  (a, b) => {
    const [x, y] = [value(a), value(b)];
    if (x === undefined || y === undefined)
      return Number(x === undefined) - Number(y === undefined);
    return compare(x, y);
  };

const ascending = <T extends number | bigint>(x: T, y: T) => (x < y ? -1 : x > y ? 1 : 0);

/** What the customer pays: the total, or the fee on an older quote without one. */
const payable = (quote: Quote) => (quote.total ?? quote.fee)?.amountCents;

const bySoonest = missingLast((quote) => quote.arrivalMinutes || undefined, ascending);
const byLowestTotal = missingLast(payable, ascending);
const byBestRated = missingLast(
  (quote) => {
    const reviews = quote.professionalReviews;
    return reviews && reviews.reviewCount > 0 ? reviews : undefined;
  },
  (x, y) => ascending(y.averageRating, x.averageRating) || ascending(y.reviewCount, x.reviewCount),
);
const byNewest = missingLast(
  (quote) => (quote.createTime ? timestampMs(quote.createTime) : undefined),
  (x, y) => ascending(y, x),
);

/** Each order's comparisons, the first deciding and the next breaking its ties. */
const COMPARISONS: Record<QuoteOrder, Compare[]> = {
  arrival: [bySoonest, byLowestTotal],
  total: [byLowestTotal, bySoonest],
  rating: [byBestRated, byLowestTotal],
  newest: [byNewest],
};

/**
 * The quotes in `order` (a new array): quotes without the value sorted on (no arrival said, no
 * reviews yet) go last; quotes still tied keep the order they came in.
 */
export function sortQuotes(quotes: readonly Quote[], order: QuoteOrder): Quote[] {
  const comparisons = COMPARISONS[order];
  return [...quotes].sort((a, b) => {
    for (const compare of comparisons) {
      const result = compare(a, b);
      if (result !== 0) return result;
    }
    return 0;
  });
}
