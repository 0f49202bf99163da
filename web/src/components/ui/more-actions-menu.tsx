import { lazy, Suspense } from 'react';
import { MoreActionsButton, type MoreActionsMenuProps } from './more-actions-button';

export type { ActionQuestion, MoreAction } from './more-actions-button';

/** The menu and its questions: code of their own, loaded once a page shows a menu. */
const MoreActionsList = lazy(() =>
  import('./more-actions-list').then((module) => ({ default: module.MoreActionsList })),
);

/**
 * The actions a page keeps out of the way, those that remove or end something above all
 * (Block, Remove, Delete): a 'More actions' button (finger-sized on a phone) opening a
 * menu; a chosen action that asks first opens the confirmation dialog (ConfirmDialog), which
 * says what will happen, and runs once confirmed. Until the menu's code is there (a moment,
 * the first time a page shows one), the button spins and cannot be pressed.
 */
export function MoreActionsMenu({ subject, iconOnly, ...props }: MoreActionsMenuProps) {
  return (
    <Suspense fallback={<MoreActionsButton subject={subject} iconOnly={iconOnly} loading />}>
      <MoreActionsList subject={subject} iconOnly={iconOnly} {...props} />
    </Suspense>
  );
}
