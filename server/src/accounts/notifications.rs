//! What reaches a person (CASL): their choices per kind of message and channel, and the
//! link at the foot of each email they may turn off, which works without signing in.
//!
//! The choices are read where messages are written: the outbox writes a message naming its
//! person and kind only while that kind is on (`store::outbox`), and the fan-out reads them
//! before it spends a text (`requests::fanout`). Receipts and security messages name no
//! kind: they always go.

use base64::{Engine, engine::general_purpose::URL_SAFE_NO_PAD};
use uuid::Uuid;

use super::consents;
use crate::{
    auth::secret::keyed_digest,
    domain::{NotifyChannel, Role, Subscriber, Topic},
    error::{ApiError, ApiResult, ErrorReason, FieldViolation},
    outbox::{Unsubscribe, Unsubscribing},
    state::AppState,
    store::{
        accounts::{self, AccountKind},
        notification_preferences::{self as store, Choice, Source},
    },
};

/// One kind of message on one channel, as the person sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Preference {
    pub topic: Topic,
    pub channel: NotifyChannel,
    pub enabled: bool,
}

/// Every kind accounts of `kind` may turn off, on every channel, as `choices` leave them
/// (the API adds receipts and security messages, always on).
fn every_preference(kind: AccountKind, choices: &[Choice]) -> Vec<Preference> {
    let mut all = Vec::new();
    for topic in Topic::ALL.into_iter().filter(|t| t.reaches(kind.role())) {
        for channel in NotifyChannel::ALL {
            let enabled = choices
                .iter()
                .find(|c| c.topic == topic && c.channel == channel)
                .is_none_or(|c| c.enabled);
            all.push(Preference {
                topic,
                channel,
                enabled,
            });
        }
    }
    all
}

/// The person's preferences, every kind their role receives.
pub async fn preferences_of(
    state: &AppState,
    kind: AccountKind,
    id: Uuid,
) -> ApiResult<Vec<Preference>> {
    let choices = store::choices_of(&state.db, kind, id).await?;
    Ok(every_preference(kind, &choices))
}

/// A change the person asked for: `None` as the topic is a kind that cannot be turned off.
#[derive(Debug, Clone, Copy)]
pub struct Change {
    pub topic: Option<Topic>,
    pub channel: NotifyChannel,
    pub enabled: bool,
}

/// Records the person's `changes`; the others stay. Turning texts on (or all of them off)
/// records the consent to text alerts given (or withdrawn) from `client`. A kind that always goes may be "turned
/// on" (a no-op) but not off; a kind their role does not receive is refused.
pub async fn update(
    state: &AppState,
    kind: AccountKind,
    id: Uuid,
    changes: &[Change],
    client: Option<std::net::IpAddr>,
) -> ApiResult<Vec<Preference>> {
    let mut choices: Vec<Choice> = Vec::with_capacity(changes.len());
    for (index, change) in changes.iter().enumerate() {
        let field = format!("preferences[{index}]");
        match change.topic {
            None if change.enabled => continue,
            None => {
                return Err(ApiError::InvalidArgument {
                    reason: ErrorReason::NotificationAlwaysSent,
                    violations: vec![FieldViolation::new(
                        field,
                        "receipts and security messages are always sent",
                    )],
                });
            }
            Some(topic) if !topic.reaches(kind.role()) => {
                return Err(ApiError::invalid(
                    field,
                    "this kind of message is not sent to your account",
                ));
            }
            Some(topic) => {
                if choices
                    .iter()
                    .any(|c| c.topic == topic && c.channel == change.channel)
                {
                    return Err(ApiError::invalid(
                        field,
                        "give each kind of message and channel once",
                    ));
                }
                choices.push(Choice {
                    topic,
                    channel: change.channel,
                    enabled: change.enabled,
                });
            }
        }
    }
    if choices.is_empty() {
        return preferences_of(state, kind, id).await;
    }
    let mut tx = crate::store::transaction::begin(&state.db).await?;
    let texts_before = texts_on(&mut tx, kind, id).await?;
    store::record(&mut *tx, kind, id, &choices, Source::Account).await?;
    let texts_after = texts_on(&mut tx, kind, id).await?;
    // Texts turned on or all off: consent to text alerts given or withdrawn, on record.
    if texts_before != texts_after {
        consents::record_sms_alerts(
            &mut tx,
            (kind, id),
            (texts_after, consents::Source::NotificationPreferences),
            client,
        )
        .await?;
    }
    let after = store::choices_of(&mut *tx, kind, id).await?;
    tx.commit().await?;
    Ok(every_preference(kind, &after))
}

