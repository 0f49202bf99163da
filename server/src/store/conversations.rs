//! Conversations, their readers and their messages (`conversations`, `conversation_readers`,
//! `conversation_messages`; `migrations/20261201000200_conversations.sql`). A message takes
//! its sequence from its conversation's row, raised in the transaction that inserts it, so
//! sequences have no gap; a retried send finds its message by the sender's key.

use std::time::Duration;

use chrono::{DateTime, Utc};
use sqlx::{PgConnection, PgExecutor};
use uuid::Uuid;

use super::services::ServiceNames;
use crate::domain::{
    Language, RepairRequestState, StoredPhoto,
    conversation::{Author, Side},
};

/// A conversation with what its views need: its request's state and hire, the names shown,
/// and both readers' markers.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct ConversationRow {
    pub id: Uuid,
    pub repair_request_id: Uuid,
    pub customer_id: Uuid,
    pub professional_id: Uuid,
    pub last_sequence: i64,
    pub last_message_at: DateTime<Utc>,
    pub request_state: String,
    pub hired_professional_id: Option<Uuid>,
    /// Whether a problem reported on the request's job is open (`store::job_problems`).
    pub problem_open: bool,
    pub service_id: Uuid,
    #[sqlx(flatten)]
    pub service_name: ServiceNames,
    /// Empty once the professional's account is deleted.
    pub professional_name: String,
    pub customer_read_sequence: i64,
    pub customer_unread: i32,
    pub professional_read_sequence: i64,
    pub professional_unread: i32,
}

impl ConversationRow {
    /// How far `side` has read.
    pub fn read_sequence(&self, side: Side) -> i64 {
        match side {
            Side::Customer => self.customer_read_sequence,
            Side::Professional => self.professional_read_sequence,
        }
    }

    /// The other side's messages `side` has not read.
    pub fn unread(&self, side: Side) -> i32 {
        match side {
            Side::Customer => self.customer_unread,
            Side::Professional => self.professional_unread,
        }
    }
}

const SELECT_CONVERSATION: &str = "select c.id, c.repair_request_id, c.customer_id,
        c.professional_id, c.last_sequence, c.last_message_at, r.state as request_state,
        r.hired_professional_id,
        exists(select 1 from job_problems jp
               where jp.repair_request_id = r.id and jp.state = 'open') as problem_open,
        r.service_id, s.name_en as service_name_en,
        s.name_fr as service_name_fr, coalesce(p.name, '') as professional_name,
        rc.read_sequence as customer_read_sequence, rc.unread as customer_unread,
        rp.read_sequence as professional_read_sequence, rp.unread as professional_unread
    from conversations c
    join repair_requests r on r.id = c.repair_request_id
    join services s on s.id = r.service_id
    left join professionals p on p.id = c.professional_id
    join conversation_readers rc on rc.conversation_id = c.id and rc.side = 'customer'
    join conversation_readers rp on rp.conversation_id = c.id and rp.side = 'professional'";

/// A stored message.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct MessageRow {
    pub id: Uuid,
    pub conversation_id: Uuid,
    pub sequence: i64,
    pub author: String,
    pub author_id: Uuid,
    pub text: String,
    pub text_language: Language,
    pub deleted_at: Option<DateTime<Utc>>,
    /// Into the other language, once made.
    pub translation: Option<String>,
    pub created_at: DateTime<Utc>,
    /// Its photos, in their order (`store::message_photos`).
    #[sqlx(json)]
    pub photos: Vec<StoredPhoto>,
}

impl MessageRow {
    /// The party who wrote it (an admin's message: see [`Self::by_admin`]); the table's
    /// check admits no other spelling.
    pub fn author(&self) -> Side {
        Side::from_code(&self.author).unwrap_or(Side::Customer)
    }

    /// Whether an admin wrote it (to both parties).
    pub fn by_admin(&self) -> bool {
        Author::from_code(&self.author) == Some(Author::Admin)
    }
}

/// A message's columns, read from `conversation_messages m`, with its photos in order.
pub(crate) const MESSAGE_COLUMNS: &str = "m.id, m.conversation_id, m.sequence, m.author, m.author_id, \
     m.text, m.text_language, m.deleted_at, m.translation, m.created_at, \
     coalesce((select json_agg(json_build_object('id', p.id, 'large_key', p.large_key, \
                  'thumbnail_key', p.thumbnail_key, 'width', p.width, 'height', p.height, \
                  'created_at', p.created_at) order by p.position) \
               from message_photos p where p.message_id = m.id), '[]') as photos";

