//! The admins' test checkout (`/admin/checkout-page`, `/block-card`): a real authorisation
//! on the gateway in use, to check the payment set-up end to end, then captured or released
//! by an admin like any other payment.

use uuid::Uuid;

use super::{Ledger, Payment, Purpose, StartPayment, Timing, admin, membership, sale::Sale};
use crate::{
    domain::{Cents, Currency, Money},
    error::{ApiError, ApiResult},
    providers::payments::{IdempotencyKey, PaymentMethodRef},
    store::payments,
};

/// What the test checkout authorises before a coupon: 100.00 CAD.
pub fn test_charge_price() -> Money {
    Money::new(Cents::new(10_000).unwrap_or(Cents::ZERO), Currency::Cad)
}

/// Authorises the test price less a usable coupon (checked, not counted: a test charge is no
/// purchase). A 100 % coupon leaves nothing to authorise and is refused.
pub async fn create(
    ledger: &Ledger,
    admin_id: Uuid,
    payment_method: &str,
    coupon_code: &str,
    request_id: &str,
) -> ApiResult<Payment> {
    let request_id = IdempotencyKey::parse(request_id)?;
    let payment_method = PaymentMethodRef::parse(payment_method)?;
    let discount = membership::usable_discount(ledger.db(), coupon_code).await?;
    let amount = membership::discounted(test_charge_price(), discount)?;
    if amount.cents() == Cents::ZERO {
        return Err(ApiError::invalid(
            "coupon_code",
            "with this coupon a test charge has nothing to authorise",
        ));
    }
    // A retry answers the first result, already audited.
    let retry = payments::find_attempt(ledger.db(), admin_id, request_id.uuid())
        .await?
        .is_some();
    let payment = ledger
        .start(&StartPayment {
            purpose: Purpose::TestCharge,
            payer_id: admin_id,
            sale: Sale::untaxed(amount),
            payment_method,
            timing: Timing::Hold,
            request_id,
        })
        .await?;
    if !retry {
        admin::record(ledger, admin_id, "payment.test_charge", "", None, &payment).await?;
    }
    Ok(payment)
}
