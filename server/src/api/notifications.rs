//! AccountsService's notification preferences and unsubscribe link: the contract's topics
//! and channels to the rules' and back (`crate::accounts::notifications`).

use repairs_proto::accounts as pb;
use tonic::Request;

use super::account_view::own_account;
use super::client_addr::client_addr;
use super::convert::{Reply, caller, language_to_proto, ok, timestamp};
use crate::{
    accounts::{
        consents,
        notifications::{self, Change, Preference},
    },
    domain::{NotifyChannel, Topic},
    error::{ApiError, ApiResult},
    state::AppState,
};

/// The kinds that always go, listed after the others so a person sees they exist.
const ALWAYS_SENT: [pb::NotificationTopic; 2] = [
    pb::NotificationTopic::Receipts,
    pb::NotificationTopic::Security,
];

fn topic_to_proto(topic: Topic) -> pb::NotificationTopic {
    match topic {
        Topic::NewRequests => pb::NotificationTopic::NewRequests,
        Topic::RequestUpdates => pb::NotificationTopic::RequestUpdates,
        Topic::Reminders => pb::NotificationTopic::Reminders,
    }
}

fn channel_to_proto(channel: NotifyChannel) -> pb::NotificationChannel {
    match channel {
        NotifyChannel::Email => pb::NotificationChannel::Email,
        NotifyChannel::Sms => pb::NotificationChannel::Sms,
        NotifyChannel::Push => pb::NotificationChannel::Push,
    }
}

/// What the person may choose, then what always goes, on every channel.
fn to_proto(preferences: Vec<Preference>) -> Vec<pb::NotificationPreference> {
    let chosen = preferences.into_iter().map(|p| pb::NotificationPreference {
        topic: topic_to_proto(p.topic) as i32,
        channel: channel_to_proto(p.channel) as i32,
        enabled: p.enabled,
        may_turn_off: true,
    });
    let always = ALWAYS_SENT.into_iter().flat_map(|topic| {
        NotifyChannel::ALL
            .into_iter()
            .map(move |channel| pb::NotificationPreference {
                topic: topic as i32,
                channel: channel_to_proto(channel) as i32,
                enabled: true,
                may_turn_off: false,
            })
    });
    chosen.chain(always).collect()
}

fn change_from_proto(index: usize, given: &pb::NotificationPreference) -> ApiResult<Change> {
    let field = |name: &str| format!("preferences[{index}].{name}");
    let topic = match pb::NotificationTopic::try_from(given.topic) {
        Ok(pb::NotificationTopic::NewRequests) => Some(Topic::NewRequests),
        Ok(pb::NotificationTopic::RequestUpdates) => Some(Topic::RequestUpdates),
        Ok(pb::NotificationTopic::Reminders) => Some(Topic::Reminders),
        Ok(pb::NotificationTopic::Receipts | pb::NotificationTopic::Security) => None,
        Ok(pb::NotificationTopic::Unspecified) | Err(_) => {
            return Err(ApiError::invalid(
                field("topic"),
                "choose a kind of message",
            ));
        }
    };
    let channel = match pb::NotificationChannel::try_from(given.channel) {
        Ok(pb::NotificationChannel::Email) => NotifyChannel::Email,
        Ok(pb::NotificationChannel::Sms) => NotifyChannel::Sms,
        Ok(pb::NotificationChannel::Push) => NotifyChannel::Push,
        Ok(pb::NotificationChannel::Unspecified) | Err(_) => {
            return Err(ApiError::invalid(field("channel"), "choose a channel"));
        }
    };
    Ok(Change {
        topic,
        channel,
        enabled: given.enabled,
    })
}

pub(super) async fn get(
    state: &AppState,
    request: Request<pb::GetNotificationPreferencesRequest>,
) -> Reply<pb::GetNotificationPreferencesResponse> {
    let who = caller(&request)?;
    let (kind, id) = own_account(&who, "")?;
    let preferences = notifications::preferences_of(state, kind, id).await?;
    let consents = consents::of_account(state, kind, id).await?;
    ok(pb::GetNotificationPreferencesResponse {
        preferences: to_proto(preferences),
        consents: consents
            .into_iter()
            .map(|c| pb::Consent {
                subject: c.subject,
                version: c.version,
                given: c.given,
                source: c.source,
                client_address: c.client_address.unwrap_or_default(),
                time: Some(timestamp(c.created_at)),
            })
            .collect(),
    })
}

pub(super) async fn update(
    state: &AppState,
    request: Request<pb::UpdateNotificationPreferencesRequest>,
) -> Reply<pb::UpdateNotificationPreferencesResponse> {
    let who = caller(&request)?;
    let (kind, id) = own_account(&who, "")?;
    let client = client_addr(&request, &state.config.trusted_proxies).ip();
    let changes = request
        .get_ref()
        .preferences
        .iter()
        .enumerate()
        .map(|(index, given)| change_from_proto(index, given))
        .collect::<ApiResult<Vec<Change>>>()?;
    let preferences = notifications::update(state, kind, id, &changes, client).await?;
    ok(pb::UpdateNotificationPreferencesResponse {
        preferences: to_proto(preferences),
    })
}

pub(super) async fn unsubscribe(
    state: &AppState,
    request: Request<pb::UnsubscribeRequest>,
) -> Reply<pb::UnsubscribeResponse> {
    let done = notifications::unsubscribe(state, &request.get_ref().token).await?;
    ok(pb::UnsubscribeResponse {
        topic: topic_to_proto(done.topic) as i32,
        language: language_to_proto(done.language) as i32,
    })
}
