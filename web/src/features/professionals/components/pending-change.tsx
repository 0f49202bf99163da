import { Heading, Stack, Text } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { SimpleTable } from '@/components/ui/simple-table';
import { FormAlert } from '@/components/ui/form-alert';
import { useServiceNames } from '@/features/content';
import type { Professional } from '@/gen/repairs/accounts/v1/accounts_pb';
import { experienceKey } from '../profile-fields';
import { LicenceTable } from './licence-table';

interface ChangedField {
  label: string;
  approved: string;
  proposed: string;
}

/**
 * A professional's pending change beside their approved profile: each vetted field it
 * changes, as approved and as proposed, and the licences awaiting review; `actions` holds
 * the admin's decisions. Nothing when no change waits.
 */
export function PendingChangeSection({
  professional,
  actions,
}: {
  professional: Professional;
  actions?: ReactNode;
}) {
  const { t } = useTranslation();
  const serviceNames = useServiceNames();
  const change = professional.pendingChange;
  if (!change) return null;
  const profile = professional.profile;
  const proposed = change.proposed;
  const services = (ids: string[]) => ids.map((id) => serviceNames(id)).join(', ');
  const experience = (value: Parameters<typeof experienceKey>[0] | undefined) => {
    const key = value === undefined ? null : experienceKey(value);
    return key ? t(key) : '';
  };
  const fields: ChangedField[] = proposed
    ? [
        { label: t('forms.name'), approved: professional.name, proposed: proposed.name },
        {
          label: t('professionalProfile.registeredAddress'),
          approved: profile?.registeredAddress ?? '',
          proposed: proposed.registeredAddress,
        },
        {
          label: t('professionalProfile.services'),
          approved: services(profile?.serviceIds ?? []),
          proposed: services(proposed.serviceIds),
        },
        {
          label: t('professionalProfile.qualification'),
          approved: profile?.qualification ?? '',
          proposed: proposed.qualification,
        },
        {
          label: t('professionalProfile.experience'),
          approved: experience(profile?.experience),
          proposed: experience(proposed.experience),
        },
      ].filter((field) => field.approved !== field.proposed)
    : [];
  const licences = professional.licences.filter((licence) => licence.awaitingReview);
  return (
    <Stack
      as="section"
      aria-labelledby="pending-change-heading"
      gap="4"
      borderWidth="1px"
      borderColor="border.warning"
      borderRadius="md"
      p="4"
    >
      <Heading as="h2" id="pending-change-heading" size="lg">
        {t('pendingChange.heading')}
      </Heading>
      <Text color="fg.muted">{t('pendingChange.intro')}</Text>
      {fields.length > 0 && (
        <SimpleTable
          caption={t('pendingChange.fields')}
          columns={[
            { header: t('pendingChange.field'), cell: (field) => field.label },
            { header: t('pendingChange.approved'), cell: (field) => field.approved },
            { header: t('pendingChange.proposed'), cell: (field) => field.proposed },
          ]}
          rows={fields}
          rowKey={(field) => field.label}
        />
      )}
      {licences.length > 0 && (
        <Stack gap="2">
          <Heading as="h3" size="md">
            {t('pendingChange.licences')}
          </Heading>
          <LicenceTable caption={t('pendingChange.licences')} licences={licences} />
        </Stack>
      )}
      {actions}
    </Stack>
  );
}

/** Tells the professional that a change of theirs waits for review, and what holds meanwhile. */
export function PendingChangeNotice({ professional }: { professional: Professional }) {
  const { t } = useTranslation();
  if (!professional.pendingChange) return null;
  return (
    <FormAlert status="info" title={t('pendingChange.noticeTitle')}>
      {t('pendingChange.noticeBody')}
    </FormAlert>
  );
}
