import { create, type MessageInitShape } from '@bufbuild/protobuf';
import { timestampFromMs } from '@bufbuild/protobuf/wkt';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  DataExportSchema,
  DataExportState,
  Role,
  type DataExport,
  type GetDataExportRequest,
  type RequestDataExportRequest,
} from '@/gen/repairs/accounts/v1/accounts_pb';
import { renderApp } from '@/test/render-app';
import {
  CUSTOMER_ID,
  Code,
  PROFESSIONAL_ID,
  customer,
  professional,
  rpcError,
  signIn,
  stubServer,
} from '@/test/stub-server';

const REQUESTED = Date.UTC(2026, 10, 23, 15, 0);
const DOWNLOAD_URL = 'https://files.example.ca/exports/export-1.zip?signature=abc';
/** As often as a copy being prepared is asked again (features/accounts' PREPARING_REFRESH_MS). */
const PREPARING_REFRESH_MS = 3_000;

function dataExport(
  state: DataExportState,
  fields: MessageInitShape<typeof DataExportSchema> = {},
): DataExport {
  const ready = state === DataExportState.READY;
  return create(DataExportSchema, {
    id: 'export-1',
    state,
    requestedAt: timestampFromMs(REQUESTED),
    readyAt: ready ? timestampFromMs(REQUESTED + 40_000) : undefined,
    expiresAt: ready ? timestampFromMs(Date.UTC(2026, 10, 30, 15, 0)) : undefined,
    sizeBytes: ready ? 2_516_582n : 0n,
    downloadUrl: ready ? DOWNLOAD_URL : '',
    ...fields,
  });
}

/** An admin's server whose person has `current` as their latest copy (none when unset). */
function exportServer(first?: DataExport) {
  signIn('admin', 'a1');
  const state: { current?: DataExport } = { current: first };
  const stub = stubServer({
    getCustomer: () => ({ customer: customer() }),
    getProfessional: () => ({ professional: professional() }),
    getDataExport: () => ({ export: state.current }),
    requestDataExport: () => {
      state.current = dataExport(DataExportState.PREPARING, { requestedByAdmin: true });
      return { export: state.current };
    },
  });
  return { ...stub, state };
}

const section = (name = 'Copy of this person’s data') => screen.findByRole('region', { name });

describe('admin: a copy of a person’s data', () => {
  afterEach(() => vi.useRealTimers());

  it('prepares a customer’s copy on their behalf, then gives its download link', async () => {
    const { transport, requests, state } = exportServer();
    renderApp(`/view-user/${CUSTOMER_ID}`, transport);
    const copy = await section();
    expect(within(copy).getByRole('heading', { level: 2 })).toHaveTextContent(
      'Copy of this person’s data',
    );
    const ask = await within(copy).findByRole('button', { name: 'Prepare a copy of their data' });
    expect(requests<GetDataExportRequest>('getDataExport')[0]).toMatchObject({
      accountId: CUSTOMER_ID,
      role: Role.CUSTOMER,
    });

    await userEvent.setup().click(ask);
    await waitFor(() =>
      expect(within(copy).getByRole('status')).toHaveTextContent('The copy is being prepared…'),
    );
    expect(within(copy).getByRole('status')).toHaveTextContent(
      'The person is emailed when it is ready.',
    );
    expect(within(copy).getByRole('status')).toHaveTextContent(
      'An admin asked for it on the person’s behalf.',
    );
    expect(within(copy).queryByRole('button', { name: /Prepare/ })).toBeNull();
    expect(requests<RequestDataExportRequest>('requestDataExport')).toEqual([
      expect.objectContaining({ accountId: CUSTOMER_ID, role: Role.CUSTOMER }),
    ]);

    // Ready at the next look, every few seconds.
    state.current = dataExport(DataExportState.READY, { requestedByAdmin: true });
    const link = await within(copy).findByRole(
      'link',
      { name: 'Download their data (ZIP, 2.4\u00a0MB)' },
      { timeout: PREPARING_REFRESH_MS + 4000 },
    );
    expect(link).toHaveAttribute('href', DOWNLOAD_URL);
    expect(within(copy).getByText(/^Available until Nov 30, 2026/)).toBeVisible();
    expect(
      within(copy).getByText(
        'The link works for 10 minutes. Each link given to an admin is recorded in the audit log.',
      ),
    ).toBeVisible();
    expect(
      within(copy).getByRole('button', { name: 'Prepare a new copy of their data' }),
    ).toBeVisible();
  });

  it('asks for a professional’s copy as theirs, and a ready link again only when asked', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { transport, requests } = exportServer(dataExport(DataExportState.READY));
    renderApp(`/admin/view-professional/${PROFESSIONAL_ID}`, transport);
    const copy = await section();
    expect(await within(copy).findByRole('link', { name: /^Download their data/ })).toBeVisible();
    expect(within(copy).getByText('The person asked for it.')).toBeVisible();
    expect(requests<GetDataExportRequest>('getDataExport')).toEqual([
      expect.objectContaining({ accountId: PROFESSIONAL_ID, role: Role.PROFESSIONAL }),
    ]);

    // Each link given to an admin is audited: none is asked for by itself.
    await act(() => vi.advanceTimersByTimeAsync(10 * 60_000));
    expect(requests('getDataExport')).toHaveLength(1);
    await userEvent
      .setup({ advanceTimers: vi.advanceTimersByTime })
      .click(within(copy).getByRole('button', { name: 'Get a new link' }));
    await waitFor(() => expect(requests('getDataExport')).toHaveLength(2));

    await userEvent
      .setup({ advanceTimers: vi.advanceTimersByTime })
      .click(within(copy).getByRole('button', { name: 'Prepare a new copy of their data' }));
    await waitFor(() =>
      expect(requests<RequestDataExportRequest>('requestDataExport')).toEqual([
        expect.objectContaining({ accountId: PROFESSIONAL_ID, role: Role.PROFESSIONAL }),
      ]),
    );
  });

  it('shows a refusal in the page', async () => {
    signIn('admin', 'a1');
    const { transport } = stubServer({
      getCustomer: () => ({ customer: customer() }),
      getDataExport: () => ({}),
      requestDataExport: () => {
        throw rpcError(Code.NotFound, 'NOT_FOUND');
      },
    });
    renderApp(`/view-user/${CUSTOMER_ID}`, transport);
    const copy = await section();
    await userEvent
      .setup()
      .click(await within(copy).findByRole('button', { name: 'Prepare a copy of their data' }));
    expect(await within(copy).findByRole('alert')).toHaveTextContent(
      'We could not find what you are looking for.',
    );
  });

  it('speaks French', async () => {
    localStorage.setItem('lang', 'fr');
    const { transport } = exportServer(dataExport(DataExportState.FAILED));
    renderApp(`/view-user/${CUSTOMER_ID}`, transport);
    const copy = await section('Copie des données de cette personne');
    expect(
      await within(copy).findByText('La copie n’a pas pu être préparée. Demandez-la de nouveau.'),
    ).toBeVisible();
    expect(
      within(copy).getByRole('button', { name: 'Préparer une nouvelle copie de ses données' }),
    ).toBeVisible();
  });
});
