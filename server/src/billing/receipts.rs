//! A payment's receipt as a tax auditor reads it (GetReceipt): who sold (the platform for a
//! membership or a test charge, the hired professional for a hire) with their registration
//! numbers, who bought, what, on which day of supply and where, the amount before tax,
//! each tax and the total. Its payer, its payee (the hired professional) or an admin reads
//! it; anyone else learns nothing, not even that it exists.

use chrono::{DateTime, NaiveDate, Utc};
use uuid::Uuid;

use super::{
    Payment, PaymentState, Purpose, ledger,
    sale::{ChargedTax, Sale},
};
use crate::{
    auth::{Caller, access},
    domain::{Language, Province, Role},
    error::{ApiResult, not_found},
    state::AppState,
    store::receipts::{self as store, ReceiptParties},
    tax::{Registrations, TaxName},
    words::{self, Sold},
};

/// A seller or a buyer as the receipt names them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Party {
    pub name: String,
    /// `None`: not registered (and always for a buyer).
    pub gst_hst_number: Option<String>,
    pub qst_number: Option<String>,
}

/// A payment's receipt.
#[derive(Debug, Clone)]
pub struct Receipt {
    pub payment: Payment,
    pub seller: Party,
    pub buyer: Party,
    pub description: String,
    /// The day of supply (the taxes' day), else the day the payment was made (UTC).
    pub supply_date: NaiveDate,
    /// Where the taxes were reckoned, when a rule needed the place.
    pub province: Option<Province>,
    pub sale: Sale,
    /// When the whole amount was refunded (on a credit note: when that refund was made).
    pub refunded_at: Option<DateTime<Utc>>,
    /// Set on a credit note: `sale` is then what the refund gave back.
    pub credit_note: Option<CreditNote>,
}

/// A refund as its credit note names it.
#[derive(Debug, Clone)]
pub struct CreditNote {
    pub refund_id: Uuid,
    /// The payment's total.
    pub original_total: crate::domain::Money,
    pub reason: String,
}

/// The receipt of payment `payment_id`, or the credit note of its refund `refund_id`, its
/// words in `language`.
pub async fn receipt(
    state: &AppState,
    caller: &Caller,
    payment_id: Uuid,
    refund_id: Option<Uuid>,
    language: Language,
) -> ApiResult<Receipt> {
    let unknown = || not_found("payment");
    let parties = store::receipt_parties(&state.db, payment_id)
        .await?
        .ok_or_else(unknown)?;
    let payment = ledger::find_in(&state.db, payment_id).await?;
    if !may_read(caller, &payment, &parties) {
        return Err(unknown());
    }
    let mut sale = payment.sale.clone();
    let mut refunded_at = (payment.state == PaymentState::Refunded).then_some(payment.updated_at);
    let mut credit_note = None;
    if let Some(refund_id) = refund_id {
        let refund = crate::store::refunds::find(&state.db, refund_id)
            .await?
            .filter(|r| r.payment_id == payment.id && r.state == "succeeded")
            .ok_or_else(|| not_found("refund"))?;
        let currency = payment.amount.currency();
        let money = |cents| {
            crate::domain::Money::parse(cents, currency.code())
                .map_err(|e| crate::error::ApiError::Internal(anyhow::anyhow!("refund: {e}")))
        };
        sale.subtotal = money(refund.amount_cents - refund.tax_cents)?;
        sale.taxes = super::sale::from_store(refund.taxes.0.clone(), currency)
            .map_err(crate::error::ApiError::Internal)?;
        refunded_at = Some(refund.created_at);
        credit_note = Some(CreditNote {
            refund_id,
            original_total: payment.amount,
            reason: refund.reason,
        });
    }
    let seller = match payment.purpose {
        Purpose::Hire => Party {
            name: parties.payee_name.clone().unwrap_or_default(),
            ..numbers(&Registrations::default(), &sale.taxes)
        },
        Purpose::Membership | Purpose::TestCharge => {
            let platform = state.config.seller();
            Party {
                name: platform.name,
                ..numbers(&platform.registrations, &sale.taxes)
            }
        }
    };
    let buyer = Party {
        name: parties.payer_name.clone().unwrap_or_default(),
        gst_hst_number: None,
        qst_number: None,
    };
    let description = description(&payment, &parties, language);
    Ok(Receipt {
        supply_date: sale.date.unwrap_or_else(|| payment.created_at.date_naive()),
        province: sale.place,
        payment,
        seller,
        buyer,
        description,
        sale,
        refunded_at,
        credit_note,
    })
}

/// The payer, the payee of a hire, or an admin.
fn may_read(caller: &Caller, payment: &Payment, parties: &ReceiptParties) -> bool {
    caller.role == Role::Admin
        || access::own_account(caller, payment.payer_id).is_ok()
        || parties
            .payee_id
            .is_some_and(|payee| caller.role == Role::Professional && caller.account_id == payee)
}

/// The seller's numbers: those the payment's taxes were collected under, else `known` (the
/// platform's own registrations; none for a professional whose job was not taxed).
fn numbers(known: &Registrations, taxes: &[ChargedTax]) -> Party {
    let recorded = |names: &[TaxName]| {
        taxes
            .iter()
            .find(|tax| names.contains(&tax.line.name))
            .map(|tax| tax.registration_number.clone())
    };
    Party {
        name: String::new(),
        gst_hst_number: recorded(&[TaxName::Gst, TaxName::Hst])
            .or_else(|| known.gst_hst.as_ref().map(|n| n.as_str().to_owned())),
        qst_number: recorded(&[TaxName::Qst])
            .or_else(|| known.qst.as_ref().map(|n| n.as_str().to_owned())),
    }
}

fn description(payment: &Payment, parties: &ReceiptParties, language: Language) -> String {
    let service = language.pick(&parties.service_name_en, &parties.service_name_fr);
    let sold = match payment.purpose {
        Purpose::Membership => Sold::Membership,
        Purpose::TestCharge => Sold::TestCharge,
        Purpose::Hire => Sold::RepairWork {
            service: service.as_deref().unwrap_or_default(),
            postal_code: parties.postal_code.as_deref().unwrap_or_default(),
        },
    };
    words::of(language).receipt_description(sold)
}
