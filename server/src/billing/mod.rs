//! Billing rules. So far: the payments [`ledger`], the one way money moves through the
//! gateway (idempotency, recorded attempts, named transitions), and Stripe's webhook
//! [`stripe_events`]. Memberships, coupons and hiring build on it.

pub mod ledger;
pub mod stripe_events;

pub use ledger::{Ledger, LedgerError, Payment, PaymentState, Purpose, StartPayment, Step, Timing};
