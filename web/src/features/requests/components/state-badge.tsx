import { Badge } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import type { RepairRequestState } from '@/gen/repairs/marketplace/v1/marketplace_pb';
import { REQUEST_STATES } from '../request-states';

/** A request's state as a coloured word. */
export function RequestStateBadge({ state }: { state: RepairRequestState }) {
  const { t } = useTranslation();
  const known = REQUEST_STATES.find((entry) => entry.state === state);
  if (!known) return null;
  return (
    <Badge colorPalette={known.palette} variant="subtle">
      {t(known.key)}
    </Badge>
  );
}
