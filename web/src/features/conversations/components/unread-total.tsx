import { useEffect } from 'react';
import { useUnreadTotal } from '../api/list-conversations';

interface UnreadTotalProps {
  enabled: boolean;
  onCount: (count: number) => void;
}

/**
 * Follows the unread total (useUnreadTotal) and tells it to `onCount`; shows nothing. Loaded
 * on its own by the area layouts, so their first load does without the calls' code.
 */
export default function UnreadTotal({ enabled, onCount }: UnreadTotalProps) {
  const count = useUnreadTotal(enabled);
  useEffect(() => onCount(count), [count, onCount]);
  return null;
}
