import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import {
  ConversationState,
  MessageAuthor,
  QuoteState,
  RepairRequestState,
  type ListConversationsRequest,
  type ListMessagesRequest,
  type MarkConversationReadRequest,
  type WatchConversationRequest,
  type WatchConversationResponse,
} from '@/gen/repairs/marketplace/v1/marketplace_pb';
import { Language } from '@/gen/repairs/type/v1/common_pb';
import { controlledStream } from '@/test/controlled-stream';
import { chooseMoreAction } from '@/test/more-actions';
import { renderApp } from '@/test/render-app';
import { setViewportWidth } from '@/test/viewport';
import {
  REQUEST_ID,
  customerServer,
  repairRequest,
  type MarketplaceImpl,
} from '@/test/stub-server';

const QUINN = 'pro-quinn';

/** How long a test waits for a screen whose code has not been loaded yet by the file. */
const FIRST_RENDER_MS = 8000;
const ROBIN = 'pro-robin';

const conversation = (unreadCount: number) => ({
  id: 'conversation-1',
  repairRequestId: REQUEST_ID,
  professionalId: QUINN,
  professionalName: 'Quinn Quoter',
  serviceName: 'Plumbing Services',
  state: ConversationState.OPEN,
  unreadCount,
  lastMessage: { sequence: 2n, author: MessageAuthor.PROFESSIONAL, text: 'Is the valve free?' },
});

const MESSAGES = [
  {
    sequence: 2n,
    author: MessageAuthor.PROFESSIONAL,
    text: 'La valve est-elle accessible? Appelez-moi au [numéro masqué]',
    textLanguage: Language.FR,
    textTranslation: 'Is the valve accessible? Call me at [number hidden]',
    contactsMasked: true,
  },
  { sequence: 1n, author: MessageAuthor.CUSTOMER, text: 'The pipe burst under the sink.' },
];

function requestPage(
  messages: typeof MESSAGES = MESSAGES,
  request = repairRequest(),
  more: MarketplaceImpl = {},
) {
  const stream = controlledStream<WatchConversationResponse>();
  let unread = 1;
  const server = customerServer({
    getRepairRequest: () => ({ repairRequest: request }),
    listConversations: (request) => ({
      conversations: request.repairRequestId ? [conversation(unread)] : [],
      unreadTotal: unread,
    }),
    listRepairRequestQuotes: () => ({
      quotes: [
        { id: 'q1', professionalId: QUINN, professionalName: 'Quinn Quoter' },
        { id: 'q2', professionalId: ROBIN, professionalName: 'Robin Roofer' },
        {
          id: 'q3',
          professionalId: 'pro-gone',
          professionalName: 'Gone',
          state: QuoteState.WITHDRAWN,
        },
      ],
    }),
    listMessages: (request) => ({
      conversation: request.professionalId === QUINN ? conversation(unread) : undefined,
      messages: request.professionalId === QUINN ? messages : [],
    }),
    markConversationRead: () => {
      unread = 0;
      return { unreadCount: 0, unreadTotal: 0 };
    },
    watchConversation: (_request, context) => stream.watch(context.signal),
    listBlockedProfessionals: () => ({ blockedProfessionals: [] }),
    ...more,
  });
  return { ...server, stream };
}

