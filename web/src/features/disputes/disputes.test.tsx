import { create, type MessageInitShape } from '@bufbuild/protobuf';
import { timestampFromMs } from '@bufbuild/protobuf/wkt';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  DisputeEvidenceSchema,
  DisputeSchema,
  DisputeState,
  type SubmitDisputeEvidenceRequest,
} from '@/gen/repairs/billing/v1/billing_pb';
import { MoneySchema } from '@/gen/repairs/type/v1/common_pb';
import { renderApp } from '@/test/render-app';
import {
  Code,
  PROFESSIONAL_ID,
  REQUEST_ID,
  rpcError,
  signIn,
  stubServer,
  type BillingImpl,
} from '@/test/stub-server';

/** The first render waits for the page's code, loaded lazily: longer on a busy machine. */
const FIRST_RENDER = { timeout: 10_000 };
const DISPUTE_ID = '0190a6c0-5555-7000-8000-000000000005';
const PAYMENT_ID = '0190a6c0-6666-7000-8000-000000000006';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const cad = (amountCents: bigint) => create(MoneySchema, { amountCents, currency: 'CAD' });

const dispute = (fields: MessageInitShape<typeof DisputeSchema> = {}) =>
  create(DisputeSchema, {
    id: DISPUTE_ID,
    gatewayDisputeId: 'dp_test_1',
    paymentId: PAYMENT_ID,
    repairRequestId: REQUEST_ID,
    professionalId: PROFESSIONAL_ID,
    amount: cad(12000n),
    reason: 'product_not_received',
    state: DisputeState.NEEDS_RESPONSE,
    evidenceDueTime: timestampFromMs(Date.UTC(2026, 11, 20, 12)),
    createTime: timestampFromMs(Date.UTC(2026, 11, 1, 15)),
    testMode: true,
    ...fields,
  });

const evidence = (fields: MessageInitShape<typeof DisputeEvidenceSchema> = {}) =>
  create(DisputeEvidenceSchema, {
    customerName: 'Casey Customer',
    customerEmail: 'casey@example.ca',
    requestTitle: 'Plumbing Services',
    requestDescription: 'Water leaking under the kitchen sink',
    quoteAmount: cad(12000n),
    quoteEstimatedMinutes: 90,
    hireTime: timestampFromMs(Date.UTC(2026, 10, 20, 14)),
    completionTime: timestampFromMs(Date.UTC(2026, 10, 21, 16)),
    // Given out of order: the page shows them oldest first.
    messages: [
      {
        author: 'professional',
        sendTime: timestampFromMs(Date.UTC(2026, 10, 20, 15)),
        text: 'On my way, there in 30 minutes',
      },
      {
        author: 'customer',
        sendTime: timestampFromMs(Date.UTC(2026, 10, 20, 14, 30)),
        text: 'Please come as soon as you can',
      },
    ],
    photoCount: 3,
    receiptId: PAYMENT_ID,
    charged: cad(13560n),
    ...fields,
  });

function adminServer(billing: BillingImpl) {
  signIn('admin', 'a1');
  return stubServer({}, billing);
}

/** A server whose dispute waits for evidence, then is as the submission left it. */
function disputeServer(submit: (request: SubmitDisputeEvidenceRequest) => void) {
  let current = { dispute: dispute(), evidence: evidence() };
  return adminServer({
    getDispute: () => current,
    submitDisputeEvidence: (request) => {
      submit(request);
      current = {
        dispute: dispute({
          state: DisputeState.WON,
          evidenceDueTime: undefined,
          evidenceSubmitTime: timestampFromMs(Date.UTC(2026, 11, 2, 9)),
        }),
        evidence: evidence({
          note: request.note,
          submittedText: 'Service documentation: the job was completed on site.',
        }),
      };
      return current;
    },
  });
}

const section = (name: string) => screen.getByRole('region', { name });

// The pages' code is loaded once before the tests, so that no test waits for it.
beforeAll(async () => {
  await Promise.all([import('./routes/disputes-page'), import('./routes/dispute-page')]);
}, 120_000);

