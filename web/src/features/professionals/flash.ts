/** The one-line news a page passes to the next one through the router's state. */
export interface FlashState {
  flash?: 'profile-updated' | 'licence-updated' | 'submitted';
}

export const LICENCE_PAGE_PATH = '/update-professional-licence';
