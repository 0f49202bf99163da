import { timestampFromMs } from '@bufbuild/protobuf/wkt';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PaymentPurpose, PaymentState } from '@/gen/repairs/billing/v1/billing_pb';
import { Language } from '@/gen/repairs/type/v1/common_pb';
import { renderApp } from '@/test/render-app';
import { CAD, GST_HST_NUMBER, montrealTaxes, QST_NUMBER } from '@/test/taxes';
import {
  CUSTOMER_ID,
  Code,
  PROFESSIONAL_ID,
  rpcError,
  signIn,
  stubServer,
  type BillingImpl,
} from '@/test/stub-server';

const PAYMENT_ID = '0190a6c0-5555-7000-8000-000000000005';

/** A Montréal job by a professional registered for GST/HST and QST, held on the card. */
const montrealReceipt = (fields: Record<string, unknown> = {}) => ({
  receipt: {
    paymentId: PAYMENT_ID,
    purpose: PaymentPurpose.HIRE,
    state: PaymentState.AUTHORIZED,
    seller: { name: 'Paule Pro', gstHstNumber: GST_HST_NUMBER, qstNumber: QST_NUMBER },
    buyer: { name: 'Casey Customer' },
    description: 'Services de plomberie : travaux à H2X 1Y4',
    supplyDate: '2026-12-01',
    province: 'QC',
    subtotal: CAD(20000),
    taxes: montrealTaxes(),
    total: CAD(22995),
    createTime: timestampFromMs(Date.UTC(2026, 11, 1, 15)),
    testMode: true,
    ...fields,
  },
});

function receiptServer(getReceipt: BillingImpl['getReceipt']) {
  return stubServer({}, { getReceipt });
}

/** The sale's rows as read: each label (and number) and amount. */
function saleRows() {
  return Array.from(screen.getByTestId('sale').querySelectorAll(':scope > div'), (row) =>
    Array.from(row.children, (cell) => cell.textContent).join(' '),
  ).filter((text) => text.trim() !== '');
}

afterEach(() => vi.restoreAllMocks());

