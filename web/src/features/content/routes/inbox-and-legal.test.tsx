import { create } from '@bufbuild/protobuf';
import { timestampFromMs } from '@bufbuild/protobuf/wkt';
import { Code, createRouterTransport } from '@connectrpc/connect';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import {
  ContactMessageSchema,
  ContentService,
  LegalPageKind,
  type ListContactMessagesRequest,
  type MarkContactMessageReadRequest,
  type UpdateLegalPageRequest,
} from '@/gen/repairs/content/v1/content_pb';
import { Language } from '@/gen/repairs/type/v1/common_pb';
import { renderApp } from '@/test/render-app';
import { rpcError, signIn } from '@/test/stub-server';

describe('admin: contact messages', () => {
  it('shows the unread messages first, and marks one read', async () => {
    signIn('admin', 'a1');
    const lists: ListContactMessagesRequest[] = [];
    const marks: MarkContactMessageReadRequest[] = [];
    const message = create(ContactMessageSchema, {
      id: 'm1',
      name: 'Ada',
      email: 'ada@example.com',
      message: 'My basement is flooding.',
      createTime: timestampFromMs(Date.UTC(2026, 10, 23, 9, 0)),
    });
    const transport = createRouterTransport(({ service }) => {
      service(ContentService, {
        listContactMessages: (request) => {
          lists.push(request);
          return { messages: [message], unreadCount: 1, nextPageToken: '' };
        },
        markContactMessageRead: (request) => {
          marks.push(request);
          return { message: { ...message, read: request.read } };
        },
      });
    });
    renderApp('/admin/contact-messages', transport);
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Contact messages' }),
    ).toBeVisible();
    const item = (await screen.findByText('My basement is flooding.')).closest('li')!;
    expect(within(item).getByRole('link', { name: 'ada@example.com' })).toHaveAttribute(
      'href',
      'mailto:ada@example.com',
    );
    expect(screen.getByText('1 unread')).toBeVisible();
    expect(lists[0]).toMatchObject({ unreadOnly: true });

    const user = userEvent.setup();
    await user.click(within(item).getByRole('button', { name: 'Mark the message from Ada read' }));
    expect(await screen.findByText('The message from Ada is marked read.')).toBeVisible();
    expect(marks).toEqual([expect.objectContaining({ id: 'm1', read: true })]);

    await user.click(screen.getByText('All messages'));
    await waitFor(() => expect(lists.at(-1)).toMatchObject({ unreadOnly: false }));
  });
});

describe('terms and privacy', () => {
  function legalServer() {
    const updates: UpdateLegalPageRequest[] = [];
    let refuse = false;
    const transport = createRouterTransport(({ service }) => {
      service(ContentService, {
        getLegalPage: ({ kind, language }) => ({
          page: {
            kind,
            title: language === Language.FR ? 'Conditions' : `Terms ${kind}`,
            body: 'First paragraph.\n\nSecond paragraph.',
            personInCharge:
              kind === LegalPageKind.PRIVACY ? 'Privacy Officer, privacy@example.org' : '',
          },
          etag: 'l1',
        }),
        updateLegalPage: (request) => {
          updates.push(request);
          if (refuse) throw rpcError(Code.FailedPrecondition, 'ETAG_MISMATCH');
          return { page: request.page, etag: 'l2' };
        },
      });
    });
    return { transport, updates, refuse: () => (refuse = true) };
  }

  it('reads the page the admins wrote, paragraph by paragraph', async () => {
    renderApp('/privacy-policy', legalServer().transport);
    expect(
      await screen.findByRole('heading', { level: 1, name: `Terms ${LegalPageKind.PRIVACY}` }),
    ).toBeVisible();
    expect(screen.getByText('First paragraph.')).toBeVisible();
    expect(screen.getByText('Second paragraph.')).toBeVisible();
    const person = screen.getByRole('region', { name: 'Person in charge of personal information' });
    expect(person).toHaveTextContent('Privacy Officer, privacy@example.org');
  });

  it('names no person in charge on the terms', async () => {
    renderApp('/terms-and-conditions', legalServer().transport);
    await screen.findByText('First paragraph.');
    expect(screen.queryByRole('region', { name: /in charge/ })).toBeNull();
  });

  it('lets an admin change the person in charge, never to nobody', async () => {
    signIn('admin', 'a1');
    const server = legalServer();
    renderApp('/admin/legal-pages', server.transport);
    await screen.findByRole('textbox', { name: /Title/ });
    const user = userEvent.setup();
    expect(screen.queryByRole('textbox', { name: /Person in charge/ })).toBeNull();
    await user.selectOptions(screen.getByRole('combobox', { name: 'Page' }), 'privacy');
    const person = await screen.findByRole('textbox', { name: /Person in charge/ });
    await user.clear(person);
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(
      await screen.findByText('Please name the person in charge and how to reach them.'),
    ).toBeVisible();
    expect(server.updates).toHaveLength(0);
    await user.type(person, 'Responsable, 514 555-0100');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(server.updates).toHaveLength(1));
    expect(server.updates[0]?.page).toMatchObject({
      kind: LegalPageKind.PRIVACY,
      personInCharge: 'Responsable, 514 555-0100',
    });
  });

  it('lets an admin edit the French terms, and says so when someone saved meanwhile', async () => {
    signIn('admin', 'a1');
    const server = legalServer();
    renderApp('/admin/legal-pages', server.transport);
    await screen.findByRole('textbox', { name: /Title/ });
    const user = userEvent.setup();
    await user.selectOptions(screen.getByRole('combobox', { name: 'Language' }), 'fr');
    const title = await screen.findByDisplayValue('Conditions');
    await user.type(title, ' générales');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(server.updates).toHaveLength(1));
    expect(server.updates[0]).toMatchObject({
      language: Language.FR,
      etag: 'l1',
      page: { kind: LegalPageKind.TERMS, title: 'Conditions générales' },
    });

    server.refuse();
    await user.type(title, '!');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Someone else saved this page after you opened it.',
    );
  });
});
