import { isAwaitingReview, readProfessionalStatus } from '@/lib/session';
import { browserStore } from '@/lib/storage';

/** Whether the signed-in professional's profile waits for review (menu links are hidden). */
export function isProfessionalAwaitingReview(): boolean {
  return isAwaitingReview(readProfessionalStatus(browserStore()));
}