describe('receipt', () => {
  it('shows a hold in French: the seller’s numbers, both taxes with their numbers, the total', async () => {
    localStorage.setItem('lang', 'fr');
    signIn('customer', CUSTOMER_ID);
    const server = receiptServer(() => montrealReceipt());
    renderApp(`/fr/receipts/${PAYMENT_ID}`, server.transport);
    expect(await screen.findByRole('heading', { level: 1, name: 'Reçu' })).toBeVisible();
    const seller = await screen.findByRole('region', { name: 'Vendeur' });
    expect(seller).toHaveTextContent('Paule Pro');
    expect(seller).toHaveTextContent('Numéro d’inscription à la TPS/TVH : 123456789RT0001');
    expect(seller).toHaveTextContent('Numéro d’inscription à la TVQ : 1234567890TQ0001');
    expect(screen.getByRole('region', { name: 'Acheteur' })).toHaveTextContent('Casey Customer');
    expect(screen.getByText('Date de la fourniture').nextSibling).toHaveTextContent(
      '1er décembre 2026',
    );
    expect(screen.getByText('Québec')).toBeVisible();
    expect(saleRows()).toEqual([
      'Sous-total 200,00\u00a0$',
      'TPS 5\u00a0%Numéro d’inscription\u00a0: 123456789RT0001 10,00\u00a0$',
      'TVQ 9,975\u00a0%Numéro d’inscription\u00a0: 1234567890TQ0001 19,95\u00a0$',
      'Total 229,95\u00a0$',
    ]);
    // (toHaveTextContent reads no-break spaces as spaces.)
    expect(screen.getByTestId('receipt-state')).toHaveTextContent(
      'Préautorisation : rien n’est encore prélevé',
    );
    expect(screen.getByText('MODE TEST')).toBeVisible();
    expect(server.requests('getReceipt')).toEqual([
      expect.objectContaining({ paymentId: PAYMENT_ID, language: Language.FR }),
    ]);
  });

  it('shows the credit note of a refund: what it gave back, the original total and why', async () => {
    signIn('customer', CUSTOMER_ID);
    const refundId = '0190a6c0-6666-7000-8000-000000000006';
    const server = receiptServer(() =>
      montrealReceipt({
        state: PaymentState.CAPTURED,
        refundId,
        refundReason: 'The leak came back',
        originalTotal: CAD(22995),
        subtotal: CAD(5000),
        taxes: [],
        total: CAD(5000),
        refundTime: timestampFromMs(Date.UTC(2026, 11, 3, 15)),
      }),
    );
    renderApp(`/receipts/${PAYMENT_ID}?refund=${refundId}`, server.transport);
    expect(await screen.findByRole('heading', { level: 1, name: 'Credit note' })).toBeVisible();
    expect(await screen.findByTestId('receipt-state')).toHaveTextContent('Refund');
    expect(screen.getByText('Credit note number').nextSibling).toHaveTextContent(refundId);
    expect(screen.getByText('Original total').nextSibling).toHaveTextContent('$229.95');
    expect(screen.getByText('Reason for the refund').nextSibling).toHaveTextContent(
      'The leak came back',
    );
    expect(saleRows()).toEqual(['Subtotal $50.00', 'Total $50.00']);
    expect(server.requests('getReceipt')).toEqual([
      expect.objectContaining({ paymentId: PAYMENT_ID, refundId }),
    ]);
  });

  it('says when the seller is not registered, and that the payment was charged', async () => {
    signIn('customer', CUSTOMER_ID);
    const server = receiptServer(() =>
      montrealReceipt({
        state: PaymentState.CAPTURED,
        seller: { name: 'Sam Small' },
        taxes: [],
        total: CAD(20000),
        captureTime: timestampFromMs(Date.UTC(2026, 11, 3, 15)),
        testMode: false,
      }),
    );
    renderApp(`/receipts/${PAYMENT_ID}`, server.transport);
    const seller = await screen.findByRole('region', { name: 'Seller' });
    expect(seller).toHaveTextContent('Not registered for GST/HST: no tax charged.');
    expect(screen.getByTestId('receipt-state')).toHaveTextContent('Charged');
    expect(screen.getByText('December 3, 2026')).toBeVisible();
    expect(saleRows()).toEqual(['Subtotal $200.00', 'Total $200.00']);
    expect(screen.queryByText('TEST MODE')).toBeNull();
  });

  it('prints on request', async () => {
    signIn('customer', CUSTOMER_ID);
    const print = vi.spyOn(window, 'print').mockImplementation(() => {});
    const server = receiptServer(() => montrealReceipt({ state: PaymentState.REFUNDED }));
    renderApp(`/receipts/${PAYMENT_ID}`, server.transport);
    expect(await screen.findByText('Refunded in full')).toBeVisible();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Print' }));
    expect(print).toHaveBeenCalledOnce();
  });

  it('shows an unknown payment as not found, in the page', async () => {
    signIn('customer', CUSTOMER_ID);
    const server = receiptServer(() => {
      throw rpcError(Code.NotFound, 'NOT_FOUND');
    });
    renderApp(`/receipts/${PAYMENT_ID}`, server.transport);
    expect(await screen.findByRole('alert')).toBeVisible();
    expect(screen.queryByRole('button', { name: 'Print' })).toBeNull();
  });

  it('opens in the professional’s area with their session when the link says so', async () => {
    signIn('customer', CUSTOMER_ID);
    const token = signIn('professional', PROFESSIONAL_ID);
    localStorage.setItem('professional-status', '1');
    const server = stubServer(
      { getProfessional: () => ({}) },
      { getReceipt: () => montrealReceipt() },
    );
    renderApp(`/receipts/${PAYMENT_ID}?as=professional`, server.transport);
    await screen.findByRole('region', { name: 'Seller' });
    expect(screen.getAllByRole('navigation', { name: 'Professional menu' })[0]).toBeDefined();
    const call = server.calls.find((recorded) => recorded.method === 'getReceipt');
    expect(call?.authorization).toBe(`Bearer ${token}`);
  });

  it('sends a visitor without a session to sign in', async () => {
    const { router } = renderApp(`/receipts/${PAYMENT_ID}`);
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
  });

  it('opens in the admin area for an admin', async () => {
    const token = signIn('admin', 'a1');
    const server = receiptServer(() => montrealReceipt());
    renderApp(`/receipts/${PAYMENT_ID}?as=admin`, server.transport);
    const seller = await screen.findByRole('region', { name: 'Seller' });
    expect(within(seller).getByText('Paule Pro')).toBeVisible();
    expect(screen.getAllByRole('navigation', { name: 'Administration menu' })[0]).toBeDefined();
    expect(server.calls.find((call) => call.method === 'getReceipt')?.authorization).toBe(
      `Bearer ${token}`,
    );
  });
});
