import { Badge } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { statusOf } from '@/features/accounts';
import type { ProfessionalState } from '@/gen/repairs/accounts/v1/accounts_pb';
import type { ProfessionalStatus } from '@/lib/session';

const PALETTES: Record<ProfessionalStatus, string> = {
  'waiting-for-approval': 'orange',
  approved: 'green',
  denied: 'red',
  'profile-updated': 'blue',
};

const KEYS = {
  'waiting-for-approval': 'professionalStatus.waiting',
  approved: 'professionalStatus.approved',
  denied: 'professionalStatus.denied',
  'profile-updated': 'professionalStatus.profileUpdated',
} as const;

/** A professional's approval state as a coloured label (colour never the only cue). */
export function StatusBadge({ state }: { state: ProfessionalState }) {
  const { t } = useTranslation();
  const status = statusOf(state);
  return (
    <Badge colorPalette={PALETTES[status]} variant="subtle" size="md">
      {t(KEYS[status])}
    </Badge>
  );
}
