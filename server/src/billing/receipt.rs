//! The emails of a professional's membership: the receipt of each month, and the reminder
//! before it ends, in their language, dated in their time zone. The words are
//! [`crate::words`]'.

use chrono::{DateTime, NaiveDate, Utc};
use uuid::Uuid;

use super::sale::Sale;
use crate::tax::Seller;
use crate::{
    config::{Config, links::Links},
    domain::{Role, Subscriber, Topic},
    outbox::NewOutboxMessage,
    store::memberships::Member,
    tax::TaxLine,
    words::{self, Mail, MembershipReceipt, Moment},
};

/// Who issues the platform's receipts: the platform as the seller (`Config::seller`), and
/// where the printable receipts are (`config::links`).
#[derive(Debug, Clone)]
pub struct Issuer<'a> {
    pub seller: Seller,
    pub links: Links<'a>,
}

impl<'a> Issuer<'a> {
    pub fn of(config: &'a Config) -> Self {
        Self {
            seller: config.seller(),
            links: config.links(),
        }
    }
}

fn to_member(member: &Member, mail: Mail) -> NewOutboxMessage {
    NewOutboxMessage::email(member.email.clone(), mail.subject, mail.body)
}

/// The receipt of one month: `issuer`'s platform sold it to `member` as `sale` (for a month
/// a coupon made free, a sale of 0, without a payment) on `sold_on` (the day its taxes
/// became payable, a UTC day, so read in UTC) by payment `payment_id`, whose printable
/// receipt it links to; the membership now ends at `ends_at`.
pub fn receipt(
    member: &Member,
    issuer: &Issuer<'_>,
    sale: &Sale,
    (sold_on, payment_id): (NaiveDate, Option<Uuid>),
    ends_at: DateTime<Utc>,
) -> NewOutboxMessage {
    let seller = &issuer.seller;
    let link = payment_id.map(|id| issuer.links.receipt(id, Role::Professional));
    let taxes: Vec<TaxLine> = sale.taxes.iter().map(|tax| tax.line).collect();
    let registrations = &seller.registrations;
    let receipt = MembershipReceipt {
        seller: &seller.name,
        gst_hst_number: registrations.gst_hst.as_ref().map(|n| n.as_str()),
        qst_number: registrations.qst.as_ref().map(|n| n.as_str()),
        date: Moment::utc(sold_on.and_time(chrono::NaiveTime::MIN).and_utc()),
        subtotal: sale.subtotal,
        taxes: &taxes,
        total: sale.total(),
        ends: Moment::new(ends_at, &member.time_zone),
        link: link.as_ref().map_or("", |link| link.of(member.language)),
    };
    to_member(
        member,
        words::of(member.language).membership_receipt(&member.name, &receipt),
    )
}

/// The reminder sent three days before the membership of professional `id` ends; they may
/// turn reminders off.
pub fn reminder(id: Uuid, member: &Member, ends_at: DateTime<Utc>) -> NewOutboxMessage {
    let ends = Moment::new(ends_at, &member.time_zone);
    to_member(
        member,
        words::of(member.language).membership_reminder(&member.name, ends),
    )
    .for_subscriber(Subscriber {
        topic: Topic::Reminders,
        role: Role::Professional,
        account_id: id,
        language: member.language,
    })
}
