import { Code, ConnectError, createRouterTransport } from '@connectrpc/connect';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import {
  ContentService,
  type SendContactMessageRequest,
} from '@/gen/repairs/content/v1/content_pb';
import { renderApp } from '@/test/render-app';
import { rpcError } from '@/test/stub-server';

function serverThat(reply: (request: SendContactMessageRequest) => { id: string }) {
  const received: SendContactMessageRequest[] = [];
  const transport = createRouterTransport(({ service }) => {
    service(ContentService, {
      sendContactMessage: (request) => {
        received.push(request);
        return reply(request);
      },
    });
  });
  return { transport, received };
}

async function fillIn(fields: { name?: string; email?: string; message?: string }) {
  const user = userEvent.setup();
  if (fields.name) await user.type(screen.getByRole('textbox', { name: /Name/ }), fields.name);
  if (fields.email) await user.type(screen.getByRole('textbox', { name: /Email/ }), fields.email);
  if (fields.message)
    await user.type(screen.getByRole('textbox', { name: /Message/ }), fields.message);
  await user.click(screen.getByRole('button', { name: 'Send message' }));
}

describe('contact page', () => {
  it('explains in the page what is missing, without calling the server', async () => {
    const { transport, received } = serverThat(() => ({ id: 'm1' }));
    renderApp('/contact', transport);
    await screen.findByRole('heading', { level: 1, name: 'Contact us' });

    await fillIn({ email: 'not-an-email' });

    expect(await screen.findByText('Please enter your name.')).toBeVisible();
    expect(
      screen.getByText('Please enter a valid email address, such as name@example.com.'),
    ).toBeVisible();
    expect(screen.getByText('Please write a message.')).toBeVisible();
    expect(screen.getByRole('textbox', { name: /Name/ })).toHaveAttribute('aria-invalid', 'true');
    expect(received).toEqual([]);
  });

  it('sends the message and says so', async () => {
    const { transport, received } = serverThat(() => ({ id: 'm1' }));
    renderApp('/contact', transport);
    await screen.findByRole('heading', { level: 1, name: 'Contact us' });

    await fillIn({ name: ' Ada ', email: 'ada@example.com', message: 'My basement is flooding.' });

    expect(await screen.findAllByText('Thank you! Your message has been sent.')).not.toHaveLength(
      0,
    );
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({
      name: 'Ada',
      email: 'ada@example.com',
      message: 'My basement is flooding.',
    });
    expect(screen.getByRole('textbox', { name: /Name/ })).toHaveValue('');
  });

  it("shows the server's error in the page", async () => {
    const { transport } = serverThat(() => {
      throw new ConnectError('email: not a deliverable address', Code.InvalidArgument);
    });
    renderApp('/contact', transport);
    await screen.findByRole('heading', { level: 1, name: 'Contact us' });

    await fillIn({ name: 'Ada', email: 'ada@example.com', message: 'Hello' });

    expect(await screen.findByRole('alert')).toHaveTextContent(/^Your message could not be sent: /);
  });

  it('puts a refused field beside it and the rate limit in the page', async () => {
    let answer = rpcError(Code.InvalidArgument, 'INVALID_ARGUMENT', {
      email: 'not a deliverable address',
    });
    const { transport } = serverThat(() => {
      throw answer;
    });
    renderApp('/contact', transport);
    await screen.findByRole('heading', { level: 1, name: 'Contact us' });

    await fillIn({ name: 'Ada', email: 'ada@example.com', message: 'Hello' });
    expect(await screen.findByText('not a deliverable address')).toBeVisible();
    expect(screen.getByRole('textbox', { name: /Email/ })).toHaveAttribute('aria-invalid', 'true');

    answer = rpcError(Code.ResourceExhausted, 'CONTACT_ADDRESS_LIMIT');
    await userEvent.setup().click(screen.getByRole('button', { name: 'Send message' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Too many messages were sent from your connection.',
    );
  });

  it('works in French when French is stored', async () => {
    localStorage.setItem('lang', 'fr');
    renderApp('/contact');
    expect(await screen.findByRole('heading', { level: 1, name: 'Nous joindre' })).toBeVisible();
    expect(screen.getByRole('button', { name: 'Envoyer le message' })).toBeVisible();
  });
});
