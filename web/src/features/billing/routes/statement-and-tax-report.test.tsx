import { timestampFromMs } from '@bufbuild/protobuf/wkt';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ProfessionalState } from '@/gen/repairs/accounts/v1/accounts_pb';
import { PayoutState, TaxSeller } from '@/gen/repairs/billing/v1/billing_pb';
import { Language } from '@/gen/repairs/type/v1/common_pb';
import { renderApp } from '@/test/render-app';
import { CAD, gst, qst } from '@/test/taxes';
import {
  Code,
  PROFESSIONAL_ID,
  professional,
  rpcError,
  signIn,
  stubServer,
  type BillingImpl,
} from '@/test/stub-server';

/** December 2, 2026: last month is November, last quarter July to September. */
const NOW = new Date(Date.UTC(2026, 11, 2, 12));

beforeEach(() => {
  vi.useFakeTimers({ now: NOW, toFake: ['Date'] });
});
afterEach(() => vi.useRealTimers());

/** A statement of November 2026: one Montréal job, its fee and fee taxes, one payout. */
const november = () => ({
  statement: {
    professionalId: PROFESSIONAL_ID,
    professionalName: 'Paule Pro',
    month: '2026-11',
    jobs: [
      {
        orderId: 'o1',
        paymentId: 'pay-1',
        serviceName: 'Plumbing Services',
        customerName: 'Casey Customer',
        captureTime: timestampFromMs(Date.UTC(2026, 10, 20, 15)),
        subtotal: CAD(20000),
        taxes: [gst(1000), qst(1995)],
        total: CAD(22995),
        platformFee: CAD(2000),
        platformFeeTaxes: [gst(100, '999999999RT0001')],
      },
    ],
    jobsSubtotal: CAD(20000),
    jobsTaxes: [gst(1000), qst(1995)],
    platformFees: CAD(2000),
    platformFeeTaxes: [gst(100, '999999999RT0001')],
    payouts: [
      {
        id: 'po1',
        orderId: 'o1',
        gross: CAD(22995),
        platformFee: CAD(2000),
        net: CAD(20895),
        state: PayoutState.PAID,
        createTime: timestampFromMs(Date.UTC(2026, 10, 20, 15)),
        payTime: timestampFromMs(Date.UTC(2026, 10, 22, 15)),
        platformFeeTaxes: [gst(100, '999999999RT0001')],
      },
    ],
    paidOut: CAD(20895),
    platform: { name: 'Repairs 24/7 Inc.', gstHstNumber: '999999999RT0001' },
  },
});

function proServer(billing: BillingImpl) {
  signIn('professional', PROFESSIONAL_ID);
  localStorage.setItem('professional-status', '1');
  return stubServer(
    {
      getProfessional: () => ({
        professional: professional({ state: ProfessionalState.APPROVED, membershipActive: true }),
      }),
    },
    billing,
  );
}

describe('monthly statement', () => {
  it('shows last month by default: the jobs with their taxes, the fees’ taxes, the payouts', async () => {
    const server = proServer({ getMonthlyStatement: () => november() });
    renderApp('/monthly-statement', server.transport);
    expect(await screen.findByText('Paule Pro, November 2026')).toBeVisible();
    expect(screen.getByLabelText('Month')).toHaveValue('2026-11');
    expect(server.requests('getMonthlyStatement')).toEqual([
      expect.objectContaining({ month: '2026-11', language: Language.EN }),
    ]);
    const jobs = screen.getByRole('region', { name: 'Jobs charged this month' });
    for (const text of ['Casey Customer', 'GST 5% $10.00', 'QST 9.975% $19.95', '$229.95']) {
      expect(within(jobs).getAllByText(text)[0]).toBeVisible();
    }
    expect(within(jobs).getByRole('link', { name: /^Receipt of Casey Customer/ })).toHaveAttribute(
      'href',
      '/receipts/pay-1?as=professional',
    );
    const totals = screen.getByRole('region', { name: 'Totals' });
    expect(within(totals).getByText('Sales before tax').nextSibling).toHaveTextContent('$200.00');
    expect(within(totals).getByText('Registration no. 999999999RT0001')).toBeVisible();
    expect(
      within(totals).getByText(
        'The taxes on the fees, charged by Repairs 24/7 Inc., are your input tax credits.',
      ),
    ).toBeVisible();
    const payouts = screen.getByRole('region', { name: 'Payouts paid this month' });
    expect(within(payouts).getByText('Paid out to you').nextSibling).toHaveTextContent('$208.95');
  });

  it('asks for the month chosen, and says a month not over yet in the page', async () => {
    const server = proServer({ getMonthlyStatement: () => november() });
    renderApp('/monthly-statement?month=2026-10', server.transport);
    await screen.findByText('Paule Pro, October 2026');
    expect(server.requests('getMonthlyStatement')[0]).toMatchObject({ month: '2026-10' });

    renderApp('/monthly-statement?month=2027-01', server.transport);
    expect(
      await screen.findByText('This month is not over yet: choose an earlier one.'),
    ).toBeVisible();
    expect(server.requests('getMonthlyStatement')).toHaveLength(1);
  });

  it('says when nothing happened in the month, in French', async () => {
    localStorage.setItem('lang', 'fr');
    const server = proServer({
      getMonthlyStatement: () => ({
        statement: {
          professionalName: 'Paule Pro',
          month: '2026-11',
          jobsSubtotal: CAD(0),
          platformFees: CAD(0),
          paidOut: CAD(0),
        },
      }),
    });
    renderApp('/fr/monthly-statement', server.transport);
    expect(await screen.findByText('Aucun travail n’a été prélevé ce mois-ci.')).toBeVisible();
    expect(screen.getByText('Aucun versement n’a été payé ce mois-ci.')).toBeVisible();
    expect(screen.getByText('Paule Pro, novembre 2026')).toBeVisible();
  });

  it('shows the server’s refusal in the page', async () => {
    const server = proServer({
      getMonthlyStatement: () => {
        throw rpcError(Code.InvalidArgument, 'INVALID_ARGUMENT');
      },
    });
    renderApp('/monthly-statement', server.transport);
    expect(await screen.findByRole('alert')).toBeVisible();
  });
});

