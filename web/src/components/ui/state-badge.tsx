import { Badge } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import type { TranslationKey } from '@/lib/translation-key';

/** How one value of a state enum reads: its catalogue key and its colour. */
export interface StateLabel<State> {
  state: State;
  key: TranslationKey;
  palette: string;
}

interface StateBadgeProps<State> {
  /** The labels of the enum's values (a request's, a quote's, an order's states). */
  labels: readonly StateLabel<State>[];
  state: State;
}

/** A state as a coloured word; nothing for a value without a label. */
export function StateBadge<State>({ labels, state }: StateBadgeProps<State>) {
  const { t } = useTranslation();
  const known = labels.find((entry) => entry.state === state);
  if (!known) return null;
  return (
    <Badge colorPalette={known.palette} variant="subtle">
      {t(known.key)}
    </Badge>
  );
}
