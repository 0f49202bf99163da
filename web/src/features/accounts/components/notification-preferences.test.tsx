import { create } from '@bufbuild/protobuf';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import {
  NotificationChannel,
  NotificationPreferenceSchema,
  NotificationTopic,
  type NotificationPreference,
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

const CHANNELS = [NotificationChannel.EMAIL, NotificationChannel.SMS, NotificationChannel.PUSH];
const ALWAYS_SENT: NotificationTopic[] = [NotificationTopic.RECEIPTS, NotificationTopic.SECURITY];

/** What the server lists for a role: its topics on every channel, all on until chosen. */
function preferencesOf(topics: NotificationTopic[]): NotificationPreference[] {
  return topics.flatMap((topic) =>
    CHANNELS.map((channel) =>
      create(NotificationPreferenceSchema, {
        topic,
        channel,
        enabled: true,
        mayTurnOff: !ALWAYS_SENT.includes(topic),
      }),
    ),
  );
}

const CUSTOMER_TOPICS = [
  NotificationTopic.REQUEST_UPDATES,
  NotificationTopic.RECEIPTS,
  NotificationTopic.SECURITY,
];

const SIGNED_UP = {
  subject: 'terms',
  version: 'terms-en-0',
  given: true,
  source: 'sign_up',
  clientAddress: '203.0.113.7',
  time: { seconds: BigInt(Date.UTC(2026, 10, 23, 15, 30) / 1000), nanos: 0 },
};

/**
 * A server that keeps the choices it is sent, as AccountsService does, and the consents:
 * the terms agreed at sign-up, text alerts withdrawn when every text is turned off.
 */
function preferencesServer(topics: NotificationTopic[], { refuse = false } = {}) {
  const stored = preferencesOf(topics);
  const consents = [SIGNED_UP];
  const textsOn = () =>
    stored.some((p) => p.mayTurnOff && p.channel === NotificationChannel.SMS && p.enabled);
  return {
    getNotificationPreferences: () => ({ preferences: stored, consents }),
    updateNotificationPreferences: (request: { preferences: NotificationPreference[] }) => {
      if (refuse) throw rpcError(Code.Unavailable, 'UNAVAILABLE');
      for (const change of request.preferences) {
        const found = stored.find(
          (preference) =>
            preference.topic === change.topic && preference.channel === change.channel,
        );
        if (found && !found.mayTurnOff && !change.enabled) {
          throw rpcError(Code.InvalidArgument, 'NOTIFICATION_ALWAYS_SENT');
        }
        const before = textsOn();
        if (found) found.enabled = change.enabled;
        if (before !== textsOn()) {
          consents.push({
            ...SIGNED_UP,
            subject: 'sms_alerts',
            version: 'sms-alerts-2026-12',
            given: textsOn(),
            source: 'notification_preferences',
          });
        }
      }
      return { preferences: stored };
    },
  };
}

describe('what reaches you (customer)', () => {
  it('lists each kind on each channel, the always-sent ones on and disabled', async () => {
    signIn('customer', CUSTOMER_ID);
    const { transport } = stubServer({
      getCustomer: () => ({ customer: customer() }),
      ...preferencesServer(CUSTOMER_TOPICS),
    });
    renderApp('/user-account-setting', transport);
    const section = await screen.findByRole('region', { name: 'What reaches you' });
    const updates = await within(section).findByRole('checkbox', {
      name: 'Your requests and jobs by email',
    });
    expect(updates).toBeChecked();
    expect(updates).toBeEnabled();
    expect(
      within(section).getByRole('checkbox', { name: 'Your requests and jobs by text' }),
    ).toBeEnabled();
    expect(
      within(section).getByRole('checkbox', { name: 'Your requests and jobs as device alerts' }),
    ).toBeEnabled();
    for (const topic of ['Receipts and payments', 'Account security']) {
      for (const channel of ['by email', 'by text', 'as device alerts']) {
        const box = within(section).getByRole('checkbox', { name: `${topic} ${channel}` });
        expect(box).toBeChecked();
        expect(box).toBeDisabled();
        expect(box).toHaveAccessibleDescription('Always sent: these cannot be turned off.');
      }
    }
    expect(within(section).getByRole('group', { name: 'Account security' })).toBeVisible();
    // A customer gets no new-request alerts: the server does not list them.
    expect(within(section).queryByRole('group', { name: 'New requests near you' })).toBeNull();
    expect(within(section).getByText(/Texts reach you only when/)).toBeVisible();
  });

  it('saves a switch turned off with its topic and channel', async () => {
    signIn('customer', CUSTOMER_ID);
    const { transport, requests } = stubServer({
      getCustomer: () => ({ customer: customer() }),
      ...preferencesServer(CUSTOMER_TOPICS),
    });
    renderApp('/user-account-setting', transport);
    const box = await screen.findByRole('checkbox', { name: 'Your requests and jobs by text' });
    await userEvent.setup().click(box);

    await waitFor(() => expect(requests('updateNotificationPreferences')).toHaveLength(1));
    expect(requests('updateNotificationPreferences')[0]).toMatchObject({
      preferences: [
        {
          topic: NotificationTopic.REQUEST_UPDATES,
          channel: NotificationChannel.SMS,
          enabled: false,
        },
      ],
    });
    expect(
      await screen.findByText('Saved. Your requests and jobs by text: off.'),
    ).toBeInTheDocument();
    expect(box).not.toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'Your requests and jobs by email' })).toBeChecked();
  });

  it('shows what the person agreed to, and texts turned off on the record', async () => {
    signIn('customer', CUSTOMER_ID);
    const { transport } = stubServer({
      getCustomer: () => ({ customer: customer() }),
      ...preferencesServer(CUSTOMER_TOPICS),
    });
    renderApp('/user-account-setting', transport);
    const record = await screen.findByRole('region', { name: 'What you agreed to' });
    expect(record).toHaveTextContent(
      /Terms and conditions: agreed on Nov 23, 2026, .+, when you signed up\./,
    );
    expect(record).toHaveTextContent(
      'Version of the text: terms-en-0. From the address 203.0.113.7.',
    );
    await userEvent
      .setup()
      .click(screen.getByRole('checkbox', { name: 'Your requests and jobs by text' }));
    await waitFor(() =>
      expect(record).toHaveTextContent(
        /Text alerts: turned off .+, in your notification choices\./,
      ),
    );
  });

  it('puts a switch back and says why when the change is not saved', async () => {
    signIn('customer', CUSTOMER_ID);
    const { transport } = stubServer({
      getCustomer: () => ({ customer: customer() }),
      ...preferencesServer(CUSTOMER_TOPICS, { refuse: true }),
    });
    renderApp('/user-account-setting', transport);
    const box = await screen.findByRole('checkbox', { name: 'Your requests and jobs by email' });
    await userEvent.setup().click(box);
    const section = screen.getByRole('region', { name: 'What reaches you' });
    expect(await within(section).findByRole('alert')).toBeVisible();
    await waitFor(() => expect(box).toBeChecked());
  });

  it('says a failed load in the section', async () => {
    signIn('customer', CUSTOMER_ID);
    const { transport } = stubServer({
      getCustomer: () => ({ customer: customer() }),
      getNotificationPreferences: () => {
        throw rpcError(Code.PermissionDenied, 'PERMISSION_DENIED');
      },
    });
    renderApp('/user-account-setting', transport);
    const section = await screen.findByRole('region', { name: 'What reaches you' });
    expect(await within(section).findByRole('alert')).toBeVisible();
    expect(within(section).queryByRole('checkbox')).toBeNull();
  });
});

