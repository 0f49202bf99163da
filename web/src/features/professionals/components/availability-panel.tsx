import { Button, Heading, HStack, Stack, Text } from '@chakra-ui/react';
import { timestampDate, timestampFromDate, type Timestamp } from '@bufbuild/protobuf/wkt';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { RpcErrorAlert } from '@/components/rpc-error-alert';
import { SelectInput } from '@/components/ui/select-input';
import type { Professional } from '@/gen/repairs/accounts/v1/accounts_pb';
import { formatDate } from '@/lib/date-format';
import { useLanguage } from '@/lib/use-language';
import { useSetProfessionalAvailability } from '../api/set-professional-availability';
import { nextMondayMorning, ON_CALL_HOURS, tomorrowMorning, zoneOr } from '../availability';

/**
 * The dashboard's availability: paused (until when, "Resume now"), on call (until when, "End
 * on call"), or neither, with one tap to pause until tomorrow or Monday 8:00 in the
 * professional's time zone, or to go on call now for a number of hours. Each tap is one
 * SetProfessionalAvailability call; the answer is announced (role="status").
 */
export function AvailabilityPanel({ professional }: { professional: Professional }) {
  const { t } = useTranslation();
  const language = useLanguage();
  const set = useSetProfessionalAvailability();
  const [hours, setHours] = useState<string>('4');
  const zone = zoneOr(professional.profile?.timeZone);
  // Said in the professional's time zone, like the ends they pick.
  const formatTime = (time: Timestamp) =>
    formatDate(timestampDate(time), language, {
      dateStyle: 'medium',
      timeStyle: 'short',
      timeZone: zone,
    });
  const id = professional.id;
  const pause = (until: Date) => set.mutate({ id, pausedUntil: timestampFromDate(until) });
  const onCall = () =>
    set.mutate({
      id,
      onCallUntil: timestampFromDate(new Date(Date.now() + Number(hours) * 3_600_000)),
    });
  const clear = () => set.mutate({ id });
  const busy = set.isPending;

  let summary: string;
  let actions;
  if (professional.pausedUntil) {
    summary = t('availability.pausedUntil', { time: formatTime(professional.pausedUntil) });
    actions = (
      <Button colorPalette="brand" onClick={clear} loading={busy}>
        {t('availability.resume')}
      </Button>
    );
  } else if (professional.onCallUntil) {
    summary = t('availability.onCallUntil', { time: formatTime(professional.onCallUntil) });
    actions = (
      <Button variant="outline" colorPalette="brand" onClick={clear} loading={busy}>
        {t('availability.endOnCall')}
      </Button>
    );
  } else {
    summary = t('availability.working');
    actions = (
      <>
        <HStack gap="2" flexWrap="wrap">
          <Button
            variant="outline"
            colorPalette="brand"
            onClick={() => pause(tomorrowMorning(new Date(), zone))}
            disabled={busy}
          >
            {t('availability.pauseTomorrow')}
          </Button>
          <Button
            variant="outline"
            colorPalette="brand"
            onClick={() => pause(nextMondayMorning(new Date(), zone))}
            disabled={busy}
          >
            {t('availability.pauseMonday')}
          </Button>
        </HStack>
        <HStack gap="2" flexWrap="wrap" alignItems="center">
          <SelectInput
            aria-label={t('availability.onCallHours')}
            width="auto"
            value={hours}
            onChange={(event) => setHours(event.currentTarget.value)}
            options={ON_CALL_HOURS.map((n) => ({
              value: String(n),
              label: t('availability.hours', { count: n }),
            }))}
          />
          <Button colorPalette="accent" onClick={onCall} disabled={busy}>
            {t('availability.onCallNow')}
          </Button>
        </HStack>
      </>
    );
  }

  return (
    <Stack
      as="section"
      gap="3"
      aria-labelledby="availability-heading"
      borderWidth="1px"
      borderRadius="md"
      bg="bg"
      p="4"
    >
      <Heading as="h2" id="availability-heading" size="lg" color="brand.900">
        {t('availability.heading')}
      </Heading>
      <Text role="status" data-testid="availability-summary">
        {summary}
      </Text>
      {set.error && <RpcErrorAlert error={set.error} />}
      {actions}
      <Text color="fg.muted" fontSize="sm">
        {t('availability.help')}
      </Text>
    </Stack>
  );
}
