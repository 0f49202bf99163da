//! Hiring: the customer chooses a quote, the quote's fee is authorised on their card (a
//! hold), and the request becomes hired; marking the job done captures the hold; cancelling
//! a hired job releases it; the sweeper ([`sweep`]) warns before a hold lapses. What the
//! hire's payment comes to (held, charged, refunded, released) is told to its customer and
//! professional once each ([`receipts`]).
//!
//! Who wins a race. A hire first claims its request: with the request row locked it checks
//! the request is open and the quote submitted, and inserts the request's live order with
//! no payment yet (`orders_one_live_idx` allows one). Only then is the card authorised, so
//! the loser of two racing hires is refused (REPAIR_REQUEST_NOT_OPEN) before anything is
//! authorised for it. A request that stopped being hireable while the card was being
//! authorised (cancelled, expired, the quote withdrawn) gets the hold released at once.
//!
//! Replays. The customer's `request_id` keys both the order and the ledger's attempt: the
//! same key answers the same order (another quote under it is REQUEST_ID_REUSED). A new key
//! on a quote whose hold is live answers the existing order: one hold per quote. A claim
//! whose card was refused is removed, so the customer can try another card.
//!
//! States (request / order's payment): an AUTHORIZED payment hires (OPEN or PENDING_PAYMENT
//! -> HIRED, the quote HIRED, the other submitted quotes NOT_SELECTED and told, the hired
//! professional told); REQUIRES_ACTION leaves the request PENDING_PAYMENT until
//! ConfirmPayment or Stripe's webhook settles it ([`settle`]); FAILED or CANCELED before the
//! hire closes the order and reopens the request with its quotes intact. After a hold lapsed
//! (EXPIRED) or an admin released it (CANCELED) on a HIRED request, a new hire of the hired
//! quote authorises it again as a new order.

mod apply;
mod finish;
mod hire;
mod notice;
mod orders_of;
mod receipts;
pub mod reconcile;
pub mod release;
pub mod sweep;

pub use apply::{ledger, settle};
pub use finish::{cancel, complete};
pub use hire::{HireForm, Preview, hire, preview};
pub use orders_of::{Disclosure, list_orders, list_orders_for_service, order_with_payment};
pub use release::{ReleaseForm, release_hire};
