import { timestampFromMs } from '@bufbuild/protobuf/wkt';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { MessageInitShape } from '@bufbuild/protobuf';
import type { CouponSchema, PayoutSchema } from '@/gen/repairs/billing/v1/billing_pb';
import {
  PaymentMode,
  PaymentState,
  PayoutAccountState,
  PayoutState,
} from '@/gen/repairs/billing/v1/billing_pb';
import { expectLabelInName } from '@/test/label-in-name';
import { renderApp } from '@/test/render-app';
import { Code, rpcError, signIn, stubServer } from '@/test/stub-server';

const COUPON = {
  id: 'c1',
  code: 'SAVE20',
  discountPercent: 20,
  maxRedemptions: 10,
  redemptionCount: 3,
  active: true,
  expireTime: timestampFromMs(Date.UTC(2031, 0, 15, 12)),
};

type Billing = NonNullable<Parameters<typeof stubServer>[1]>;

function adminServer(billing: Billing = {}) {
  signIn('admin', 'a1');
  let coupons: MessageInitShape<typeof CouponSchema>[] = [
    COUPON,
    {
      ...COUPON,
      id: 'c2',
      code: 'FREE',
      discountPercent: 100,
      maxRedemptions: 0,
      expireTime: undefined,
    },
  ];
  return stubServer(
    {},
    {
      getPaymentConfig: () => ({ mode: PaymentMode.TEST_GATEWAY }),
      listCoupons: () => ({ coupons, nextPageToken: '' }),
      deleteCoupon: ({ id }) => {
        coupons = coupons.filter((coupon) => coupon.id !== id);
        return {};
      },
      setCouponActive: ({ id, active }) => ({
        coupon: { ...coupons.find((coupon) => coupon.id === id), active },
      }),
      createCoupon: ({ code, discountPercent }) => {
        if (code.toUpperCase() === 'TAKEN') throw rpcError(Code.AlreadyExists, 'COUPON_CODE_TAKEN');
        return { coupon: { id: 'c3', code: code.toUpperCase(), discountPercent, active: true } };
      },
      ...billing,
    },
  );
}

