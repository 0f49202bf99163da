//! Billing rules. So far: the payments [`ledger`], the one way money moves through the
//! gateway (idempotency, recorded attempts, named transitions), and Stripe's webhook
//! [`stripe_events`]; [`membership`] (price, gate, purchase) and [`coupons`] build on it,
//! and [`sale`] says what a payment is made of (subtotal, sales taxes, total); a payment's
//! [`receipts`], a professional's monthly [`statement`] and the admins' [`tax_report`]
//! read them back.

pub mod admin;
pub mod coupons;
pub mod disputes;
pub mod ledger;
pub mod manual_payouts;
pub mod membership;
pub mod payout_transfers;
pub mod payouts;
pub mod proportion;
pub mod receipt;
pub mod receipts;
pub mod refunds;
pub mod sale;
pub mod statement;
pub mod stripe_events;
pub mod tax_report;
pub mod test_charge;

pub use ledger::{
    Ledger, LedgerError, Payment, PaymentState, Purpose, StartPayment, Step, TestAuthentication,
    Timing,
};