/** The report of July to September 2026: the platform's HST in Nova Scotia, QC by pros. */
const quarterReport = () => ({
  rows: [
    {
      seller: TaxSeller.PLATFORM,
      province: 'NS',
      taxName: 'HST',
      ratePercent: '14',
      taxableSales: CAD(2999),
      taxCollected: CAD(420),
      saleCount: 1,
    },
    {
      seller: TaxSeller.PROFESSIONALS,
      province: 'QC',
      taxName: 'QST',
      ratePercent: '9.975',
      taxableSales: CAD(20000),
      taxCollected: CAD(1995),
      saleCount: 1,
    },
  ],
  csv: 'seller,province,tax,rate_percent,taxable_sales,tax_collected,sale_count\nplatform,NS,HST,14,29.99,4.20,1\n',
});

function adminServer(getTaxReport: BillingImpl['getTaxReport']) {
  signIn('admin', 'a1');
  return stubServer({}, { getTaxReport });
}

describe('tax report', () => {
  it('reports last quarter by default, with totals, and downloads the CSV', async () => {
    const server = adminServer(() => quarterReport());
    const createObjectURL = vi.fn(() => 'blob:report');
    const revokeObjectURL = vi.fn();
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL, revokeObjectURL }));
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    renderApp('/admin/tax-report', server.transport);
    expect(
      await screen.findByRole('heading', {
        level: 2,
        name: 'Taxes from July 1, 2026 to September 30, 2026',
      }),
    ).toBeVisible();
    expect(server.requests('getTaxReport')).toEqual([
      expect.objectContaining({ startDate: '2026-07-01', endDate: '2026-09-30' }),
    ]);
    expect(screen.getByText('The platform')).toBeVisible();
    expect(screen.getByText('Nova Scotia')).toBeVisible();
    expect(screen.getByText('QST 9.975%')).toBeVisible();
    const totals = within(screen.getByTestId('tax-totals'));
    expect(totals.getByText('Tax collected by the platform').nextSibling).toHaveTextContent(
      '$4.20',
    );
    expect(totals.getByText('All tax collected').nextSibling).toHaveTextContent('$24.15');

    await userEvent.setup().click(screen.getByRole('button', { name: 'Download CSV' }));
    expect(click).toHaveBeenCalledOnce();
    const [blob] = createObjectURL.mock.calls[0] as unknown as [Blob];
    expect(await blob.text()).toBe(quarterReport().csv);
    expect(revokeObjectURL).toHaveBeenCalledWith('blob:report');
    vi.unstubAllGlobals();
  });

  it('says a bad period in the page without asking the server, then asks for a good one', async () => {
    const server = adminServer(() => quarterReport());
    renderApp('/admin/tax-report', server.transport);
    await screen.findByRole('button', { name: 'Download CSV' });
    const user = userEvent.setup();
    const start = screen.getByLabelText(/^First day/);
    const end = screen.getByLabelText(/^Last day/);
    await user.clear(start);
    await user.type(start, '2026-10-01');
    await user.click(screen.getByRole('button', { name: 'Show the report' }));
    expect(
      await screen.findByText('The last day must be on or after the first day.'),
    ).toBeVisible();
    await user.clear(start);
    await user.type(start, '2024-01-01');
    await user.click(screen.getByRole('button', { name: 'Show the report' }));
    expect(await screen.findByText('Choose a period of 366 days at most.')).toBeVisible();
    expect(server.requests('getTaxReport')).toHaveLength(1);

    await user.clear(start);
    await user.type(start, '2026-01-01');
    await user.clear(end);
    await user.type(end, '2026-03-31');
    await user.click(screen.getByRole('button', { name: 'Show the report' }));
    await waitFor(() => expect(server.requests('getTaxReport')).toHaveLength(2));
    expect(server.requests('getTaxReport')[1]).toMatchObject({
      startDate: '2026-01-01',
      endDate: '2026-03-31',
    });
  });

  it('says when no tax was collected, in French, and shows the server’s refusal', async () => {
    localStorage.setItem('lang', 'fr');
    let reply = () => ({ rows: [], csv: '' });
    const server = adminServer(() => reply());
    renderApp('/fr/admin/tax-report', server.transport);
    expect(
      await screen.findByText('Aucune taxe n’a été perçue pendant cette période.'),
    ).toBeVisible();
    expect(screen.queryByRole('button', { name: 'Télécharger le CSV' })).toBeNull();

    reply = () => {
      throw rpcError(Code.InvalidArgument, 'INVALID_ARGUMENT');
    };
    renderApp('/fr/admin/tax-report?start=2026-01-01&end=2026-01-31', server.transport);
    expect(await screen.findByRole('alert')).toBeVisible();
  });
});
