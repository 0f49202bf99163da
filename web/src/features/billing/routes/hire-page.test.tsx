import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import {
  OrderState,
  PaymentMode,
  PaymentState,
  TestAuthentication,
  type HireProfessionalRequest,
  type PaymentState as State,
} from '@/gen/repairs/billing/v1/billing_pb';
import { QuoteTaxTreatment } from '@/gen/repairs/marketplace/v1/marketplace_pb';
import { Language } from '@/gen/repairs/type/v1/common_pb';
import { renderApp } from '@/test/render-app';
import { montrealTaxes } from '@/test/taxes';
import { Code, customerServer, rpcError, type BillingImpl } from '@/test/stub-server';

const QUOTE_ID = '0190a6c0-4444-7000-8000-000000000004';
const CAD = (amountCents: number) => ({ amountCents: BigInt(amountCents), currency: 'CAD' });

/** The order a hire makes, its payment in `state`. */
const order = (state: State) => ({
  order: {
    id: 'order-1',
    quoteId: QUOTE_ID,
    state: state === PaymentState.AUTHORIZED ? OrderState.AUTHORIZED : OrderState.REQUIRES_ACTION,
    payment: { id: 'pay-1', state, amount: CAD(123450), nextAction: { clientSecret: 'secret' } },
  },
});

/** A signed-in customer hiring a quote of 1,234.50 CAD on the test gateway. */
function hireServer(hireProfessional: BillingImpl['hireProfessional'], billing: BillingImpl = {}) {
  return customerServer(
    {},
    {
      getPaymentConfig: () => ({ mode: PaymentMode.TEST_GATEWAY }),
      previewHire: () => ({
        serviceName: 'Plumbing Services',
        estimatedMinutes: 90,
        professionalName: 'Paule Pro',
        fee: CAD(123450),
        amountPayable: CAD(123450),
      }),
      hireProfessional,
      ...billing,
    },
  );
}

async function pay(user: ReturnType<typeof userEvent.setup>, card: string) {
  const field = await screen.findByLabelText(/^Card number/);
  await user.clear(field);
  await user.type(field, card);
  await user.click(screen.getByRole('button', { name: /^Hire and pay/ }));
}

