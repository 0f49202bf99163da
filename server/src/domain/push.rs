//! A browser's Web Push subscription as the server takes it: an endpoint on one of the push
//! services it may call (`PUSH_ENDPOINT_HOSTS`, so the server is never pointed at an
//! internal address), and the browser's keys, of the sizes RFC 8291 gives them.

use std::net::IpAddr;

use base64::{Engine, engine::general_purpose::URL_SAFE_NO_PAD};

/// The longest endpoint taken: the browsers' are under 500 characters.
pub const MAX_ENDPOINT_CHARS: usize =
    repairs_proto::limits::add_push_subscription::ENDPOINT_MAX_LEN;
/// Bytes of the browser's `p256dh` key (an uncompressed P-256 point) and `auth` secret.
pub const P256DH_BYTES: usize = 65;
pub const AUTH_BYTES: usize = 16;

/// The push services' hosts the server may send to: exact names, or `*.name` for any host
/// under `name`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PushHosts(Vec<String>);

impl PushHosts {
    pub fn new(hosts: &[String]) -> Self {
        Self(
            hosts
                .iter()
                .map(|h| h.trim().trim_end_matches('.').to_ascii_lowercase())
                .filter(|h| !h.is_empty())
                .collect(),
        )
    }

    fn allows(&self, host: &str) -> bool {
        self.0
            .iter()
            .any(|allowed| match allowed.strip_prefix("*.") {
                Some(parent) => host
                    .strip_suffix(parent)
                    .is_some_and(|sub| sub.len() > 1 && sub.ends_with('.')),
                None => host == allowed,
            })
    }
}

/// Why an endpoint is refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EndpointProblem {
    /// Not an absolute https URL of at most [`MAX_ENDPOINT_CHARS`] characters.
    Invalid,
    /// Its host is not one of the push services.
    NotAllowed,
}

/// An endpoint the server may post to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PushEndpoint(String);

