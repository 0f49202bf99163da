import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { FormAlert } from '@/components/ui/form-alert';
import type { FlashState } from '../flash';

const MESSAGES = {
  'profile-updated': 'professionalProfile.saved',
  'licence-updated': 'licences.saved',
  submitted: 'licences.submitted',
  'change-pending': 'pendingChange.savedForReview',
} as const;

/**
 * The line the previous page asked for ('Profile Successfully Updated!', ...); a change that
 * waits for review is news, not a success.
 */
export function FlashNotice() {
  const { t } = useTranslation();
  const flash = (useLocation().state as FlashState | null)?.flash;
  if (!flash) return null;
  return (
    <FormAlert
      status={flash === 'change-pending' ? 'info' : 'success'}
      title={t(MESSAGES[flash])}
    />
  );
}
