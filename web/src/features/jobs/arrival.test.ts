import { create, type MessageInitShape } from '@bufbuild/protobuf';
import { timestampFromMs } from '@bufbuild/protobuf/wkt';
import { describe, expect, it } from 'vitest';
import {
  ArrivalEstimateSource,
  QuoteSchema,
  QuoteState,
  TripSchema,
  TripState,
  type Quote,
} from '@/gen/repairs/marketplace/v1/marketplace_pb';
import { createI18n } from '@/lib/i18n';
import type { Language } from '@/lib/language';
import {
  formatArrivalTime,
  isLiveEstimate,
  formatDistance,
  formatWait,
  minutesLeft,
  quoteArrivalText,
  tripHeadline,
} from './arrival';

const NBSP = '\u00a0';
/** Intl and the catalogue hold figures and units together with no-break spaces. */
const plain = (text: string) => text.replace(/[\u00a0\u202f]/g, ' ');
const tOf = (language: Language) => createI18n(language, document.createElement('html')).t;

const NOW = new Date(2026, 10, 23, 21, 0).getTime();
const MINUTE = 60_000;

describe('formatWait', () => {
  it.each<[Language, number, string]>([
    ['en', 40, 'about 40 min'],
    ['fr', 40, 'environ 40 min'],
    ['en', 90, 'about 90 min'],
    ['en', 150, 'about 2 h 30 min'],
    ['fr', 150, 'environ 2 h 30'],
    ['fr', 125, 'environ 2 h 05'],
    ['en', 125, 'about 2 h 5 min'],
    ['en', 180, 'about 3 h'],
    ['fr', 180, 'environ 3 h'],
    ['en', 0, 'less than 1 min'],
    ['fr', 0, 'moins de 1 min'],
  ])('says a wait in %s of %s minutes as %j', (language, minutes, text) => {
    expect(plain(formatWait(minutes, tOf(language), language))).toBe(text);
  });

  it('holds each figure to its unit', () => {
    expect(formatWait(150, tOf('fr'), 'fr')).toBe(`environ 2${NBSP}h${NBSP}30`);
    expect(formatWait(40, tOf('en'), 'en')).toBe(`about 40${NBSP}min`);
  });
});

describe('minutesLeft', () => {
  it.each([
    [14 * MINUTE, 14],
    [14 * MINUTE + 29_000, 14],
    [14 * MINUTE + 31_000, 15],
    [60_000, 1],
    [59_000, 0],
    [0, 0],
    [-5 * MINUTE, 0],
  ])('counts %s ms as %s minutes (0: less than one, or due)', (left, minutes) => {
    expect(minutesLeft(NOW + left, NOW)).toBe(minutes);
  });
});

describe('tripHeadline', () => {
  const trip = (fields: MessageInitShape<typeof TripSchema>) =>
    create(TripSchema, {
      state: TripState.ON_THE_WAY,
      professionalName: 'Marc',
      estimateSource: ArrivalEstimateSource.POSITION,
      ...fields,
    } as MessageInitShape<typeof TripSchema>);
  const eta = (ms: number) => ({ estimatedArrivalTime: timestampFromMs(NOW + ms) });

  it.each<[Language, MessageInitShape<typeof TripSchema>, string]>([
    ['en', eta(14 * MINUTE), 'Marc is on the way: about 14 min'],
    ['fr', eta(14 * MINUTE), 'Marc est en route : environ 14 min'],
    ['en', eta(20_000), 'Marc is on the way: less than 1 min'],
    ['fr', eta(-MINUTE), 'Marc est en route : moins de 1 min'],
    ['en', eta(100 * MINUTE), 'Marc is on the way: about 1 h 40 min'],
    ['en', {}, 'Marc is on the way'],
    ['en', { state: TripState.ARRIVED }, 'Marc has arrived'],
    ['fr', { state: TripState.ARRIVED }, 'Marc est arrivé'],
  ])('says in %s %o as %j', (language, fields, text) => {
    const headline = tripHeadline(trip(fields), 'Someone', NOW, tOf(language), language);
    expect(plain(headline)).toBe(text);
  });

  it('puts a no-break space before the French colon', () => {
    expect(tripHeadline(trip(eta(14 * MINUTE)), '', NOW, tOf('fr'), 'fr')).toBe(
      `Marc est en route${NBSP}: environ 14${NBSP}min`,
    );
  });

  it('names the hired professional when the trip does not', () => {
    const unnamed = trip({ professionalName: '', state: TripState.ARRIVED });
    expect(tripHeadline(unnamed, 'Paule Pro', NOW, tOf('en'), 'en')).toBe('Paule Pro has arrived');
  });
});

