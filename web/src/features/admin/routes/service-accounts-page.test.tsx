import { create } from '@bufbuild/protobuf';
import { timestampFromMs } from '@bufbuild/protobuf/wkt';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import {
  ServiceAccountKeySchema,
  ServiceAccountSchema,
  type ServiceAccount,
} from '@/gen/repairs/accounts/v1/accounts_pb';
import { renderApp } from '@/test/render-app';
import { Code, rpcError, signIn, stubServer } from '@/test/stub-server';

const ADMIN = '0190a6c0-aaaa-7000-8000-00000000000a';
const KEY = 'rsk_0190a6c0ffff70008000000000000001_abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQ';
const NEW_KEY = 'rsk_0190a6c0ffff70008000000000000002_QPONMLKJIHGFEDCBAzyxwvutsrqponmlkjihgfedcba';

const REPORT = create(ServiceAccountSchema, {
  id: 'sa1',
  name: 'Monthly report',
  scopes: ['orders.read', 'requests.read'],
  createTime: timestampFromMs(Date.UTC(2026, 10, 20, 9, 0)),
  createdByEmail: 'admin@example.ca',
  lastUsedTime: timestampFromMs(Date.UTC(2026, 10, 27, 8, 0)),
  keys: [
    create(ServiceAccountKeySchema, {
      keyPrefix: 'rsk_0190a6c0',
      createTime: timestampFromMs(Date.UTC(2026, 10, 20, 9, 0)),
    }),
  ],
});

const REVOKED = create(ServiceAccountSchema, {
  id: 'sa2',
  name: 'Old sync',
  scopes: ['content.write'],
  createTime: timestampFromMs(Date.UTC(2026, 10, 1, 9, 0)),
  revokeTime: timestampFromMs(Date.UTC(2026, 10, 2, 9, 0)),
  keys: [],
});

function server(accounts: ServiceAccount[] = [REPORT, REVOKED]) {
  signIn('admin', ADMIN);
  return stubServer({
    listServiceAccounts: () => ({ serviceAccounts: accounts, nextPageToken: '' }),
    createServiceAccount: (request) => {
      if (request.name === 'Taken') throw rpcError(Code.Internal, 'INTERNAL');
      return {
        serviceAccount: create(ServiceAccountSchema, {
          id: 'sa3',
          name: request.name,
          scopes: request.scopes,
        }),
        key: KEY,
      };
    },
    rotateServiceAccountKey: () => ({ serviceAccount: REPORT, key: NEW_KEY }),
    revokeServiceAccount: () => ({ serviceAccount: { ...REPORT, revokeTime: REVOKED.revokeTime } }),
  });
}

const PATH = '/admin/service-accounts';

describe('admin: service accounts', () => {
  it('lists each account with its scopes, keys, last use and state', async () => {
    renderApp(PATH, server().transport);
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Service accounts' }),
    ).toBeVisible();
    const table = await screen.findByRole('table', { name: 'Service accounts' });
    const report = within(table).getByText('Monthly report').closest('tr')!;
    expect(
      within(report).getByText('Read every order, without names, contacts or street (reporting)'),
    ).toBeVisible();
    expect(within(report).getByText('rsk_0190a6c0…')).toBeVisible();
    expect(within(report).getByText('Active')).toBeVisible();
    expect(within(report).getByText(/Nov 27, 2026/)).toBeVisible();
    expect(within(report).getByRole('button', { name: 'Revoke Monthly report' })).toBeVisible();
    const old = within(table).getByText('Old sync').closest('tr')!;
    expect(within(old).getByText(/^Revoked/)).toBeVisible();
    expect(within(old).getByText('Never')).toBeVisible();
    expect(within(old).queryByRole('button')).toBeNull();
  });

  it('says when there is none yet', async () => {
    renderApp(PATH, server([]).transport);
    expect(await screen.findByText('No service account yet.')).toBeVisible();
  });

  it('shows the server’s refusal of the list', async () => {
    signIn('admin', ADMIN);
    const { transport } = stubServer({
      listServiceAccounts: () => {
        throw rpcError(Code.Unavailable, 'DATABASE_UNAVAILABLE');
      },
    });
    renderApp(PATH, transport);
    expect(await screen.findByRole('alert')).toBeVisible();
  });

  it('creates one with a name and scopes and shows its key once, with a copy button', async () => {
    const { transport, requests } = server();
    renderApp(PATH, transport);
    const user = userEvent.setup();
    const form = await screen.findByRole('form', { name: 'Create the service account' });
    await user.click(within(form).getByRole('button', { name: 'Create the service account' }));
    expect(await within(form).findByText('Name the service.')).toBeVisible();
    expect(within(form).getByText('Choose at least one scope.')).toBeVisible();
    expect(requests('createServiceAccount')).toEqual([]);

    await user.type(within(form).getByLabelText(/^Name/), '  Partner feed ');
    await user.click(within(form).getByLabelText('Read the audit log'));
    await user.click(within(form).getByRole('button', { name: 'Create the service account' }));
    const panel = await screen.findByRole('region', { name: 'Key of Partner feed' });
    expect(requests('createServiceAccount')).toEqual([
      expect.objectContaining({ name: 'Partner feed', scopes: ['audit.read'] }),
    ]);
    expect(within(panel).getByLabelText('Key')).toHaveValue(KEY);
    await user.click(within(panel).getByRole('button', { name: 'Copy the key' }));
    expect(await within(panel).findByText('Key copied.')).toBeVisible();
    expect(await navigator.clipboard.readText()).toBe(KEY);
    await user.click(within(panel).getByRole('button', { name: 'I have stored the key' }));
    expect(screen.queryByRole('region', { name: 'Key of Partner feed' })).toBeNull();
    expect(screen.queryByDisplayValue(KEY)).toBeNull();
  });

  it('rotates a key after a confirmation and shows the new one', async () => {
    const { transport, requests } = server();
    renderApp(PATH, transport);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Rotate key of Monthly report' }));
    const dialog = await screen.findByRole('alertdialog', {
      name: 'Give Monthly report a new key?',
    });
    await user.click(within(dialog).getByRole('button', { name: 'Rotate key' }));
    const panel = await screen.findByRole('region', { name: 'Key of Monthly report' });
    expect(within(panel).getByLabelText('Key')).toHaveValue(NEW_KEY);
    expect(requests('rotateServiceAccountKey')).toEqual([expect.objectContaining({ id: 'sa1' })]);
  });

  it('revokes only after "Revoke Monthly report?"', async () => {
    const { transport, requests } = server();
    renderApp(PATH, transport);
    const user = userEvent.setup();
    const revoke = await screen.findByRole('button', { name: 'Revoke Monthly report' });
    await user.click(revoke);
    let dialog = await screen.findByRole('alertdialog', { name: 'Revoke Monthly report?' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(requests('revokeServiceAccount')).toEqual([]);

    await user.click(revoke);
    dialog = await screen.findByRole('alertdialog', { name: 'Revoke Monthly report?' });
    await user.click(within(dialog).getByRole('button', { name: 'Revoke' }));
    expect(await screen.findByText('Monthly report is revoked.')).toBeVisible();
    await waitFor(() =>
      expect(requests('revokeServiceAccount')).toEqual([expect.objectContaining({ id: 'sa1' })]),
    );
  });

  it('speaks French', async () => {
    localStorage.setItem('lang', 'fr');
    renderApp(PATH, server().transport);
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Comptes de service' }),
    ).toBeVisible();
    expect(
      await screen.findByText(
        'Lire toutes les commandes, sans noms, coordonnées ni rue (rapports)',
      ),
    ).toBeVisible();
  });
});