describe('conversations on the customer’s request page', () => {
  it('lists who wrote or quoted, opens the first, marks it read and follows it live', async () => {
    const user = userEvent.setup();
    const { transport } = requestPage();
    renderApp(`/user-view-request/${REQUEST_ID}`, transport);
    // The file's first render loads the request page's code: it may take longer.
    const people = await screen.findByRole(
      'list',
      { name: 'Conversations on this request' },
      { timeout: FIRST_RENDER_MS },
    );
    // The quoters are listed at once, their conversations' previews with the next reply; the
    // unread count shows until the first conversation, opened, is marked read.
    const first = await within(people).findByRole('button', {
      name: 'Quinn Quoter Is the valve free? 1 unread message',
    });
    const buttons = within(people).getAllByRole('button');
    expect(buttons[0]).toBe(first);
    expect(buttons[1]).toHaveAccessibleName('Robin Roofer Sent a quote; no messages yet');
    expect(buttons).toHaveLength(2);
    expect(buttons[0]).toHaveAttribute('aria-current', 'true');

    const thread = await screen.findByRole('region', {
      name: 'Messages: Messages with Quinn Quoter',
    });
    const items = await within(thread).findAllByRole('listitem');
    // Oldest first; the professional's message in the reader's language, the original a tap away.
    expect(items[0]).toHaveTextContent('The pipe burst under the sink.');
    expect(items[0]).toHaveTextContent(/^You · /);
    expect(items[1]).toHaveTextContent('Is the valve accessible? Call me at [number hidden]');
    expect(screen.getByText('Translated from French')).toBeVisible();
    expect(screen.getByText('Contact details are shared once you hire.')).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Show original' }));
    expect(items[1]).toHaveTextContent('La valve est-elle accessible?');
    expect(within(items[1]!).getByText(/La valve/)).toHaveAttribute('lang', 'fr');
  });
});

describe('the note under one’s own message with contact details', () => {
  // The server tells the author which of their messages the other party reads masked.
  const own = [
    {
      sequence: 2n,
      author: MessageAuthor.CUSTOMER,
      text: 'Call me at 403-555-0100.',
      maskedForOtherParty: true,
    },
    { sequence: 1n, author: MessageAuthor.CUSTOMER, text: 'The pipe burst under the sink.' },
  ];

  it.each([
    {
      language: 'en',
      note: 'The professional sees the contact details in this message masked until you hire them.',
    },
    {
      language: 'fr',
      note: 'Le professionnel voit les coordonnées de ce message masquées jusqu’à ce que vous l’engagiez.',
    },
  ])(
    'says the professional sees them masked until the hire ($language)',
    async ({ language, note }) => {
      localStorage.setItem('lang', language);
      const { transport } = requestPage(own);
      renderApp(`/user-view-request/${REQUEST_ID}`, transport);
      const thread = await screen.findByRole('region', { name: /Quinn Quoter/ });
      const [first, second] = await within(thread).findAllByRole('listitem');
      expect(within(second!).getByText(note)).toBeVisible();
      expect(within(first!).queryByText(note)).toBeNull();
    },
  );

  it('says nothing once the professional is hired: they read it whole', async () => {
    const whole = own.map((message) => ({ ...message, maskedForOtherParty: false }));
    const { transport } = requestPage(whole, repairRequest({ state: RepairRequestState.HIRED }));
    renderApp(`/user-view-request/${REQUEST_ID}`, transport);
    const thread = await screen.findByRole('region', { name: /Quinn Quoter/ });
    const items = await within(thread).findAllByRole('listitem');
    expect(items[1]).toHaveTextContent('Call me at 403-555-0100.');
    expect(screen.queryByText(/masked until you hire/)).toBeNull();
  });
});

/** The requests of `method` the server got, typed. */
type Requests = ReturnType<typeof customerServer>['requests'];