/// The conversation of request `repair_request_id` with professional `professional_id`.
pub async fn get(
    db: impl PgExecutor<'_>,
    repair_request_id: Uuid,
    professional_id: Uuid,
) -> sqlx::Result<Option<ConversationRow>> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "{SELECT_CONVERSATION} where c.repair_request_id = $1 and c.professional_id = $2"
    )))
    .bind(repair_request_id)
    .bind(professional_id)
    .fetch_optional(db)
    .await
}

/// The message sent by `author_id` under its key `client_key`, with its conversation's
/// request and professional.
pub async fn find_by_key(
    db: impl PgExecutor<'_>,
    author_id: Uuid,
    client_key: Uuid,
) -> sqlx::Result<Option<(MessageRow, Uuid, Uuid)>> {
    #[derive(sqlx::FromRow)]
    struct Found {
        #[sqlx(flatten)]
        message: MessageRow,
        repair_request_id: Uuid,
        professional_id: Uuid,
    }
    let found: Option<Found> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "select {MESSAGE_COLUMNS}, c.repair_request_id, c.professional_id
         from conversation_messages m join conversations c on c.id = m.conversation_id
         where m.author_id = $1 and m.client_key = $2"
    )))
    .bind(author_id)
    .bind(client_key)
    .fetch_optional(db)
    .await?;
    Ok(found.map(|f| (f.message, f.repair_request_id, f.professional_id)))
}

/// Whom a new conversation is between.
#[derive(Debug, Clone, Copy)]
pub struct Parties {
    pub repair_request_id: Uuid,
    pub customer_id: Uuid,
    pub professional_id: Uuid,
}

/// Takes the next sequence of the parties' conversation, opening it (and its two readers)
/// with sequence 1 when there is none: (conversation id, sequence). The conversation's row
/// stays locked until `tx` ends, so concurrent senders take their turns.
pub async fn next_sequence(tx: &mut PgConnection, parties: Parties) -> sqlx::Result<(Uuid, i64)> {
    let (id, sequence): (Uuid, i64) = sqlx::query_as(
        "insert into conversations (id, repair_request_id, customer_id, professional_id,
             last_sequence)
         values ($1, $2, $3, $4, 1)
         on conflict (repair_request_id, professional_id) do update
             set last_sequence = conversations.last_sequence + 1, last_message_at = now()
         returning id, last_sequence",
    )
    .bind(Uuid::now_v7())
    .bind(parties.repair_request_id)
    .bind(parties.customer_id)
    .bind(parties.professional_id)
    .fetch_one(&mut *tx)
    .await?;
    if sequence == 1 {
        sqlx::query(
            "insert into conversation_readers (conversation_id, side, account_id)
             values ($1, 'customer', $2), ($1, 'professional', $3)
             on conflict do nothing",
        )
        .bind(id)
        .bind(parties.customer_id)
        .bind(parties.professional_id)
        .execute(&mut *tx)
        .await?;
    }
    Ok((id, sequence))
}

/// A message to write.
#[derive(Debug, Clone, Copy)]
pub struct NewMessage<'a> {
    pub conversation_id: Uuid,
    pub sequence: i64,
    pub author: Author,
    pub author_id: Uuid,
    pub client_key: Uuid,
    pub text: &'a str,
    pub text_language: Language,
    /// Whether its translation is due now (a provider is configured).
    pub translate: bool,
}

/// Writes a message; `None` when its author used its key already (the transaction must then
/// be dropped, giving its sequence back).
pub async fn insert_message(
    tx: &mut PgConnection,
    message: &NewMessage<'_>,
) -> sqlx::Result<Option<MessageRow>> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "with m as (
             insert into conversation_messages (id, conversation_id, sequence, author, author_id,
                 client_key, text, text_language, translation_due_at)
             values ($1, $2, $3, $4, $5, $6, $7, $8, case when $9 then now() end)
             on conflict (author_id, client_key) do nothing
             returning *)
         select {MESSAGE_COLUMNS} from m"
    )))
    .bind(Uuid::now_v7())
    .bind(message.conversation_id)
    .bind(message.sequence)
    .bind(message.author.as_str())
    .bind(message.author_id)
    .bind(message.client_key)
    .bind(message.text)
    .bind(message.text_language)
    .bind(message.translate)
    .fetch_optional(&mut *tx)
    .await
}

