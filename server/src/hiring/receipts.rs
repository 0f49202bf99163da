//! A hire's payment told to its parties, once per outcome: the hold placed at the hire, the
//! card charged (the customer's receipt and the professional's share), the payment
//! refunded, the hold released or lapsed (the words are [`super::notice`]'s). Whatever brings
//! a hired order in line with its payment tells it, in its own transaction: the hire, the
//! completion, and [`super::settle`] after ConfirmPayment, Stripe's webhook, an admin's step
//! or the sweeper; what none of them told (a process stopped between the payment's move and
//! the telling) the housekeeping tells ([`tell_untold`]). `hire_receipts` holds one row per
//! payment and outcome, written with the emails, so a replayed event, a retried call, a
//! housekeeping pass or a second server process finds it and tells nothing again.

use chrono::{DateTime, Utc};
use sqlx::PgConnection;
use uuid::Uuid;

use super::notice::{self, Amounts, PaymentOutcome};
use crate::{
    alerts::{self, Alerting},
    billing::{Payment, PaymentState, ledger, payouts, sale},
    domain::Role,
    error::ApiResult,
    outbox::{self, NewOutboxMessage},
    state::AppState,
    store::{
        accounts::AccountKind,
        receipts::{self, HireFacts},
    },
};

/// Writes, through `tx`, the emails of what order `order_id`'s payment has come to, unless
/// that outcome was told before; whether this call told it. Orders nobody was hired on tell
/// nothing: their customer was not told of a hold either.
pub(super) async fn tell(
    tx: &mut PgConnection,
    state: &AppState,
    order_id: Uuid,
) -> ApiResult<bool> {
    let fee_percent = state.config.platform_fee_percent;
    let Some(facts) = receipts::hired_order(tx, order_id, fee_percent).await? else {
        return Ok(false);
    };
    let payment = ledger::find_in(&mut *tx, facts.payment_id).await?;
    let Some(outcome) = PaymentOutcome::of(payment.state) else {
        return Ok(false);
    };
    if !receipts::claim(tx, payment.id, outcome.key()).await? {
        return Ok(false);
    }
    let amounts = amounts(state, &facts, &payment)?;
    let links = state.config.links();
    let mut told = notice::payment_outcome(&facts, &payment, &amounts, outcome, links)?;
    told.extend(alerts(tx, state, &facts, &payment, &amounts, outcome).await?);
    outbox::enqueue_many(&mut *tx, &told).await?;
    Ok(true)
}

/// What the payment came to: its sale as the ledger recorded it (the job's taxes) and the
/// taxes the platform charges on its fee (at the professional's home base, the day of the
/// capture, as the payout entry reckons them until its payout record is written).
fn amounts(state: &AppState, facts: &HireFacts, payment: &Payment) -> ApiResult<Amounts> {
    let sale = payment.sale.clone();
    let day = payment
        .captured_at
        .unwrap_or(payment.updated_at)
        .date_naive();
    let fee_taxes = sale::fee_taxes(
        &state.config.registrations(),
        &facts.professional_home_province,
        day,
        payouts::cad(facts.fee_cents)?,
    )?;
    let links = state.config.links();
    Ok(Amounts {
        sale,
        fee_taxes,
        receipt: links.receipt(payment.id, Role::Customer),
        payee_receipt: links.receipt(payment.id, Role::Professional),
    })
}

/// The pushes of `outcome` to the devices of the customer (none once deleted), and of a
/// charged job to the professional's.
async fn alerts(
    tx: &mut PgConnection,
    state: &AppState,
    facts: &HireFacts,
    payment: &Payment,
    amounts: &Amounts,
    outcome: PaymentOutcome,
) -> sqlx::Result<Vec<NewOutboxMessage>> {
    let mut alerts = Vec::new();
    let tag = format!("order:{}", facts.order_id);
    if !facts.customer_deleted {
        let link = notice::customer_link(outcome, state.config.links());
        let key = format!("{tag}:{}", outcome.key());
        let customer = [facts.customer_id];
        let to = Alerting::new(AccountKind::Customer, &customer, &link, &tag).keyed(&key);
        let alert = |_, language| {
            Some(notice::payment_alert(
                facts, payment, outcome, language, &link,
            ))
        };
        alerts.extend(alerts::to_devices(&mut *tx, to, alert).await?);
    }
    if outcome == PaymentOutcome::Charged {
        let link = state.config.links().professional_orders();
        let key = format!("{tag}:paid");
        let professional = [facts.professional_id];
        let to = Alerting::new(AccountKind::Professional, &professional, &link, &tag).keyed(&key);
        let alert = |_, language| notice::job_paid_alert(facts, payment, amounts, language, &link);
        alerts.extend(alerts::to_devices(&mut *tx, to, alert).await?);
    }
    Ok(alerts)
}

/// Tells what hired orders' payments came to before `before` and nobody told, up to
/// `limit` orders; how many were told.
pub(super) async fn tell_untold(
    state: &AppState,
    before: DateTime<Utc>,
    limit: i64,
) -> ApiResult<usize> {
    let outcomes: Vec<(&str, &str)> = PaymentState::ALL
        .into_iter()
        .filter_map(|paid| PaymentOutcome::of(paid).map(|told| (paid.as_str(), told.key())))
        .collect();
    let mut told = 0;
    for order_id in receipts::untold(&state.db, &outcomes, before, limit).await? {
        let mut tx = crate::store::transaction::begin(&state.db).await?;
        if tell(&mut tx, state, order_id).await? {
            told += 1;
        }
        tx.commit().await?;
    }
    if told > 0 {
        state.outbox.wake();
    }
    Ok(told)
}