describe('a conversation, live', () => {
  it('marks what is shown read, adds what arrives, and resumes after the newest one shown', async () => {
    const { stream, transport, requests } = requestPage();
    const typed = requests as Requests;
    renderApp(`/user-view-request/${REQUEST_ID}`, transport);
    const thread = await screen.findByRole('region', {
      name: 'Messages: Messages with Quinn Quoter',
    });
    await within(thread).findAllByRole('listitem');
    await waitFor(() =>
      expect(typed<MarkConversationReadRequest>('markConversationRead')).toEqual([
        expect.objectContaining({
          repairRequestId: REQUEST_ID,
          professionalId: QUINN,
          sequence: 2n,
        }),
      ]),
    );
    await waitFor(() =>
      expect(typed<WatchConversationRequest>('watchConversation')).toEqual([
        expect.objectContaining({ professionalId: QUINN, afterSequence: 2n }),
      ]),
    );
    expect(typed<ListMessagesRequest>('listMessages')[0]).toMatchObject({ professionalId: QUINN });

    const arrives = () =>
      act(() =>
        stream.push({
          event: {
            case: 'message',
            value: { sequence: 3n, author: MessageAuthor.PROFESSIONAL, text: 'On my way.' },
          },
        } as Partial<WatchConversationResponse>),
      );
    arrives();
    expect(await within(thread).findByText('On my way.')).toBeVisible();
    expect(screen.getByText('New message from Quinn Quoter: On my way.')).toBeInTheDocument();
    await waitFor(() =>
      expect(typed<MarkConversationReadRequest>('markConversationRead').at(-1)?.sequence).toBe(3n),
    );
    // Seen twice (the stream after a send): shown once.
    arrives();
    await waitFor(() => expect(within(thread).getAllByText('On my way.')).toHaveLength(1));

    // The server closes the stream: it is opened again after the newest message shown.
    act(() => stream.end());
    await waitFor(
      () =>
        expect(typed<WatchConversationRequest>('watchConversation').at(-1)?.afterSequence).toBe(3n),
      { timeout: 4000 },
    );
    expect(typed<WatchConversationRequest>('watchConversation')).toHaveLength(2);
  });

  it('blocks the professional from the thread’s More actions, after saying what it does', async () => {
    const user = userEvent.setup();
    let blocked = false;
    const { transport, requests } = requestPage(MESSAGES, repairRequest(), {
      listBlockedProfessionals: () => ({
        blockedProfessionals: blocked
          ? [{ professionalId: QUINN, professionalName: 'Quinn Quoter' }]
          : [],
      }),
      blockProfessional: () => {
        blocked = true;
        return {};
      },
    });
    renderApp(`/user-view-request/${REQUEST_ID}`, transport);
    const menu = 'More actions: Messages with Quinn Quoter';
    await screen.findByRole('button', { name: menu }, { timeout: FIRST_RENDER_MS });
    // Nothing red above the messages: Block waits in the menu, beside Report.
    expect(screen.queryByRole('button', { name: 'Block Quinn Quoter' })).toBeNull();
    await chooseMoreAction(user, 'Block Quinn Quoter', { menu });
    const question = await screen.findByRole('alertdialog', { name: 'Block Quinn Quoter?' });
    expect(question).toHaveTextContent(
      'Quinn Quoter will no longer be able to write to you or send quotes on any of your requests.',
    );
    await user.click(within(question).getByRole('button', { name: 'Block' }));
    expect(await screen.findByText('You blocked Quinn Quoter.')).toBeVisible();
    expect((requests as Requests)('blockProfessional')).toEqual([
      expect.objectContaining({ professionalId: QUINN }),
    ]);
    expect(
      await screen.findByText(
        'You blocked Quinn Quoter: they cannot write to you or send quotes on your requests.',
      ),
    ).toBeVisible();

    // Now the menu offers to unblock, asked first as well.
    await chooseMoreAction(user, 'Unblock Quinn Quoter', { menu });
    expect(
      await screen.findByRole('alertdialog', { name: 'Unblock Quinn Quoter?' }),
    ).toHaveTextContent(
      'Quinn Quoter will be able to write to you and send quotes on your requests again.',
    );
  });

  it('opens the conversation with another professional picked in the list', async () => {
    const user = userEvent.setup();
    const { transport, requests } = requestPage();
    const { router } = renderApp(`/user-view-request/${REQUEST_ID}`, transport);
    const people = await screen.findByRole('list', { name: 'Conversations on this request' });
    await user.click(within(people).getByRole('button', { name: /Robin Roofer/ }));
    expect(
      await screen.findByRole('heading', { level: 3, name: 'Messages with Robin Roofer' }),
    ).toBeVisible();
    expect(await screen.findByText('No messages yet. Write the first one below.')).toBeVisible();
    expect(router.state.location.search).toBe(`?professional=${ROBIN}`);
    expect((requests as Requests)<ListMessagesRequest>('listMessages').at(-1)?.professionalId).toBe(
      ROBIN,
    );
  });
});

