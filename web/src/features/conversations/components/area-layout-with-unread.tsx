import { lazy, Suspense, useState } from 'react';
import { AreaLayout } from '@/components/layout/area-layout';
import { CONVERSATION_PATHS } from '../paths';

const UnreadTotal = lazy(() => import('./unread-total'));

const MESSAGES_PATHS = {
  customer: CONVERSATION_PATHS.customerMessages,
  professional: CONVERSATION_PATHS.professionalMessages,
} as const;

interface AreaLayoutWithUnreadProps {
  area: keyof typeof MESSAGES_PATHS;
  /** A professional whose profile waits for review sees no request or order links. */
  awaitingReview?: boolean;
  /** Whether the caller may list conversations (an approved professional, a customer). */
  enabled?: boolean;
}

/**
 * A customer's or professional's area, its Messages link (and a phone's Menu button)
 * showing how many messages are unread.
 */
export function AreaLayoutWithUnread({
  area,
  awaitingReview = false,
  enabled = true,
}: AreaLayoutWithUnreadProps) {
  const [unread, setUnread] = useState(0);
  return (
    <>
      <Suspense fallback={null}>
        <UnreadTotal enabled={enabled} onCount={setUnread} />
      </Suspense>
      <AreaLayout
        area={area}
        awaitingReview={awaitingReview}
        badges={{ [MESSAGES_PATHS[area]]: enabled ? unread : 0 }}
      />
    </>
  );
}
