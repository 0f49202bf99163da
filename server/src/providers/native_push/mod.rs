//! Native apps' push: an alert for one iOS device through Apple's push service ([`apns`],
//! HTTP/2, token-based authentication) or for one Android device through Firebase Cloud
//! Messaging's HTTP v1 API ([`fcm`], an OAuth 2 access token from a service account). The
//! outbox worker (`crate::outbox`) calls [`NativeSender::send`] with the words Web Push
//! sends (the outbox's push row: `{"title", "body", "url", "tag"}` in the device's
//! language); a device the service says is gone is [`Delivery::Gone`], and a refusal is a
//! [`PushError`], retried when it is throttling (429) or the service's own failure (5xx).

pub mod apns;
pub mod fcm;
mod sender;

use std::sync::Arc;

pub use super::web_push::{Delivery, PushError, Urgency};
use crate::{config::Config, domain::NativePlatform};
pub use sender::{Alert, NativeMessage, NativeSender};

/// The native push services this server has keys for.
#[derive(Clone, Default)]
pub struct NativePush {
    pub apns: Option<Arc<dyn NativeSender>>,
    pub fcm: Option<Arc<dyn NativeSender>>,
}

impl NativePush {
    /// The adapters the settings configure: APNs with its key file, key id, team id and
    /// topic; FCM with its service account file. A file that cannot be read or is not a key
    /// stops the start.
    pub async fn from_config(config: &Config) -> anyhow::Result<Self> {
        let concurrency = config.push_concurrency;
        let apns =
            match apns::ApnsConfig::from_config(config).await? {
                Some(settings) => Some(Arc::new(apns::ApnsClient::new(settings, concurrency)?)
                    as Arc<dyn NativeSender>),
                None => None,
            };
        let fcm = match &config.fcm_service_account_file {
            Some(path) => {
                let account = fcm::ServiceAccount::read(path).await?;
                Some(
                    Arc::new(fcm::FcmClient::new(&config.fcm_url, account, concurrency)?)
                        as Arc<dyn NativeSender>,
                )
            }
            None => None,
        };
        Ok(Self { apns, fcm })
    }

    /// The adapter of `platform`, when configured.
    pub fn sender(&self, platform: NativePlatform) -> Option<&Arc<dyn NativeSender>> {
        match platform {
            NativePlatform::Ios => self.apns.as_ref(),
            NativePlatform::Android => self.fcm.as_ref(),
        }
    }

    /// Which platforms devices may subscribe on.
    pub fn platforms(&self) -> NativePlatforms {
        NativePlatforms {
            ios: self.apns.is_some(),
            android: self.fcm.is_some(),
        }
    }
}

/// The native platforms this server can alert (what `AddPushSubscription` checks).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct NativePlatforms {
    pub ios: bool,
    pub android: bool,
}

impl NativePlatforms {
    pub fn allows(self, platform: NativePlatform) -> bool {
        match platform {
            NativePlatform::Ios => self.ios,
            NativePlatform::Android => self.android,
        }
    }
}
