import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ProfessionalState } from '@/gen/repairs/accounts/v1/accounts_pb';
import { PaymentMode, PaymentState, TestAuthentication } from '@/gen/repairs/billing/v1/billing_pb';
import { renderApp } from '@/test/render-app';
import {
  Code,
  PROFESSIONAL_ID,
  professional,
  rpcError,
  signIn,
  stubServer,
} from '@/test/stub-server';

const CAD = (amountCents: number) => ({ amountCents: BigInt(amountCents), currency: 'CAD' });
const COUPONS: Record<string, number> = { SAVE20: 20, FREE: 100 };

/** A tax as the stand-in server charges it: its code, rate in percent and number. */
interface StandInTax {
  name: string;
  percent: number;
  number: string;
}
/** Halifax: HST 14 %. */
const HALIFAX: StandInTax[] = [{ name: 'HST', percent: 14, number: '123456789RT0001' }];
/** Montréal: GST 5 % and QST 9.975 %. */
const MONTREAL: StandInTax[] = [
  { name: 'GST', percent: 5, number: '123456789RT0001' },
  { name: 'QST', percent: 9.975, number: '1234567890TQ0001' },
];

/** The stand-in server's quote of a month with `couponCode`, taxed with `taxes`. */
function quote(couponCode: string, taxes: StandInTax[]) {
  const percent = COUPONS[couponCode.toUpperCase()] ?? (couponCode === '' ? 0 : undefined);
  if (percent === undefined) throw rpcError(Code.NotFound, 'COUPON_INVALID');
  const subtotal = Math.floor((2999 * (100 - percent) + 50) / 100);
  const lines = taxes.map(({ name, percent: rate, number }) => ({
    name,
    ratePercent: String(rate),
    amount: CAD(Math.floor((subtotal * rate) / 100 + 0.5)),
    registrationNumber: number,
  }));
  const total = lines.reduce((sum, line) => sum + Number(line.amount.amountCents), subtotal);
  return {
    monthlyPrice: CAD(2999),
    discountPercent: percent,
    amountPayable: CAD(total),
    subtotal: CAD(subtotal),
    taxes: lines,
    total: CAD(total),
  };
}

type Billing = NonNullable<Parameters<typeof stubServer>[1]>;
type Purchase = Billing['purchaseMembership'];

// Stripe.js as the page sees it in Stripe mode (the real one loads from Stripe's servers): a
// card element, the PaymentMethod it makes and the 3-D Secure step.
const stripeJs = vi.hoisted(() => {
  const card = { mount: vi.fn(), on: vi.fn(), destroy: vi.fn() };
  const stripe = {
    elements: vi.fn(() => ({ create: vi.fn(() => card) })),
    createPaymentMethod: vi.fn(() =>
      Promise.resolve({ paymentMethod: { id: 'pm_from_elements' } }),
    ),
    handleNextAction: vi.fn(() => Promise.resolve({})),
  };
  return { card, stripe, loadStripe: vi.fn(() => Promise.resolve(stripe)) };
});
vi.mock('@stripe/stripe-js/pure', () => ({ loadStripe: stripeJs.loadStripe }));

/** An approved professional without a membership, on the test gateway. */
function billingServer(purchaseMembership?: Purchase, billing: Billing = {}) {
  signIn('professional', PROFESSIONAL_ID);
  return stubServer(
    {
      getProfessional: () => ({
        professional: professional({ state: ProfessionalState.APPROVED }),
      }),
    },
    {
      getPaymentConfig: () => ({ mode: PaymentMode.TEST_GATEWAY }),
      getMembership: () => ({ membership: { professionalId: PROFESSIONAL_ID, active: false } }),
      quoteMembership: ({ couponCode }) => quote(couponCode, []),
      purchaseMembership,
      confirmPayment: ({ paymentId, testAuthentication }) => ({
        payment: {
          id: paymentId,
          state:
            testAuthentication === TestAuthentication.APPROVE
              ? PaymentState.CAPTURED
              : PaymentState.FAILED,
        },
      }),
      ...billing,
    },
  );
}

const captured = () => ({ payment: { id: 'pay-1', state: PaymentState.CAPTURED } });
const total = () => screen.getByTestId('total');

async function open(
  server: ReturnType<typeof billingServer>,
  path = `/purchase-membership/${PROFESSIONAL_ID}`,
  expectedTotal = '$29.99',
) {
  const view = renderApp(path, server.transport);
  await screen.findByRole('heading', { level: 1, name: 'Buy a membership' });
  await waitFor(() => expect(total()).toHaveTextContent(expectedTotal));
  return view;
}

