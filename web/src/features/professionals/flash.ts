import { statusOf } from '@/features/accounts';
import type { Professional } from '@/gen/repairs/accounts/v1/accounts_pb';

/** The one-line news a page passes to the next one through the router's state. */
export interface FlashState {
  flash?: 'profile-updated' | 'licence-updated' | 'submitted' | 'change-pending';
  /** The payment of a membership just bought: its receipt is offered. */
  receipt?: string;
}

export const LICENCE_PAGE_PATH = '/update-professional-licence';

/**
 * The news of a save, from the professional the server replied with: an approved
 * professional's change of vetted details or licences waits for an admin rather than taking
 * effect (their pending change), and nothing of theirs is "sent for review" otherwise.
 */
export function flashAfterSave(
  saved: Professional | undefined,
  flash: NonNullable<FlashState['flash']>,
): FlashState['flash'] {
  if (saved?.pendingChange) return 'change-pending';
  if (flash === 'submitted' && saved && statusOf(saved.state) === 'approved') return undefined;
  return flash;
}
