import type { ComponentType } from 'react';
import { AreaLayout } from '@/components/layout/area-layout';
import { isAwaitingReview } from '@/lib/session';
import { useProfessionalAccount } from '../professional-context';

export interface ProfessionalLayoutProps {
  area: 'professional';
  awaitingReview: boolean;
  /** Whether the professional may work (approved): their messages are counted then. */
  enabled: boolean;
}

/**
 * The professional area: its menu hides the request and order links while under review.
 * The app gives the layout that also counts the unread messages (the conversations'),
 * which this feature does not load itself.
 */
export function ProfessionalAreaLayout({
  layout: Layout = AreaLayout,
}: {
  layout?: ComponentType<ProfessionalLayoutProps>;
}) {
  const { status } = useProfessionalAccount();
  return (
    <Layout
      area="professional"
      awaitingReview={isAwaitingReview(status)}
      enabled={status === 'approved'}
    />
  );
}
