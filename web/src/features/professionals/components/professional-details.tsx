import { HStack, Heading, Stack, Text } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '@/components/empty-state';
import { FactsList } from '@/components/ui/facts-list';
import { useServiceNames } from '@/features/content';
import type { Professional } from '@/gen/repairs/accounts/v1/accounts_pb';
import { addressText } from '@/lib/address';
import { formatMoney, formatNumber } from '@/lib/money';
import { formatPhone } from '@/lib/phone';
import { keepTogether } from '@/lib/typeset';
import { useLanguage } from '@/lib/use-language';
import { experienceKey, weekdayKey } from '../profile-fields';
import { LicenceTable } from './licence-table';
import { PendingChangeSection } from './pending-change';
import { ProfessionalAvatar } from './professional-avatar';
import { StatusBadge } from './status-badge';

/**
 * Everything a professional's profile says, as the professional (My profile) and the admins
 * see it: photo, state, contact, profile fields and the licences with their files, as
 * approved, and beside them the change awaiting review, if any (with `pendingChangeActions`,
 * the admin's decisions on it).
 */
export function ProfessionalDetails({
  professional,
  pendingChangeActions,
}: {
  professional: Professional;
  pendingChangeActions?: ReactNode;
}) {
  const { t } = useTranslation();
  const serviceNames = useServiceNames();
  const language = useLanguage();
  const profile = professional.profile;
  const experience = profile && experienceKey(profile.experience);
  const licences = professional.licences.filter((licence) => !licence.awaitingReview);
  const rows: [string, ReactNode][] = [
    [t('professionalDetails.state'), <StatusBadge key="state" state={professional.state} />],
    [t('professionalDetails.approved'), t(professional.approveTime ? 'common.yes' : 'common.no')],
    [t('forms.email'), professional.email],
    [t('forms.phone'), formatPhone(professional.phone) || t('professionalDetails.none')],
  ];
  if (professional.denialReason) {
    rows.push([t('professionalDetails.denialReason'), professional.denialReason]);
  }
  if (profile) {
    const days = profile.availableDays.map((day) => weekdayKey(day)).filter((key) => key !== null);
    rows.push(
      [t('professionalProfile.description'), profile.description],
      [
        t('professionalProfile.services'),
        profile.serviceIds.map((id) => serviceNames(id)).join(', '),
      ],
      [t('professionalProfile.experience'), experience ? t(experience) : ''],
      [
        t('professionalProfile.minimumFee'),
        profile.minimumFee
          ? formatMoney(profile.minimumFee.amountCents, profile.minimumFee.currency, language)
          : '',
      ],
      [
        t('professionalProfile.qualification'),
        profile.qualification || t('professionalDetails.none'),
      ],
      [t('professionalDetails.homeBase'), profile.homeBase ? addressText(profile.homeBase) : ''],
      [
        t('professionalProfile.radius'),
        t('professionalDetails.km', { km: formatNumber(profile.radiusKm, language) }),
      ],
      [t('professionalProfile.registeredAddress'), keepTogether(profile.registeredAddress)],
      [
        t('professionalDetails.availability'),
        `${days.map((key) => t(key)).join(', ')} · ${profile.availableFrom}–${profile.availableTo}`,
      ],
    );
  }
  return (
    <Stack gap="6">
      <HStack gap="4">
        <ProfessionalAvatar name={professional.name} photoUrl={professional.photoUrl} />
        <Heading as="h2" size="xl">
          {professional.name}
        </Heading>
      </HStack>
      {!profile && <Text color="fg.muted">{t('professionalDetails.noProfile')}</Text>}
      <FactsList facts={rows} />
      <PendingChangeSection professional={professional} actions={pendingChangeActions} />
      <Stack gap="3">
        <Heading as="h2" size="lg">
          {t('licences.heading')}
        </Heading>
        {licences.length > 0 ? (
          <LicenceTable caption={t('licences.heading')} licences={licences} />
        ) : (
          <EmptyState title={t('licences.none')} />
        )}
      </Stack>
    </Stack>
  );
}
