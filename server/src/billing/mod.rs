//! Billing rules. So far: the payments [`ledger`], the one way money moves through the
//! gateway (idempotency, recorded attempts, named transitions). Memberships, coupons and
//! hiring build on it.

pub mod ledger;

pub use ledger::{Ledger, LedgerError, Payment, PaymentState, Purpose, StartPayment, Step, Timing};
