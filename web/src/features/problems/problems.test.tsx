import { create, type MessageInitShape } from '@bufbuild/protobuf';
import { timestampFromMs } from '@bufbuild/protobuf/wkt';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  ConversationState,
  JobEventKind,
  JobProblemOutcome,
  JobProblemSchema,
  JobProblemState,
  MessageAuthor,
  type ResolveJobProblemRequest,
} from '@/gen/repairs/marketplace/v1/marketplace_pb';
import { renderApp } from '@/test/render-app';
import {
  CUSTOMER_ID,
  Code,
  PROFESSIONAL_ID,
  REQUEST_ID,
  rpcError,
  signIn,
  stubServer,
  type MarketplaceImpl,
} from '@/test/stub-server';

/** The first render waits for the page's code, loaded lazily: longer on a busy machine. */
const FIRST_RENDER = { timeout: 10_000 };
const PROBLEM_ID = '0190a6c0-4444-7000-8000-000000000004';

const problem = (fields: MessageInitShape<typeof JobProblemSchema> = {}) =>
  create(JobProblemSchema, {
    id: PROBLEM_ID,
    repairRequestId: REQUEST_ID,
    customerId: CUSTOMER_ID,
    professionalId: PROFESSIONAL_ID,
    customerName: 'Casey Customer',
    professionalName: 'Paule Pro',
    serviceName: 'Plumbing Services',
    text: 'The leak is back under the sink',
    state: JobProblemState.OPEN,
    createTime: timestampFromMs(Date.UTC(2026, 11, 1, 15)),
    ...fields,
  });

function adminServer(marketplace: MarketplaceImpl) {
  signIn('admin', 'a1');
  return stubServer({}, {}, { marketplace });
}

// The pages' code is loaded once before the tests, so that no test waits for it.
beforeAll(async () => {
  await Promise.all([import('./routes/problems-queue-page'), import('./routes/problem-page')]);
}, 120_000);

describe('a problem after the job: the admins', () => {
  it('list the open problems, each leading to its page, and say when there are none', async () => {
    const { transport, requests } = adminServer({
      listJobProblems: (request) => ({
        problems: request.state === JobProblemState.OPEN ? [problem()] : [],
        nextPageToken: '',
      }),
    });
    renderApp('/admin/problems', transport);
    const link = await screen.findByRole(
      'link',
      { name: 'Plumbing Services: Casey Customer and Paule Pro' },
      FIRST_RENDER,
    );
    expect(link).toHaveAttribute('href', `/admin/problems/${PROBLEM_ID}`);
    await userEvent.click(screen.getByRole('radio', { name: 'Resolved' }));
    expect(await screen.findByText('No problems here.')).toBeVisible();
    expect(requests('listJobProblems').map((r) => r.state)).toEqual([
      JobProblemState.OPEN,
      JobProblemState.RESOLVED,
    ]);
  });

  it('show the queue’s error', async () => {
    const { transport } = adminServer({
      listJobProblems: () => {
        throw rpcError(Code.PermissionDenied, 'ROLE_NOT_ALLOWED');
      },
    });
    renderApp('/admin/problems', transport);
    expect(await screen.findByRole('alert', undefined, FIRST_RENDER)).toBeVisible();
  });

  it('read the history and the conversation, write as Support, and resolve with an outcome', async () => {
    const resolutions: ResolveJobProblemRequest[] = [];
    const { transport } = adminServer({
      getJobProblem: () => ({
        problem: problem(),
        history: [
          { kind: JobEventKind.POSTED, time: timestampFromMs(Date.UTC(2026, 10, 20)) },
          {
            kind: JobEventKind.PAYMENT_CAPTURED,
            time: timestampFromMs(Date.UTC(2026, 10, 22)),
            amountCents: 12000n,
          },
        ],
      }),
      listMessages: () => ({
        conversation: {
          repairRequestId: REQUEST_ID,
          professionalId: PROFESSIONAL_ID,
          state: ConversationState.OPEN,
        },
        messages: [
          { sequence: 2n, author: MessageAuthor.ADMIN, text: 'We are looking into it' },
          { sequence: 1n, author: MessageAuthor.CUSTOMER, text: 'It drips again' },
        ],
      }),
      resolveJobProblem: (request) => {
        resolutions.push(request);
        return { problem: problem({ state: JobProblemState.RESOLVED }) };
      },
    });
    renderApp(`/admin/problems/${PROBLEM_ID}`, transport);
    expect(await screen.findByText('Card charged $120.00', undefined, FIRST_RENDER)).toBeVisible();
    expect(await screen.findByText('We are looking into it')).toBeVisible();
    expect(screen.getByRole('button', { name: /Send/ })).toBeVisible();

    const resolve = screen.getByRole('button', { name: 'Resolve the problem' });
    await userEvent.click(resolve);
    expect(await screen.findByText('Choose the outcome.')).toBeVisible();
    expect(screen.getByText('Write a note to both parties.')).toBeVisible();
    await userEvent.click(screen.getByRole('radio', { name: 'A refund' }));
    expect(screen.getByRole('link', { name: 'Open the order history' })).toHaveAttribute(
      'href',
      '/admin/order-history',
    );
    await userEvent.type(screen.getByLabelText(/Note to both parties/), 'Refunded half');
    await userEvent.click(resolve);
    await waitFor(() => expect(resolutions).toHaveLength(1));
    expect(resolutions[0]).toMatchObject({
      id: PROBLEM_ID,
      outcome: JobProblemOutcome.REFUND,
      note: 'Refunded half',
    });
  });
});
