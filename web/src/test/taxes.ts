/**
 * Sales taxes as the server computes them in tests: Canadian amounts, and a Montréal sale of
 * 200.00 $ by a seller registered for GST/HST and QST (GST 5 % 10.00 $, QST 9.975 % 19.95 $).
 */
export const CAD = (amountCents: number) => ({ amountCents: BigInt(amountCents), currency: 'CAD' });

export const GST_HST_NUMBER = '123456789RT0001';
export const QST_NUMBER = '1234567890TQ0001';

/** GST 5 % of `cents`' worth of tax, with the seller's number. */
export const gst = (cents: number, number = GST_HST_NUMBER) => ({
  name: 'GST',
  ratePercent: '5',
  amount: CAD(cents),
  registrationNumber: number,
});

/** QST 9.975 %, with the seller's number. */
export const qst = (cents: number, number = QST_NUMBER) => ({
  name: 'QST',
  ratePercent: '9.975',
  amount: CAD(cents),
  registrationNumber: number,
});

/** The taxes on a 200.00 $ Montréal job: GST 10.00 $ and QST 19.95 $ (total 229.95 $). */
export const montrealTaxes = () => [gst(1000), qst(1995)];
