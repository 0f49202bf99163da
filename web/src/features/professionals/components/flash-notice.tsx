import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { FormAlert } from '@/components/ui/form-alert';
import type { FlashState } from '../flash';

const MESSAGES = {
  'profile-updated': 'professionalProfile.saved',
  'licence-updated': 'licences.saved',
  submitted: 'licences.submitted',
} as const;

/** The success line the previous page asked for ('Profile Successfully Updated!', ...). */
export function FlashNotice() {
  const { t } = useTranslation();
  const flash = (useLocation().state as FlashState | null)?.flash;
  return flash ? <FormAlert status="success" title={t(MESSAGES[flash])} /> : null;
}
