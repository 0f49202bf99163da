//! Memberships: the monthly price (in one place), the gate that every professional-only
//! marketplace call passes, and the purchase. The membership is the professional's
//! paid-until time; only a purchase here moves it. A month is sold as a [`Sale`]: the price
//! less the coupon, then the sales taxes of the professional's province on the day
//! ([`sale::platform_sale`]); the card is charged the total.

use chrono::{DateTime, Months, NaiveDate, Utc};
use uuid::Uuid;

use super::{
    Ledger, LedgerError, Payment, PaymentState, Purpose, StartPayment, Timing, receipt,
    receipt::Issuer,
    sale::{self, Sale},
};
use crate::{
    domain::{Cents, CouponCode, DiscountPercent, Money, ProfessionalState, Province},
    error::{ApiError, ApiResult, ErrorReason},
    providers::payments::{IdempotencyKey, PaymentInputError, PaymentMethodRef},
    store::{
        coupons::{self, Redemption, Reserved},
        memberships::{self, Grant, Member, Standing},
    },
    tax::Registrations,
};

/// The period a purchase at `now` adds: one calendar month from the later of now and the
/// current end. A month from the 31st ends on the last day of a shorter month (Jan 31 ->
/// Feb 28 or 29).
pub fn next_period(
    now: DateTime<Utc>,
    current_end: Option<DateTime<Utc>>,
) -> (DateTime<Utc>, DateTime<Utc>) {
    let start = current_end.filter(|end| *end > now).unwrap_or(now);
    let end = start
        .checked_add_months(Months::new(1))
        .unwrap_or(DateTime::<Utc>::MAX_UTC);
    (start, end)
}

/// A professional's membership as the contract shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Membership {
    pub professional_id: Uuid,
    pub expires_at: Option<DateTime<Utc>>,
}

impl Membership {
    /// Active: paid until a time still to come. [`crate::store::memberships::active_sql`] says the same in SQL.
    pub fn is_active(&self, now: DateTime<Utc>) -> bool {
        self.expires_at.is_some_and(|end| end > now)
    }
}

pub async fn get(db: &sqlx::PgPool, professional_id: Uuid) -> ApiResult<Membership> {
    let standing = memberships::standing(db, professional_id)
        .await?
        .ok_or_else(|| crate::error::not_found("professional"))?;
    Ok(Membership {
        professional_id,
        expires_at: standing.membership_expires_at,
    })
}

/// The membership gate, the one rule for every call a professional makes on the
/// marketplace (open requests, quoting, the dashboard, orders): an approved professional
/// with a verified phone and a membership paid up now. Each missing condition has its own
/// reason, so the web shows the notice that fits.
pub async fn require_active(db: &sqlx::PgPool, professional_id: Uuid) -> ApiResult<()> {
    let standing = memberships::standing(db, professional_id)
        .await?
        .ok_or_else(|| crate::error::not_found("professional"))?;
    let refused = |reason, message: &str| {
        Err(ApiError::FailedPrecondition {
            reason,
            message: message.to_owned(),
        })
    };
    if !standing.phone_verified {
        return refused(
            ErrorReason::PhoneNotVerified,
            "verify your phone number first",
        );
    }
    if ProfessionalState::from_code(&standing.state) != Some(ProfessionalState::Approved) {
        return refused(
            ErrorReason::ProfessionalNotApproved,
            "your profile must be approved by an administrator first",
        );
    }
    let membership = Membership {
        professional_id,
        expires_at: standing.membership_expires_at,
    };
    if !membership.is_active(Utc::now()) {
        return refused(
            ErrorReason::MembershipInactive,
            "your membership is inactive; please purchase a membership to continue",
        );
    }
    Ok(())
}

/// What one month costs with a coupon: the price less the discount (the sale's subtotal),
/// and the taxes on it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Quote {
    pub discount_percent: i32,
    pub sale: Sale,
}

/// The message of every coupon that cannot be used, as the purchase screen always said.
pub fn coupon_invalid() -> ApiError {
    ApiError::NotFound {
        reason: ErrorReason::CouponInvalid,
        message: "Invalid or expired coupon".to_owned(),
    }
}

