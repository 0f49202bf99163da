import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { expectLabelInName } from '@/test/label-in-name';
import { chooseMoreAction } from '@/test/more-actions';
import { renderInApp, unimplementedTransport } from '@/test/render-app';
import { MoreActionsMenu, type MoreAction } from './more-actions-menu';

const remove = (run: () => Promise<unknown>): MoreAction => ({
  value: 'remove',
  label: 'Remove the thing',
  danger: true,
  confirm: {
    title: 'Remove the thing?',
    body: 'It will be gone for everyone.',
    confirmLabel: 'Remove',
    run,
  },
});

describe('more actions', () => {
  it('asks first, saying what will happen, and runs the action once confirmed', async () => {
    const user = userEvent.setup();
    const run = vi.fn(() => Promise.resolve());
    renderInApp(<MoreActionsMenu actions={[remove(run)]} />, unimplementedTransport());
    expect(screen.queryByRole('menuitem')).toBeNull();

    await chooseMoreAction(user, 'Remove the thing');
    const question = await screen.findByRole('alertdialog', { name: 'Remove the thing?' });
    expect(within(question).getByText('It will be gone for everyone.')).toBeVisible();
    expect(run).not.toHaveBeenCalled();
    await user.click(within(question).getByRole('button', { name: 'Remove' }));
    expect(run).toHaveBeenCalledOnce();
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
  });

  it('does nothing when the question is cancelled, and gives the focus back to the menu', async () => {
    const user = userEvent.setup();
    const run = vi.fn(() => Promise.resolve());
    renderInApp(<MoreActionsMenu actions={[remove(run)]} />, unimplementedTransport());
    await chooseMoreAction(user, 'Remove the thing');
    const question = await screen.findByRole('alertdialog');
    await user.click(within(question).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(run).not.toHaveBeenCalled();
    await waitFor(() => expect(screen.getByRole('button', { name: 'More actions' })).toHaveFocus());
  });

  it('keeps the question open when the action fails, to try again or cancel', async () => {
    const user = userEvent.setup();
    const run = vi.fn(() => Promise.reject(new Error('refused')));
    renderInApp(<MoreActionsMenu actions={[remove(run)]} />, unimplementedTransport());
    await chooseMoreAction(user, 'Remove the thing');
    const question = await screen.findByRole('alertdialog');
    await user.click(within(question).getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(run).toHaveBeenCalledOnce());
    expect(screen.getByRole('alertdialog', { name: 'Remove the thing?' })).toBeVisible();
  });

  it('does an action without a question at once', async () => {
    const user = userEvent.setup();
    const onSelect = vi.fn();
    renderInApp(
      <MoreActionsMenu actions={[{ value: 'report', label: 'Report', onSelect }]} />,
      unimplementedTransport(),
    );
    await chooseMoreAction(user, 'Report');
    await waitFor(() => expect(onSelect).toHaveBeenCalledOnce());
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });

  it('names the button after what it acts on, its visible words first', async () => {
    renderInApp(
      <>
        <MoreActionsMenu subject="Photo 1 of 2" actions={[remove(() => Promise.resolve())]} />
        <MoreActionsMenu
          subject="Photo 2 of 2"
          iconOnly
          actions={[remove(() => Promise.resolve())]}
        />
      </>,
      unimplementedTransport(),
    );
    const named = screen.getByRole('button', { name: 'More actions: Photo 1 of 2' });
    expectLabelInName(named);
    expect(screen.getByRole('button', { name: 'More actions: Photo 2 of 2' })).toBeVisible();
  });

  it('says it in French', async () => {
    const user = userEvent.setup();
    renderInApp(
      <MoreActionsMenu subject="Photo 1 sur 2" actions={[remove(() => Promise.resolve())]} />,
      unimplementedTransport(),
      'fr',
    );
    await chooseMoreAction(user, 'Remove the thing', {
      menu: 'Plus d’actions\u00a0: Photo 1 sur 2',
    });
    const question = await screen.findByRole('alertdialog');
    expect(within(question).getByRole('button', { name: 'Annuler' })).toBeVisible();
  });
});