describe('unread counts', () => {
  it('shows the total on the Messages link and the dashboard, and follows it when the page is back in view', async () => {
    let total = 2;
    const { transport, requests } = customerServer({
      listConversations: () => ({
        conversations: total > 0 ? [conversation(total)] : [],
        unreadTotal: total,
      }),
    });
    renderApp('/user-dashboard', transport);
    const menu = (await screen.findAllByRole('navigation', { name: 'Customer menu' }))[0]!;
    expect(
      await within(menu).findByRole('link', { name: 'Messages 2 unread messages' }),
    ).toHaveAttribute('href', '/user-messages');
    const messages = screen.getByRole('region', { name: /^Messages/ });
    expect(await within(messages).findByText('2 unread messages.')).toBeVisible();
    expect(
      within(messages).getByRole('link', { name: 'Plumbing Services · Quinn Quoter' }),
    ).toHaveAttribute('href', `/user-view-request/${REQUEST_ID}?professional=${QUINN}#messages`);

    // Read elsewhere (another tab, the phone): back on this page, the counts follow.
    total = 0;
    const before = (requests as Requests)<ListConversationsRequest>('listConversations').length;
    act(() => {
      document.dispatchEvent(new Event('visibilitychange', { bubbles: true }));
    });
    await waitFor(() =>
      expect(
        (requests as Requests)<ListConversationsRequest>('listConversations').length,
      ).toBeGreaterThan(before),
    );
    expect(await within(menu).findByRole('link', { name: 'Messages' })).toBeVisible();
    expect(await within(messages).findByText('No unread messages.')).toBeVisible();
  });

  it('shows a professional’s first message on the open request page within two seconds, as on the Messages link', async () => {
    let written = false;
    const { transport } = customerServer({
      getRepairRequest: () => ({ repairRequest: repairRequest() }),
      listRepairRequestQuotes: () => ({ quotes: [] }),
      listConversations: (request) => ({
        conversations: written && request.pageSize !== 1 ? [conversation(1)] : [],
        unreadTotal: written ? 1 : 0,
      }),
      listBlockedProfessionals: () => ({ blockedProfessionals: [] }),
    });
    // From the dashboard, where the count is known to be zero, to the request's page.
    const { router } = renderApp('/user-dashboard', transport);
    expect(await screen.findByText('No unread messages.')).toBeVisible();
    await act(() => router.navigate(`/user-view-request/${REQUEST_ID}`));
    const menu = (await screen.findAllByRole('navigation', { name: 'Customer menu' }))[0]!;
    expect(await screen.findByText('No messages yet')).toBeVisible();

    // Quinn writes first: no stream tells of a conversation this page does not show yet.
    written = true;
    const people = await screen.findByRole(
      'list',
      { name: 'Conversations on this request' },
      { timeout: 2500 },
    );
    expect(within(people).getByRole('button')).toHaveAccessibleName(
      'Quinn Quoter Is the valve free? 1 unread message',
    );
    expect(screen.queryByText('No messages yet')).toBeNull();
    expect(
      await within(menu).findByRole('link', { name: 'Messages 1 unread message' }),
    ).toBeVisible();
  });

  it('shows the total on the Menu button of a phone', async () => {
    setViewportWidth(390);
    const { transport } = customerServer({
      listConversations: () => ({ conversations: [], unreadTotal: 4 }),
    });
    renderApp('/user-dashboard', transport);
    expect(await screen.findByRole('button', { name: 'Menu 4 unread messages' })).toBeVisible();
  });
});
