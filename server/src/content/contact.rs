//! The contact form: messages are checked, stored for the admins' inbox and, when
//! CONTACT_EMAIL is set, emailed there through the outbox in the same transaction. Every
//! sender has an hourly budget (`crate::budgets`): per account when signed in, else per
//! client address.

use serde_json::json;
use uuid::Uuid;

use crate::{
    auth::Caller,
    budgets::{Budget, Spent},
    domain::{ClientAddr, Email, Language, text::bounded_text},
    error::{ApiError, ApiResult, ErrorReason, Violations, not_found},
    outbox::{self, NewOutboxMessage},
    state::AppState,
    store::{audit, contact_messages, contact_messages::ContactMessageRow, page::PageRequest},
    words,
};

/// A message as typed into the form, checked.
struct ContactForm {
    name: String,
    email: Email,
    message: String,
}

fn parse(name: &str, email: &str, message: &str) -> ApiResult<ContactForm> {
    let mut v = Violations::default();
    let name = v.check("name", bounded_text(name, "your name", 100));
    let email = v.check(
        "email",
        Email::parse(email).map_err(|_| "enter an email address we can reply to".to_owned()),
    );
    let message = v.check("message", bounded_text(message, "a message", 5000));
    match (name, email, message) {
        (Some(name), Some(email), Some(message)) => Ok(ContactForm {
            name,
            email,
            message,
        }),
        _ => Err(ApiError::invalid_fields(v.0)),
    }
}

/// Spends the sender's hourly budget: a signed-in sender's own (per account, wherever they
/// write from), else their client address's, since anyone can post the form.
async fn spend_budget(
    state: &AppState,
    sender: Option<Caller>,
    client: ClientAddr,
) -> ApiResult<Spent> {
    let config = &state.config;
    let budget = match sender {
        Some(caller) => Budget::hourly(
            format!("contact:account:{}:{}", caller.role, caller.account_id),
            config.contact_messages_per_account_per_hour,
            ErrorReason::ContactAccountLimit,
            "you have sent many messages this hour; try again in an hour",
        ),
        None => Budget::hourly(
            format!("contact:address:{}", client.limit_key()),
            config.contact_messages_per_address_per_hour,
            ErrorReason::ContactAddressLimit,
            "too many messages from your network; try again in an hour",
        ),
    };
    state.budgets.spend(&[budget], 1).await
}

/// Stores a message (and queues its email); its id. A message that could not be stored
/// gives its budget back.
pub async fn send(
    state: &AppState,
    sender: Option<Caller>,
    client: ClientAddr,
    (name, email, message): (&str, &str, &str),
) -> ApiResult<Uuid> {
    let form = parse(name, email, message)?;
    let spent = spend_budget(state, sender, client).await?;
    spent.settle(store(state, sender, &form).await).await
}

async fn store(state: &AppState, sender: Option<Caller>, form: &ContactForm) -> ApiResult<Uuid> {
    let mut tx = crate::store::transaction::begin(&state.db).await?;
    let id = contact_messages::insert(
        &mut *tx,
        (&form.name, form.email.as_str(), &form.message),
        sender.map(|c| c.account_id),
    )
    .await?;
    if let Some(team) = &state.config.contact_email {
        // The team reads English.
        let mail = words::of(Language::English).contact_message(
            &form.name,
            form.email.as_str(),
            &form.message,
        );
        let message = NewOutboxMessage::email(team, mail.subject, mail.body);
        outbox::enqueue(&mut *tx, &message).await?;
    }
    tx.commit().await?;
    state.outbox.wake();
    Ok(id)
}

/// One page of the inbox, newest first, and how many are unread.
pub async fn list(
    state: &AppState,
    page: &PageRequest,
    unread_only: bool,
) -> ApiResult<(Vec<ContactMessageRow>, i64)> {
    let rows = contact_messages::list(&state.db, page, unread_only).await?;
    let unread = contact_messages::unread_count(&state.db).await?;
    Ok((rows, unread))
}

/// An admin marks a message read or unread; audited.
pub async fn mark_read(
    state: &AppState,
    admin_id: Uuid,
    id: Uuid,
    read: bool,
) -> ApiResult<ContactMessageRow> {
    let mut tx = crate::store::transaction::begin(&state.db).await?;
    let before = contact_messages::get_for_update(&mut *tx, id)
        .await?
        .ok_or_else(|| not_found("message"))?;
    let after = contact_messages::set_read(&mut *tx, id, read).await?;
    audit::record_change(
        &mut *tx,
        admin_id,
        "contact_message.mark_read",
        ("contact_message", &id.to_string()),
        Some(&json!({ "read": before.read_at.is_some() })),
        Some(&json!({ "read": after.read_at.is_some() })),
    )
    .await?;
    tx.commit().await?;
    Ok(after)
}
