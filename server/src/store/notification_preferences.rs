//! The kinds of messages each person turned off or on again, per channel
//! (`notification_preferences`); a kind without a row is on. The outbox reads them when it
//! writes a message (`super::outbox`), the fan-out before it spends a text.

use sqlx::PgExecutor;
use uuid::Uuid;

use super::accounts::AccountKind;
use crate::domain::{NotifyChannel, Topic};

/// One stored choice.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Choice {
    pub topic: Topic,
    pub channel: NotifyChannel,
    pub enabled: bool,
}

/// Where a choice was made.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// The person's account page (UpdateNotificationPreferences).
    Account,
    /// An email's unsubscribe link or its one-click header.
    EmailLink,
    /// A text answered STOP or START (`crate::accounts::sms_replies`).
    SmsReply,
}

impl Source {
    fn as_str(self) -> &'static str {
        match self {
            Source::Account => "account",
            Source::EmailLink => "email_link",
            Source::SmsReply => "sms_reply",
        }
    }
}

/// The choices account `id` made; kinds and channels not listed are on.
pub async fn choices_of(
    db: impl PgExecutor<'_>,
    kind: AccountKind,
    id: Uuid,
) -> sqlx::Result<Vec<Choice>> {
    let rows: Vec<(String, String, bool)> = sqlx::query_as(
        "select topic, channel, enabled from notification_preferences
         where account_kind = $1 and account_id = $2",
    )
    .bind(kind.as_str())
    .bind(id)
    .fetch_all(db)
    .await?;
    Ok(rows
        .into_iter()
        .filter_map(|(topic, channel, enabled)| {
            Some(Choice {
                topic: Topic::from_code(&topic)?,
                channel: NotifyChannel::from_code(&channel)?,
                enabled,
            })
        })
        .collect())
}

/// Records `choices` of account `id`, made at `source`, in one statement.
pub async fn record(
    db: impl PgExecutor<'_>,
    kind: AccountKind,
    id: Uuid,
    choices: &[Choice],
    source: Source,
) -> sqlx::Result<()> {
    let topics: Vec<&str> = choices.iter().map(|c| c.topic.as_str()).collect();
    let channels: Vec<&str> = choices.iter().map(|c| c.channel.as_str()).collect();
    let enabled: Vec<bool> = choices.iter().map(|c| c.enabled).collect();
    sqlx::query(
        "insert into notification_preferences
             (account_kind, account_id, topic, channel, enabled, source)
         select $1, $2, topic, channel, enabled, $6
         from unnest($3::text[], $4::text[], $5::bool[]) as c(topic, channel, enabled)
         on conflict (account_kind, account_id, topic, channel)
         do update set enabled = excluded.enabled, source = excluded.source, updated_at = now()",
    )
    .bind(kind.as_str())
    .bind(id)
    .bind(&topics)
    .bind(&channels)
    .bind(&enabled)
    .bind(source.as_str())
    .execute(db)
    .await?;
    Ok(())
}

/// Of `accounts` (of `kind`), who turned `topic` off, and on which channel.
pub async fn turned_off(
    db: impl PgExecutor<'_>,
    kind: AccountKind,
    accounts: &[Uuid],
    topic: Topic,
) -> sqlx::Result<Vec<(Uuid, NotifyChannel)>> {
    if accounts.is_empty() {
        return Ok(Vec::new());
    }
    let rows: Vec<(Uuid, String)> = sqlx::query_as(
        "select account_id, channel from notification_preferences
         where account_kind = $1 and account_id = any($2) and topic = $3 and not enabled",
    )
    .bind(kind.as_str())
    .bind(accounts)
    .bind(topic.as_str())
    .fetch_all(db)
    .await?;
    Ok(rows
        .into_iter()
        .filter_map(|(id, channel)| Some((id, NotifyChannel::from_code(&channel)?)))
        .collect())
}

/// Forgets account `id`'s choices (its erasure).
pub async fn forget(db: impl PgExecutor<'_>, kind: AccountKind, id: Uuid) -> sqlx::Result<u64> {
    Ok(sqlx::query(
        "delete from notification_preferences where account_kind = $1 and account_id = $2",
    )
    .bind(kind.as_str())
    .bind(id)
    .execute(db)
    .await?
    .rows_affected())
}