/** The summary's rows as read: each label and amount, then the total. */
function summaryRows() {
  return Array.from(screen.getByTestId('sale').querySelectorAll(':scope > div'))
    .map((row) => Array.from(row.children, (cell) => cell.textContent).join(' '))
    .filter((text) => text.trim() !== '');
}

async function applyCoupon(user: ReturnType<typeof userEvent.setup>, code: string) {
  const field = screen.queryByLabelText('Coupon code');
  if (!field) await user.click(screen.getByRole('button', { name: 'Do you have a coupon?' }));
  const input = screen.getByLabelText('Coupon code');
  await user.clear(input);
  await user.type(input, code);
  await user.click(screen.getByRole('button', { name: 'Apply' }));
}

async function pay(user: ReturnType<typeof userEvent.setup>, card: string) {
  const input = screen.getByLabelText(/^Card number/);
  await user.clear(input);
  await user.type(input, card);
  await user.click(screen.getByRole('button', { name: /^Pay / }));
}

describe('membership purchase', () => {
  it('reveals the coupon field on request; a good coupon lowers the total, a bad one says so', async () => {
    const server = billingServer();
    await open(server);
    const user = userEvent.setup();
    expect(screen.queryByLabelText('Coupon code')).toBeNull();
    const reveal = screen.getByRole('button', { name: 'Do you have a coupon?' });
    expect(reveal).toHaveAttribute('aria-expanded', 'false');

    await applyCoupon(user, 'SAVE20');
    expect(reveal).toHaveAttribute('aria-expanded', 'true');
    await waitFor(() => expect(total()).toHaveTextContent('$23.99'));
    expect(screen.getByText('Coupon SAVE20: 20% off')).toBeVisible();

    await applyCoupon(user, 'nope');
    expect(await screen.findByText('Invalid or expired coupon.')).toBeVisible();
    expect(screen.getByLabelText('Coupon code')).toHaveAttribute('aria-invalid', 'true');
    expect(total()).toHaveTextContent('$29.99');
    expect(server.requests('quoteMembership')).toEqual([
      expect.objectContaining({ couponCode: '' }),
      expect.objectContaining({ couponCode: 'SAVE20' }),
      expect.objectContaining({ couponCode: 'nope' }),
    ]);
    // No tax applies: no subtotal or tax rows.
    expect(screen.queryByText('Subtotal')).toBeNull();
  });

  it('shows the subtotal, the HST and the total the server quotes, and offers to pay the total', async () => {
    const server = billingServer(captured, {
      quoteMembership: ({ couponCode }) => quote(couponCode, HALIFAX),
    });
    await open(server, undefined, '$34.19');
    expect(summaryRows()).toEqual([
      'Monthly price $29.99',
      'Subtotal $29.99',
      'HST 14% $4.20',
      'Total $34.19',
    ]);
    const user = userEvent.setup();
    // A coupon comes off before tax: 23.99 $, then 14 % of it.
    await applyCoupon(user, 'SAVE20');
    await waitFor(() => expect(total()).toHaveTextContent('$27.35'));
    expect(screen.getByText('HST 14%').nextSibling).toHaveTextContent('$3.36');
    expect(screen.getByText('Subtotal').nextSibling).toHaveTextContent('$23.99');
    expect(screen.getByRole('button', { name: 'Pay $27.35' })).toBeVisible();
  });

  it('names the taxes TPS and TVQ with French rates and amounts', async () => {
    localStorage.setItem('lang', 'fr');
    const server = billingServer(captured, {
      quoteMembership: ({ couponCode }) => quote(couponCode, MONTREAL),
    });
    renderApp(`/purchase-membership/${PROFESSIONAL_ID}`, server.transport);
    await screen.findByRole('heading', { level: 1, name: 'Acheter un abonnement' });
    await waitFor(() => expect(total().textContent).toBe('34,48\u00a0$'));
    expect(summaryRows()).toEqual([
      'Prix mensuel 29,99\u00a0$',
      'Sous-total 29,99\u00a0$',
      'TPS 5\u00a0% 1,50\u00a0$',
      'TVQ 9,975\u00a0% 2,99\u00a0$',
      'Total 34,48\u00a0$',
    ]);
    expect(screen.getByRole('button', { name: 'Payer 34,48\u00a0$' })).toBeVisible();
  });

  it('sends a professional without a home base to their profile, with no card form', async () => {
    const server = billingServer(captured, {
      quoteMembership: () => {
        throw rpcError(Code.FailedPrecondition, 'BUSINESS_ADDRESS_REQUIRED');
      },
    });
    renderApp(`/purchase-membership/${PROFESSIONAL_ID}`, server.transport);
    expect(
      await screen.findByText(
        'Add your home base to your profile first: the membership’s sales taxes depend on its province.',
      ),
    ).toBeVisible();
    expect(screen.getByRole('link', { name: 'Complete my profile' })).toHaveAttribute(
      'href',
      '/update-professional-profile',
    );
    expect(screen.queryByLabelText(/^Card number/)).toBeNull();
    expect(screen.queryByTestId('total')).toBeNull();
    expect(server.requests('purchaseMembership')).toEqual([]);
  });

  it('pays with the test card and the coupon, then shows the dashboard', async () => {
    const server = billingServer(captured);
    const { router } = await open(server, '/purchase-membership');
    const user = userEvent.setup();
    expect(screen.getByText('TEST MODE')).toBeVisible();
    expect(screen.getByText('4000 0025 0000 3155')).toBeVisible();
    await applyCoupon(user, 'save20');
    await waitFor(() => expect(total()).toHaveTextContent('$23.99'));
    await pay(user, '4242 4242 4242 4242');
    await waitFor(() => expect(router.state.location.pathname).toBe('/professional-dashboard'));
    expect(await screen.findByText('Payment successful! Membership activated.')).toBeVisible();
    // The dashboard offers the purchase's receipt.
    expect(await screen.findByRole('link', { name: 'Receipt of your purchase' })).toHaveAttribute(
      'href',
      '/receipts/pay-1?as=professional',
    );
    const [sent] = server.requests('purchaseMembership');
    expect(sent).toMatchObject({ paymentMethod: '4242 4242 4242 4242', couponCode: 'save20' });
    expect(sent?.requestId).toMatch(/^[0-9a-f-]{36}$/);
    // Stripe's script is never loaded in test mode.
    expect(stripeJs.loadStripe).not.toHaveBeenCalled();
  });

  it('shows a decline in the page; a retry after it is a new attempt, a retry after an outage the same', async () => {
    let answer = () => rpcError(Code.FailedPrecondition, 'PAYMENT_DECLINED');
    const server = billingServer(() => {
      throw answer();
    });
    const { router } = await open(server);
    const user = userEvent.setup();
    await pay(user, '4000 0000 0000 0002');
    expect(
      await screen.findByText('Your card was declined. Try another card or contact your bank.'),
    ).toBeVisible();
    expect(router.state.location.pathname).toBe(`/purchase-membership/${PROFESSIONAL_ID}`);

    answer = () => rpcError(Code.Unavailable, 'PAYMENT_GATEWAY_UNAVAILABLE');
    await pay(user, '4000 0000 0000 0002');
    await screen.findByText(/Payments are unavailable right now/);
    await pay(user, '4000 0000 0000 0002');
    await waitFor(() => expect(server.requests('purchaseMembership')).toHaveLength(3));
    const keys = server.requests('purchaseMembership').map((request) => request.requestId);
    expect(keys[1]).not.toBe(keys[0]);
    expect(keys[2]).toBe(keys[1]);
  });

  it('checks the card number before sending it', async () => {
    const server = billingServer(captured);
    await open(server);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: /^Pay / }));
    expect(await screen.findByText('Please enter the card number.')).toBeVisible();
    await pay(user, '4242');
    expect(await screen.findByText('Enter a card number of 13 to 19 digits.')).toBeVisible();
    expect(screen.getByLabelText(/^Card number/)).toHaveAccessibleDescription(
      'Enter a card number of 13 to 19 digits.',
    );
    expect(server.requests('purchaseMembership')).toEqual([]);
  });

  it('asks for authentication when the card needs it, then confirms the approval', async () => {
    const server = billingServer(() => ({
      payment: {
        id: 'pay-3ds',
        state: PaymentState.REQUIRES_ACTION,
        nextAction: { clientSecret: 'pi_secret' },
      },
    }));
    const { router } = await open(server);
    const user = userEvent.setup();
    await pay(user, '4000 0025 0000 3155');
    const step = await screen.findByRole('region', { name: 'Confirm the payment (test mode)' });
    await waitFor(() => expect(within(step).getByRole('heading', { level: 2 })).toHaveFocus());
    await user.click(within(step).getByRole('button', { name: 'Approve' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/professional-dashboard'));
    expect(server.requests('confirmPayment')).toEqual([
      expect.objectContaining({
        paymentId: 'pay-3ds',
        testAuthentication: TestAuthentication.APPROVE,
      }),
    ]);
  });

  it('says so when the cardholder refuses the authentication', async () => {
    const server = billingServer(() => ({
      payment: { id: 'pay-3ds', state: PaymentState.REQUIRES_ACTION },
    }));
    await open(server);
    const user = userEvent.setup();
    await pay(user, '4000 0025 0000 3155');
    await user.click(await screen.findByRole('button', { name: 'Refuse' }));
    expect(
      await screen.findByText('The card could not be authenticated. Nothing was charged.'),
    ).toBeVisible();
    expect(screen.getByLabelText(/^Card number/)).toBeVisible();
  });

  it('activates a month a 100 % coupon makes free, without a card', async () => {
    const server = billingServer(() => ({
      membership: { professionalId: PROFESSIONAL_ID, active: true },
    }));
    const { router } = await open(server);
    const user = userEvent.setup();
    await applyCoupon(user, 'FREE');
    await waitFor(() => expect(total()).toHaveTextContent('$0.00'));
    expect(screen.queryByLabelText(/^Card number/)).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Activate membership' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/professional-dashboard'));
    expect(server.requests('purchaseMembership')[0]).toMatchObject({
      paymentMethod: '',
      couponCode: 'FREE',
    });
  });

  it('shows the price and the coupon in French', async () => {
    localStorage.setItem('lang', 'fr');
    const server = billingServer();
    renderApp('/membership-purchase', server.transport);
    await screen.findByRole('heading', { level: 1, name: 'Acheter un abonnement' });
    // What a French reader sees: a comma and a no-break space before the euro sign.
    await waitFor(() => expect(total().textContent).toBe('29,99\u00a0$'));
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Vous avez un coupon?' }));
    await user.type(screen.getByLabelText('Code du coupon'), 'SAVE20');
    await user.click(screen.getByRole('button', { name: 'Appliquer' }));
    await waitFor(() => expect(total().textContent).toBe('23,99\u00a0$'));
    expect(screen.getByText(/^Coupon SAVE20/).textContent).toBe(
      'Coupon SAVE20\u00a0: 20\u00a0% de rabais',
    );
    expect(screen.getByText('MODE TEST')).toBeVisible();
  });

  it('pays through Stripe Elements when the server takes cards with Stripe', async () => {
    const stripeMode = { mode: PaymentMode.STRIPE, stripePublishableKey: 'pk_test_page' };
    const server = billingServer(captured, { getPaymentConfig: () => stripeMode });
    const { router } = await open(server);
    await waitFor(() => expect(stripeJs.card.mount).toHaveBeenCalled());
    expect(stripeJs.loadStripe).toHaveBeenCalledWith('pk_test_page', { locale: 'en' });
    expect(screen.queryByText('TEST MODE')).toBeNull();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Pay $29.99' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/professional-dashboard'));
    expect(stripeJs.stripe.createPaymentMethod).toHaveBeenCalledWith({
      type: 'card',
      card: stripeJs.card,
    });
    expect(server.requests('purchaseMembership')[0]).toMatchObject({
      paymentMethod: 'pm_from_elements',
    });
  });

  it('finishes 3-D Secure with Stripe.js, then reads the payment back', async () => {
    const stripeMode = { mode: PaymentMode.STRIPE, stripePublishableKey: 'pk_test_page' };
    const server = billingServer(
      () => ({
        payment: {
          id: 'pay-3ds',
          state: PaymentState.REQUIRES_ACTION,
          nextAction: { clientSecret: 'pi_1_secret_2' },
        },
      }),
      {
        getPaymentConfig: () => stripeMode,
        confirmPayment: ({ paymentId }) => ({
          payment: { id: paymentId, state: PaymentState.CAPTURED },
        }),
      },
    );
    const { router } = await open(server);
    await waitFor(() => expect(stripeJs.card.mount).toHaveBeenCalled());
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Pay $29.99' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/professional-dashboard'));
    expect(stripeJs.stripe.handleNextAction).toHaveBeenCalledWith({
      clientSecret: 'pi_1_secret_2',
    });
    expect(server.requests('confirmPayment')).toEqual([
      expect.objectContaining({
        paymentId: 'pay-3ds',
        testAuthentication: TestAuthentication.UNSPECIFIED,
      }),
    ]);
  });
});
