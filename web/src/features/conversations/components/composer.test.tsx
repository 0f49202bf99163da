import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import {
  MessageAuthor,
  SendMessageRequestSchema,
  type SendMessageRequest,
} from '@/gen/repairs/marketplace/v1/marketplace_pb';
import { limitOf } from '@/lib/contract-limits';
import { PHOTO_MAX_BYTES } from '@/lib/files';
import { renderInApp } from '@/test/render-app';
import { Code, REQUEST_ID, rpcError, stubServer, type MarketplaceImpl } from '@/test/stub-server';
import { Composer } from './composer';

const CONVERSATION = { repairRequestId: REQUEST_ID, professionalId: 'pro-1' };
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

const jpeg = (name: string, size = 10) =>
  new File([new Uint8Array(size).fill(0xff)], name, { type: 'image/jpeg' });

function setup(marketplace: MarketplaceImpl = {}, language: 'en' | 'fr' = 'en') {
  let photos = 0;
  const server = stubServer(
    {},
    {},
    {
      marketplace: {
        sendMessage: (request) => ({
          message: { sequence: 1n, author: MessageAuthor.CUSTOMER, text: request.text },
        }),
        addMessagePhoto: () => {
          photos += 1;
          return { photo: { id: `photo-${photos}`, thumbnailUrl: `https://files.test/${photos}` } };
        },
        ...marketplace,
      },
    },
  );
  const onSent = vi.fn();
  renderInApp(<Composer conversation={CONVERSATION} onSent={onSent} />, server.transport, language);
  return { ...server, onSent, sent: () => server.requests<SendMessageRequest>('sendMessage') };
}

const field = () => screen.getByLabelText('Your message');
const chooser = () => screen.getByLabelText('Choose photos', { selector: 'input' });

