import { Heading, Stack, Text } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { SimpleTable } from '@/components/ui/simple-table';
import { FormAlert } from '@/components/ui/form-alert';
import { useServiceNames } from '@/features/content';
import { create } from '@bufbuild/protobuf';
import {
  VettedProfileSchema,
  type Professional,
  type VettedProfile,
} from '@/gen/repairs/accounts/v1/accounts_pb';
import { experienceKey } from '../profile-fields';
import { LicenceTable } from './licence-table';

interface ChangedField {
  label: string;
  approved: string;
  proposed: string;
}

/** The vetted fields, as the contract's `VettedProfile` names them. */
type VettedField = Exclude<keyof VettedProfile, '$typeName' | '$unknown'>;

/**
 * How each vetted field is labelled and shown. Typed over the contract's message, so a field
 * it gains fails the type-check until it is said here.
 */
type VettedDisplay = Record<VettedField, { label: string; show: (value: VettedProfile) => string }>;

/** The approved values of what a pending change proposes, read from the profile. */
function approvedVetted(professional: Professional): VettedProfile {
  const profile = professional.profile;
  return create(VettedProfileSchema, {
    name: professional.name,
    registeredAddress: profile?.registeredAddress ?? '',
    serviceIds: profile?.serviceIds ?? [],
    qualification: profile?.qualification ?? '',
    experience: profile?.experience,
  });
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
  const proposed = change.proposed;
  const experience = (value: Parameters<typeof experienceKey>[0]) => {
    const key = experienceKey(value);
    return key ? t(key) : '';
  };
  const display: VettedDisplay = {
    name: { label: t('forms.name'), show: (v) => v.name },
    registeredAddress: {
      label: t('professionalProfile.registeredAddress'),
      show: (v) => v.registeredAddress,
    },
    serviceIds: {
      label: t('professionalProfile.services'),
      show: (v) => v.serviceIds.map((id) => serviceNames(id)).join(', '),
    },
    qualification: { label: t('professionalProfile.qualification'), show: (v) => v.qualification },
    experience: {
      label: t('professionalProfile.experience'),
      show: (v) => experience(v.experience),
    },
  };
  const approved = approvedVetted(professional);
  const fields: ChangedField[] = proposed
    ? VettedProfileSchema.fields
        .map((field) => display[field.localName as VettedField])
        .map(({ label, show }) => ({ label, approved: show(approved), proposed: show(proposed) }))
        .filter((field) => field.approved !== field.proposed)
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