impl PushEndpoint {
    /// Checks `raw` against `hosts`: https, or http to a loopback address that is listed
    /// itself (a local push service in tests); no user or password in it.
    pub fn parse(raw: &str, hosts: &PushHosts) -> Result<Self, EndpointProblem> {
        let raw = raw.trim();
        if raw.is_empty() || raw.chars().count() > MAX_ENDPOINT_CHARS {
            return Err(EndpointProblem::Invalid);
        }
        let url = reqwest::Url::parse(raw).map_err(|_| EndpointProblem::Invalid)?;
        let host = url.host_str().ok_or(EndpointProblem::Invalid)?;
        if !url.username().is_empty() || url.password().is_some() {
            return Err(EndpointProblem::Invalid);
        }
        let host = host.trim_start_matches('[').trim_end_matches(']');
        let host = host.to_ascii_lowercase();
        let secure = match url.scheme() {
            "https" => true,
            "http" => false,
            _ => return Err(EndpointProblem::Invalid),
        };
        let loopback = host.parse::<IpAddr>().is_ok_and(|ip| ip.is_loopback());
        if !hosts.allows(&host) || !(secure || loopback) {
            return Err(EndpointProblem::NotAllowed);
        }
        // Kept as the browser gave it: RemovePushSubscription names it the same way.
        Ok(Self(raw.to_owned()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// The browser's keys of a subscription.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PushKeys {
    pub p256dh: [u8; P256DH_BYTES],
    pub auth: [u8; AUTH_BYTES],
}

/// Which key is wrong.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeyProblem {
    /// `keys.p256dh` is not the base64url of an uncompressed P-256 point.
    P256dh,
    /// `keys.auth` is not the base64url of 16 bytes.
    Auth,
}

impl PushKeys {
    /// Parses the keys as `PushSubscription.toJSON()` gives them (base64url; padding taken).
    pub fn parse(p256dh: &str, auth: &str) -> Result<Self, KeyProblem> {
        let p256dh: [u8; P256DH_BYTES] = decode(p256dh, P256DH_BYTES)
            .and_then(|bytes| bytes.try_into().ok())
            .filter(|point: &[u8; P256DH_BYTES]| p256::PublicKey::from_sec1_bytes(point).is_ok())
            .ok_or(KeyProblem::P256dh)?;
        let auth = decode(auth, AUTH_BYTES)
            .and_then(|bytes| bytes.try_into().ok())
            .ok_or(KeyProblem::Auth)?;
        Ok(Self { p256dh, auth })
    }
}

/// The bytes of `text` (base64url), when it is no longer than `bytes` need.
fn decode(text: &str, bytes: usize) -> Option<Vec<u8>> {
    let text = text.trim().trim_end_matches('=');
    if text.len() > bytes.div_ceil(3) * 4 {
        return None;
    }
    URL_SAFE_NO_PAD.decode(text).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hosts(list: &[&str]) -> PushHosts {
        PushHosts::new(&list.iter().map(|h| (*h).to_owned()).collect::<Vec<_>>())
    }

    #[test]
    fn endpoints_must_be_on_a_listed_push_service() {
        let big = hosts(&["fcm.googleapis.com", "*.notify.windows.com"]);
        let ok = |raw: &str| PushEndpoint::parse(raw, &big);
        assert!(ok("https://fcm.googleapis.com/fcm/send/abc").is_ok());
        assert_eq!(
            ok(" https://FCM.googleapis.com/fcm/send/abc ")
                .unwrap()
                .as_str(),
            "https://FCM.googleapis.com/fcm/send/abc"
        );
        assert!(ok("https://wns2-by3p.notify.windows.com/w/?token=x").is_ok());
        assert_eq!(
            ok("https://notify.windows.com/w"),
            Err(EndpointProblem::NotAllowed)
        );
        assert_eq!(
            ok("https://evilnotify.windows.com/w"),
            Err(EndpointProblem::NotAllowed)
        );
        assert_eq!(
            ok("https://fcm.googleapis.com.evil.ca/x"),
            Err(EndpointProblem::NotAllowed)
        );
        assert_eq!(
            ok("http://fcm.googleapis.com/x"),
            Err(EndpointProblem::NotAllowed)
        );
        assert_eq!(
            ok("https://169.254.169.254/latest"),
            Err(EndpointProblem::NotAllowed)
        );
        assert_eq!(ok("https://localhost/x"), Err(EndpointProblem::NotAllowed));
        assert_eq!(
            ok("https://u:p@fcm.googleapis.com/x"),
            Err(EndpointProblem::Invalid)
        );
        assert_eq!(
            ok("ftp://fcm.googleapis.com/x"),
            Err(EndpointProblem::Invalid)
        );
        assert_eq!(ok("not a url"), Err(EndpointProblem::Invalid));
        let long = format!(
            "https://fcm.googleapis.com/{}",
            "a".repeat(MAX_ENDPOINT_CHARS)
        );
        assert_eq!(ok(&long), Err(EndpointProblem::Invalid));
    }

    #[test]
    fn plain_http_only_to_a_listed_loopback_address() {
        let tests = hosts(&["127.0.0.1"]);
        assert!(PushEndpoint::parse("http://127.0.0.1:4000/push/1", &tests).is_ok());
        assert_eq!(
            PushEndpoint::parse("http://127.0.0.2:4000/push/1", &tests),
            Err(EndpointProblem::NotAllowed)
        );
        let named = hosts(&["push.example.ca"]);
        assert_eq!(
            PushEndpoint::parse("http://push.example.ca/1", &named),
            Err(EndpointProblem::NotAllowed)
        );
    }

    #[test]
    fn keys_decode_to_a_point_and_sixteen_bytes() {
        let point = "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4";
        let auth = "BTBZMqHH6r4Tts7J_aSIgg";
        let keys = PushKeys::parse(point, auth).unwrap();
        assert_eq!(keys.p256dh[0], 4);
        assert!(PushKeys::parse(point, "BTBZMqHH6r4Tts7J_aSIgg==").is_ok());
        assert_eq!(PushKeys::parse(point, "BTBZMqHH"), Err(KeyProblem::Auth));
        assert_eq!(PushKeys::parse(auth, auth), Err(KeyProblem::P256dh));
        let off_curve = point.replace("BCVx", "BCVy");
        assert_eq!(PushKeys::parse(&off_curve, auth), Err(KeyProblem::P256dh));
        assert_eq!(
            PushKeys::parse(&"A".repeat(5000), auth),
            Err(KeyProblem::P256dh)
        );
        assert_eq!(PushKeys::parse("%%%", auth), Err(KeyProblem::P256dh));
    }
}