describe('what reaches you (professional, in French)', () => {
  it('shows the new-request alerts on the own profile, and saves them', async () => {
    signIn('professional', PROFESSIONAL_ID);
    localStorage.setItem('lang', 'fr');
    const { transport, requests } = stubServer({
      getProfessional: () => ({ professional: professional() }),
      ...preferencesServer([
        NotificationTopic.NEW_REQUESTS,
        NotificationTopic.REQUEST_UPDATES,
        NotificationTopic.REMINDERS,
        NotificationTopic.RECEIPTS,
        NotificationTopic.SECURITY,
      ]),
    });
    renderApp('/fr/view-professional-profile', transport);
    const section = await screen.findByRole('region', { name: 'Ce que vous recevez' });
    const box = await within(section).findByRole('checkbox', {
      name: 'Nouvelles demandes près de chez vous en alertes sur l’appareil',
    });
    expect(
      within(section).getByRole('checkbox', { name: 'Sécurité du compte par courriel' }),
    ).toBeDisabled();
    await userEvent.setup().click(box);
    await waitFor(() =>
      expect(requests('updateNotificationPreferences')[0]).toMatchObject({
        preferences: [
          {
            topic: NotificationTopic.NEW_REQUESTS,
            channel: NotificationChannel.PUSH,
            enabled: false,
          },
        ],
      }),
    );
    await waitFor(() => expect(box).not.toBeChecked());
  });
});