/// Whether any kind of message reaches the person by text.
async fn texts_on(tx: &mut sqlx::PgConnection, kind: AccountKind, id: Uuid) -> ApiResult<bool> {
    let choices = store::choices_of(&mut *tx, kind, id).await?;
    Ok(every_preference(kind, &choices)
        .iter()
        .any(|p| p.channel == NotifyChannel::Sms && p.enabled))
}

/// What an unsubscribe link turned off.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Unsubscribed {
    pub topic: Topic,
    pub language: crate::domain::Language,
}

/// Follows an email's unsubscribe link: turns that kind of email off for its person. A link
/// that was altered or whose account is gone is refused the same way.
pub async fn unsubscribe(state: &AppState, token: &str) -> ApiResult<Unsubscribed> {
    let invalid = || ApiError::InvalidArgument {
        reason: ErrorReason::UnsubscribeLinkInvalid,
        violations: vec![FieldViolation::new(
            "token",
            "this unsubscribe link is not valid; sign in to choose on your account page",
        )],
    };
    let named = LinkToken::read(&state.unsubscribe_link_key, token).ok_or_else(invalid)?;
    let kind = crate::accounts::account_kind(named.role).map_err(|_| invalid())?;
    let language = accounts::contact(&state.db, kind, named.account_id)
        .await?
        .ok_or_else(invalid)?
        .language;
    let choice = Choice {
        topic: named.topic,
        channel: NotifyChannel::Email,
        enabled: false,
    };
    store::record(
        &state.db,
        kind,
        named.account_id,
        &[choice],
        Source::EmailLink,
    )
    .await?;
    tracing::info!(
        topic = named.topic.as_str(),
        "an email's unsubscribe link was followed"
    );
    Ok(Unsubscribed {
        topic: named.topic,
        language,
    })
}

/// The token of an unsubscribe link: the person's role and id and the kind, signed with the
/// server's unsubscribe key so that nobody can turn off someone else's mail. It does not
/// expire: CASL asks the link to keep working (at least 60 days after the email).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct LinkToken {
    role: Role,
    account_id: Uuid,
    topic: Topic,
}

impl LinkToken {
    fn of(subscriber: &Subscriber) -> Self {
        Self {
            role: subscriber.role,
            account_id: subscriber.account_id,
            topic: subscriber.topic,
        }
    }

    /// `{role}.{topic}.{account id}.{signature}`, URL-safe: `p.new_requests.<uuid>.<22>`
    /// would be long; the letters keep it short: `pn` + 32 hex digits + 22 characters.
    fn write(self, key: &[u8; 32]) -> String {
        let head = format!(
            "{}{}{}",
            role_letter(self.role),
            topic_letter(self.topic),
            self.account_id.simple()
        );
        format!("{head}{}", signature(key, &head))
    }

    fn read(key: &[u8; 32], token: &str) -> Option<Self> {
        let head = token.get(..34)?;
        let given = token.get(34..)?;
        // Compared in constant time: a forger learns nothing from how long it took.
        let expected = signature(key, head);
        if !constant_time_eq(expected.as_bytes(), given.as_bytes()) {
            return None;
        }
        let mut letters = head.chars();
        let role = match letters.next()? {
            'c' => Role::Customer,
            'p' => Role::Professional,
            _ => return None,
        };
        let letter = letters.next()?;
        let topic = Topic::ALL
            .into_iter()
            .find(|topic| topic_letter(*topic) == letter)?;
        let account_id = Uuid::try_parse(head.get(2..)?).ok()?;
        Some(Self {
            role,
            account_id,
            topic,
        })
    }
}

