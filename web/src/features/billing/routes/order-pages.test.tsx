import { create, type MessageInitShape } from '@bufbuild/protobuf';
import { timestampFromMs } from '@bufbuild/protobuf/wkt';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ProfessionalState } from '@/gen/repairs/accounts/v1/accounts_pb';
import {
  OrderState,
  PaymentState,
  PayoutAccountState,
  PayoutState,
  OrderSchema,
  type Order,
} from '@/gen/repairs/billing/v1/billing_pb';
import { reloadTo } from '@/lib/browser';
import { renderApp } from '@/test/render-app';
import {
  CUSTOMER_ID,
  Code,
  PROFESSIONAL_ID,
  REQUEST_ID,
  professional,
  rpcError,
  signIn,
  stubServer,
} from '@/test/stub-server';

vi.mock('@/lib/browser', () => ({ reloadTo: vi.fn() }));

type Billing = NonNullable<Parameters<typeof stubServer>[1]>;
type OrderInit = MessageInitShape<typeof OrderSchema>;

const plain = (text: string | null) => (text ?? '').replace(/[\u00a0\u202f]/g, ' ');
const cad = (amountCents: bigint) => ({ amountCents, currency: 'CAD' });
const inAWeek = () => timestampFromMs(Date.now() + 7 * 24 * 3600_000);

/** A hire of 45.50 CAD for 90 minutes, its card held, unless told otherwise. */
const order = (fields: Partial<OrderInit> = {}): Order =>
  create(OrderSchema, {
    id: 'o1',
    customerId: CUSTOMER_ID,
    customerName: 'Casey Customer',
    professionalId: PROFESSIONAL_ID,
    professionalName: 'Paule Pro',
    repairRequestId: REQUEST_ID,
    estimatedMinutes: 90,
    state: OrderState.AUTHORIZED,
    payment: {
      id: 'pay1',
      amount: cad(4550n),
      state: PaymentState.AUTHORIZED,
      authorizationExpireTime: inAWeek(),
    },
    createTime: timestampFromMs(Date.UTC(2026, 10, 23, 17)),
    ...fields,
  } as OrderInit);

/** The admin's orders, kept by the stub so a step shows in the next read. */
function adminServer(orders: Order[], billing: Billing = {}) {
  signIn('admin', 'a1');
  return stubServer({}, { listOrders: () => ({ orders }), ...billing });
}

const rowOf = async (name: string) =>
  (await screen.findByText(name, { selector: 'td' })).closest('tr') as HTMLElement;