/// When the reader's email of unread messages may go.
#[derive(Debug, Clone, Copy)]
pub struct EmailDelays {
    /// After the first unread message.
    pub after: Duration,
    /// After the previous email of the same conversation.
    pub every: Duration,
}

/// Counts a new message unread for `reader`, and makes their email due unless it is already.
pub async fn count_unread(
    tx: &mut PgConnection,
    conversation_id: Uuid,
    reader: Side,
    delays: EmailDelays,
) -> sqlx::Result<()> {
    sqlx::query(
        "update conversation_readers set unread = unread + 1,
             email_due_at = coalesce(email_due_at,
                 greatest(now() + make_interval(secs => $3),
                          emailed_at + make_interval(secs => $4)))
         where conversation_id = $1 and side = $2",
    )
    .bind(conversation_id)
    .bind(reader.as_str())
    .bind(delays.after.as_secs_f64())
    .bind(delays.every.as_secs_f64())
    .execute(tx)
    .await?;
    Ok(())
}

/// Moves `side`'s read marker of the conversation up to `sequence` (never back, never past
/// its newest message) and counts what is left unread; an email due for nothing unread is
/// called off. The reader's row is locked before the count, so a message written meanwhile
/// is either counted here or counts itself after. (read sequence, unread) after.
pub async fn mark_read(
    tx: &mut PgConnection,
    conversation_id: Uuid,
    side: Side,
    sequence: i64,
) -> sqlx::Result<(i64, i32)> {
    let (current, newest): (i64, i64) = sqlx::query_as(
        "select r.read_sequence, c.last_sequence
         from conversation_readers r join conversations c on c.id = r.conversation_id
         where r.conversation_id = $1 and r.side = $2
         for update of r",
    )
    .bind(conversation_id)
    .bind(side.as_str())
    .fetch_one(&mut *tx)
    .await?;
    let marker = crate::domain::conversation::read_marker(current, sequence, newest);
    sqlx::query_as(
        "with left_unread as (
             select count(*)::int as n from conversation_messages
             where conversation_id = $1 and author <> $2 and sequence > $3)
         update conversation_readers set read_sequence = $3, unread = left_unread.n,
             email_due_at = case when left_unread.n = 0 then null else email_due_at end
         from left_unread
         where conversation_id = $1 and side = $2
         returning read_sequence, unread",
    )
    .bind(conversation_id)
    .bind(side.as_str())
    .bind(marker)
    .fetch_one(&mut *tx)
    .await
}

/// Unread messages over all of the account's conversations, as `side`.
pub async fn unread_total(
    db: impl PgExecutor<'_>,
    account_id: Uuid,
    side: Side,
) -> sqlx::Result<i64> {
    sqlx::query_scalar(
        "select coalesce(sum(unread), 0)::bigint from conversation_readers
         where account_id = $1 and side = $2 and unread > 0",
    )
    .bind(account_id)
    .bind(side.as_str())
    .fetch_one(db)
    .await
}

/// Whose conversations a list reads.
#[derive(Debug, Clone, Copy)]
pub enum Whose {
    Customer(Uuid),
    Professional(Uuid),
    /// Every conversation (an admin, with a request named).
    Anyone,
}

/// A page of conversations, the newest message first: `whose`, of one request when given,
/// after the page token's (last message time, id).
pub async fn list(
    db: impl PgExecutor<'_>,
    whose: Whose,
    repair_request_id: Option<Uuid>,
    page: &super::page::PageRequest,
) -> sqlx::Result<Vec<ConversationRow>> {
    let (customer, professional) = match whose {
        Whose::Customer(id) => (Some(id), None),
        Whose::Professional(id) => (None, Some(id)),
        Whose::Anyone => (None, None),
    };
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "{SELECT_CONVERSATION}
         where ($1::uuid is null or c.customer_id = $1)
           and ($2::uuid is null or c.professional_id = $2)
           and ($3::uuid is null or c.repair_request_id = $3)
           and ($4::timestamptz is null or (c.last_message_at, c.id) < ($4, $5))
         order by c.last_message_at desc, c.id desc
         limit $6"
    )))
    .bind(customer)
    .bind(professional)
    .bind(repair_request_id)
    .bind(page.after_time())
    .bind(page.after_id())
    .bind(page.fetch_limit())
    .fetch_all(db)
    .await
}