describe('the message composer', () => {
  it('counts the characters typed, up to 4,000', async () => {
    const user = userEvent.setup();
    setup();
    expect(field()).toHaveAttribute(
      'maxlength',
      String(limitOf(SendMessageRequestSchema, 'text').maxLen),
    );
    expect(field()).toHaveAccessibleDescription(/^0 of 4,000 characters\./);
    await user.type(field(), 'Is the valve easy to reach?');
    expect(field()).toHaveAccessibleDescription(/^27 of 4,000 characters\./);
  });

  it('counts in French as French writes numbers', () => {
    setup({}, 'fr');
    expect(screen.getByLabelText('Votre message')).toHaveAccessibleDescription(
      /^0 caractères sur 4\u00a0000\./,
    );
  });

  it('refuses an empty message without sending anything', async () => {
    const user = userEvent.setup();
    const { sent } = setup();
    await user.type(field(), '   ');
    await user.click(screen.getByRole('button', { name: 'Send' }));
    expect(await screen.findByText('Write a message or add a photo.')).toBeVisible();
    expect(sent()).toEqual([]);
  });

  it('sends the text with a client key, clears the field, and a new message has a new key', async () => {
    const user = userEvent.setup();
    const { sent, onSent } = setup();
    await user.type(field(), '  Is the shut-off valve accessible?  ');
    await user.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(onSent).toHaveBeenCalledTimes(1));
    expect(field()).toHaveValue('');
    await user.type(field(), 'And the water heater?{Control>}{Enter}{/Control}');
    await waitFor(() => expect(onSent).toHaveBeenCalledTimes(2));
    const [first, second] = sent();
    expect(first).toMatchObject({
      repairRequestId: REQUEST_ID,
      professionalId: 'pro-1',
      text: 'Is the shut-off valve accessible?',
      photoIds: [],
    });
    expect(first?.requestId).toMatch(UUID);
    expect(second?.text).toBe('And the water heater?');
    expect(second?.requestId).toMatch(UUID);
    expect(second?.requestId).not.toBe(first?.requestId);
  });

  it('keeps the key when the answer was lost, so the retry cannot send it twice', async () => {
    const user = userEvent.setup();
    let calls = 0;
    const { sent, onSent } = setup({
      sendMessage: (request) => {
        calls += 1;
        if (calls === 1) throw rpcError(Code.Unavailable, 'UNAVAILABLE');
        return { message: { sequence: 1n, text: request.text } };
      },
    });
    await user.type(field(), 'Coming at 3?');
    await user.click(screen.getByRole('button', { name: 'Send' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(/try again/i);
    await user.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(onSent).toHaveBeenCalledTimes(1));
    const [first, retry] = sent();
    expect(retry?.requestId).toBe(first?.requestId);
  });

  it('takes a new key after a refusal that stored nothing, and says why', async () => {
    const user = userEvent.setup();
    const { sent } = setup({
      sendMessage: () => {
        throw rpcError(Code.ResourceExhausted, 'MESSAGE_BUDGET_SPENT');
      },
    });
    await user.type(field(), 'Hello');
    await user.click(screen.getByRole('button', { name: 'Send' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'You have sent many messages in a short time.',
    );
    await user.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(sent()).toHaveLength(2));
    const [first, second] = sent();
    expect(second?.requestId).not.toBe(first?.requestId);
    expect(field()).toHaveValue('Hello');
  });

  it('sends up to 4 photos with the message, saying why a fifth and a large one are left out', async () => {
    const user = userEvent.setup();
    const { sent, requests } = setup();
    fireEvent.change(chooser(), {
      target: {
        files: [
          jpeg('one.jpg'),
          jpeg('huge.jpg', PHOTO_MAX_BYTES + 1),
          jpeg('two.jpg'),
          jpeg('three.jpg'),
          jpeg('four.jpg'),
          jpeg('five.jpg'),
        ],
      },
    });
    const chosen = screen.getByRole('list', { name: 'Photos chosen' });
    await waitFor(() => expect(within(chosen).getAllByText('Sent')).toHaveLength(4));
    expect(
      within(chosen).getByText('This photo is larger than 15 MB. Choose a smaller one.'),
    ).toBeVisible();
    expect(
      within(chosen).getByText('At most 4 photos: this one was left out. Remove one to add it.'),
    ).toBeVisible();
    expect(requests('addMessagePhoto')).toHaveLength(4);
    expect(requests('addMessagePhoto')[0]).toMatchObject({
      repairRequestId: REQUEST_ID,
      professionalId: 'pro-1',
    });
    expect(screen.getByRole('button', { name: 'Choose photos' })).toBeDisabled();

    // Photos alone make a message.
    await user.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(sent()).toHaveLength(1));
    expect(sent()[0]?.photoIds).toEqual(['photo-1', 'photo-2', 'photo-3', 'photo-4']);
    await waitFor(() => expect(screen.queryByRole('list', { name: 'Photos chosen' })).toBeNull());
  });

  it('shows the server’s refusal of a photo beside it, with Remove', async () => {
    const user = userEvent.setup();
    setup({
      addMessagePhoto: () => {
        throw rpcError(Code.InvalidArgument, 'PHOTO_TOO_MANY_PIXELS', { content: 'too big' });
      },
    });
    await user.upload(chooser(), jpeg('bomb.jpg'));
    const chosen = screen.getByRole('list', { name: 'Photos chosen' });
    expect(await within(chosen).findByText(/This image has too many pixels/)).toBeVisible();
    expect(within(chosen).queryByRole('button', { name: /Try again/ })).toBeNull();
    await user.click(within(chosen).getByRole('button', { name: 'Remove: Photo 1: bomb.jpg' }));
    expect(screen.queryByRole('list', { name: 'Photos chosen' })).toBeNull();
  });

  it('offers to try a photo again after a network failure', async () => {
    const user = userEvent.setup();
    let calls = 0;
    setup({
      addMessagePhoto: () => {
        calls += 1;
        if (calls === 1) throw rpcError(Code.Unavailable, 'UNAVAILABLE');
        return { photo: { id: 'photo-1' } };
      },
    });
    await user.upload(chooser(), jpeg('leak.jpg'));
    const retry = await screen.findByRole('button', { name: 'Try again: Photo 1: leak.jpg' });
    await user.click(retry);
    expect(await screen.findByText('Sent')).toBeVisible();
  });
});