describe('quoteArrivalText', () => {
  const quote = (fields: MessageInitShape<typeof QuoteSchema>): Quote =>
    create(QuoteSchema, { state: QuoteState.SUBMITTED, ...fields } as MessageInitShape<
      typeof QuoteSchema
    >);
  const now = new Date(NOW);

  it.each<[Language, string]>([
    ['en', 'Can be there in about 40 min'],
    ['fr', 'Peut être là dans environ 40 min'],
  ])('says how soon the professional can come (%s)', (language, text) => {
    const said = quoteArrivalText(quote({ arrivalMinutes: 40 }), now, tOf(language), language);
    expect(plain(said ?? '')).toBe(text);
  });

  it('says nothing when the professional did not say', () => {
    expect(quoteArrivalText(quote({ arrivalMinutes: 0 }), now, tOf('en'), 'en')).toBeNull();
  });

  it.each<[Language, string]>([
    ['en', 'Should be there by 9:40 p.m.'],
    ['fr', 'Devrait être là vers 21 h 40'],
  ])('says by when the hired professional should be there (%s)', (language, text) => {
    const hired = quote({
      state: QuoteState.HIRED,
      arrivalMinutes: 40,
      arriveBy: timestampFromMs(new Date(2026, 10, 23, 21, 40).getTime()),
    });
    expect(plain(quoteArrivalText(hired, now, tOf(language), language) ?? '')).toBe(text);
  });
});

describe('formatArrivalTime', () => {
  it('gives the date too when it is not today', () => {
    const tomorrow = new Date(2026, 10, 24, 8, 5);
    expect(plain(formatArrivalTime(tomorrow, new Date(NOW), 'en'))).toBe('Nov 24, 2026, 8:05 a.m.');
    expect(plain(formatArrivalTime(tomorrow, new Date(NOW), 'fr'))).toBe('24 nov. 2026, 08 h 05');
  });
});

describe('formatDistance', () => {
  it.each<[Language, number, string]>([
    ['en', 6240, '6.2 km'],
    ['fr', 6240, '6,2 km'],
    ['en', 12_000, '12 km'],
    ['en', 804, '800 m'],
    ['fr', 3, '10 m'],
  ])('says %s a distance of %s m as %j', (language, metres, text) => {
    expect(plain(formatDistance(metres, language))).toBe(text);
  });

  it.each<[Language, string]>([
    ['en', '6.2 km left'],
    ['fr', 'Reste 6,2 km'],
  ])('says what is left of the way (%s)', (language, text) => {
    const t = tOf(language);
    expect(
      plain(t('arrival.trip.distanceLeft', { distance: formatDistance(6200, language) })),
    ).toBe(text);
  });
});

describe('isLiveEstimate', () => {
  const at = Date.UTC(2026, 11, 3, 21, 0);
  const trip = (source: ArrivalEstimateSource, positionAt?: number) =>
    create(TripSchema, {
      state: TripState.ON_THE_WAY,
      estimateSource: source,
      lastPositionTime: positionAt === undefined ? undefined : timestampFromMs(positionAt),
    });

  it('is live from a position under ten minutes old, and not from the route', () => {
    expect(isLiveEstimate(trip(ArrivalEstimateSource.POSITION, at), at + 9 * 60_000)).toBe(true);
    expect(isLiveEstimate(trip(ArrivalEstimateSource.POSITION, at), at + 10 * 60_000)).toBe(false);
    expect(isLiveEstimate(trip(ArrivalEstimateSource.ROUTE), at)).toBe(false);
  });
});