describe('card disputes: the admins', () => {
  it('list the disputes waiting for evidence, each leading to its page, and all of them', async () => {
    const { transport, requests } = adminServer({
      listDisputes: (request) => ({
        disputes: request.state === DisputeState.NEEDS_RESPONSE ? [dispute()] : [],
        nextPageToken: '',
      }),
    });
    renderApp('/admin/disputes', transport);
    const link = await screen.findByRole(
      'link',
      { name: /^Dispute of \$120\.00 opened / },
      FIRST_RENDER,
    );
    expect(link).toHaveAttribute('href', `/admin/disputes/${DISPUTE_ID}`);
    expect(link).toHaveTextContent('$120.00');
    expect(screen.getByText('Service not received')).toBeVisible();
    await userEvent.click(screen.getByRole('radio', { name: 'All' }));
    expect(await screen.findByText('No disputes here.')).toBeVisible();
    expect(requests('listDisputes').map((request) => request.state)).toEqual([
      DisputeState.NEEDS_RESPONSE,
      DisputeState.UNSPECIFIED,
    ]);
  });

  it('show the list’s error', async () => {
    const { transport } = adminServer({
      listDisputes: () => {
        throw rpcError(Code.PermissionDenied, 'ROLE_NOT_ALLOWED');
      },
    });
    renderApp('/admin/disputes', transport);
    expect(await screen.findByRole('alert', undefined, FIRST_RENDER)).toBeVisible();
  });

  it('read the dispute, its evidence and the conversation, oldest message first', async () => {
    const { transport } = disputeServer(() => {});
    renderApp(`/admin/disputes/${DISPUTE_ID}`, transport);
    expect(await screen.findByText('Casey Customer', undefined, FIRST_RENDER)).toBeVisible();
    expect(screen.getByText('TEST MODE')).toBeVisible();
    expect(screen.getByText(PAYMENT_ID)).toBeVisible();
    expect(screen.getByRole('link', { name: 'See it in the order history' })).toHaveAttribute(
      'href',
      '/admin/order-history',
    );
    const facts = section('Evidence');
    expect(within(facts).getByText('casey@example.ca')).toBeVisible();
    expect(within(facts).getByText('Water leaking under the kitchen sink')).toBeVisible();
    expect(within(facts).getByText('$135.60')).toBeVisible();
    // No arrival was recorded.
    expect(within(facts).getByText('Not recorded')).toBeVisible();
    expect(within(facts).getByText('3 photos')).toBeVisible();
    expect(within(facts).getByRole('link', { name: 'Open the receipt' })).toHaveAttribute(
      'href',
      expect.stringMatching(new RegExp(`^/receipts/${PAYMENT_ID}`)),
    );
    const messages = within(
      section('Messages between the customer and the professional'),
    ).getAllByRole('listitem');
    expect(messages.map((message) => message.textContent)).toEqual([
      expect.stringMatching(/^Customer, .*Please come as soon as you can$/),
      expect.stringMatching(/^Professional, .*On my way, there in 30 minutes$/),
    ]);
  });

  it('send the evidence with a note and a UUID request_id, then read it as sent', async () => {
    const submissions: SubmitDisputeEvidenceRequest[] = [];
    const { transport } = disputeServer((request) => submissions.push(request));
    renderApp(`/admin/disputes/${DISPUTE_ID}`, transport);
    const note = await screen.findByRole(
      'textbox',
      { name: 'Your note to the bank' },
      FIRST_RENDER,
    );
    await userEvent.type(note, 'The job was done');
    expect(screen.getByText('16 of 2,000 characters')).toBeVisible();
    await userEvent.click(screen.getByRole('button', { name: 'Send the evidence' }));
    await waitFor(() => expect(submissions).toHaveLength(1));
    expect(submissions[0]).toMatchObject({ disputeId: DISPUTE_ID, note: 'The job was done' });
    expect(submissions[0]?.requestId).toMatch(UUID);

    // The form is gone: the focus is on the news that the evidence was sent.
    const news = await screen.findByText('The evidence was sent to the bank.');
    await waitFor(() => expect(news.closest('[tabindex="-1"]')).toHaveFocus());
    const sent = section('Sent to the bank');
    expect(within(sent).getByText('The job was done')).toBeVisible();
    expect(
      within(sent).getByText('Service documentation: the job was completed on site.'),
    ).toBeVisible();
    expect(screen.getByText('Won')).toBeVisible();
    expect(screen.queryByRole('button', { name: 'Send the evidence' })).toBeNull();
  });

  it('say in French that a dispute no longer takes evidence', async () => {
    localStorage.setItem('lang', 'fr');
    const { transport } = adminServer({
      getDispute: () => ({ dispute: dispute(), evidence: evidence() }),
      submitDisputeEvidence: () => {
        throw rpcError(Code.FailedPrecondition, 'DISPUTE_CLOSED');
      },
    });
    renderApp(`/admin/disputes/${DISPUTE_ID}`, transport);
    const send = await screen.findByRole('button', { name: 'Envoyer les preuves' }, FIRST_RENDER);
    await userEvent.click(send);
    expect(await screen.findByRole('alert')).toHaveTextContent(
      // The no-break space before the colon reads as a space here (the text is normalized).
      /^Ce litige ne reçoit plus de preuves : elles ont déjà été envoyées, ou la banque a tranché\./,
    );
    expect(screen.getByRole('button', { name: 'Envoyer les preuves' })).toBeVisible();
  });
});