/// Message `id`, as written so far in `db` (a transaction sees its own photos attached).
pub async fn message(db: impl PgExecutor<'_>, id: Uuid) -> sqlx::Result<Option<MessageRow>> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "select {MESSAGE_COLUMNS} from conversation_messages m where m.id = $1"
    )))
    .bind(id)
    .fetch_optional(db)
    .await
}

/// The newest message of each of `conversations`.
pub async fn last_messages(
    db: impl PgExecutor<'_>,
    conversations: &[Uuid],
) -> sqlx::Result<Vec<MessageRow>> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "select {MESSAGE_COLUMNS} from conversations c
         join conversation_messages m
             on m.conversation_id = c.id and m.sequence = c.last_sequence
         where c.id = any($1)"
    )))
    .bind(conversations)
    .fetch_all(db)
    .await
}

/// Up to `limit` messages before `before` (all when `None`), newest first.
pub async fn messages_before(
    db: impl PgExecutor<'_>,
    conversation_id: Uuid,
    before: Option<i64>,
    limit: i64,
) -> sqlx::Result<Vec<MessageRow>> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "select {MESSAGE_COLUMNS} from conversation_messages m
         where m.conversation_id = $1 and ($2::bigint is null or m.sequence < $2)
         order by m.sequence desc limit $3"
    )))
    .bind(conversation_id)
    .bind(before)
    .bind(limit)
    .fetch_all(db)
    .await
}

/// Up to `limit` messages after `after`, oldest first.
pub async fn messages_after(
    db: impl PgExecutor<'_>,
    conversation_id: Uuid,
    after: i64,
    limit: i64,
) -> sqlx::Result<Vec<MessageRow>> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "select {MESSAGE_COLUMNS} from conversation_messages m
         where m.conversation_id = $1 and m.sequence > $2
         order by m.sequence limit $3"
    )))
    .bind(conversation_id)
    .bind(after)
    .bind(limit)
    .fetch_all(db)
    .await
}

/// Empties the texts (and translations) of the messages `author_id` wrote and marks them
/// deleted, in the transaction that deletes the account (their photos go with
/// `store::message_photos::remove_all_of`); how many.
pub async fn erase_author(tx: &mut PgConnection, author_id: Uuid) -> sqlx::Result<u64> {
    let done = sqlx::query(
        "update conversation_messages set text = '', translation = null,
             translation_due_at = null, deleted_at = now()
         where author_id = $1 and deleted_at is null",
    )
    .bind(author_id)
    .execute(tx)
    .await?;
    Ok(done.rows_affected())
}

/// The request's state and hired professional, its row held (`for share`) until `tx` ends:
/// a hire, a completion or a cancel waits for the message being written, and a message
/// written after one reads the new state.
pub async fn lock_request(
    tx: &mut PgConnection,
    repair_request_id: Uuid,
) -> sqlx::Result<Option<LockedRequest>> {
    let row: Option<(String, Option<Uuid>, bool)> = sqlx::query_as(
        "select state, hired_professional_id,
                exists(select 1 from job_problems jp
                       where jp.repair_request_id = r.id and jp.state = 'open')
         from repair_requests r where id = $1 for share",
    )
    .bind(repair_request_id)
    .fetch_optional(tx)
    .await?;
    Ok(row.map(|(state, hired, problem_open)| LockedRequest {
        state: RepairRequestState::from_code(&state).unwrap_or(RepairRequestState::Open),
        hired,
        problem_open,
    }))
}

/// What decides whether a request's conversations may be written to, read under the
/// request's lock.
#[derive(Debug, Clone, Copy)]
pub struct LockedRequest {
    pub state: RepairRequestState,
    pub hired: Option<Uuid>,
    /// Whether a problem reported on its job is open (ReportJobProblem and ResolveJobProblem
    /// lock the request for update, so this holds until the transaction ends).
    pub problem_open: bool,
}

/// The conversations `ids` (those that exist).
pub async fn get_many(db: impl PgExecutor<'_>, ids: &[Uuid]) -> sqlx::Result<Vec<ConversationRow>> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "{SELECT_CONVERSATION} where c.id = any($1)"
    )))
    .bind(ids)
    .fetch_all(db)
    .await
}
