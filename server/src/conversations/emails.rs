//! The email of unread messages: a reader's devices are pushed at once, but an email goes
//! only for what stays unread `MESSAGE_EMAIL_AFTER` (two minutes) after it came, one email
//! for all of a conversation's unread messages, at most one every `MESSAGE_EMAIL_EVERY`
//! (fifteen minutes) per conversation and reader, in the reader's language; none for what was
//! read meanwhile. When it is due lives in Postgres (`conversation_readers.email_due_at`, set
//! in the transaction of the message that made it due), so every server process sweeps and
//! each email is written by one: the reader's row is claimed with `for update skip locked`
//! in the transaction that writes the email into the outbox.

use chrono::{DateTime, Utc};
use tokio::{sync::watch, task::JoinHandle};

use super::{
    seen::{self, Reader},
    send::link_for,
};
use crate::{
    domain::{Subscriber, Topic, conversation},
    outbox::{self, NewOutboxMessage},
    requests::escalation::sweep_every,
    state::AppState,
    store::conversation_emails::{self, DueEmail},
    words::{self, UnreadMessages},
};

/// Readers claimed in one transaction; the sweep goes on with the next batch.
const BATCH: i64 = 50;
/// Messages quoted in one email at most (the count says how many more).
const QUOTED: i64 = 10;

/// Writes the emails (and texts) due at `now`; to how many readers.
pub async fn send_due(state: &AppState, now: DateTime<Utc>) -> sqlx::Result<usize> {
    let mut sent = 0;
    loop {
        let mut tx = crate::store::transaction::begin(&state.db).await?;
        let claimed = conversation_emails::claim_due(&mut tx, now, BATCH).await?;
        let mut mails = Vec::new();
        for due in &claimed {
            let unread = conversation_emails::unread_since(&mut tx, due, QUOTED).await?;
            let told = unread
                .as_ref()
                .and_then(|unread| notices(state, due, unread));
            let covered = told.as_ref().and(unread.map(|unread| unread.newest));
            conversation_emails::settle(&mut tx, due, now, covered).await?;
            if let Some(notices) = told {
                sent += 1;
                mails.extend(notices);
            }
        }
        outbox::enqueue_many(&mut *tx, &mails).await?;
        tx.commit().await?;
        if !mails.is_empty() {
            state.outbox.wake();
        }
        if claimed.len() < usize::try_from(BATCH).unwrap_or(usize::MAX) {
            return Ok(sent);
        }
    }
}

/// The email telling `due`'s reader of `unread`, and a text when they asked for texts;
/// `None` when the reader's account is gone.
fn notices(
    state: &AppState,
    due: &DueEmail,
    unread: &conversation_emails::Unread,
) -> Option<Vec<NewOutboxMessage>> {
    let (Some(reader_id), Some(name), Some(address), Some(language)) = (
        due.reader_id,
        &due.reader_name,
        &due.reader_email,
        due.reader_language,
    ) else {
        return None;
    };
    let subscriber = Subscriber {
        topic: Topic::RequestUpdates,
        role: due.side().role(),
        account_id: reader_id,
        language,
    };
    let reader = Reader {
        side: Some(due.side()),
        language,
    };
    let shared = conversation::contacts_shared(due.hired_professional_id, due.professional_id);
    let texts: Vec<String> = unread
        .messages
        .iter()
        .map(|message| seen::preview(&seen::message(message, reader, shared), language))
        .collect();
    let link = link_for(state, due.side(), due.repair_request_id);
    let words = words::of(language);
    let facts = UnreadMessages {
        service: due.service_name.of(language),
        from: &due.writer_name,
        texts: &texts,
        count: usize::try_from(unread.count).unwrap_or(usize::MAX),
        link: link.of(language),
    };
    let mail = words.unread_messages(name, &facts);
    let mut email =
        NewOutboxMessage::email(address, mail.subject, mail.body).for_subscriber(subscriber);
    email.dedupe_key = Some(format!(
        "conversation-email:{}:{}:{}",
        due.conversation_id, due.side, unread.newest
    ));
    let mut messages = vec![email];
    if let Some(phone) = due.reader_texts_to() {
        let mut text = NewOutboxMessage::sms(phone, words.unread_messages_sms(&facts))
            .for_subscriber(subscriber);
        text.dedupe_key = Some(format!(
            "conversation-sms:{}:{}:{}",
            due.conversation_id, due.side, unread.newest
        ));
        messages.push(text);
    }
    Some(messages)
}

/// Sweeps until `shutdown` turns true, a tenth of MESSAGE_EMAIL_AFTER apart (a second to a
/// minute), so an email leaves soon after it is due.
pub fn spawn(state: AppState, mut shutdown: watch::Receiver<bool>) -> JoinHandle<()> {
    let every = sweep_every(state.config.message_email_after);
    tokio::spawn(crate::store::transaction::tracked(async move {
        while !*shutdown.borrow() {
            if let Err(error) = send_due(&state, Utc::now()).await {
                tracing::error!(error = ?error, "unread-message emails failed");
            }
            tokio::select! {
                () = tokio::time::sleep(every) => {}
                changed = shutdown.changed() => if changed.is_err() { break },
            }
        }
    }))
}
