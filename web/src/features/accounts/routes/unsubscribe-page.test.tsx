import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { NotificationTopic } from '@/gen/repairs/accounts/v1/accounts_pb';
import { Language } from '@/gen/repairs/type/v1/common_pb';
import { renderApp } from '@/test/render-app';
import { CUSTOMER_ID, Code, customer, rpcError, signIn, stubServer } from '@/test/stub-server';

describe('unsubscribe link', () => {
  it('does nothing on opening, then turns the kind off when asked and says which', async () => {
    const { transport, requests } = stubServer({
      unsubscribe: () => ({ topic: NotificationTopic.REQUEST_UPDATES, language: Language.EN }),
    });
    renderApp('/unsubscribe/tok-123', transport, { strict: true });
    expect(await screen.findByRole('heading', { level: 1, name: 'Unsubscribe' })).toBeVisible();
    const stop = screen.getByRole('button', { name: 'Stop these emails' });
    // Mail scanners open links: nothing is sent until the person presses the button.
    expect(requests('unsubscribe')).toEqual([]);

    await userEvent.setup().click(stop);
    const done = await screen.findByText(
      'You will no longer get emails about your requests and jobs.',
    );
    expect(done).toBeVisible();
    // Read out as it comes, and the focus moves on to it from the button now gone.
    const status = done.closest<HTMLElement>('[role="status"]');
    expect(status).not.toBeNull();
    await waitFor(() => expect(status).toHaveFocus());
    expect(requests('unsubscribe')).toEqual([expect.objectContaining({ token: 'tok-123' })]);
    expect(screen.queryByRole('button', { name: 'Stop these emails' })).toBeNull();
    expect(within(status!).getByText(/change all your choices/)).toBeVisible();
    const main = screen.getByRole('main');
    expect(within(main).getByRole('link', { name: 'Sign in as a customer' })).toHaveAttribute(
      'href',
      '/login',
    );
    expect(within(main).getByRole('link', { name: 'Sign in as a professional' })).toHaveAttribute(
      'href',
      '/login-as-professional',
    );
  });

  it('leads a signed-in customer to their settings, in French', async () => {
    signIn('customer', CUSTOMER_ID);
    const { transport } = stubServer({
      getCustomer: () => ({ customer: customer() }),
      unsubscribe: () => ({ topic: NotificationTopic.REMINDERS, language: Language.FR }),
    });
    renderApp('/fr/unsubscribe/tok-fr', transport);
    await userEvent
      .setup()
      .click(await screen.findByRole('button', { name: 'Ne plus recevoir ces courriels' }));
    expect(await screen.findByText('Vous ne recevrez plus de courriels de rappel.')).toBeVisible();
    expect(
      screen.getByRole('link', { name: 'Aller aux paramètres de mon compte' }),
    ).toHaveAttribute('href', '/fr/user-account-setting');
  });

  it('says a bad link in the page, with where to choose instead', async () => {
    const { transport } = stubServer({
      unsubscribe: () => {
        throw rpcError(Code.InvalidArgument, 'UNSUBSCRIBE_LINK_INVALID');
      },
    });
    renderApp('/unsubscribe/altered', transport);
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Stop these emails' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'This unsubscribe link does not work',
    );
    expect(screen.queryByRole('button', { name: 'Stop these emails' })).toBeNull();
    expect(screen.getByRole('link', { name: 'Sign in as a customer' })).toHaveAttribute(
      'href',
      '/login',
    );
  });

  it('offers to try again when the server cannot be reached', async () => {
    let calls = 0;
    const { transport, requests } = stubServer({
      unsubscribe: () => {
        calls += 1;
        if (calls === 1) throw rpcError(Code.Unavailable, 'UNAVAILABLE');
        return { topic: NotificationTopic.NEW_REQUESTS, language: Language.EN };
      },
    });
    renderApp('/unsubscribe/tok', transport);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Stop these emails' }));
    expect(await screen.findByRole('alert')).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Stop these emails' }));
    expect(
      await screen.findByText('You will no longer get emails about new requests near you.'),
    ).toBeVisible();
    expect(requests('unsubscribe')).toHaveLength(2);
  });
});
