import { create, type MessageInitShape } from '@bufbuild/protobuf';
import { timestampFromDate, timestampFromMs } from '@bufbuild/protobuf/wkt';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import {
  PrivacyIncidentSchema,
  type ListPrivacyIncidentsRequest,
  type PrivacyIncident,
  type RecordPrivacyIncidentRequest,
} from '@/gen/repairs/accounts/v1/accounts_pb';
import { renderApp } from '@/test/render-app';
import { Code, rpcError, signIn, stubServer } from '@/test/stub-server';
import { localInputOf } from '../privacy-incident-values';

const ADMIN = '0190a6c0-aaaa-7000-8000-00000000000a';
const PATH = '/admin/privacy-incidents';
const LEAK_ID = '0190a6c0-bbbb-7000-8000-000000000001';

function incident(fields: MessageInitShape<typeof PrivacyIncidentSchema> = {}): PrivacyIncident {
  return create(PrivacyIncidentSchema, {
    id: LEAK_ID,
    // Seconds the form does not show: an amendment keeps them.
    occurredAt: timestampFromMs(Date.UTC(2026, 10, 18, 22, 5, 17)),
    discoveredAt: timestampFromMs(Date.UTC(2026, 10, 20, 14, 30, 42)),
    description: 'A misconfigured export bucket was readable by anyone with its address.',
    informationInvolved: 'Names and phone numbers of customers in Calgary',
    peopleAffected: 1250,
    riskOfSeriousInjury: true,
    riskAssessment: 'Phone numbers with names invite phishing.',
    measuresTaken: 'Bucket made private; links rotated.',
    recordedBy: ADMIN,
    recordedAt: timestampFromMs(Date.UTC(2026, 10, 21, 15, 0)),
    updatedAt: timestampFromMs(Date.UTC(2026, 10, 22, 9, 0)),
    ...fields,
  });
}

const MINOR = incident({
  id: '0190a6c0-bbbb-7000-8000-000000000002',
  occurredAt: timestampFromMs(Date.UTC(2026, 9, 2, 8, 0)),
  discoveredAt: timestampFromMs(Date.UTC(2026, 9, 3, 8, 0)),
  description: 'An email with a receipt went to the wrong address.',
  informationInvolved: 'One customer’s name and order total',
  peopleAffected: 0,
  riskOfSeriousInjury: false,
  riskAssessment: 'Little sensitive information.',
  commissionerNotifiedAt: undefined,
  peopleNotifiedAt: timestampFromMs(Date.UTC(2026, 9, 4, 8, 0)),
  updatedAt: timestampFromMs(Date.UTC(2026, 10, 20, 15, 0)),
  recordedAt: timestampFromMs(Date.UTC(2026, 10, 20, 15, 0)),
});

function server(incidents: PrivacyIncident[] = [incident(), MINOR]) {
  signIn('admin', ADMIN);
  return stubServer({
    listPrivacyIncidents: ({ pageToken }) =>
      pageToken === ''
        ? { incidents, nextPageToken: incidents.length > 0 ? 'page-2' : '' }
        : { incidents: [MINOR], nextPageToken: '' },
    recordPrivacyIncident: ({ incident: sent }) => ({
      incident: sent && { ...sent, id: sent.id || 'new-id' },
    }),
  });
}

/** Types a date and time in a `datetime-local` field, as its picker sets it. */
const setTime = (field: HTMLElement, value: string) =>
  fireEvent.change(field, { target: { value } });

const newForm = () => screen.findByRole('form', { name: 'Record an incident' });

/** Fills in every required field of the form with facts that pass. */
async function fillIn(form: HTMLElement) {
  const user = userEvent.setup();
  setTime(within(form).getByLabelText(/^When it happened, or began/), '2026-11-01T09:15');
  setTime(within(form).getByLabelText(/^When we learned of it/), '2026-11-02T10:00');
  await user.type(within(form).getByLabelText(/^What happened/), '  A laptop was stolen. ');
  await user.type(within(form).getByLabelText(/^Whose information/), 'Professionals’ licences');
  await user.clear(within(form).getByLabelText(/^How many people/));
  await user.type(within(form).getByLabelText(/^How many people/), '12');
  await user.click(within(form).getByRole('radio', { name: 'No' }));
  await user.type(within(form).getByLabelText(/^Why:/), 'The disk was encrypted.');
  return user;
}