describe('hire', () => {
  it('shows the booking summary from the server in English', async () => {
    const { transport, requests } = hireServer(() => order(PaymentState.AUTHORIZED));
    renderApp(`/hire/${QUOTE_ID}`, transport);
    const summary = await screen.findByRole('region', { name: 'Booking summary' });
    for (const text of ['Plumbing Services', '1.5 hrs', 'Paule Pro']) {
      expect(summary).toHaveTextContent(text);
    }
    expect(screen.getByTestId('total')).toHaveTextContent('$1,234.50');
    expect(screen.getByRole('button', { name: 'Hire and pay $1,234.50' })).toBeVisible();
    expect(requests('previewHire')).toEqual([
      expect.objectContaining({ quoteId: QUOTE_ID, language: Language.EN }),
    ]);
  });

  it('shows the amounts in French and asks for the service name in French', async () => {
    localStorage.setItem('lang', 'fr');
    const { transport, requests } = hireServer(() => order(PaymentState.AUTHORIZED));
    renderApp(`/hire/${QUOTE_ID}`, transport);
    expect((await screen.findByTestId('total')).textContent).toBe('1\u00a0234,50\u00a0$');
    expect(screen.getByRole('region', { name: 'Récapitulatif' })).toHaveTextContent(
      'Type de service',
    );
    // The hire places a hold: the button says so, not that it pays.
    expect(screen.getByRole('button', { name: 'Réserver 1\u00a0234,50\u00a0$' })).toBeVisible();
    expect(requests('previewHire')).toEqual([
      expect.objectContaining({ quoteId: QUOTE_ID, language: Language.FR }),
    ]);
  });

  it('shows fee + TPS + TVQ = the amount held in French, and names the total on the button', async () => {
    localStorage.setItem('lang', 'fr');
    const { transport } = hireServer(() => order(PaymentState.AUTHORIZED), {
      previewHire: () => ({
        serviceName: 'Services de plomberie',
        estimatedMinutes: 120,
        professionalName: 'Paule Pro',
        fee: CAD(20000),
        subtotal: CAD(20000),
        taxes: montrealTaxes(),
        total: CAD(22995),
        amountPayable: CAD(22995),
        taxTreatment: QuoteTaxTreatment.ADDED,
      }),
    });
    renderApp(`/hire/${QUOTE_ID}`, transport);
    await waitFor(() => expect(screen.getByTestId('total').textContent).toBe('229,95\u00a0$'));
    const rows = Array.from(screen.getByTestId('sale').querySelectorAll(':scope > div'), (row) =>
      Array.from(row.children, (cell) => cell.textContent).join(' '),
    ).filter((text) => text.trim() !== '');
    expect(rows).toEqual([
      'Frais 200,00\u00a0$',
      'TPS 5\u00a0% 10,00\u00a0$',
      'TVQ 9,975\u00a0% 19,95\u00a0$',
      'Montant à réserver 229,95\u00a0$',
    ]);
    expect(screen.getByRole('button', { name: 'Réserver 229,95\u00a0$' })).toBeVisible();
  });

  it('says a professional who is not registered charges no tax', async () => {
    const { transport } = hireServer(() => order(PaymentState.AUTHORIZED), {
      previewHire: () => ({
        serviceName: 'Plumbing Services',
        estimatedMinutes: 60,
        professionalName: 'Paule Pro',
        fee: CAD(20000),
        subtotal: CAD(20000),
        total: CAD(20000),
        amountPayable: CAD(20000),
        taxTreatment: QuoteTaxTreatment.NOT_REGISTERED,
      }),
    });
    renderApp(`/hire/${QUOTE_ID}`, transport);
    expect(
      await screen.findByText('No tax: this professional is not registered for GST/HST.'),
    ).toBeVisible();
    expect(screen.getByTestId('total')).toHaveTextContent('$200.00');
    expect(screen.queryByText(/^GST/)).toBeNull();
    expect(screen.getByRole('button', { name: 'Hire and pay $200.00' })).toBeVisible();
  });

  it('hires with the test card, then says the professional is hired and the amount held', async () => {
    const { transport, requests } = hireServer(() => order(PaymentState.AUTHORIZED));
    const { router } = renderApp(`/hire/${QUOTE_ID}`, transport);
    await pay(userEvent.setup(), '4242 4242 4242 4242');
    await waitFor(() => expect(router.state.location.pathname).toBe('/hired-successfully'));
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Professional hired, amount held' }),
    ).toBeVisible();
    const [sent] = requests<HireProfessionalRequest>('hireProfessional');
    expect(sent).toMatchObject({ quoteId: QUOTE_ID, paymentMethod: '4242 4242 4242 4242' });
    expect(sent?.requestId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('shows a decline; the next press is a new attempt, a retry after a lost answer the same', async () => {
    let answer = () => rpcError(Code.FailedPrecondition, 'PAYMENT_DECLINED');
    const { transport, requests } = hireServer(() => {
      throw answer();
    });
    renderApp(`/hire/${QUOTE_ID}`, transport);
    const user = userEvent.setup();
    await pay(user, '4000 0000 0000 0002');
    expect(
      await screen.findByText('Your card was declined. Try another card or contact your bank.'),
    ).toBeVisible();
    answer = () => rpcError(Code.Unavailable, 'UNAVAILABLE');
    await pay(user, '4000 0000 0000 0002');
    await waitFor(() => expect(requests('hireProfessional')).toHaveLength(2));
    await pay(user, '4000 0000 0000 0002');
    await waitFor(() => expect(requests('hireProfessional')).toHaveLength(3));
    const keys = requests<HireProfessionalRequest>('hireProfessional').map(
      (sent) => sent.requestId,
    );
    expect(keys[1]).not.toBe(keys[0]);
    expect(keys[2]).toBe(keys[1]);
  });

  it('asks for authentication when the card needs it, then hires on approval', async () => {
    const { transport, requests } = hireServer(() => order(PaymentState.REQUIRES_ACTION), {
      confirmPayment: () => ({ payment: { id: 'pay-1', state: PaymentState.AUTHORIZED } }),
    });
    const { router } = renderApp(`/hire/${QUOTE_ID}`, transport);
    const user = userEvent.setup();
    await pay(user, '4000 0025 0000 3155');
    await user.click(await screen.findByRole('button', { name: 'Approve' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/hired-successfully'));
    expect(requests('confirmPayment')).toEqual([
      expect.objectContaining({
        paymentId: 'pay-1',
        testAuthentication: TestAuthentication.APPROVE,
      }),
    ]);
  });

  it('says so when the cardholder refuses, and offers the card form again', async () => {
    const { transport } = hireServer(() => order(PaymentState.REQUIRES_ACTION), {
      confirmPayment: () => ({ payment: { id: 'pay-1', state: PaymentState.FAILED } }),
    });
    const { router } = renderApp(`/hire/${QUOTE_ID}`, transport);
    const user = userEvent.setup();
    await pay(user, '4000 0025 0000 3155');
    await user.click(await screen.findByRole('button', { name: 'Refuse' }));
    expect(
      await screen.findByText('The card could not be authenticated. Nothing was charged.'),
    ).toBeVisible();
    expect(screen.getByLabelText(/^Card number/)).toBeVisible();
    expect(router.state.location.pathname).toBe(`/hire/${QUOTE_ID}`);
  });

  it('shows a quote that cannot be hired any more in the page', async () => {
    const { transport } = hireServer(undefined, {
      previewHire: () => {
        throw rpcError(Code.NotFound, 'NOT_FOUND');
      },
    });
    renderApp(`/hire/${QUOTE_ID}`, transport);
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'We could not find what you are looking for.',
    );
    expect(screen.queryByLabelText(/^Card number/)).toBeNull();
  });
});