/// The day a sale made now is taxed on: today, in UTC.
fn today() -> NaiveDate {
    Utc::now().date_naive()
}

/// Where a month sold to the professional of `standing` is taxed (see
/// [`sale::platform_place`]).
fn place_of(seller: &Registrations, standing: &Standing) -> ApiResult<Option<Province>> {
    sale::platform_place(seller, &standing.home_province)
}

/// One month at `price` less `discount_percent`, taxed in `place` today.
fn quote_with(
    seller: &Registrations,
    place: Option<Province>,
    price: Money,
    discount_percent: i32,
) -> ApiResult<Quote> {
    let subtotal = discounted(price, discount_percent)?;
    Ok(Quote {
        discount_percent,
        sale: sale::platform_sale(seller, place, today(), subtotal)?,
    })
}

/// `price` less a stored discount (0 for none).
pub fn discounted(price: Money, discount_percent: i32) -> ApiResult<Money> {
    match discount_percent {
        0 => Ok(price),
        percent => DiscountPercent::parse(percent)
            .map(|discount| discount.apply(price))
            .map_err(|e| ApiError::Internal(anyhow::anyhow!("stored discount: {e}"))),
    }
}

/// Parses an optional code: empty means none.
fn coupon_code(raw: &str) -> ApiResult<Option<CouponCode>> {
    if raw.trim().is_empty() {
        return Ok(None);
    }
    CouponCode::parse(raw)
        .map(Some)
        .map_err(|e| ApiError::invalid("coupon_code", e))
}

/// The discount of the coupon `code` if it can be used now; 0 for no code.
pub async fn usable_discount(db: &sqlx::PgPool, code: &str) -> ApiResult<i32> {
    let Some(code) = coupon_code(code)? else {
        return Ok(0);
    };
    let coupon = coupons::find_usable(db, code.as_str())
        .await?
        .ok_or_else(coupon_invalid)?;
    Ok(coupon.discount_percent)
}

/// Who asks for a quote.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum QuoteFor {
    /// A professional: taxed as their purchase would be.
    Professional(Uuid),
    /// An admin, who buys none: the price less the coupon, before tax.
    Admin,
}

/// The price, less the coupon `code` if it can be used now, and the taxes a purchase now
/// would carry (QuoteMembership, and the legacy coupon check). `price` is one month's
/// (`Config::membership_price`), `seller` the platform's registrations.
pub async fn quote(
    db: &sqlx::PgPool,
    seller: &Registrations,
    price: Money,
    buyer: QuoteFor,
    code: &str,
) -> ApiResult<Quote> {
    let place = match buyer {
        QuoteFor::Professional(id) => {
            let standing = memberships::standing(db, id)
                .await?
                .ok_or_else(|| crate::error::not_found("professional"))?;
            Some(place_of(seller, &standing)?)
        }
        QuoteFor::Admin => None,
    };
    let discount = usable_discount(db, code).await?;
    match place {
        Some(place) => quote_with(seller, place, price, discount),
        None => Ok(Quote {
            discount_percent: discount,
            sale: Sale::untaxed(discounted(price, discount)?),
        }),
    }
}

/// A purchase as the professional asks for it.
pub struct PurchaseRequest<'a> {
    /// One month's price (`Config::membership_price`).
    pub price: Money,
    /// The platform (`Config::seller`): its registrations decide the taxes, and its name
    /// and numbers head the receipt.
    pub issuer: &'a Issuer<'a>,
    pub payment_method: &'a str,
    pub coupon_code: &'a str,
    pub request_id: &'a str,
}

#[derive(Debug, Clone)]
pub struct Purchased {
    pub membership: Membership,
    /// What the month costs: subtotal, taxes and total (the payment's amount).
    pub sale: Sale,
    /// The charge; `None` for a month a 100 % coupon made free.
    pub payment: Option<Payment>,
}

