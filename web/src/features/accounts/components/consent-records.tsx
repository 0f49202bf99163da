import { Heading, List, Stack, Text } from '@chakra-ui/react';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { Consent } from '@/gen/repairs/accounts/v1/accounts_pb';
import { useDateTimeFormat } from '@/lib/use-date-format';

const SUBJECTS = ['terms', 'sms_alerts'] as const;
const SOURCES = ['sign_up', 'social_sign_up', 'notification_preferences'] as const;

const known = <T extends string>(values: readonly T[], value: string): T | undefined =>
  values.find((v) => v === value);

/**
 * The person's consents on record (AccountsService.GetNotificationPreferences): what they
 * agreed to or withdrew, when, on which form and from which address, with the version of
 * the words. A subject or form this app does not know (a newer server's) is left out.
 */
export function ConsentRecords({ consents }: { consents: Consent[] }) {
  const { t } = useTranslation();
  const when = useDateTimeFormat();
  const headingId = useId();
  const shown = consents.flatMap((consent) => {
    const subject = known(SUBJECTS, consent.subject);
    const source = known(SOURCES, consent.source);
    return subject && source ? [{ consent, subject, source }] : [];
  });
  if (shown.length === 0) return null;
  return (
    <Stack as="section" aria-labelledby={headingId} gap="2">
      <Heading as="h3" id={headingId} size="sm">
        {t('consents.title')}
      </Heading>
      <List.Root gap="2" ps="5">
        {shown.map(({ consent, subject, source }, index) => (
          <List.Item key={index}>
            <Text>
              {t(`consents.${subject}.${consent.given ? 'given' : 'withdrawn'}`, {
                when: when(consent.time),
                source: t(`consents.sources.${source}`),
              })}
            </Text>
            <Text textStyle="sm" color="fg.muted">
              {consent.clientAddress
                ? t('consents.detailsWithAddress', {
                    version: consent.version,
                    address: consent.clientAddress,
                  })
                : t('consents.details', { version: consent.version })}
            </Text>
          </List.Item>
        ))}
      </List.Root>
    </Stack>
  );
}