describe('admin order history', () => {
  it('shows the spec’s columns, captures after asking with one request id, then says Captured Already', async () => {
    const orders = [order()];
    const server = adminServer(orders, {
      capturePayment: () => {
        orders[0] = order({ state: OrderState.CAPTURED });
        return { payment: { id: 'pay1', state: PaymentState.CAPTURED } };
      },
    });
    renderApp('/admin/order-history', server.transport);
    const row = await rowOf('Casey Customer');
    expect(within(row).getByText('Paule Pro')).toBeVisible();
    expect(within(row).getByText('$45.50')).toBeVisible();
    expect(within(row).getByText('1.5 hrs')).toBeVisible();
    expect(within(row).getByText('Authorized (held)')).toBeVisible();
    expect(within(row).getByRole('link', { name: /View the request/ })).toHaveAttribute(
      'href',
      `/admin/view-request/${REQUEST_ID}`,
    );
    expect(within(row).getByRole('link', { name: /^Receipt of the order/ })).toHaveAttribute(
      'href',
      '/receipts/pay1?as=admin',
    );
    expect(server.requests('listOrders')[0]).toMatchObject({ party: { case: undefined } });

    const user = userEvent.setup();
    await user.click(
      within(row).getByRole('button', { name: 'Charge $45.50 to Casey Customer’s card' }),
    );
    const dialog = await screen.findByRole('alertdialog', { name: 'Charge this payment?' });
    await user.click(within(dialog).getByRole('button', { name: 'Charge' }));
    expect(await screen.findByText('The payment was charged.')).toBeVisible();
    const [capture] = server.requests<{ target: unknown; requestId: string }>('capturePayment');
    expect(capture?.target).toEqual(
      expect.objectContaining({ target: { case: 'orderId', value: 'o1' } }),
    );
    expect(capture?.requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(await within(row).findByText('Charged already')).toBeVisible();
    expect(within(row).getByRole('button', { name: /^Refund/ })).toBeVisible();
  });

  it('resends the same request id when a capture’s answer was lost, and a new one after', async () => {
    let tries = 0;
    const server = adminServer([order()], {
      capturePayment: () => {
        tries += 1;
        if (tries === 1) throw rpcError(Code.Unavailable, 'PAYMENT_GATEWAY_UNAVAILABLE');
        if (tries === 2) throw rpcError(Code.FailedPrecondition, 'AUTHORIZATION_EXPIRED');
        return { payment: { id: 'pay1', state: PaymentState.CAPTURED } };
      },
    });
    renderApp('/admin/order-history', server.transport);
    const row = await rowOf('Casey Customer');
    const user = userEvent.setup();
    await user.click(within(row).getByRole('button', { name: /^Charge/ }));
    const dialog = await screen.findByRole('alertdialog');
    await user.click(within(dialog).getByRole('button', { name: 'Charge' }));
    expect(await within(dialog).findByRole('alert')).toBeVisible();
    await user.click(within(dialog).getByRole('button', { name: 'Charge' }));
    expect(
      await within(dialog).findByText(
        'The hold on the card has expired. Authorize the card again.',
      ),
    ).toBeVisible();
    await user.click(within(dialog).getByRole('button', { name: 'Charge' }));
    await waitFor(() => expect(tries).toBe(3));
    const keys = server.requests<{ requestId: string }>('capturePayment').map((c) => c.requestId);
    expect(keys[1]).toBe(keys[0]);
    expect(keys[2]).not.toBe(keys[1]);
  });

  it('refunds a captured payment with the reason given, and releases a hold', async () => {
    const server = adminServer(
      [
        order({ id: 'o-captured', customerName: 'Cam Captured', state: OrderState.CAPTURED }),
        order({ id: 'o-held', customerName: 'Holly Held' }),
      ],
      {
        refundPayment: () => ({ payment: { id: 'pay1', state: PaymentState.REFUNDED } }),
        voidPayment: () => ({ payment: { id: 'pay1', state: PaymentState.CANCELED } }),
      },
    );
    renderApp('/admin/order-history', server.transport);
    const captured = await rowOf('Cam Captured');
    expect(within(captured).getByText('Charged already')).toBeVisible();
    expect(within(captured).queryByRole('button', { name: /^Charge/ })).toBeNull();
    const user = userEvent.setup();
    await user.click(
      within(captured).getByRole('button', { name: 'Refund $45.50 to Cam Captured' }),
    );
    const dialog = await screen.findByRole('alertdialog', { name: 'Refund this payment?' });
    // The amount defaults to everything left; the reason is asked for.
    expect(within(dialog).getByLabelText(/Amount to refund/)).toHaveValue('45.50');
    await user.type(within(dialog).getByLabelText(/^Reason/), 'Job not done');
    await user.click(within(dialog).getByRole('button', { name: 'Refund' }));
    expect(await screen.findByText('The payment was refunded.')).toBeVisible();
    expect(server.requests('refundPayment')[0]).toMatchObject({
      target: { target: { case: 'orderId', value: 'o-captured' } },
      reason: 'Job not done',
      amount: { amountCents: 4550n, currency: 'CAD' },
    });

    const held = await rowOf('Holly Held');
    await user.click(within(held).getByRole('button', { name: /^Release the hold/ }));
    const release = await screen.findByRole('alertdialog', { name: 'Release this hold?' });
    await user.click(within(release).getByRole('button', { name: 'Release' }));
    expect(await screen.findByText('The hold was released. Nothing was charged.')).toBeVisible();
    expect(server.requests('voidPayment')[0]).toMatchObject({
      target: { target: { case: 'orderId', value: 'o-held' } },
    });
  });

  it('shows the orders as cards, Refund and Release in reach, while the table would not fit, and as a table once it does', async () => {
    // The frame's width and the table's, as a browser would measure them (jsdom lays nothing
    // out): 1041 px of columns in 926 px beside the side menu, then a wider window.
    let frameWidth = 926;
    vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockImplementation(() => frameWidth);
    vi.spyOn(HTMLElement.prototype, 'scrollWidth', 'get').mockImplementation(function (
      this: HTMLElement,
    ) {
      return this.firstElementChild?.tagName === 'TABLE' ? 1041 : frameWidth;
    });
    const resized: (() => void)[] = [];
    vi.stubGlobal(
      'ResizeObserver',
      class {
        constructor(callback: () => void) {
          resized.push(callback);
        }
        observe() {}
        disconnect() {}
      },
    );
    const server = adminServer([
      order({ id: 'o-captured', customerName: 'Cam Captured', state: OrderState.CAPTURED }),
      order({ id: 'o-held', customerName: 'Holly Held' }),
    ]);
    renderApp('/admin/order-history', server.transport);
    const cards = await screen.findByRole('list', { name: 'Orders, newest first' });
    expect(screen.queryByRole('table')).toBeNull();
    const [captured, held] = within(cards).getAllByRole('listitem') as [HTMLElement, HTMLElement];
    expect(
      within(captured).getByRole('button', { name: 'Refund $45.50 to Cam Captured' }),
    ).toBeVisible();
    expect(within(held).getByRole('button', { name: /^Release the hold/ })).toBeVisible();

    act(() => {
      frameWidth = 1100;
      for (const callback of resized) callback();
    });
    expect(await screen.findByRole('table')).toBeVisible();
    expect(
      within(await rowOf('Cam Captured')).getByRole('button', { name: /^Refund/ }),
    ).toBeVisible();
  });

  it('offers no capture once the hold has lapsed', async () => {
    const server = adminServer([
      order({
        payment: {
          id: 'pay1',
          amount: cad(4550n),
          state: PaymentState.AUTHORIZED,
          authorizationExpireTime: timestampFromMs(Date.now() - 60_000),
        },
      }),
    ]);
    renderApp('/admin/order-history', server.transport);
    const row = await rowOf('Casey Customer');
    expect(within(row).queryByRole('button', { name: /^Charge/ })).toBeNull();
  });

  it('refunds part of what is left, and says in the dialog what is wrong before sending', async () => {
    const server = adminServer(
      [
        order({
          state: OrderState.CAPTURED,
          payment: {
            id: 'pay1',
            amount: cad(4550n),
            refunded: cad(1550n),
            state: PaymentState.CAPTURED,
          },
        }),
      ],
      { refundPayment: () => ({ payment: { id: 'pay1', state: PaymentState.CAPTURED } }) },
    );
    renderApp('/admin/order-history', server.transport);
    const user = userEvent.setup();
    await user.click(
      within(await rowOf('Casey Customer')).getByRole('button', { name: /^Refund/ }),
    );
    const dialog = await screen.findByRole('alertdialog', { name: 'Refund this payment?' });
    expect(within(dialog).getByText('$15.50')).toBeVisible();
    const amount = within(dialog).getByLabelText(/Amount to refund/);
    expect(amount).toHaveValue('30.00');
    await user.clear(amount);
    await user.type(amount, '30.01');
    await user.click(within(dialog).getByRole('button', { name: 'Refund' }));
    expect(await within(dialog).findByText('At most $30.00 is left to refund.')).toBeVisible();
    expect(within(dialog).getByText('Say why the payment is refunded.')).toBeVisible();
    expect(amount).toHaveAttribute('aria-invalid', 'true');
    expect(server.requests('refundPayment')).toHaveLength(0);
    await user.clear(amount);
    await user.type(amount, '12.34');
    await user.type(within(dialog).getByLabelText(/^Reason/), 'Came back for the leak');
    await user.click(within(dialog).getByRole('button', { name: 'Refund' }));
    expect(await screen.findByText('The payment was refunded.')).toBeVisible();
    expect(server.requests('refundPayment')[0]).toMatchObject({
      reason: 'Came back for the leak',
      amount: { amountCents: 1234n, currency: 'CAD' },
    });
  });

  it('says in French when the server finds less left to refund than the page showed', async () => {
    localStorage.setItem('lang', 'fr');
    const server = adminServer([order({ state: OrderState.CAPTURED })], {
      refundPayment: () => {
        throw rpcError(Code.FailedPrecondition, 'REFUND_EXCEEDS_REMAINING');
      },
    });
    renderApp('/admin/order-history', server.transport);
    const user = userEvent.setup();
    await user.click(
      within(await rowOf('Casey Customer')).getByRole('button', { name: /^Rembourser/ }),
    );
    const dialog = await screen.findByRole('alertdialog', { name: 'Rembourser ce paiement?' });
    await user.type(within(dialog).getByLabelText(/^Motif/), 'Erreur');
    await user.click(within(dialog).getByRole('button', { name: 'Rembourser' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'C’est plus que ce qui reste à rembourser sur ce paiement.',
    );
  });

  it('says in the page, in French, why the server refused a refund, and never in a browser alert', async () => {
    localStorage.setItem('lang', 'fr');
    const alert = vi.spyOn(window, 'alert').mockImplementation(() => {});
    const server = adminServer([order({ state: OrderState.CAPTURED })], {
      refundPayment: () => {
        throw rpcError(Code.FailedPrecondition, 'PAYMENT_STATE');
      },
    });
    renderApp('/admin/order-history', server.transport);
    const row = await rowOf('Casey Customer');
    const user = userEvent.setup();
    await user.click(within(row).getByRole('button', { name: /^Rembourser/ }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Rembourser ce paiement?' });
    await user.type(within(dialog).getByLabelText(/^Motif/), 'Travail non fait');
    await user.click(within(dialog).getByRole('button', { name: 'Rembourser' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'Ce paiement ne peut pas être modifié ainsi dans son état actuel.',
    );
    expect(alert).not.toHaveBeenCalled();
    alert.mockRestore();
  });

  it('writes amounts the French way', async () => {
    localStorage.setItem('lang', 'fr');
    const server = adminServer([order({ payment: { id: 'p', amount: cad(123450n) } })]);
    renderApp('/admin/order-history', server.transport);
    const row = await rowOf('Casey Customer');
    expect(within(row).getByText((text) => plain(text) === '1 234,50 $')).toBeVisible();
    expect(within(row).getByText((text) => plain(text) === '1,5 h')).toBeVisible();
  });
});

/** An approved professional with a paid membership. */
function proServer(billing: Billing) {
  signIn('professional', PROFESSIONAL_ID);
  return stubServer(
    {
      getProfessional: () => ({
        professional: professional({ state: ProfessionalState.APPROVED, membershipActive: true }),
      }),
    },
    billing,
  );
}

describe('professional order history', () => {
  it('lists the professional’s orders with a link to each request', async () => {
    const server = proServer({ listOrders: () => ({ orders: [order()] }) });
    renderApp('/professional-order-history', server.transport);
    const row = await rowOf('Casey Customer');
    expect(within(row).getByText('$45.50')).toBeVisible();
    expect(within(row).getByRole('link', { name: /View the request/ })).toHaveAttribute(
      'href',
      `/view-request/${REQUEST_ID}`,
    );
    expect(
      within(row).getByRole('link', { name: 'Receipt of the order of Nov 23, 2026' }),
    ).toHaveAttribute('href', '/receipts/pay1?as=professional');
    expect(server.requests('listOrders')[0]).toMatchObject({
      party: { case: 'professionalId', value: PROFESSIONAL_ID },
    });
  });

  it('shows the membership notice when the server answers the membership reason', async () => {
    const server = proServer({
      listOrders: () => {
        throw rpcError(Code.FailedPrecondition, 'MEMBERSHIP_INACTIVE');
      },
    });
    renderApp('/professional-order-history', server.transport);
    expect(await screen.findByRole('link', { name: 'Buy Membership' })).toBeVisible();
  });
});

describe('how the professional is paid (/stripe-connect)', () => {
  it('shows the test-mode ledger: totals and entries, no onboarding', async () => {
    const server = proServer({
      getPayoutAccount: () => ({
        account: {
          professionalId: PROFESSIONAL_ID,
          state: PayoutAccountState.TEST_LEDGER,
          owed: cad(4095n),
          paid: cad(0n),
          platformFeePercent: 10,
          testMode: true,
        },
      }),
      listPayouts: () => ({
        payouts: [
          {
            id: 'po1',
            orderId: 'o1',
            gross: cad(4550n),
            platformFee: cad(455n),
            net: cad(4095n),
            state: PayoutState.OWED,
            createTime: timestampFromMs(Date.UTC(2026, 10, 24)),
          },
        ],
      }),
    });
    renderApp('/stripe-connect', server.transport);
    expect(await screen.findByText('TEST MODE')).toBeVisible();
    const totals = screen.getByLabelText('What you are owed and were paid');
    expect(within(totals).getByText('$40.95')).toBeVisible();
    expect(within(totals).getByText('$0.00')).toBeVisible();
    expect(screen.getByText('The platform keeps 10% of each paid job.')).toBeVisible();
    const table = await screen.findByRole('table');
    expect(within(table).getByText('$4.55')).toBeVisible();
    expect(within(table).getByText('Owed')).toBeVisible();
    expect(screen.queryByRole('button', { name: /Stripe/ })).toBeNull();
  });

  it('sends the professional to Stripe’s onboarding page', async () => {
    const server = proServer({
      getPayoutAccount: () => ({
        account: {
          state: PayoutAccountState.NOT_STARTED,
          owed: cad(0n),
          paid: cad(0n),
        },
      }),
      listPayouts: () => ({ payouts: [] }),
      createPayoutOnboardingLink: () => ({ url: 'https://connect.example/onboard/abc' }),
    });
    renderApp('/stripe-connect', server.transport);
    expect(
      await screen.findByText('No payouts yet: they appear once a job is paid.'),
    ).toBeVisible();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Set up payouts with Stripe' }));
    await waitFor(() =>
      expect(reloadTo).toHaveBeenCalledWith('https://connect.example/onboard/abc'),
    );
  });
});
