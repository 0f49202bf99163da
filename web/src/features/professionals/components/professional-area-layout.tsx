import { AreaLayout } from '@/components/layout/area-layout';
import { isAwaitingReview } from '@/lib/session';
import { useProfessionalAccount } from '../professional-context';

/** The professional area: its menu hides the request and order links while under review. */
export function ProfessionalAreaLayout() {
  const { status } = useProfessionalAccount();
  return <AreaLayout area="professional" awaitingReview={isAwaitingReview(status)} />;
}
