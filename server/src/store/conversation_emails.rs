//! The emails of unread messages (`conversation_readers.email_due_at`): claimed when due by
//! whichever server process comes first (`for update skip locked`), each with what it needs
//! to write the email in its reader's language.

use chrono::{DateTime, Utc};
use sqlx::PgConnection;
use uuid::Uuid;

use super::{
    conversations::{MESSAGE_COLUMNS, MessageRow},
    services::ServiceNames,
};
use crate::domain::{Language, SmsUpdates, conversation::Side};

/// A reader whose email is due, with their conversation and how to reach them (`None`:
/// their account was deleted).
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct DueEmail {
    pub conversation_id: Uuid,
    pub side: String,
    pub read_sequence: i64,
    pub emailed_sequence: i64,
    pub repair_request_id: Uuid,
    pub professional_id: Uuid,
    pub hired_professional_id: Option<Uuid>,
    #[sqlx(flatten)]
    pub service_name: ServiceNames,
    /// The reader's account (`None` once a customer's account is deleted).
    pub reader_id: Option<Uuid>,
    pub reader_name: Option<String>,
    pub reader_email: Option<String>,
    pub reader_language: Option<Language>,
    pub reader_phone: Option<String>,
    pub reader_phone_verified: bool,
    pub reader_sms_updates: String,
    /// The other party's name, who wrote the unread messages (empty once deleted).
    pub writer_name: String,
}

impl DueEmail {
    pub fn side(&self) -> Side {
        Side::from_code(&self.side).unwrap_or(Side::Customer)
    }

    /// The reader's phone when they asked for texts and verified it.
    pub fn reader_texts_to(&self) -> Option<&str> {
        SmsUpdates::from_code(&self.reader_sms_updates)
            .unwrap_or_default()
            .texts_to(self.reader_phone.as_deref(), self.reader_phone_verified)
    }
}

/// Claims up to `limit` readers whose email is due at `now`; their rows stay locked until
/// `tx` ends, so no other process emails them meanwhile.
pub async fn claim_due(
    tx: &mut PgConnection,
    now: DateTime<Utc>,
    limit: i64,
) -> sqlx::Result<Vec<DueEmail>> {
    sqlx::query_as(
        "with due as (
             select conversation_id, side from conversation_readers
             where email_due_at <= $1
             order by email_due_at limit $2
             for update skip locked)
         select r.conversation_id, r.side, r.read_sequence, r.emailed_sequence,
             c.repair_request_id, c.professional_id, q.hired_professional_id,
             s.name_en as service_name_en, s.name_fr as service_name_fr,
             coalesce(cu.id, pr.id) as reader_id,
             coalesce(cu.name, pr.name) as reader_name,
             coalesce(cu.email, pr.email)::text as reader_email,
             coalesce(cu.language, pr.language) as reader_language,
             coalesce(cu.phone, pr.phone) as reader_phone,
             coalesce(cu.phone_verified, pr.phone_verified, false) as reader_phone_verified,
             coalesce(cu.sms_updates, pr.sms_updates, '') as reader_sms_updates,
             coalesce(case when r.side = 'customer' then wp.name else wc.name end, '')
                 as writer_name
         from due join conversation_readers r
             on r.conversation_id = due.conversation_id and r.side = due.side
         join conversations c on c.id = r.conversation_id
         join repair_requests q on q.id = c.repair_request_id
         join services s on s.id = q.service_id
         left join customers cu
             on r.side = 'customer' and cu.id = r.account_id and cu.deleted_at is null
         left join professionals pr on r.side = 'professional' and pr.id = r.account_id
         left join professionals wp on wp.id = c.professional_id
         left join customers wc on wc.id = c.customer_id",
    )
    .bind(now)
    .bind(limit)
    .fetch_all(tx)
    .await
}

/// The other side's messages the reader has neither read nor been emailed about.
#[derive(Debug, Clone)]
pub struct Unread {
    /// The oldest of them, up to the limit asked.
    pub messages: Vec<MessageRow>,
    /// How many there are in all.
    pub count: i64,
    /// The newest one's sequence.
    pub newest: i64,
}

/// What `due`'s reader has not read: up to `limit` messages, oldest first; `None` when
/// nothing is left unread (it was read meanwhile).
pub async fn unread_since(
    tx: &mut PgConnection,
    due: &DueEmail,
    limit: i64,
) -> sqlx::Result<Option<Unread>> {
    let after = due.read_sequence.max(due.emailed_sequence);
    let writer = due.side().other();
    let (count, newest): (i64, Option<i64>) = sqlx::query_as(
        "select count(*), max(sequence) from conversation_messages
         where conversation_id = $1 and author = $2 and sequence > $3 and deleted_at is null",
    )
    .bind(due.conversation_id)
    .bind(writer.as_str())
    .bind(after)
    .fetch_one(&mut *tx)
    .await?;
    let Some(newest) = newest else {
        return Ok(None);
    };
    let messages = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "select {MESSAGE_COLUMNS} from conversation_messages m
         where m.conversation_id = $1 and m.author = $2 and m.sequence > $3
           and m.deleted_at is null
         order by m.sequence limit $4"
    )))
    .bind(due.conversation_id)
    .bind(writer.as_str())
    .bind(after)
    .bind(limit)
    .fetch_all(&mut *tx)
    .await?;
    Ok(Some(Unread {
        messages,
        count,
        newest,
    }))
}

/// Records the reader's email sent at `now`, covering messages up to `sequence` (`None`:
/// nothing to send, the email is called off).
pub async fn settle(
    tx: &mut PgConnection,
    due: &DueEmail,
    now: DateTime<Utc>,
    sequence: Option<i64>,
) -> sqlx::Result<()> {
    sqlx::query(
        "update conversation_readers set email_due_at = null,
             emailed_at = case when $3::bigint is null then emailed_at else $4 end,
             emailed_sequence = coalesce($3, emailed_sequence)
         where conversation_id = $1 and side = $2",
    )
    .bind(due.conversation_id)
    .bind(&due.side)
    .bind(sequence)
    .bind(now)
    .execute(tx)
    .await?;
    Ok(())
}
