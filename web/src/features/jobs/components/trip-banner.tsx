import { Box, HStack, Icon, Stack, Text } from '@chakra-ui/react';
import { CarFront, CircleCheck, Clock } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import {
  RepairRequestState,
  TripState,
  type Quote,
  type RepairRequest,
  type Trip,
} from '@/gen/repairs/marketplace/v1/marketplace_pb';
import { useLanguage } from '@/lib/use-language';
import { useNow } from '@/lib/use-now';
import { formatDistance, isLiveEstimate, tripHeadline } from '../arrival';
import { useQuoteArrival } from '../use-arrival-words';

/** How often the minutes left are counted again. */
const TICK_MS = 30_000;

/**
 * The trip in one sentence ("Marc is on the way: about 14 min"), counted again every 30
 * seconds while on the way. Mounted with the trip, so its clock starts when the trip shows.
 */
function TripHeadline({ trip, name }: { trip: Trip; name: string }) {
  const { t } = useTranslation();
  const language = useLanguage();
  const now = useNow(TICK_MS, trip.state === TripState.ON_THE_WAY);
  return tripHeadline(trip, name, now, t, language);
}

/** "Estimated from the route; no live position right now", while the estimate is not live. */
function NotLiveNote({ trip }: { trip: Trip }) {
  const { t } = useTranslation();
  const now = useNow(TICK_MS, true);
  if (isLiveEstimate(trip, now)) return null;
  return (
    <Text fontSize="sm" color="fg.muted">
      {t('arrival.trip.routeEstimate')}
    </Text>
  );
}

/**
 * On the customer's hired request, the professional's way to the door: before they set out,
 * by when they should be there (the hired quote's arrive_by); on the way, the minutes left
 * (from the trip's estimated arrival, counted down every 30 seconds), the distance left, and
 * whether the estimate is live or only from the route; then that they have arrived. The trip
 * follows the request's stream (WatchRepairRequest). The sentence with the minutes is a polite
 * live region, in the page from the hire on so that the trip's start is heard too; its text
 * changes only when the minutes do, so a screen reader hears the time fall without a repeat
 * every tick. The lines under it (the distance changes with each position) are not announced.
 */
export function TripBanner({ request, quotes }: { request: RepairRequest; quotes?: Quote[] }) {
  const { t } = useTranslation();
  const language = useLanguage();
  const arrival = useQuoteArrival();
  if (request.state !== RepairRequestState.HIRED) return null;
  const { trip } = request;
  const onTheWay = trip?.state === TripState.ON_THE_WAY ? trip : undefined;
  const hiredQuote = quotes?.find((quote) => quote.id === request.hiredQuoteId);
  const expected = !trip && hiredQuote ? arrival(hiredQuote) : null;
  const shown = trip !== undefined || expected !== null;
  const arrived = trip?.state === TripState.ARRIVED;
  const box = shown
    ? ({
        borderWidth: '1px',
        borderRadius: 'lg',
        p: '4',
        bg: arrived ? 'green.subtle' : 'brand.subtle',
        borderColor: arrived ? 'green.muted' : 'brand.muted',
      } as const)
    : // Out of the page's flow until there is something to show, but there: a live region
      // must be in the page before its text comes to be heard.
      ({ srOnly: true } as const);
  return (
    <Box {...box} data-testid="trip-banner">
      <HStack align="start" gap="3">
        {shown && (
          <Icon size="lg" color={arrived ? 'green.fg' : 'brand.fg'} mt="0.5" aria-hidden>
            {arrived ? <CircleCheck /> : trip ? <CarFront /> : <Clock />}
          </Icon>
        )}
        <Stack gap="1" minW="0">
          <Text
            role="status"
            aria-live="polite"
            aria-atomic="true"
            fontSize="lg"
            fontWeight="semibold"
          >
            {trip && <TripHeadline trip={trip} name={request.hiredProfessionalName} />}
          </Text>
          {expected && <Text fontWeight="semibold">{expected}</Text>}
          {onTheWay && onTheWay.distanceLeftM > 0 && (
            <Text>
              {t('arrival.trip.distanceLeft', {
                distance: formatDistance(onTheWay.distanceLeftM, language),
              })}
            </Text>
          )}
          {onTheWay && <NotLiveNote trip={onTheWay} />}
          {onTheWay?.roadEstimateUnavailable && (
            <Text fontSize="sm" color="fg.muted">
              {t('arrival.trip.approximate')}
            </Text>
          )}
        </Stack>
      </HStack>
    </Box>
  );
}
