import { create } from '@bufbuild/protobuf';
import { timestampFromDate, timestampFromMs } from '@bufbuild/protobuf/wkt';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import {
  AuditEventSchema,
  AuditOutcome,
  type ListAuditEventsRequest,
} from '@/gen/repairs/accounts/v1/accounts_pb';
import { renderApp } from '@/test/render-app';
import { setViewportWidth } from '@/test/viewport';
import {
  CUSTOMER_ID,
  Code,
  PROFESSIONAL_ID,
  rpcError,
  signIn,
  stubServer,
} from '@/test/stub-server';

const ME = '0190a6c0-aaaa-7000-8000-00000000000a';
const OTHER = '0190a6c0-bbbb-7000-8000-00000000000b';

const EVENTS = [
  create(AuditEventSchema, {
    id: 'e1',
    adminId: ME,
    adminEmail: 'me@example.ca',
    action: 'professional.deny',
    targetType: 'professional',
    targetId: PROFESSIONAL_ID,
    reason: 'Licence expired',
    beforeJson: '{"state":"waiting_for_approval"}',
    afterJson: '{"state":"denied"}',
    createTime: timestampFromMs(Date.UTC(2026, 10, 23, 15, 30)),
  }),
  create(AuditEventSchema, {
    id: 'e2',
    adminId: OTHER,
    adminEmail: 'other@example.ca',
    action: 'home_page.update',
    targetType: 'home_page',
    targetId: 'fr',
    beforeJson: '{"banner_h1":"Ancien titre"}',
    afterJson: '{"banner_h1":"Nouveau titre"}',
    createTime: timestampFromMs(Date.UTC(2026, 10, 22, 9, 0)),
  }),
];

function auditServer(answer: (request: ListAuditEventsRequest) => typeof EVENTS = () => EVENTS) {
  signIn('admin', ME);
  return stubServer({
    listAuditEvents: (request) => ({ events: answer(request), nextPageToken: '' }),
  });
}