/// Buys one month: the server's price less a usable coupon, plus the sales taxes of the
/// professional's province today, charged at once. A captured
/// payment extends the membership by [`next_period`]; a payment that waits for the
/// cardholder (3-D Secure) extends it when a retry of the same request finds it captured.
///
/// Edges: a 100 % coupon makes the month free (no tax, nothing is charged, the month is
/// granted once per request_id); a professional without a home base is refused before
/// anything is counted when the platform collects taxes (their province decides them); a
/// discount that leaves less than the gateway's minimum charge
/// cannot be created (see `coupons::create`). The coupon's use is counted before the card is
/// charged and given back when the card is refused.
pub async fn purchase(
    ledger: &Ledger,
    professional_id: Uuid,
    request: &PurchaseRequest<'_>,
) -> ApiResult<Purchased> {
    let request_id = IdempotencyKey::parse(request.request_id)?;
    // A month a 100 % coupon makes free takes no card: an empty one is refused only when
    // there is something to charge.
    let payment_method = match request.payment_method.trim() {
        "" => None,
        method => Some(PaymentMethodRef::parse(method)?),
    };
    let code = coupon_code(request.coupon_code)?;
    let db = ledger.db();
    let standing = memberships::standing(db, professional_id)
        .await?
        .ok_or_else(|| crate::error::not_found("professional"))?;
    if !standing.phone_verified {
        return Err(ApiError::FailedPrecondition {
            reason: ErrorReason::PhoneNotVerified,
            message: "verify your phone number before buying a membership".to_owned(),
        });
    }
    let issuer = request.issuer;
    let seller = &issuer.seller;
    let place = place_of(&seller.registrations, &standing)?;
    let (redemption, counted_now) = redeem(db, professional_id, request_id, code).await?;
    let quote = quote_with(
        &seller.registrations,
        place,
        request.price,
        redemption.as_ref().map_or(0, |r| r.discount_percent),
    )?;
    let sale = quote.sale;
    if sale.total().cents() == Cents::ZERO {
        let free = Grant {
            professional_id,
            request_id: request_id.uuid(),
            payment_id: None,
            coupon_id: redemption.as_ref().map(|r| r.coupon_id),
        };
        if !extend(db, issuer, &free, &sale, today()).await? {
            return Err(crate::error::not_found("professional"));
        }
        return Ok(Purchased {
            membership: get(db, professional_id).await?,
            sale,
            payment: None,
        });
    }
    let Some(payment_method) = payment_method else {
        if redemption.is_some() {
            coupons::release(db, professional_id, request_id.uuid()).await?;
        }
        return Err(PaymentInputError::PaymentMethod.into());
    };
    let started = ledger
        .start(&StartPayment {
            purpose: Purpose::Membership,
            payer_id: professional_id,
            sale: sale.clone(),
            payment_method,
            timing: Timing::Now,
            request_id,
        })
        .await;
    let payment = match started {
        Ok(payment) => payment,
        Err(error) => {
            let card_refused = matches!(
                error,
                LedgerError::Declined(_)
                    | LedgerError::InvalidPaymentMethod
                    | LedgerError::AmountTooSmall
            );
            let ours = counted_now && matches!(error, LedgerError::RequestIdReused);
            if redemption.is_some() && (card_refused || ours) {
                coupons::release(db, professional_id, request_id.uuid()).await?;
            }
            return Err(error.into());
        }
    };
    grant_if_captured(db, issuer, &payment).await?;
    Ok(Purchased {
        membership: get(db, professional_id).await?,
        sale,
        payment: Some(payment),
    })
}

/// The coupon this purchase uses, counted once per request_id, and whether this call
/// counted it. The same request_id with another coupon (or none, after one) is a reused key.
async fn redeem(
    db: &sqlx::PgPool,
    professional_id: Uuid,
    request_id: IdempotencyKey,
    code: Option<CouponCode>,
) -> ApiResult<(Option<Redemption>, bool)> {
    let reused = || ApiError::from(LedgerError::RequestIdReused);
    let Some(code) = code else {
        return match coupons::held(db, professional_id, request_id.uuid()).await? {
            Some(_) => Err(reused()),
            None => Ok((None, false)),
        };
    };
    match coupons::reserve(db, professional_id, request_id.uuid(), code.as_str()).await? {
        Reserved::Counted(redemption) => Ok((Some(redemption), true)),
        Reserved::Earlier(redemption) if redemption.code == code.as_str() => {
            Ok((Some(redemption), false))
        }
        Reserved::Earlier(_) => Err(reused()),
        Reserved::Unusable => Err(coupon_invalid()),
    }
}

