import { createRouterTransport } from '@connectrpc/connect';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { Photo } from '@/gen/repairs/marketplace/v1/marketplace_pb';
import { chooseMoreAction } from '@/test/more-actions';
import { renderInApp } from '@/test/render-app';
import { DamagePhotos } from './damage-photos';
import { SWIPE_PX } from './photo-lightbox';

const photos = (count: number) =>
  Array.from({ length: count }, (_, index) => ({
    id: `photo-${index + 1}`,
    url: `https://files.test/${index + 1}.jpg`,
    thumbnailUrl: `https://files.test/${index + 1}-thumb.jpg`,
  })) as Photo[];

const transport = createRouterTransport(() => {});

/** The lightbox as a person meets it: the dialog, named after the photo it shows. */
const lightbox = () => screen.getByRole('dialog');
const shownPhoto = () => within(lightbox()).getByRole('img');

describe('photos of the damage and their lightbox', () => {
  it('shows thumbnails that say which photo each is, and opens the one pressed large', async () => {
    const user = userEvent.setup();
    renderInApp(<DamagePhotos photos={photos(5)} />, transport);
    const list = screen.getByRole('list', { name: 'Photos of the damage' });
    const thumbnails = within(list).getAllByRole('img');
    expect(thumbnails.map((image) => image.getAttribute('alt'))).toEqual([
      'Photo 1 of 5 of the damage',
      'Photo 2 of 5 of the damage',
      'Photo 3 of 5 of the damage',
      'Photo 4 of 5 of the damage',
      'Photo 5 of 5 of the damage',
    ]);
    expect(thumbnails[1]).toHaveAttribute('src', 'https://files.test/2-thumb.jpg');

    await user.click(screen.getByRole('button', { name: 'Photo 2 of 5 of the damage' }));
    expect(await screen.findByRole('dialog', { name: 'Photo 2 of 5 of the damage' })).toBeVisible();
    expect(shownPhoto()).toHaveAttribute('src', 'https://files.test/2.jpg');
    expect(shownPhoto()).toHaveAccessibleName('Photo 2 of 5 of the damage');
  });

  it('moves with the arrow keys, Home and End, wrapping around, and with its buttons', async () => {
    const user = userEvent.setup();
    renderInApp(<DamagePhotos photos={photos(3)} />, transport);
    await user.click(screen.getByRole('button', { name: 'Photo 3 of 3 of the damage' }));
    await screen.findByRole('dialog');
    const name = () => lightbox().getAttribute('aria-labelledby');
    const title = () => document.getElementById(name() ?? '')?.textContent;

    await user.keyboard('{ArrowRight}');
    expect(title()).toBe('Photo 1 of 3 of the damage');
    expect(shownPhoto()).toHaveAttribute('src', 'https://files.test/1.jpg');
    await user.keyboard('{ArrowLeft}');
    expect(title()).toBe('Photo 3 of 3 of the damage');
    await user.keyboard('{Home}');
    expect(title()).toBe('Photo 1 of 3 of the damage');
    await user.keyboard('{End}');
    expect(title()).toBe('Photo 3 of 3 of the damage');
    await user.click(within(lightbox()).getByRole('button', { name: 'Previous photo' }));
    expect(title()).toBe('Photo 2 of 3 of the damage');
    await user.click(within(lightbox()).getByRole('button', { name: 'Next photo' }));
    expect(title()).toBe('Photo 3 of 3 of the damage');
  });

  it('turns with a swipe of a finger, and not with a small move', async () => {
    const user = userEvent.setup();
    renderInApp(<DamagePhotos photos={photos(3)} />, transport);
    await user.click(screen.getByRole('button', { name: 'Photo 1 of 3 of the damage' }));
    const content = await screen.findByTestId('photo-lightbox');
    const swipe = (from: number, to: number) => {
      fireEvent.touchStart(content, { changedTouches: [{ clientX: from }] });
      fireEvent.touchEnd(content, { changedTouches: [{ clientX: to }] });
    };
    swipe(300, 300 - SWIPE_PX - 10);
    expect(shownPhoto()).toHaveAttribute('alt', 'Photo 2 of 3 of the damage');
    swipe(300, 290);
    expect(shownPhoto()).toHaveAttribute('alt', 'Photo 2 of 3 of the damage');
    swipe(100, 100 + SWIPE_PX + 10);
    expect(shownPhoto()).toHaveAttribute('alt', 'Photo 1 of 3 of the damage');
  });

  it('closes with Escape, the focus back on the thumbnail of the photo last seen', async () => {
    const user = userEvent.setup();
    renderInApp(<DamagePhotos photos={photos(3)} />, transport);
    await user.click(screen.getByRole('button', { name: 'Photo 1 of 3 of the damage' }));
    await screen.findByRole('dialog');
    // The focus is inside the dialog.
    await waitFor(() => expect(lightbox()).toContainElement(document.activeElement as HTMLElement));
    await user.keyboard('{ArrowRight}');
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Photo 2 of 3 of the damage' })).toHaveFocus(),
    );
  });

  it('says it in French', async () => {
    const user = userEvent.setup();
    renderInApp(<DamagePhotos photos={photos(5)} />, transport, 'fr');
    await user.click(screen.getByRole('button', { name: 'Photo 2 sur 5 des dégâts' }));
    expect(await screen.findByRole('dialog', { name: 'Photo 2 sur 5 des dégâts' })).toBeVisible();
    expect(within(lightbox()).getByRole('button', { name: 'Photo suivante' })).toBeVisible();
    expect(within(lightbox()).getByRole('button', { name: 'Fermer' })).toBeVisible();
  });

  it('shows a few thumbnails and a button to the others', async () => {
    const user = userEvent.setup();
    renderInApp(<DamagePhotos photos={photos(5)} limit={2} />, transport);
    expect(screen.getAllByRole('img')).toHaveLength(2);
    await user.click(screen.getByRole('button', { name: '3 more photos' }));
    expect(await screen.findByRole('dialog', { name: 'Photo 3 of 5 of the damage' })).toBeVisible();
  });

  it('removes a photo from its More actions once the person confirms, and not when they cancel', async () => {
    const user = userEvent.setup();
    const onRemove = vi.fn(() => Promise.resolve());
    renderInApp(<DamagePhotos photos={photos(2)} onRemove={onRemove} />, transport);
    const menu = 'More actions: Photo 2 of 2 of the damage';
    await chooseMoreAction(user, 'Remove the photo', { menu });
    const question = await screen.findByRole('alertdialog', { name: 'Remove this photo?' });
    expect(
      within(question).getByText(
        'The photo is taken off your request: professionals will no longer see it.',
      ),
    ).toBeVisible();
    expect(within(question).getByRole('img', { name: 'Photo 2 of 2 of the damage' })).toBeVisible();
    await user.click(within(question).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(onRemove).not.toHaveBeenCalled();

    await chooseMoreAction(user, 'Remove the photo', { menu });
    const again = await screen.findByRole('alertdialog', { name: 'Remove this photo?' });
    await user.click(within(again).getByRole('button', { name: 'Remove' }));
    expect(onRemove).toHaveBeenCalledExactlyOnceWith(expect.objectContaining({ id: 'photo-2' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
  });

  it('offers no removal when the photos may not be removed', () => {
    renderInApp(<DamagePhotos photos={photos(2)} />, transport);
    expect(screen.queryByRole('button', { name: /^More actions/ })).toBeNull();
  });
});
