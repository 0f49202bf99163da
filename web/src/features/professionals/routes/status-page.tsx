import { Stack, Text } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { LocalizedNavigate } from '@/components/localized-navigation';
import { PageTitle } from '@/components/page-title';
import { FormAlert } from '@/components/ui/form-alert';
import { LinkButton } from '@/components/ui/links';
import { PROFESSIONAL_PROFILE_FORM_PATH, statusPath } from '@/features/accounts';
import { SESSION_KEYS, type ProfessionalStatus } from '@/lib/session';
import { browserStore } from '@/lib/storage';
import { FlashNotice } from '../components/flash-notice';
import { useProfessionalAccount } from '../professional-context';

type Notice = Exclude<ProfessionalStatus, 'approved'>;

const TEXTS = {
  'waiting-for-approval': {
    title: 'pages.waitingForApproval',
    body: 'professionalStatus.waitingBody',
  },
  'profile-updated': {
    title: 'pages.waitingForProfileReview',
    body: 'professionalStatus.reviewBody',
  },
  denied: { title: 'pages.disapprovedProfessional', body: 'professionalStatus.deniedBody' },
} as const;

/**
 * /waiting-for-approval ('Registration Successful'), /waiting-for-profile-review ('Profile
 * Review Pending') and /disapproved-professional ('Registration Denied', with the reason and
 * an Update Details link). A professional in another state goes to that state's page (the
 * dashboard once approved).
 */
export function StatusPage({ status }: { status: Notice }) {
  const { t } = useTranslation();
  const { professional, status: current } = useProfessionalAccount();
  if (current !== status) return <LocalizedNavigate to={statusPath(current)} replace />;

  const texts = TEXTS[status];
  const reason =
    professional?.denialReason || browserStore().getItem(SESSION_KEYS.professional.denialReason);
  const needsProfile = professional !== null && !professional.profile;
  return (
    <Stack gap="5" align="start" maxW="2xl">
      <PageTitle title={t(texts.title)} />
      <FlashNotice />
      <Text fontSize="lg">{t(texts.body)}</Text>
      {status === 'denied' && reason && (
        <FormAlert status="warning" title={t('professionalStatus.reason')}>
          {reason}
        </FormAlert>
      )}
      {needsProfile && <Text>{t('professionalStatus.completeProfile')}</Text>}
      {(status === 'denied' || needsProfile) && (
        <LinkButton to={PROFESSIONAL_PROFILE_FORM_PATH} colorPalette="brand">
          {t(
            status === 'denied'
              ? 'professionalStatus.updateDetails'
              : 'professionalStatus.fillProfile',
          )}
        </LinkButton>
      )}
    </Stack>
  );
}
