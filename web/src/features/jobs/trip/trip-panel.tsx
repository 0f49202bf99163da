import { Button, Heading, HStack, Icon, Stack, Text } from '@chakra-ui/react';
import { timestampDate, timestampMs } from '@bufbuild/protobuf/wkt';
import { useQueryClient } from '@tanstack/react-query';
import { CarFront, CircleCheck } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useProblemMessage } from '@/components/form/use-problem-message';
import { FormAlert } from '@/components/ui/form-alert';
import {
  MarketplaceService,
  RepairRequestState,
  TripState,
  type RepairRequest,
  type Trip,
} from '@/gen/repairs/marketplace/v1/marketplace_pb';
import { invalidate } from '@/lib/query-keys';
import { readRpcError } from '@/lib/rpc-error';
import { useLanguage } from '@/lib/use-language';
import { useNow } from '@/lib/use-now';
import { useSignedInId } from '@/lib/use-signed-in-id';
import { useArriveAtJob } from '../api/arrive-at-job';
import { useShareTripPosition } from '../api/share-trip-position';
import { useStartTrip } from '../api/start-trip';
import { formatArrivalTime, formatWait, minutesLeft } from '../arrival';
import { useTripSharing, type SharingStatus } from './use-trip-sharing';

/** How often the minutes left are counted again. */
const TICK_MS = 30_000;

/** What the page says of the sharing, by its status (nothing while off or locating first). */
const SHARING_WORDS = {
  off: null,
  locating: 'trip.locating',
  sharing: 'trip.sharing',
  unavailable: 'trip.notShared',
  refused: 'trip.notShared',
} as const satisfies Record<SharingStatus, string | null>;

/**
 * The trip to show: the newest answer of this page's calls, unless the request (reloaded) says
 * the trip has ended meanwhile.
 */
const shownTrip = (answered: Trip | undefined, loaded: Trip | undefined) =>
  loaded?.state === TripState.ARRIVED ? loaded : (answered ?? loaded);

/**
 * The hired professional's way to the job, on their request page while it is HIRED: "I'm on
 * my way" starts the trip (StartTrip; the customer is told), then the phone's position is
 * shared while on the way and the page is open (useTripSharing), and "I've arrived" ends it
 * (ArriveAtJob). A trip already started resumes: on the way, the sharing starts again; arrived,
 * the time of arrival shows. The trip's line (on the way with the minutes left, or arrived) is
 * a polite live region, in the page from the start so that its first text is heard; whether
 * the position is shared is said under it. Refusals show in the page.
 */
export function TripPanel({ request }: { request: RepairRequest }) {
  const professionalId = useSignedInId('professional');
  const hired =
    request.state === RepairRequestState.HIRED &&
    professionalId !== null &&
    request.hiredProfessionalId === professionalId;
  return hired ? <TripControls request={request} /> : null;
}

function TripControls({ request }: { request: RepairRequest }) {
  const { t } = useTranslation();
  const language = useLanguage();
  const problemMessage = useProblemMessage();
  const queryClient = useQueryClient();
  const start = useStartTrip();
  const arrive = useArriveAtJob();
  const share = useShareTripPosition();
  // Tagged with its request, so that another request's trip never shows on this one.
  const [answered, setAnswered] = useState<{ requestId: string; trip: Trip } | null>(null);
  const trip = shownTrip(
    answered?.requestId === request.id ? answered.trip : undefined,
    request.trip,
  );
  const onTheWay = trip?.state === TripState.ON_THE_WAY;
  const arrived = trip?.state === TripState.ARRIVED;
  const now = useNow(TICK_MS, onTheWay);

  const keep = (next: Trip | undefined) => {
    if (next) setAnswered({ requestId: request.id, trip: next });
  };
  // A refusal may mean the request moved on elsewhere (arrived on another device, released):
  // it reloads, so that the page shows where it is.
  const reload = () => invalidate(queryClient, MarketplaceService.method.getRepairRequest);
  const sharing = useTripSharing({
    active: onTheWay,
    share: async (position) =>
      (await share.mutateAsync({ repairRequestId: request.id, ...position })).trip,
    onTrip: keep,
    onEnded: reload,
  });

  const headline = () => {
    if (trip?.state === TripState.ARRIVED) {
      const at = trip.arrivalTime ? timestampDate(trip.arrivalTime) : new Date(now);
      return t('trip.arrivedAt', { time: formatArrivalTime(at, new Date(now), language) });
    }
    if (trip?.state !== TripState.ON_THE_WAY) return null;
    if (!trip.estimatedArrivalTime) return t('trip.onTheWay');
    const minutes = minutesLeft(timestampMs(trip.estimatedArrivalTime), now);
    return t('trip.onTheWayIn', { time: formatWait(minutes, t, language) });
  };
  const sharingWords = SHARING_WORDS[sharing.status];
  const failure = start.error ?? arrive.error;

  return (
    <Stack
      as="section"
      aria-labelledby="trip-heading"
      gap="3"
      borderWidth="1px"
      borderRadius="lg"
      p="4"
      bg={arrived ? 'green.subtle' : 'brand.subtle'}
      borderColor={arrived ? 'green.muted' : 'brand.muted'}
    >
      <Heading as="h2" id="trip-heading" size="md" color="brand.900">
        {t('trip.heading')}
      </Heading>
      {!trip && <Text>{t('trip.intro')}</Text>}
      <HStack gap="2" align="start">
        {trip && (
          <Icon size="md" color={arrived ? 'green.fg' : 'brand.fg'} mt="0.5" aria-hidden>
            {arrived ? <CircleCheck /> : <CarFront />}
          </Icon>
        )}
        <Text role="status" aria-live="polite" aria-atomic="true" fontWeight="semibold">
          {headline()}
        </Text>
      </HStack>
      <Stack role="status" aria-live="polite" gap="1" fontSize="sm" color="fg.muted">
        {sharingWords && <Text>{t(sharingWords)}</Text>}
        {sharing.status === 'refused' && <Text>{t('trip.refusedHelp')}</Text>}
      </Stack>
      {failure && <FormAlert title={problemMessage(readRpcError(failure))} />}
      {sharing.problem && <FormAlert title={problemMessage(sharing.problem)} />}
      {!trip && (
        <Button
          colorPalette="accent"
          minH="11"
          h="auto"
          py="2"
          whiteSpace="normal"
          alignSelf="start"
          loading={start.isPending}
          onClick={() => {
            arrive.reset();
            start.mutate(
              { repairRequestId: request.id },
              { onSuccess: ({ trip: started }) => keep(started), onError: reload },
            );
          }}
        >
          {t('trip.onMyWay')}
        </Button>
      )}
      {onTheWay && (
        <Button
          colorPalette="green"
          minH="11"
          h="auto"
          py="2"
          whiteSpace="normal"
          alignSelf="start"
          loading={arrive.isPending}
          onClick={() => {
            start.reset();
            arrive.mutate(
              { repairRequestId: request.id },
              { onSuccess: ({ trip: ended }) => keep(ended), onError: reload },
            );
          }}
        >
          {t('trip.arrived')}
        </Button>
      )}
    </Stack>
  );
}
