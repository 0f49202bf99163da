//! The emails of a professional's membership: the receipt of each month, and the reminder
//! before it ends, in their language, dated in their time zone. The words are
//! [`crate::words`]'.

use chrono::{DateTime, Utc};

use crate::{
    domain::Money,
    outbox::NewOutboxMessage,
    store::memberships::Member,
    words::{self, Mail, Moment},
};

fn to_member(member: &Member, mail: Mail) -> NewOutboxMessage {
    NewOutboxMessage::email(member.email.clone(), mail.subject, mail.body)
}

/// The receipt of one month: what was paid (`None`: free with a coupon) and the new end.
pub fn receipt(member: &Member, paid: Option<Money>, ends_at: DateTime<Utc>) -> NewOutboxMessage {
    let ends = Moment::new(ends_at, &member.time_zone);
    to_member(
        member,
        words::of(member.language).membership_receipt(&member.name, paid, ends),
    )
}

/// The reminder sent three days before a membership ends.
pub fn reminder(member: &Member, ends_at: DateTime<Utc>) -> NewOutboxMessage {
    let ends = Moment::new(ends_at, &member.time_zone);
    to_member(
        member,
        words::of(member.language).membership_reminder(&member.name, ends),
    )
}
