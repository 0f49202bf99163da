import {
  Box,
  Checkbox,
  Grid,
  HStack,
  Spinner,
  Stack,
  Text,
  VisuallyHidden,
} from '@chakra-ui/react';
import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { RpcErrorAlert } from '@/components/rpc-error-alert';
import { ConsentRecords } from './consent-records';
import { FormSection } from '@/components/ui/form-section';
import {
  NotificationChannel,
  NotificationTopic,
  type NotificationPreference,
} from '@/gen/repairs/accounts/v1/accounts_pb';
import { useNotificationPreferences } from '../api/get-notification-preferences';
import { useUpdateNotificationPreferences } from '../api/update-notification-preferences';

type TopicKey = 'newRequests' | 'requestUpdates' | 'reminders' | 'receipts' | 'security';

/** Each kind of message under its catalogue name (`notifications.topics.*`). */
const TOPIC_KEYS: Partial<Record<NotificationTopic, TopicKey>> = {
  [NotificationTopic.NEW_REQUESTS]: 'newRequests',
  [NotificationTopic.REQUEST_UPDATES]: 'requestUpdates',
  [NotificationTopic.REMINDERS]: 'reminders',
  [NotificationTopic.RECEIPTS]: 'receipts',
  [NotificationTopic.SECURITY]: 'security',
};

type ChannelKey = 'email' | 'text' | 'device';

/** Each channel under its catalogue name (`notifications.channels.*`). */
const CHANNEL_KEYS: Partial<Record<NotificationChannel, ChannelKey>> = {
  [NotificationChannel.EMAIL]: 'email',
  [NotificationChannel.SMS]: 'text',
  [NotificationChannel.PUSH]: 'device',
};

/** A kind of message, on every channel the server lists, in its order. */
interface TopicRow {
  topic: NotificationTopic;
  key: TopicKey;
  cells: { preference: NotificationPreference; channel: ChannelKey }[];
  /** Receipts and security messages: always sent, shown on and unchangeable. */
  alwaysSent: boolean;
}

/** The server's list (topic then channel order) as rows; kinds this app has no words for are left out. */
function rowsOf(preferences: NotificationPreference[]): TopicRow[] {
  const rows: TopicRow[] = [];
  for (const preference of preferences) {
    const key = TOPIC_KEYS[preference.topic];
    const channel = CHANNEL_KEYS[preference.channel];
    if (!key || !channel) continue;
    let row = rows.find((candidate) => candidate.topic === preference.topic);
    if (!row) {
      row = { topic: preference.topic, key, cells: [], alwaysSent: false };
      rows.push(row);
    }
    row.cells.push({ preference, channel });
    if (!preference.mayTurnOff) row.alwaysSent = true;
  }
  return rows;
}

const cellKey = (preference: NotificationPreference) => `${preference.topic}:${preference.channel}`;

/**
 * A phone shows each kind above its channels, side by side with their names; a wider window
 * lays the kinds out as rows of a grid under one heading per channel.
 */
const GRID_COLUMNS = { base: '1fr', md: 'minmax(0, 1fr) repeat(3, 8.5rem)' } as const;

/** A choice being saved: shown as chosen until the server answers (`seq` tells calls apart). */
interface Pending {
  enabled: boolean;
  seq: number;
}

/**
 * "What reaches you" (CASL): each kind of message the account receives, by email, by text and
 * as device alerts, each one a checkbox saved as soon as it changes
 * (AccountsService.UpdateNotificationPreferences); the choice shows at once and goes back if
 * the server refuses it. Receipts and security messages are always sent: shown on, and
 * disabled. For a customer's or a professional's own account (the session's transport says
 * whose).
 */