describe('admin: audit log', () => {
  it('lists who did what to which record, when and why, with the changes', async () => {
    renderApp('/admin/audit-log', auditServer().transport);
    expect(await screen.findByRole('heading', { level: 1, name: 'Audit log' })).toBeVisible();
    const table = await screen.findByRole('table', { name: 'Audit log' });
    const rowOf = (text: string) => within(table).getByText(text).closest('tr')!;
    const deny = rowOf('Licence expired');
    const edit = rowOf('other@example.ca');

    expect(within(deny).getByRole('button', { name: 'Show only what You did' })).toHaveTextContent(
      'You',
    );
    expect(within(deny).getByText('Denied')).toBeVisible();
    expect(within(deny).getByRole('link', { name: PROFESSIONAL_ID })).toHaveAttribute(
      'href',
      `/admin/view-professional/${PROFESSIONAL_ID}`,
    );
    expect(within(deny).getByText('Licence expired')).toBeVisible();
    expect(within(deny).getByText(/Nov 23, 2026/)).toBeVisible();

    expect(within(edit).getByText('other@example.ca')).toBeVisible();
    expect(within(edit).getByText('Home page')).toBeVisible();
    const user = userEvent.setup();
    await user.click(within(edit).getByText('1 field changed'));
    expect(within(edit).getByText('banner_h1').closest('tr')).toHaveTextContent(
      'banner_h1Ancien titreNouveau titre',
    );
  });

  it('lists each changed field with its values before and after on a phone', async () => {
    setViewportWidth(390);
    renderApp('/admin/audit-log', auditServer().transport);
    const cards = await screen.findByRole('list', { name: 'Audit log' });
    expect(screen.queryByRole('table')).toBeNull();
    const edit = within(cards).getByText('other@example.ca').closest('li')!;
    const user = userEvent.setup();
    await user.click(within(edit).getByText('1 field changed'));
    const field = within(edit).getByText('banner_h1').closest('li')!;
    const pairs = [...field.querySelectorAll('dt')].map((term) => [
      term.textContent,
      term.nextElementSibling?.textContent,
    ]);
    expect(pairs).toEqual([
      ['Before', 'Ancien titre'],
      ['After', 'Nouveau titre'],
    ]);
  });

  it('names the privacy actions, each once among the actions, with the records they touch', async () => {
    const incident = create(AuditEventSchema, {
      id: 'e3',
      adminId: ME,
      action: 'privacy_incident.amend',
      targetType: 'privacy_incident',
      targetId: '0190a6c0-cccc-7000-8000-000000000001',
      createTime: timestampFromMs(Date.UTC(2026, 10, 24, 9, 0)),
    });
    const copy = create(AuditEventSchema, {
      id: 'e4',
      adminId: ME,
      action: 'data_export.request',
      targetType: 'customer',
      targetId: CUSTOMER_ID,
      createTime: timestampFromMs(Date.UTC(2026, 10, 24, 10, 0)),
    });
    renderApp('/admin/audit-log', auditServer(() => [incident, copy]).transport);
    const table = await screen.findByRole('table', { name: 'Audit log' });
    const amended = within(table).getByText('Incident amended').closest('tr')!;
    expect(within(amended).getByText('Privacy incident')).toBeVisible();
    expect(within(amended).getByRole('link', { name: incident.targetId })).toHaveAttribute(
      'href',
      '/admin/privacy-incidents',
    );
    const asked = within(table).getByText('Asked for a copy of their data').closest('tr')!;
    expect(within(asked).getByRole('link', { name: CUSTOMER_ID })).toHaveAttribute(
      'href',
      `/view-user/${CUSTOMER_ID}`,
    );

    const actions = screen.getByRole('combobox', { name: 'Action' });
    const labels = within(actions)
      .getAllByRole('option')
      .map((option) => option.textContent);
    expect(labels.filter((label) => label?.endsWith('Asked for a copy of their data'))).toEqual([
      'Professional / Customer – Asked for a copy of their data',
    ]);
    expect(labels).toContain('Privacy incident – Incident recorded');
  });

  it('narrows the log by kind of record, action and admin', async () => {
    const { transport, requests } = auditServer();
    renderApp('/admin/audit-log', transport);
    await screen.findByRole('table', { name: 'Audit log' });
    const user = userEvent.setup();

    await user.selectOptions(screen.getByRole('combobox', { name: 'Kind of record' }), 'service');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Action' }), 'service.update');
    await waitFor(() =>
      expect(requests<ListAuditEventsRequest>('listAuditEvents').at(-1)).toMatchObject({
        targetType: 'service',
        action: 'service.update',
        adminId: '',
      }),
    );

    await user.click(screen.getByRole('button', { name: 'Show everything' }));
    await user.click(
      await screen.findByRole('button', { name: 'Show only what other@example.ca did' }),
    );
    await waitFor(() =>
      expect(requests<ListAuditEventsRequest>('listAuditEvents').at(-1)).toMatchObject({
        targetType: '',
        action: '',
        adminId: OTHER,
      }),
    );
    expect(screen.getByRole('combobox', { name: 'Done by' })).toHaveValue(OTHER);
  });

  it('narrows the log to a range of days, the last one included', async () => {
    const { transport, requests } = auditServer();
    renderApp('/admin/audit-log', transport);
    await screen.findByRole('table', { name: 'Audit log' });
    const from = screen.getByLabelText('From');
    const to = screen.getByLabelText('To (included)');
    fireEvent.change(from, { target: { value: '2026-11-20' } });
    fireEvent.change(to, { target: { value: '2026-11-22' } });
    // Midnights in the browser's time zone: the start of the first day, the end of the last.
    await waitFor(() =>
      expect(requests<ListAuditEventsRequest>('listAuditEvents').at(-1)).toMatchObject({
        startTime: timestampFromDate(new Date(2026, 10, 20)),
        endTime: timestampFromDate(new Date(2026, 10, 23)),
      }),
    );
    expect(to).toHaveAttribute('min', '2026-11-20');
    expect(from).toHaveAttribute('max', '2026-11-22');

    await userEvent.setup().click(screen.getByRole('button', { name: 'Show everything' }));
    expect(from).toHaveValue('');
    expect(to).toHaveValue('');
  });

  it('says when nothing matches, and shows a failed load in the page', async () => {
    renderApp('/admin/audit-log', auditServer(() => []).transport);
    expect(await screen.findByText('No admin action has been recorded yet.')).toBeVisible();

    const failing = stubServer({
      listAuditEvents: () => {
        throw rpcError(Code.Unavailable, 'DATABASE_UNAVAILABLE');
      },
    });
    renderApp('/admin/audit-log', failing.transport);
    expect(await screen.findByRole('alert')).toBeVisible();
  });

  it.each([
    {
      lang: 'en',
      pending: 'Not settled: the payment service did not answer',
      failed: 'Failed: This payment cannot be changed that way in its current state.',
    },
    {
      lang: 'fr',
      pending: 'Non réglée : le service de paiement n’a pas répondu',
      failed: 'Échec : Ce paiement ne peut pas être modifié ainsi dans son état actuel.',
    },
  ])('says which payment steps were not settled or failed, and why ($lang)', async (expected) => {
    localStorage.setItem('lang', expected.lang);
    const payment = (id: string, outcome: AuditOutcome, failure = '') =>
      create(AuditEventSchema, {
        id,
        adminId: ME,
        action: 'payment.capture',
        targetType: 'payment',
        targetId: `pay-${id}`,
        beforeJson: '{"state":"authorized"}',
        outcome,
        failure,
        createTime: timestampFromMs(Date.UTC(2026, 10, 23, 15, 30)),
      });
    const steps = () => [
      payment('p1', AuditOutcome.PENDING),
      payment('p2', AuditOutcome.FAILED, 'PAYMENT_STATE: this payment cannot be captured'),
    ];
    renderApp('/admin/audit-log', auditServer(steps).transport);
    const rowOf = async (id: string) =>
      (await screen.findByText(`pay-${id}`)).closest('tr') as HTMLElement;
    expect(await rowOf('p1')).toHaveTextContent(expected.pending);
    expect(await rowOf('p2')).toHaveTextContent(expected.failed);
  });

  it.each([
    ['en', 'The server (housekeeping)', 'Released a hold no hire held'],
    [
      'fr',
      'Le serveur (entretien automatique)',
      'Préautorisation libérée : aucun professionnel engagé',
    ],
  ])('names the server, not an admin, for what it did by itself (%s)', async (lang, who, what) => {
    localStorage.setItem('lang', lang);
    const released = create(AuditEventSchema, {
      id: 'e3',
      adminId: '',
      action: 'payment.release_unattached',
      targetType: 'payment',
      targetId: '0190a6c0-cccc-7000-8000-00000000000c',
      reason: 'a card hold that no hire held, left by a hire cut short: released',
      createTime: timestampFromMs(Date.UTC(2026, 10, 24, 3, 0)),
    });
    renderApp('/admin/audit-log', auditServer(() => [released]).transport);
    const row = (await screen.findByText(what)).closest('tr')!;
    expect(within(row).getByText(who)).toBeVisible();
    expect(within(row).queryByRole('button', { name: new RegExp(who) })).toBeNull();
  });

  it('is in French when French is stored', async () => {
    localStorage.setItem('lang', 'fr');
    renderApp('/admin/audit-log', auditServer().transport);
    expect(await screen.findByRole('heading', { level: 1, name: 'Journal d’audit' })).toBeVisible();
    expect(await screen.findByText('Refusé')).toBeVisible();
    expect(screen.getByLabelText('Au (inclus)')).toBeVisible();
  });
});
