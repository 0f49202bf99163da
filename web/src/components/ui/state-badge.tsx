import { Badge } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import type { TranslationKey } from '@/lib/translation-key';

/** One state of a record's table of states: its value, catalogue key and colour. */
export interface KnownState {
  state: number;
  key: TranslationKey;
  palette: string;
}

/** A state as a coloured word, from its table; nothing for a state the table lacks. */
export function StateBadge({ states, state }: { states: readonly KnownState[]; state: number }) {
  const { t } = useTranslation();
  const known = states.find((entry) => entry.state === state);
  if (!known) return null;
  return (
    <Badge colorPalette={known.palette} variant="subtle">
      {t(known.key)}
    </Badge>
  );
}