describe('admin: coupons', () => {
  it('checks the fields, shows the server refusal beside the code, then goes to the list', async () => {
    const server = adminServer();
    const { router } = renderApp('/admin/create-coupon', server.transport);
    await screen.findByRole('heading', { level: 1, name: 'Create coupon' });
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Create coupon' }));
    expect(await screen.findByText('Use 3 to 32 letters, digits, - or _.')).toBeVisible();
    expect(screen.getByText('Enter a whole number from 1 to 100.')).toBeVisible();
    expect(screen.getByLabelText(/^Code/)).toHaveAttribute('aria-invalid', 'true');

    await user.type(screen.getByLabelText(/^Code/), 'taken');
    await user.type(screen.getByLabelText(/^Discount in percent/), '101');
    await user.type(screen.getByLabelText(/^Limit of uses/), '0');
    await user.click(screen.getByRole('button', { name: 'Create coupon' }));
    expect(await screen.findByText('Enter a whole number from 1 to 100.')).toBeVisible();
    expect(screen.getByText('Enter a whole number of 1 or more, or leave it empty.')).toBeVisible();
    expect(server.requests('createCoupon')).toEqual([]);

    await user.clear(screen.getByLabelText(/^Discount in percent/));
    await user.type(screen.getByLabelText(/^Discount in percent/), '20');
    await user.clear(screen.getByLabelText(/^Limit of uses/));
    await user.click(screen.getByRole('button', { name: 'Create coupon' }));
    expect(await screen.findByText('A coupon with this code already exists.')).toBeVisible();
    expect(screen.getByLabelText(/^Code/)).toHaveAccessibleDescription(
      'A coupon with this code already exists.',
    );

    await user.clear(screen.getByLabelText(/^Code/));
    await user.type(screen.getByLabelText(/^Code/), 'spring-20');
    await user.click(screen.getByRole('button', { name: 'Create coupon' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/coupon-list'));
    expect(server.requests('createCoupon').at(-1)).toMatchObject({
      code: 'spring-20',
      discountPercent: 20,
      maxRedemptions: 0,
    });
  });

  it('lists coupons with their uses and expiry, switches one off and deletes one after confirming', async () => {
    const server = adminServer();
    renderApp('/admin/coupon-list', server.transport);
    const row = (await screen.findByRole('cell', { name: 'SAVE20' })).closest('tr')!;
    const cells = within(row as HTMLElement);
    expect(cells.getByText('20%')).toBeVisible();
    expect(cells.getByText('3 / 10')).toBeVisible();
    expect(cells.getByText('Jan 15, 2031')).toBeVisible();
    expect(screen.getByText('3 / no limit')).toBeVisible();
    expect(screen.getByText('Never')).toBeVisible();
    const user = userEvent.setup();

    await user.click(cells.getByRole('checkbox', { name: 'Coupon SAVE20 active' }));
    await waitFor(() =>
      expect(server.requests('setCouponActive')).toEqual([
        expect.objectContaining({ id: 'c1', active: false }),
      ]),
    );

    await user.click(cells.getByRole('button', { name: 'Delete coupon SAVE20' }));
    let dialog = await screen.findByRole('alertdialog', {
      name: 'Are you sure you want to delete this coupon?',
    });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(server.requests('deleteCoupon')).toEqual([]);

    await user.click(cells.getByRole('button', { name: 'Delete coupon SAVE20' }));
    dialog = await screen.findByRole('alertdialog');
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByRole('cell', { name: 'SAVE20' })).toBeNull());
    expect(server.requests('deleteCoupon')).toEqual([expect.objectContaining({ id: 'c1' })]);
  });

  it('says when there are no coupons', async () => {
    const server = adminServer({ listCoupons: () => ({ coupons: [] }) });
    renderApp('/admin/coupon-list', server.transport);
    expect(await screen.findByText('No coupons found.')).toBeVisible();
  });

  it('says in the page when the list cannot be read', async () => {
    const server = adminServer({
      listCoupons: () => {
        throw rpcError(Code.Unavailable, 'DATABASE_UNAVAILABLE');
      },
    });
    renderApp('/admin/coupon-list', server.transport);
    expect(await screen.findByRole('alert')).toBeVisible();
  });
});

describe('admin: test checkout', () => {
  it('authorises 100.00 less the coupon, then captures the hold', async () => {
    const hold = {
      id: 'pay-1',
      chargeId: 'pi_test_1',
      state: PaymentState.AUTHORIZED,
      amount: { amountCents: 8000n, currency: 'CAD' },
    };
    const server = adminServer({
      quoteMembership: () => ({ discountPercent: 20 }),
      createTestCharge: () => ({ payment: hold }),
      capturePayment: () => ({ payment: { ...hold, state: PaymentState.CAPTURED } }),
    });
    renderApp('/block-card', server.transport);
    await screen.findByRole('heading', { level: 1, name: 'Test checkout' });
    expect(screen.getByText('$100.00')).toBeVisible();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Do you have a coupon?' }));
    await user.type(screen.getByLabelText('Coupon code'), 'SAVE20');
    await user.click(screen.getByRole('button', { name: 'Apply' }));
    expect(await screen.findByText('$80.00')).toBeVisible();
    await user.type(screen.getByLabelText(/^Card number/), '4242424242424242');
    await user.click(screen.getByRole('button', { name: 'Authorize $80.00' }));

    expect(await screen.findByText('pi_test_1')).toBeVisible();
    expect(screen.getByText('Authorized (held)')).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Charge' }));
    expect(await screen.findByText('The payment was charged.')).toBeVisible();
    expect(screen.getByText('Charged')).toBeVisible();
    expect(screen.queryByRole('button', { name: 'Release' })).toBeNull();
    expect(server.requests('createTestCharge')[0]).toMatchObject({
      paymentMethod: '4242424242424242',
      couponCode: 'SAVE20',
    });
    const [capture] = server.requests<{ target: unknown; requestId: string }>('capturePayment');
    expect(capture?.target).toMatchObject({ target: { case: 'paymentId', value: 'pay-1' } });
    expect(capture?.requestId).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('admin: a professional’s payouts (/admin/professional-payouts/:id)', () => {
  const cad = (amountCents: bigint) => ({ amountCents, currency: 'CAD' });
  const plain = (text: string | null) => (text ?? '').replace(/[\u00a0\u202f]/g, ' ');
  const ENTRY: MessageInitShape<typeof PayoutSchema> = {
    id: 'pay1',
    orderId: 'o1',
    gross: cad(10000n),
    platformFee: cad(1000n),
    net: cad(9000n),
    state: PayoutState.OWED,
    createTime: timestampFromMs(Date.UTC(2026, 10, 20, 12)),
  };

  /** A test-mode ledger of one owed entry, which RecordManualPayout marks paid. */
  function payoutServer(billing: Billing = {}, testMode = true) {
    let entry = { ...ENTRY };
    return adminServer({
      getPayoutAccount: () => ({
        account: {
          professionalId: 'p1',
          state: testMode ? PayoutAccountState.TEST_LEDGER : PayoutAccountState.ENABLED,
          owed: cad(entry.state === PayoutState.PAID ? 0n : 9000n),
          paid: cad(entry.state === PayoutState.PAID ? 9000n : 0n),
          platformFeePercent: 10,
          testMode,
        },
      }),
      listPayouts: () => ({ payouts: [entry], nextPageToken: '' }),
      recordManualPayout: ({ note }) => {
        entry = { ...entry, state: PayoutState.PAID, note };
        return { payouts: [entry] };
      },
      ...billing,
    });
  }

  it('marks an owed entry paid after confirming, with a note, under one request_id', async () => {
    const server = payoutServer();
    renderApp('/admin/professional-payouts/p1', server.transport);
    const user = userEvent.setup();
    const button = await screen.findByRole('button', { name: 'Mark paid: $90.00 of Nov 20, 2026' });
    expectLabelInName(button);
    expect(screen.getByText('TEST MODE')).toBeVisible();

    await user.click(button);
    let dialog = await screen.findByRole('alertdialog', {
      name: 'Record this payout as paid?',
    });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(server.requests('recordManualPayout')).toEqual([]);

    await user.click(button);
    dialog = await screen.findByRole('alertdialog', { name: 'Record this payout as paid?' });
    await user.click(within(dialog).getByRole('button', { name: 'Mark paid' }));
    expect(await within(dialog).findByText('Say how it was paid.')).toBeVisible();
    expect(server.requests('recordManualPayout')).toEqual([]);

    await user.type(within(dialog).getByLabelText(/^How it was paid/), 'Interac e-Transfer');
    await user.click(within(dialog).getByRole('button', { name: 'Mark paid' }));
    expect(await screen.findByText('The payout is recorded as paid.')).toBeVisible();
    const sent = server.requests('recordManualPayout')[0]!;
    expect(sent).toMatchObject({
      professionalId: 'p1',
      orderIds: ['o1'],
      note: 'Interac e-Transfer',
    });
    expect(sent.requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(await screen.findByText('Paid by hand: Interac e-Transfer')).toBeVisible();
    expect(screen.queryByRole('button', { name: /^Mark / })).toBeNull();
  });

  it('keeps the request_id while a failed attempt is retried and shows the refusal in French', async () => {
    localStorage.setItem('lang', 'fr');
    let calls = 0;
    const server = payoutServer({
      recordManualPayout: () => {
        calls += 1;
        throw rpcError(
          calls === 1 ? Code.Unavailable : Code.FailedPrecondition,
          calls === 1 ? 'UNAVAILABLE' : 'PAYOUT_NOT_OWED',
        );
      },
    });
    renderApp('/admin/professional-payouts/p1', server.transport);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: /^Marquer comme versés/ }));
    const dialog = await screen.findByRole('alertdialog', {
      name: 'Enregistrer ce versement comme payé?',
    });
    await user.type(within(dialog).getByLabelText(/^Comment il a été payé/), 'Chèque 104');
    const confirm = within(dialog).getByRole('button', { name: 'Marquer comme versé' });
    await user.click(confirm);
    await waitFor(() => expect(server.requests('recordManualPayout')).toHaveLength(1));
    await user.click(confirm);
    expect(
      plain(
        await within(dialog)
          .findByText(/^Cette entrée n’est plus due/)
          .then((e) => e.textContent),
      ),
    ).toBe('Cette entrée n’est plus due : elle a été versée ou remboursée. Rechargez la page.');
    const [first, second] = server.requests('recordManualPayout');
    expect(second?.requestId).toBe(first?.requestId);
  });

  it('offers nothing to mark when Stripe pays automatically', async () => {
    const server = payoutServer({}, false);
    renderApp('/admin/professional-payouts/p1', server.transport);
    expect(await screen.findByText(/^Stripe transfers what is owed automatically/)).toBeVisible();
    expect(await screen.findByRole('table')).toBeVisible();
    expect(screen.queryByRole('button', { name: /^Mark / })).toBeNull();
  });
});
