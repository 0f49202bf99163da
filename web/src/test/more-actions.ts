import { screen, waitFor, within } from '@testing-library/react';
import { expect } from 'vitest';
import type { UserEvent } from '@testing-library/user-event';

/**
 * Opens the More actions menu named `menu` ('More actions', or 'More actions: <subject>'
 * where a page holds several) and chooses `action`, from the keyboard (the arrows to it,
 * then Enter) as jsdom's pointer leaves the menu's pointer tracking unreliable; the browser
 * tests click it. The button spins until the menu's code is there: it is pressed once it can be.
 */
export async function chooseMoreAction(
  user: UserEvent,
  action: string | RegExp,
  { menu = 'More actions', within: scope }: { menu?: string | RegExp; within?: HTMLElement } = {},
) {
  const button = await waitFor(() => {
    const found = (scope ? within(scope) : screen).getByRole('button', { name: menu });
    expect(found).toBeEnabled();
    return found;
  });
  await user.click(button);
  const item = await screen.findByRole('menuitem', { name: action });
  const items = screen.getAllByRole('menuitem');
  for (let step = 0; step <= items.length && !item.hasAttribute('data-highlighted'); step++) {
    await user.keyboard('{ArrowDown}');
  }
  await waitFor(() => expect(item).toHaveAttribute('data-highlighted'));
  await user.keyboard('{Enter}');
}
