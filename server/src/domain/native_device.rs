//! A native app's device as the server takes it: its platform (iOS through APNs, Android
//! through FCM) and the token that platform's push service knows it by, of the shape that
//! service gives, so nothing else is ever put into a request path or body sent there.

/// The longest token taken (APNs' are 64 hexadecimal digits today, FCM's about 160
/// characters; both may grow).
pub const MAX_TOKEN_CHARS: usize =
    repairs_proto::limits::add_push_subscription::DEVICE_TOKEN_MAX_LEN;
/// APNs device tokens: 32 bytes in hexadecimal today, up to 100 bytes announced.
const APNS_TOKEN_DIGITS: std::ops::RangeInclusive<usize> = 64..=200;

/// A native app's platform and the push service that reaches it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum NativePlatform {
    /// iPhone and iPad apps, through Apple Push Notification service.
    Ios,
    /// Android apps, through Firebase Cloud Messaging.
    Android,
}

impl NativePlatform {
    /// As `push_subscriptions.platform` holds it.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Ios => "ios",
            Self::Android => "android",
        }
    }

    /// The platform of a `push_subscriptions.platform` value (`None` for `web`).
    pub fn from_column(value: &str) -> Option<Self> {
        match value {
            "ios" => Some(Self::Ios),
            "android" => Some(Self::Android),
            _ => None,
        }
    }
}

/// A device token of the shape its platform gives.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeviceToken(String);

impl DeviceToken {
    /// APNs: an even number of hexadecimal digits within 64..=200 (kept in lower case, as
    /// APNs compares them); FCM: 1 to [`MAX_TOKEN_CHARS`] letters, digits, `-`, `_` and `:`.
    pub fn parse(platform: NativePlatform, raw: &str) -> Option<Self> {
        let raw = raw.trim();
        let fits = match platform {
            NativePlatform::Ios => {
                APNS_TOKEN_DIGITS.contains(&raw.len())
                    && raw.len().is_multiple_of(2)
                    && raw.bytes().all(|b| b.is_ascii_hexdigit())
            }
            NativePlatform::Android => {
                (1..=MAX_TOKEN_CHARS).contains(&raw.len())
                    && raw
                        .bytes()
                        .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b':'))
            }
        };
        fits.then(|| {
            Self(match platform {
                NativePlatform::Ios => raw.to_ascii_lowercase(),
                NativePlatform::Android => raw.to_owned(),
            })
        })
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn apns_tokens_are_hexadecimal_and_kept_in_lower_case() {
        let token = "AB".repeat(32);
        let parsed = DeviceToken::parse(NativePlatform::Ios, &format!(" {token} ")).unwrap();
        assert_eq!(parsed.as_str(), "ab".repeat(32));
        assert!(DeviceToken::parse(NativePlatform::Ios, &"a".repeat(63)).is_none());
        assert!(DeviceToken::parse(NativePlatform::Ios, &"a".repeat(202)).is_none());
        assert!(DeviceToken::parse(NativePlatform::Ios, &"g".repeat(64)).is_none());
        assert!(
            DeviceToken::parse(NativePlatform::Ios, &format!("{}/..", "a".repeat(62))).is_none()
        );
    }

    #[test]
    fn fcm_tokens_take_their_alphabet_only() {
        let token = "cV2x:APA91bH-Rk_9";
        assert_eq!(
            DeviceToken::parse(NativePlatform::Android, token)
                .unwrap()
                .as_str(),
            token
        );
        assert!(DeviceToken::parse(NativePlatform::Android, "").is_none());
        assert!(DeviceToken::parse(NativePlatform::Android, "a/b").is_none());
        assert!(DeviceToken::parse(NativePlatform::Android, "a b").is_none());
        assert!(DeviceToken::parse(NativePlatform::Android, &"a".repeat(1001)).is_none());
        assert_eq!(
            NativePlatform::from_column("ios"),
            Some(NativePlatform::Ios)
        );
        assert_eq!(NativePlatform::from_column("web"), None);
    }
}
