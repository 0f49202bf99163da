import { AreaLayout } from '@/components/layout/area-layout';
import { CONVERSATION_PATHS, useUnreadTotal } from '@/features/conversations';
import { isAwaitingReview } from '@/lib/session';
import { useProfessionalAccount } from '../professional-context';

/**
 * The professional area: its menu hides the request and order links while under review,
 * and once approved its Messages link counts the unread messages.
 */
export function ProfessionalAreaLayout() {
  const { status } = useProfessionalAccount();
  const unread = useUnreadTotal(status === 'approved');
  return (
    <AreaLayout
      area="professional"
      awaitingReview={isAwaitingReview(status)}
      badges={{ [CONVERSATION_PATHS.professionalMessages]: unread }}
    />
  );
}
