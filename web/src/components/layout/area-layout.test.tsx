import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderApp } from '@/test/render-app';
import { customerServer } from '@/test/stub-server';

/** A signed-in customer's pending requests (none) at `path`, once the page is there. */
async function pendingRequests(path: string, title: string) {
  const { transport } = customerServer({
    listCustomerRepairRequests: () => ({ repairRequests: [] }),
  });
  const view = renderApp(path, transport);
  await screen.findByRole('heading', { level: 1, name: title });
  return { user: userEvent.setup(), router: view.router };
}

describe('the area menu in its drawer (narrow screens)', () => {
  it('opens from the Menu button, keeps the focus until Escape and gives it back', async () => {
    const { user } = await pendingRequests('/pending-requests', 'Pending requests');
    const button = screen.getByRole('button', { name: 'Menu' });
    expect(button).toHaveAttribute('aria-haspopup', 'dialog');
    expect(button).toHaveAttribute('aria-expanded', 'false');

    await user.click(button);
    const drawer = await screen.findByRole('dialog', { name: 'My account' });
    expect(button).toHaveAttribute('aria-expanded', 'true');
    expect(button).toHaveAttribute('aria-controls', drawer.id);
    await waitFor(() => expect(drawer).toContainElement(document.activeElement as HTMLElement));
    expect(within(drawer).getByRole('navigation', { name: 'Customer menu' })).toBeVisible();

    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(button).toHaveAttribute('aria-expanded', 'false');
    await waitFor(() => expect(button).toHaveFocus());
  });

  it('closes once a link in it is followed', async () => {
    const { user, router } = await pendingRequests('/pending-requests', 'Pending requests');

    await user.click(screen.getByRole('button', { name: 'Menu' }));
    const drawer = await screen.findByRole('dialog', { name: 'My account' });
    await user.click(within(drawer).getByRole('link', { name: 'Create request' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/create-request'));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('says it in French', async () => {
    const { user } = await pendingRequests('/fr/pending-requests', 'Demandes en attente');
    await user.click(screen.getByRole('button', { name: 'Menu' }));
    const drawer = await screen.findByRole('dialog', { name: 'Mon compte' });
    expect(within(drawer).getByRole('button', { name: 'Fermer le menu' })).toBeVisible();
  });
});
