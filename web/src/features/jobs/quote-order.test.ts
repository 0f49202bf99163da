import { create, type MessageInitShape } from '@bufbuild/protobuf';
import { timestampFromMs } from '@bufbuild/protobuf/wkt';
import { describe, expect, it } from 'vitest';
import { QuoteSchema, type Quote } from '@/gen/repairs/marketplace/v1/marketplace_pb';
import { defaultQuoteOrder, isQuoteOrder, sortQuotes } from './quote-order';

const CAD = (amountCents: number) => ({ amountCents: BigInt(amountCents), currency: 'CAD' });

function quote(id: string, fields: MessageInitShape<typeof QuoteSchema> = {}): Quote {
  return create(QuoteSchema, {
    id,
    fee: CAD(10000),
    total: CAD(10000),
    createTime: timestampFromMs(Date.UTC(2026, 10, 23, 16)),
    ...fields,
  } as MessageInitShape<typeof QuoteSchema>);
}

const ids = (quotes: Quote[]) => quotes.map((shown) => shown.id);
const hour = (h: number) => timestampFromMs(Date.UTC(2026, 10, 23, h));

describe('sortQuotes', () => {
  it('puts the soonest arrival first and those that said nothing last, ties by total', () => {
    const quotes = [
      quote('silent', { arrivalMinutes: 0, total: CAD(1000) }),
      quote('hour', { arrivalMinutes: 60 }),
      quote('soon-dear', { arrivalMinutes: 20, total: CAD(30000) }),
      quote('soon-cheap', { arrivalMinutes: 20, total: CAD(20000) }),
      quote('silent-too'),
    ];
    expect(ids(sortQuotes(quotes, 'arrival'))).toEqual([
      'soon-cheap',
      'soon-dear',
      'hour',
      'silent',
      'silent-too',
    ]);
  });

  it('puts the lowest total first, reading the fee of a quote without a total', () => {
    const quotes = [
      quote('dear', { total: CAD(50000) }),
      quote('old', { fee: CAD(9000), total: undefined }),
      quote('cheap', { total: CAD(12000), arrivalMinutes: 30 }),
      quote('cheap-sooner', { total: CAD(12000), arrivalMinutes: 10 }),
    ];
    expect(ids(sortQuotes(quotes, 'total'))).toEqual(['old', 'cheap-sooner', 'cheap', 'dear']);
  });

  it('puts the best rated first, more reviews before fewer, none last', () => {
    const quotes = [
      quote('none'),
      quote('good', { professionalReviews: { reviewCount: 3, averageRating: 4.2 } }),
      quote('best-few', { professionalReviews: { reviewCount: 2, averageRating: 4.9 } }),
      quote('best-many', { professionalReviews: { reviewCount: 40, averageRating: 4.9 } }),
      quote('zero', { professionalReviews: { reviewCount: 0, averageRating: 0 } }),
    ];
    expect(ids(sortQuotes(quotes, 'rating'))).toEqual([
      'best-many',
      'best-few',
      'good',
      'none',
      'zero',
    ]);
  });

  it('puts the newest first', () => {
    const quotes = [
      quote('first', { createTime: hour(1) }),
      quote('third', { createTime: hour(3) }),
      quote('second', { createTime: hour(2) }),
    ];
    expect(ids(sortQuotes(quotes, 'newest'))).toEqual(['third', 'second', 'first']);
  });

  it('leaves the list given as it was', () => {
    const quotes = [quote('b', { arrivalMinutes: 50 }), quote('a', { arrivalMinutes: 5 })];
    sortQuotes(quotes, 'arrival');
    expect(ids(quotes)).toEqual(['b', 'a']);
  });
});

describe('the order at first', () => {
  it('is the soonest arrival when any quote says one, else the newest', () => {
    expect(defaultQuoteOrder([quote('a'), quote('b', { arrivalMinutes: 30 })])).toBe('arrival');
    expect(defaultQuoteOrder([quote('a')])).toBe('newest');
    expect(defaultQuoteOrder([])).toBe('newest');
  });

  it('knows the orders offered', () => {
    expect(isQuoteOrder('rating')).toBe(true);
    expect(isQuoteOrder('price')).toBe(false);
  });
});