describe('admin: the privacy incident register', () => {
  it('lists the incidents, newest discovery first, with what is still to be notified', async () => {
    const { transport, requests } = server();
    renderApp(PATH, transport);
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Privacy incidents' }),
    ).toBeVisible();
    expect(screen.getByRole('heading', { level: 2, name: 'Incidents recorded' })).toBeVisible();
    const table = await screen.findByRole('table', { name: 'Privacy incidents' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows[0]).toHaveTextContent('A misconfigured export bucket');
    expect(rows[1]).toHaveTextContent('An email with a receipt');

    const leak = rows[0]!;
    expect(within(leak).getByText(/^Nov 20, 2026/)).toBeVisible();
    expect(within(leak).getByText(/^Occurred Nov 18, 2026/)).toBeVisible();
    expect(within(leak).getByText('1,250')).toBeVisible();
    expect(within(leak).getByText('Yes')).toBeVisible();
    expect(within(leak).getByText('Notification due')).toBeVisible();
    expect(within(leak).getByText('Commissioners: not yet')).toBeVisible();
    expect(within(leak).getByText(/^Amended Nov 22, 2026/)).toBeVisible();
    expect(
      within(leak).getByRole('button', { name: /^Amend the incident discovered Nov 20, 2026/ }),
    ).toBeVisible();

    const minor = rows[1]!;
    expect(within(minor).getByText('Not known yet')).toBeVisible();
    expect(within(minor).getByText('No')).toBeVisible();
    expect(within(minor).queryByText('Notification due')).toBeNull();
    expect(within(minor).getByText(/^People concerned: Oct 4, 2026/)).toBeVisible();
    expect(within(minor).queryByText(/^Amended/)).toBeNull();

    await userEvent.setup().click(screen.getByRole('button', { name: 'Next page' }));
    await waitFor(() =>
      expect(requests<ListPrivacyIncidentsRequest>('listPrivacyIncidents').at(-1)).toMatchObject({
        pageToken: 'page-2',
      }),
    );
    expect(await screen.findByText('Page 2')).toBeVisible();
  });

  it('says when none was recorded', async () => {
    renderApp(PATH, server([]).transport);
    expect(await screen.findByText('No privacy incident has been recorded.')).toBeVisible();
  });

  it('shows the server’s refusal of the list', async () => {
    signIn('admin', ADMIN);
    const { transport } = stubServer({
      listPrivacyIncidents: () => {
        throw rpcError(Code.PermissionDenied, 'PERMISSION_DENIED');
      },
    });
    renderApp(PATH, transport);
    expect(await screen.findByRole('alert')).toBeVisible();
    // The form is there all the same.
    expect(await newForm()).toBeVisible();
  });

  it('says what is wrong next to each field and sends nothing', async () => {
    const { transport, requests } = server();
    renderApp(PATH, transport);
    const form = await newForm();
    const user = userEvent.setup();
    const submit = within(form).getByRole('button', { name: 'Record the incident' });
    await user.click(submit);
    expect(await within(form).findByText('Give when it happened, or began.')).toBeVisible();
    expect(within(form).getByText('Give when it was discovered.')).toBeVisible();
    expect(within(form).getByText('Say what happened.')).toBeVisible();
    expect(
      within(form).getByText('Say whose information was involved, and which kinds.'),
    ).toBeVisible();
    expect(
      within(form).getByText('Say whether it presents a real risk of serious injury.'),
    ).toBeVisible();
    expect(within(form).getByText('Say why you assessed the risk this way.')).toBeVisible();
    // Each message is its field's description, for screen readers.
    expect(within(form).getByLabelText(/^What happened/)).toHaveAccessibleDescription(
      'Say what happened.',
    );
    expect(within(form).getByLabelText(/^What happened/)).toHaveAttribute('aria-invalid', 'true');

    await fillIn(form);
    const later = localInputOf(timestampFromMs(Date.now() + 3 * 24 * 3600 * 1000));
    setTime(within(form).getByLabelText(/^When it happened, or began/), '2026-11-03T09:15');
    setTime(within(form).getByLabelText(/^When the commissioners/), later);
    setTime(within(form).getByLabelText(/^When the people concerned/), '2026-10-30T12:00');
    await user.clear(within(form).getByLabelText(/^How many people/));
    await user.type(within(form).getByLabelText(/^How many people/), '-4');
    await user.click(submit);
    expect(
      await within(form).findByText('It cannot have happened after it was discovered.'),
    ).toBeVisible();
    expect(within(form).getByText('A notification cannot be in the future.')).toBeVisible();
    expect(
      within(form).getByText('A notification cannot come before the discovery.'),
    ).toBeVisible();
    expect(
      within(form).getByText('Give a whole number from 0 to 100,000,000 (0 when not known yet).'),
    ).toBeVisible();

    setTime(within(form).getByLabelText(/^When we learned of it/), later);
    await user.click(submit);
    expect(await within(form).findByText('The discovery cannot be in the future.')).toBeVisible();
    expect(requests('recordPrivacyIncident')).toEqual([]);
  });

  it('records a new incident, then clears the form', async () => {
    const { transport, requests } = server();
    renderApp(PATH, transport);
    const form = await newForm();
    const user = await fillIn(form);
    await user.click(within(form).getByRole('radio', { name: 'Yes' }));
    expect(within(form).getByText(/must be notified as soon as feasible\.$/)).toBeVisible();
    setTime(within(form).getByLabelText(/^When the commissioners/), '2026-11-03T08:00');
    await user.click(within(form).getByRole('button', { name: 'Record the incident' }));

    expect(await screen.findByText('The incident is recorded.')).toBeVisible();
    const [sent] = requests<RecordPrivacyIncidentRequest>('recordPrivacyIncident');
    expect(sent?.incident).toMatchObject({
      id: '',
      occurredAt: timestampFromDate(new Date('2026-11-01T09:15')),
      discoveredAt: timestampFromDate(new Date('2026-11-02T10:00')),
      description: 'A laptop was stolen.',
      informationInvolved: 'Professionals’ licences',
      peopleAffected: 12,
      riskOfSeriousInjury: true,
      riskAssessment: 'The disk was encrypted.',
      measuresTaken: '',
      commissionerNotifiedAt: timestampFromDate(new Date('2026-11-03T08:00')),
    });
    expect(sent?.incident?.peopleNotifiedAt).toBeUndefined();
    await waitFor(() => expect(within(form).getByLabelText(/^What happened/)).toHaveValue(''));
    // The register reloads.
    await waitFor(() => expect(requests('listPrivacyIncidents').length).toBeGreaterThan(1));
  });

  it('amends an incident with its id, keeping the times it was not asked to change', async () => {
    const { transport, requests } = server();
    renderApp(PATH, transport);
    const user = userEvent.setup();
    await user.click(
      await screen.findByRole('button', { name: /^Amend the incident discovered Nov 20, 2026/ }),
    );
    const form = await screen.findByRole('form', { name: /^Amend the incident discovered/ });
    expect(within(form).getByRole('heading', { level: 2 })).toHaveFocus();
    expect(within(form).getByLabelText(/^What happened/)).toHaveValue(
      'A misconfigured export bucket was readable by anyone with its address.',
    );
    expect(within(form).getByLabelText(/^How many people/)).toHaveValue('1250');
    expect(within(form).getByRole('radio', { name: 'Yes' })).toBeChecked();

    setTime(within(form).getByLabelText(/^When the commissioners/), '2026-11-23T11:00');
    await user.click(within(form).getByRole('button', { name: 'Save the amendment' }));
    expect(await screen.findByText('The amendment is saved.')).toBeVisible();
    const [sent] = requests<RecordPrivacyIncidentRequest>('recordPrivacyIncident');
    expect(sent?.incident).toMatchObject({
      id: LEAK_ID,
      occurredAt: incident().occurredAt,
      discoveredAt: incident().discoveredAt,
      peopleAffected: 1250,
      riskOfSeriousInjury: true,
      measuresTaken: 'Bucket made private; links rotated.',
      commissionerNotifiedAt: timestampFromDate(new Date('2026-11-23T11:00')),
    });
    // Back to a new incident.
    expect(await newForm()).toBeVisible();
  });

  it('leaves an amendment unsaved on Cancel', async () => {
    const { transport, requests } = server();
    renderApp(PATH, transport);
    const user = userEvent.setup();
    await user.click(
      await screen.findByRole('button', { name: /^Amend the incident discovered Nov 20, 2026/ }),
    );
    const form = await screen.findByRole('form', { name: /^Amend the incident discovered/ });
    await user.click(within(form).getByRole('button', { name: 'Cancel the amendment' }));
    expect(within(await newForm()).getByLabelText(/^What happened/)).toHaveValue('');
    expect(requests('recordPrivacyIncident')).toEqual([]);
  });

  it('shows the server’s refusal next to its field, and any other above the form', async () => {
    signIn('admin', ADMIN);
    let refusal = rpcError(Code.InvalidArgument, 'INVALID_ARGUMENT', {
      'incident.people_notified_at': 'a notification cannot come before the discovery',
    });
    const { transport } = stubServer({
      listPrivacyIncidents: () => ({ incidents: [] }),
      recordPrivacyIncident: () => {
        throw refusal;
      },
    });
    renderApp(PATH, transport);
    const form = await newForm();
    const user = await fillIn(form);
    await user.click(within(form).getByRole('button', { name: 'Record the incident' }));
    expect(
      await within(form).findByText('a notification cannot come before the discovery'),
    ).toBeVisible();
    expect(within(form).getByLabelText(/^When the people concerned/)).toHaveAttribute(
      'aria-invalid',
      'true',
    );

    refusal = rpcError(Code.NotFound, 'NOT_FOUND');
    await user.click(within(form).getByRole('button', { name: 'Record the incident' }));
    expect(await within(form).findByRole('alert')).toHaveTextContent(
      'We could not find what you are looking for.',
    );
  });

  it('speaks French', async () => {
    localStorage.setItem('lang', 'fr');
    renderApp(PATH, server().transport);
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Incidents de confidentialité' }),
    ).toBeVisible();
    // A no-break space before the colon (the matcher reads it as a space).
    const table = await screen.findByRole('table', { name: 'Incidents de confidentialité' });
    expect(within(table).getAllByText('Autorités : pas encore')).toHaveLength(2);
    expect(table.textContent).toContain('Autorités\u00a0: pas encore');
    const form = await screen.findByRole('form', { name: 'Inscrire un incident' });
    await userEvent
      .setup()
      .click(within(form).getByRole('button', { name: 'Inscrire l’incident' }));
    expect(await within(form).findByText('Décrivez ce qui s’est passé.')).toBeVisible();
  });
});
