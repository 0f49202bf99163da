import { Badge } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import type { QuoteState } from '@/gen/repairs/marketplace/v1/marketplace_pb';
import { QUOTE_STATES } from '../quote-states';

/** A quote's state as a coloured word. */
export function QuoteStateBadge({ state }: { state: QuoteState }) {
  const { t } = useTranslation();
  const known = QUOTE_STATES.find((entry) => entry.state === state);
  if (!known) return null;
  return (
    <Badge colorPalette={known.palette} variant="subtle">
      {t(known.key)}
    </Badge>
  );
}
