import { timestampFromMs } from '@bufbuild/protobuf/wkt';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { RouterProvider, createMemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import type { DeviceSubscription, PushDevice } from '@/lib/web-push';
import { renderInApp } from '@/test/render-app';
import {
  CUSTOMER_ID,
  Code,
  REQUEST_ID,
  customer,
  rpcError,
  signIn,
  stubServer,
} from '@/test/stub-server';
import { useCustomer } from '../api/get-customer';
import { deviceAccount, rememberDeviceOwner } from '../device-owner';
import { AccountClosedPage } from '../routes/account-closed-page';
import type { MemberRole } from '../roles';
import { CloseAccountSection } from './close-account-section';
import { RequireRole } from './require-role';

const ENDPOINT = 'https://fcm.googleapis.com/fcm/send/device-1';
/** Mid-month at noon UTC: the same day in the test's time zone. */
const ERASE_AFTER = Date.UTC(2026, 11, 15, 12);

/** A browser whose push subscription is `ENDPOINT`. */
function subscribedDevice() {
  const subscription: DeviceSubscription = {
    endpoint: ENDPOINT,
    p256dh: 'p256dh-key',
    auth: 'auth-secret',
    unsubscribe: vi.fn(async () => true),
  };
  const device: PushDevice = {
    supported: () => true,
    permission: () => 'granted',
    requestPermission: async () => 'granted',
    current: async () => subscription,
    subscribe: async () => subscription,
  };
  return { device, subscription };
}

function renderSection(
  server: ReturnType<typeof stubServer>,
  {
    role = 'customer' as MemberRole,
    hasPassword,
    device = subscribedDevice().device,
  }: { role?: MemberRole; hasPassword?: boolean; device?: PushDevice } = {},
) {
  const router = createMemoryRouter(
    [
      {
        path: '/settings',
        element: <CloseAccountSection role={role} hasPassword={hasPassword} device={device} />,
      },
      { path: '/account-closed', element: <AccountClosedPage /> },
    ],
    { initialEntries: ['/settings'] },
  );
  renderInApp(<RouterProvider router={router} />, server.transport);
  return router;
}

/** Fills the shown field, presses Close my account, then confirms in the dialog. */
async function closeWith(label: RegExp, value: string) {
  const user = userEvent.setup();
  await user.type(await screen.findByLabelText(label), value);
  await user.click(screen.getByRole('button', { name: 'Close my account' }));
  const dialog = await screen.findByRole('alertdialog', { name: 'Close your account now?' });
  await user.click(within(dialog).getByRole('button', { name: 'Close my account' }));
}

describe('close your account', () => {
  it('shows a wrong password under the field, and keeps the session', async () => {
    signIn('customer', CUSTOMER_ID);
    const server = stubServer({
      requestAccountDeletion: () => {
        throw rpcError(Code.InvalidArgument, 'INVALID_ARGUMENT', {
          password: 'the password is not right',
        });
      },
    });
    const router = renderSection(server);
    expect(screen.getByText(/Your open repair requests are cancelled/)).toBeVisible();
    await closeWith(/^Your password/, 'not-my-password');

    expect(await screen.findByText('This password is not right.')).toBeVisible();
    expect(screen.getByLabelText(/^Your password/)).toHaveAttribute('aria-invalid', 'true');
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(localStorage.getItem('token')).not.toBeNull();
    expect(router.state.location.pathname).toBe('/settings');
  });

  it('asks before closing: "Do not close it" calls nothing', async () => {
    const server = stubServer({ requestAccountDeletion: () => ({}) });
    renderSection(server);
    const user = userEvent.setup();
    await user.type(screen.getByLabelText(/^Your password/), 'a-password');
    await user.click(screen.getByRole('button', { name: 'Close my account' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Close your account now?' });
    await user.click(within(dialog).getByRole('button', { name: 'Do not close it' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(server.calls).toEqual([]);
  });

  it('asks for the password before calling the server', async () => {
    const server = stubServer({ requestAccountDeletion: () => ({}) });
    renderSection(server);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Close my account' }));
    expect(await screen.findByText('Please enter your password.')).toBeVisible();
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(server.calls).toEqual([]);
  });

  it('closes with the password, signs out here and says when the account is erased', async () => {
    signIn('customer', CUSTOMER_ID);
    signIn('professional', 'another-account');
    localStorage.setItem(`drafts:${CUSTOMER_ID}`, '{}');
    const { device, subscription } = subscribedDevice();
    rememberDeviceOwner(localStorage, ENDPOINT, deviceAccount('customer', CUSTOMER_ID), 'en');
    const server = stubServer({
      requestAccountDeletion: () => ({
        eraseAfter: timestampFromMs(ERASE_AFTER),
        heldByRepairRequestIds: [REQUEST_ID],
      }),
    });
    const router = renderSection(server, { device });
    await closeWith(/^Your password/, 'my-password');

    await waitFor(() => expect(router.state.location.pathname).toBe('/account-closed'));
    expect(server.requests('requestAccountDeletion')).toEqual([
      expect.objectContaining({ password: 'my-password', confirmEmail: '' }),
    ]);
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Your account is closed' }),
    ).toBeVisible();
    expect(screen.getByText('Your account is closed and you are signed out.')).toBeVisible();
    expect(screen.getByText('It will be erased for good on December 15, 2026.')).toBeVisible();
    expect(
      screen.getByText(/We sent you an email with a link that keeps your account/),
    ).toBeVisible();
    expect(screen.getByText(/\(1 request\) holds the erasure until it ends/)).toBeVisible();
    // Signed out here: the session, the drafts and this browser's alerts of the account.
    expect(localStorage.getItem('token')).toBeNull();
    expect(localStorage.getItem(`drafts:${CUSTOMER_ID}`)).toBeNull();
    expect(subscription.unsubscribe).toHaveBeenCalled();
    expect(localStorage.getItem('device-alerts')).toBeNull();
    // Another role's session on this browser stays.
    expect(localStorage.getItem('professional-token')).not.toBeNull();
    // Nothing asked of the server but the closing (the session is over there).
    expect(server.calls.map((call) => call.method)).toEqual(['requestAccountDeletion']);
  });

  it('asks an account without a password for its email address', async () => {
    signIn('professional', 'pro-1');
    const server = stubServer({ requestAccountDeletion: () => ({ heldByRepairRequestIds: [] }) });
    const router = renderSection(server, { role: 'professional', hasPassword: false });
    expect(screen.getByText(/Your open quotes are withdrawn/)).toBeVisible();
    expect(screen.queryByLabelText(/^Your password/)).toBeNull();
    await closeWith(/^The email address of your account/, ' paule@example.ca ');

    await waitFor(() => expect(router.state.location.pathname).toBe('/account-closed'));
    expect(server.requests('requestAccountDeletion')).toEqual([
      expect.objectContaining({ password: '', confirmEmail: 'paule@example.ca' }),
    ]);
    expect(localStorage.getItem('professional-token')).toBeNull();
    expect(await screen.findByText(/erased for good at the end of the grace period/)).toBeVisible();
    expect(screen.queryByText(/holds the erasure/)).toBeNull();
  });

  it('switches to the email address when the server says the account has no password', async () => {
    const server = stubServer({
      requestAccountDeletion: () => {
        throw rpcError(Code.InvalidArgument, 'INVALID_ARGUMENT', {
          confirm_email: 'type the email address of your account',
        });
      },
    });
    renderSection(server);
    await closeWith(/^Your password/, 'a-guess');
    expect(await screen.findByText(/Your account has no password/)).toBeVisible();
    await waitFor(() =>
      expect(screen.getByLabelText(/^The email address of your account/)).toHaveFocus(),
    );
    expect(screen.queryByLabelText(/^Your password/)).toBeNull();
  });

  it('says so when the account is closed already', async () => {
    const server = stubServer({
      requestAccountDeletion: () => {
        throw rpcError(Code.FailedPrecondition, 'ACCOUNT_CLOSED');
      },
    });
    renderSection(server);
    await closeWith(/^Your password/, 'a-password');
    expect(await screen.findByRole('alert')).toHaveTextContent('This account is closed');
  });
});

/** A page's own read of the account, as the account settings page has. */
function CustomerName() {
  const { data } = useCustomer(CUSTOMER_ID);
  return <p>{data?.customer?.name}</p>;
}

describe('closing from inside the signed-in area', () => {
  it('lands on the closed page, not on the sign-in, though the page had its own reads', async () => {
    signIn('customer', CUSTOMER_ID);
    const server = stubServer({
      getCustomer: () => ({ customer: customer() }),
      requestAccountDeletion: () => ({
        eraseAfter: timestampFromMs(ERASE_AFTER),
        heldByRepairRequestIds: [],
      }),
    });
    const router = createMemoryRouter(
      [
        {
          element: <RequireRole role="customer" />,
          children: [
            {
              path: '/settings',
              element: (
                <>
                  <CustomerName />
                  <CloseAccountSection role="customer" device={subscribedDevice().device} />
                </>
              ),
            },
          ],
        },
        { path: '/account-closed', element: <AccountClosedPage /> },
        { path: '/login', element: <p>Sign-in page</p> },
        { path: '/user-logout', element: <p>Logout route</p> },
      ],
      { initialEntries: ['/settings'] },
    );
    renderInApp(<RouterProvider router={router} />, server.transport);
    await screen.findByText('Casey Customer');
    await closeWith(/^Your password/, 'my-password');
    expect(
      await screen.findByText('It will be erased for good on December 15, 2026.'),
    ).toBeVisible();
    expect(router.state.location.pathname).toBe('/account-closed');
    expect(localStorage.getItem('token')).toBeNull();
    expect(server.requests('getCustomer')).toHaveLength(1);
  });
});

describe('the closed-account page', () => {
  it('says the account is closed in general words when opened without the answer', async () => {
    const router = createMemoryRouter(
      [{ path: '/account-closed', element: <AccountClosedPage /> }],
      {
        initialEntries: ['/account-closed'],
      },
    );
    renderInApp(<RouterProvider router={router} />, stubServer().transport, 'fr');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Votre compte est fermé' }),
    ).toBeVisible();
    expect(screen.getByText(/à la fin du délai de grâce/)).toBeVisible();
  });
});
