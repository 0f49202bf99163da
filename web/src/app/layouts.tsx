import { AreaLayout } from '@/components/layout/area-layout';
import { useProfessionalAccount } from '@/features/professionals';
import { isAwaitingReview } from '@/lib/session';

/** The professional area: its menu hides the request and order links while under review. */
export function ProfessionalAreaLayout() {
  const { status } = useProfessionalAccount();
  return <AreaLayout area="professional" awaitingReview={isAwaitingReview(status)} />;
}