export function NotificationPreferences() {
  const { t } = useTranslation();
  const loaded = useNotificationPreferences();
  const update = useUpdateNotificationPreferences();
  const [pending, setPending] = useState<Record<string, Pending>>({});
  const [failure, setFailure] = useState<unknown>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const calls = useRef(0);
  const rows = rowsOf(loaded.data?.preferences ?? []);
  const headerChannels = rows[0]?.cells.map((cell) => cell.channel) ?? [];

  const change = (preference: NotificationPreference, enabled: boolean, choice: string) => {
    const key = cellKey(preference);
    calls.current += 1;
    const seq = calls.current;
    setPending((current) => ({ ...current, [key]: { enabled, seq } }));
    setFailure(null);
    setSaved(null);
    update
      .mutateAsync({
        preferences: [{ topic: preference.topic, channel: preference.channel, enabled }],
      })
      .then(
        () => setSaved(t(enabled ? 'notifications.savedOn' : 'notifications.savedOff', { choice })),
        (error: unknown) => setFailure(error),
      )
      .finally(() =>
        setPending((current) => {
          // A later change of the same choice is still on its way: it stays shown.
          if (current[key]?.seq !== seq) return current;
          const rest = { ...current };
          delete rest[key];
          return rest;
        }),
      );
  };

  return (
    <FormSection title={t('notifications.title')} description={t('notifications.intro')}>
      {loaded.isPending && (
        <HStack gap="3" role="status">
          <Spinner size="sm" color="brand.solid" aria-hidden />
          <Text>{t('notifications.loading')}</Text>
        </HStack>
      )}
      {loaded.error && <RpcErrorAlert error={loaded.error} />}
      {rows.length > 0 && (
        <Box>
          {/* The channels' headings: each checkbox also names its channel to assistive tech. */}
          <Grid
            templateColumns={GRID_COLUMNS}
            display={{ base: 'none', md: 'grid' }}
            gap="2"
            pb="2"
            aria-hidden
          >
            <Box />
            {headerChannels.map((channel) => (
              <Text key={channel} fontWeight="semibold" textAlign="center" textStyle="sm">
                {t(`notifications.channels.${channel}`)}
              </Text>
            ))}
          </Grid>
          {rows.map((row) => (
            <PreferenceRow key={row.topic} row={row} pending={pending} onChange={change} />
          ))}
        </Box>
      )}
      <Text textStyle="sm" color="fg.muted">
        {t('notifications.textNote')}
      </Text>
      {failure !== null && <RpcErrorAlert error={failure} />}
      <VisuallyHidden role="status">{saved}</VisuallyHidden>
      {loaded.data && loaded.data.consents.length > 0 && (
        <ConsentRecords consents={loaded.data.consents} />
      )}
    </FormSection>
  );
}

function PreferenceRow({
  row,
  pending,
  onChange,
}: {
  row: TopicRow;
  pending: Record<string, Pending>;
  onChange: (preference: NotificationPreference, enabled: boolean, choice: string) => void;
}) {
  const { t } = useTranslation();
  const nameId = useId();
  const helpId = useId();
  const noteId = useId();
  const topic = t(`notifications.topics.${row.key}.name`);
  return (
    <Grid
      role="group"
      aria-labelledby={nameId}
      aria-describedby={row.alwaysSent ? `${helpId} ${noteId}` : helpId}
      templateColumns={GRID_COLUMNS}
      alignItems="center"
      gap={{ base: '1', md: '2' }}
      py="3"
      borderTopWidth="1px"
    >
      <Stack gap="0.5" minW="0">
        <Text id={nameId} fontWeight="semibold">
          {topic}
        </Text>
        <Text id={helpId} textStyle="sm" color="fg.muted">
          {t(`notifications.topics.${row.key}.help`)}
        </Text>
        {row.alwaysSent && (
          <Text id={noteId} textStyle="sm" fontWeight="medium">
            {t('notifications.alwaysSent')}
          </Text>
        )}
      </Stack>
      {/* On a phone the checkboxes share a line; from `md` each is a cell of the grid. */}
      <Box display={{ base: 'flex', md: 'contents' }} flexWrap="wrap" columnGap="5">
        {row.cells.map(({ preference, channel }) => (
          <PreferenceCell
            key={channel}
            preference={preference}
            channel={channel}
            topic={topic}
            pending={pending[cellKey(preference)]}
            noteId={noteId}
            onChange={onChange}
          />
        ))}
      </Box>
    </Grid>
  );
}

function PreferenceCell({
  preference,
  channel,
  topic,
  pending,
  noteId,
  onChange,
}: {
  preference: NotificationPreference;
  channel: ChannelKey;
  /** The kind's name. */
  topic: string;
  /** The choice being saved, if any. */
  pending: Pending | undefined;
  /** The "always sent" note of the kind. */
  noteId: string;
  onChange: (preference: NotificationPreference, enabled: boolean, choice: string) => void;
}) {
  const { t } = useTranslation();
  const nameId = useId();
  const choice = t(`notifications.choice.${channel}`, { topic });
  const alwaysSent = !preference.mayTurnOff;
  const checked = alwaysSent || (pending ? pending.enabled : preference.enabled);
  // The box the browser ticked when pressed must say what the choice is once it is saved or
  // refused (screen readers read it), as the checkbox drawn beside it does.
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (input.current) input.current.checked = checked;
  });
  return (
    <Checkbox.Root
      checked={checked}
      disabled={alwaysSent}
      onCheckedChange={(details) => onChange(preference, details.checked === true, choice)}
      colorPalette="brand"
      justifyContent={{ md: 'center' }}
    >
      {/* Named by kind and channel: the visible label (or the column's heading) is the channel. */}
      <Checkbox.HiddenInput
        ref={input}
        aria-labelledby={nameId}
        aria-describedby={alwaysSent ? noteId : undefined}
        aria-busy={pending !== undefined}
      />
      <Checkbox.Control />
      <Checkbox.Label display={{ md: 'none' }}>
        {t(`notifications.channels.${channel}`)}
      </Checkbox.Label>
      <VisuallyHidden id={nameId}>{choice}</VisuallyHidden>
    </Checkbox.Root>
  );
}