/// Grants the month a captured membership payment paid for, once per purchase: when the
/// purchase call sees it captured, or later when the cardholder's authentication completes
/// (ConfirmPayment, Stripe's webhook, a retry of the purchase). Other payments: nothing.
/// The receipt shows what the ledger recorded with the payment, sold by `issuer`'s platform.
pub async fn grant_if_captured(
    db: &sqlx::PgPool,
    issuer: &Issuer<'_>,
    payment: &Payment,
) -> Result<(), LedgerError> {
    if payment.purpose != Purpose::Membership || payment.state != PaymentState::Captured {
        return Ok(());
    }
    let professional_id = payment.payer_id;
    let Some(request_id) =
        memberships::purchase_request_id(db, professional_id, payment.id).await?
    else {
        return Err(LedgerError::Internal(anyhow::anyhow!(
            "membership payment {} has no purchase attempt",
            payment.id
        )));
    };
    let coupon = coupons::held(db, professional_id, request_id).await?;
    let grant = Grant {
        professional_id,
        request_id,
        payment_id: Some(payment.id),
        coupon_id: coupon.map(|c| c.coupon_id),
    };
    let sale = &payment.sale;
    // Recorded before taxes were: the day it was made.
    let sold_on = sale.date.unwrap_or_else(|| payment.created_at.date_naive());
    // A professional deleted since has no membership left to extend.
    extend(db, issuer, &grant, sale, sold_on).await?;
    Ok(())
}

/// How long before its end a membership is reminded.
pub const REMINDER_BEFORE_DAYS: i64 = 3;

/// Emails every professional whose membership ends within three days, once per end
/// (housekeeping calls it periodically). Answers how many reminders were written.
pub async fn send_reminders(db: &sqlx::PgPool) -> sqlx::Result<usize> {
    let within = chrono::Duration::days(REMINDER_BEFORE_DAYS);
    let mut sent = 0;
    loop {
        let batch = memberships::remind_due(db, within, 100, receipt::reminder).await?;
        sent += batch;
        if batch < 100 {
            return Ok(sent);
        }
    }
}

/// False when there is no such professional. The receipt (`sale` of `sold_on`: what was
/// paid, 0 for a free month) goes out with the extension, in the professional's language.
async fn extend(
    db: &sqlx::PgPool,
    issuer: &Issuer<'_>,
    grant: &Grant,
    sale: &Sale,
    sold_on: NaiveDate,
) -> sqlx::Result<bool> {
    let now = Utc::now();
    let sold = (sold_on, grant.payment_id);
    let receipt = |member: &Member, ends_at| receipt::receipt(member, issuer, sale, sold, ends_at);
    memberships::grant(db, grant, |end| next_period(now, end), receipt).await
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    fn at(y: i32, m: u32, d: u32) -> DateTime<Utc> {
        Utc.with_ymd_and_hms(y, m, d, 12, 0, 0).unwrap()
    }

    #[test]
    fn a_month_runs_from_now_when_there_is_no_end_or_it_has_passed() {
        let now = at(2026, 3, 10);
        assert_eq!(next_period(now, None), (now, at(2026, 4, 10)));
        assert_eq!(
            next_period(now, Some(at(2026, 1, 1))),
            (now, at(2026, 4, 10))
        );
    }

    #[test]
    fn a_month_runs_from_a_future_end() {
        let now = at(2026, 3, 10);
        let end = at(2026, 3, 25);
        assert_eq!(next_period(now, Some(end)), (end, at(2026, 4, 25)));
    }

    #[test]
    fn a_month_from_a_long_month_end_stops_at_the_shorter_month_end() {
        assert_eq!(next_period(at(2026, 1, 31), None).1, at(2026, 2, 28));
        assert_eq!(next_period(at(2028, 1, 31), None).1, at(2028, 2, 29));
        assert_eq!(next_period(at(2026, 3, 31), None).1, at(2026, 4, 30));
        assert_eq!(next_period(at(2026, 12, 31), None).1, at(2027, 1, 31));
    }
}