fn role_letter(role: Role) -> char {
    match role {
        Role::Customer => 'c',
        Role::Professional => 'p',
        Role::Admin => 'a',
    }
}

fn topic_letter(topic: Topic) -> char {
    match topic {
        Topic::NewRequests => 'n',
        Topic::RequestUpdates => 'u',
        Topic::Reminders => 'r',
    }
}

fn signature(key: &[u8; 32], head: &str) -> String {
    let digest = keyed_digest(key, &[head.as_bytes()]);
    URL_SAFE_NO_PAD.encode(&digest[..16])
}

fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |diff, (x, y)| diff | (x ^ y)) == 0
}

/// Makes each email's unsubscribe link and footer (the outbox worker asks as it sends).
pub struct EmailFooters {
    key: [u8; 32],
    config: std::sync::Arc<crate::config::Config>,
    /// Who sends the mail, as CASL asks: the platform's name and mailing address.
    sender: String,
}

impl EmailFooters {
    pub fn new(key: [u8; 32], config: std::sync::Arc<crate::config::Config>) -> Self {
        let name = config.platform_legal_name.trim();
        let address = config.platform_mailing_address.trim();
        let sender = if address.is_empty() {
            name.to_owned()
        } else {
            format!("{name}, {address}")
        };
        Self {
            key,
            config,
            sender,
        }
    }
}

impl Unsubscribing for EmailFooters {
    fn unsubscribe(&self, subscriber: &Subscriber) -> Unsubscribe {
        let token = LinkToken::of(subscriber).write(&self.key);
        let link = self
            .config
            .links()
            .unsubscribe(&token)
            .of(subscriber.language)
            .to_owned();
        let footer = crate::words::of(subscriber.language).unsubscribe_footer(
            subscriber.topic,
            &self.sender,
            &link,
        );
        Unsubscribe { link, footer }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const KEY: [u8; 32] = [9; 32];

    #[test]
    fn a_link_names_its_person_and_kind_and_cannot_be_altered() {
        let token = LinkToken {
            role: Role::Professional,
            account_id: Uuid::now_v7(),
            topic: Topic::NewRequests,
        };
        let written = token.write(&KEY);
        assert_eq!(written.len(), 56, "{written}");
        assert!(
            written
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
        );
        assert_eq!(LinkToken::read(&KEY, &written), Some(token));
        // Another kind, another person, another key or a cut link: refused.
        let other_kind = written.replacen("pn", "pu", 1);
        assert_eq!(LinkToken::read(&KEY, &other_kind), None);
        let mut other_person = written.clone().into_bytes();
        other_person[10] = if other_person[10] == b'a' { b'b' } else { b'a' };
        assert_eq!(
            LinkToken::read(&KEY, std::str::from_utf8(&other_person).unwrap()),
            None
        );
        assert_eq!(LinkToken::read(&[8; 32], &written), None);
        assert_eq!(LinkToken::read(&KEY, &written[..50]), None);
        assert_eq!(LinkToken::read(&KEY, ""), None);
        assert_eq!(LinkToken::read(&KEY, "é".repeat(40).as_str()), None);
    }

    #[test]
    fn everything_is_on_until_the_person_chooses() {
        let customer = every_preference(AccountKind::Customer, &[]);
        assert_eq!(customer.len(), 3);
        assert!(customer.iter().all(|p| p.enabled));
        let off = Choice {
            topic: Topic::NewRequests,
            channel: NotifyChannel::Sms,
            enabled: false,
        };
        let professional = every_preference(AccountKind::Professional, &[off]);
        assert_eq!(professional.len(), 9);
        let disabled: Vec<_> = professional.iter().filter(|p| !p.enabled).collect();
        assert_eq!(disabled.len(), 1);
        assert_eq!(disabled[0].topic, Topic::NewRequests);
        assert_eq!(disabled[0].channel, NotifyChannel::Sms);
    }
}
