import { create, type MessageInitShape } from '@bufbuild/protobuf';
import { timestampFromMs } from '@bufbuild/protobuf/wkt';
import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  DataExportSchema,
  DataExportState,
  type DataExport,
} from '@/gen/repairs/accounts/v1/accounts_pb';
import { renderInApp } from '@/test/render-app';
import { Code, rpcError, stubServer } from '@/test/stub-server';
import { PREPARING_REFRESH_MS } from '../api/get-data-export';
import { DataExportSection } from './data-export-section';

const REQUESTED = Date.UTC(2026, 10, 23, 15, 0);
const DOWNLOAD_URL = 'https://files.example.ca/exports/export-1.zip?signature=abc';

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

describe('a copy of your data', () => {
  afterEach(() => vi.useRealTimers());

  it('asks for a copy, says it is being prepared, then gives its download link', async () => {
    let current: DataExport | undefined;
    const { transport, requests } = stubServer({
      getDataExport: () => ({ export: current }),
      requestDataExport: () => {
        current = dataExport(DataExportState.PREPARING);
        return { export: current };
      },
    });
    renderInApp(<DataExportSection />, transport);
    expect(screen.getByRole('heading', { level: 2, name: 'A copy of your data' })).toBeVisible();
    const ask = await screen.findByRole('button', { name: 'Prepare a copy of my data' });
    expect(screen.getByRole('status')).toBeEmptyDOMElement();

    await userEvent.setup().click(ask);
    await waitFor(() =>
      expect(screen.getByRole('status')).toHaveTextContent('Your copy is being prepared…'),
    );
    expect(screen.getByRole('status')).toHaveTextContent('we will also email you');
    // One at a time: nothing to press while it is prepared.
    expect(screen.queryByRole('button', { name: /Prepare/ })).toBeNull();
    expect(requests('requestDataExport')).toHaveLength(1);

    // The server finishes it; the next look (every few seconds) finds it ready.
    current = dataExport(DataExportState.READY);
    const link = await screen.findByRole(
      'link',
      // Its size as the reader writes it, kept on one line.
      { name: 'Download your data (ZIP, 2.4\u00a0MB)' },
      { timeout: PREPARING_REFRESH_MS + 4000 },
    );
    expect(link).toHaveAttribute('href', DOWNLOAD_URL);
    expect(link).toHaveAttribute('download');
    expect(screen.getByRole('status')).toHaveTextContent('Your copy is ready.');
    expect(screen.getByText(/^Available until Nov 30, 2026/)).toBeVisible();
    expect(screen.getByRole('button', { name: 'Prepare a new copy' })).toBeVisible();
  });

  it('keeps asking while the copy is prepared, and no more once it is ready', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let current = dataExport(DataExportState.PREPARING);
    const { transport, requests } = stubServer({ getDataExport: () => ({ export: current }) });
    renderInApp(<DataExportSection />, transport);
    await screen.findByText('Your copy is being prepared…');
    expect(requests('getDataExport')).toHaveLength(1);

    await act(() => vi.advanceTimersByTimeAsync(PREPARING_REFRESH_MS));
    await waitFor(() => expect(requests('getDataExport')).toHaveLength(2));
    current = dataExport(DataExportState.READY);
    await act(() => vi.advanceTimersByTimeAsync(PREPARING_REFRESH_MS));
    expect(await screen.findByRole('link', { name: /Download your data/ })).toBeVisible();
    const asked = requests('getDataExport').length;
    await act(() => vi.advanceTimersByTimeAsync(PREPARING_REFRESH_MS * 3));
    expect(requests('getDataExport')).toHaveLength(asked);
  });

  it.each([
    [DataExportState.FAILED, 'Your copy could not be prepared. Please ask for it again.'],
    [DataExportState.EXPIRED, 'Your last copy was deleted 7 days after it was ready.'],
  ])('says when a copy is no longer there (%s) and lets them ask again', async (state, text) => {
    const { transport, requests } = stubServer({
      getDataExport: () => ({ export: dataExport(state) }),
      requestDataExport: () => ({
        export: dataExport(DataExportState.PREPARING, {
          id: 'export-2',
          requestedAt: timestampFromMs(REQUESTED + 3_600_000),
        }),
      }),
    });
    renderInApp(<DataExportSection />, transport);
    expect(await screen.findByText(new RegExp(`^${text}`))).toBeVisible();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Prepare a new copy' }));
    expect(await screen.findByText('Your copy is being prepared…')).toBeVisible();
    expect(requests('requestDataExport')).toHaveLength(1);
  });

  it('shows a refusal in the page, in French', async () => {
    const { transport } = stubServer({
      getDataExport: () => ({}),
      requestDataExport: () => {
        throw rpcError(Code.Unavailable, 'UNAVAILABLE');
      },
    });
    renderInApp(<DataExportSection />, transport, 'fr');
    expect(screen.getByRole('heading', { name: 'Une copie de vos données' })).toBeVisible();
    await userEvent
      .setup()
      .click(await screen.findByRole('button', { name: 'Préparer une copie de mes données' }));
    expect(await screen.findByRole('alert')).toBeVisible();
  });
});
