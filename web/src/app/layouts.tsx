import { AreaLayout } from '@/components/layout/area-layout';
import { isProfessionalAwaitingReview } from '@/features/accounts';

/** The professional area: its menu hides the request and order links while under review. */
export function ProfessionalAreaLayout() {
  return <AreaLayout area="professional" awaitingReview={isProfessionalAwaitingReview()} />;
}
