//! Texts sent back to our number (Twilio posts them to the BFF's `/webhooks/sms`, which
//! forwards the form untouched): STOP and its kin, in English and French, turn every text
//! off for the accounts with that number; START turns them back on. Each is recorded as
//! the person's choice (source `sms_reply`) and as their consent to text alerts withdrawn
//! or given. The signature is Twilio's: HMAC-SHA1 with the auth token over the webhook's
//! address (PUBLIC_URL/webhooks/sms) followed by each form field's name and value, sorted.

use base64::{Engine, engine::general_purpose::STANDARD};
use hmac::{Hmac, Mac};
use uuid::Uuid;

use super::consents::{self, Source as ConsentSource};
use crate::{
    domain::{NotifyChannel, Topic},
    error::{ApiError, ApiResult, ErrorReason, FieldViolation},
    state::AppState,
    store::{
        accounts::{self, AccountKind},
        notification_preferences::{self as preferences, Choice, Source},
    },
};

/// What a text asked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Keyword {
    Stop,
    Start,
}

impl Keyword {
    /// The keyword a whole text is, as carriers and Twilio read them (one word, any case,
    /// French accents or not); `None` for any other text.
    pub fn of(body: &str) -> Option<Keyword> {
        let word: String = body
            .trim()
            .chars()
            .map(|c| match c {
                'é' | 'É' | 'ê' | 'Ê' | 'è' | 'È' => 'E',
                c => c.to_ascii_uppercase(),
            })
            .collect();
        match word.as_str() {
            "STOP" | "STOPALL" | "UNSUBSCRIBE" | "CANCEL" | "END" | "QUIT" | "ARRET" => {
                Some(Keyword::Stop)
            }
            "START" | "UNSTOP" | "DEMARRER" => Some(Keyword::Start),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Keyword::Stop => "stop",
            Keyword::Start => "start",
        }
    }
}

/// What a reply did.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Handled {
    pub keyword: Option<Keyword>,
    pub accounts: usize,
}

fn signature_error(message: &str) -> ApiError {
    ApiError::InvalidArgument {
        reason: ErrorReason::WebhookSignature,
        violations: vec![FieldViolation::new("signature", message)],
    }
}

/// Twilio's signature of a form posted to `url`.
pub fn sign(auth_token: &str, url: &str, fields: &[(String, String)]) -> String {
    let mut sorted: Vec<&(String, String)> = fields.iter().collect();
    sorted.sort();
    let Ok(mut mac) = Hmac::<sha1::Sha1>::new_from_slice(auth_token.as_bytes()) else {
        unreachable!("HMAC takes keys of any length")
    };
    mac.update(url.as_bytes());
    for (name, value) in sorted {
        mac.update(name.as_bytes());
        mac.update(value.as_bytes());
    }
    STANDARD.encode(mac.finalize().into_bytes())
}

/// Checks the reply's signature, then turns texts off or on as it asks.
pub async fn handle(state: &AppState, payload: &[u8], signature: &str) -> ApiResult<Handled> {
    let Some(auth_token) = state.config.twilio_auth_token.as_deref() else {
        return Err(ApiError::FailedPrecondition {
            reason: ErrorReason::WebhooksNotConfigured,
            message: "texts are not sent through Twilio here, so no reply is taken".to_owned(),
        });
    };
    let fields: Vec<(String, String)> = form_urlencoded::parse(payload)
        .map(|(name, value)| (name.into_owned(), value.into_owned()))
        .collect();
    let url = state.config.links().sms_webhook();
    let expected = sign(auth_token, &url, &fields);
    if !bool::from(subtle::ConstantTimeEq::ct_eq(
        expected.as_bytes(),
        signature.trim().as_bytes(),
    )) {
        return Err(signature_error("the signature does not match the reply"));
    }
    let field = |name: &str| {
        fields
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
            .unwrap_or_default()
    };
    let Some(keyword) = Keyword::of(field("Body")) else {
        return Ok(Handled::default());
    };
    let on = keyword == Keyword::Start;
    let mut tx = crate::store::transaction::begin(&state.db).await?;
    let found = accounts::with_phone(&mut *tx, field("From")).await?;
    for &(kind, id) in &found {
        turn_texts(&mut tx, (kind, id), on).await?;
    }
    tx.commit().await?;
    tracing::info!(
        keyword = keyword.as_str(),
        accounts = found.len(),
        "text reply taken"
    );
    Ok(Handled {
        keyword: Some(keyword),
        accounts: found.len(),
    })
}

async fn turn_texts(
    tx: &mut sqlx::PgConnection,
    (kind, id): (AccountKind, Uuid),
    on: bool,
) -> ApiResult<()> {
    let choices: Vec<Choice> = Topic::ALL
        .into_iter()
        .filter(|topic| topic.reaches(kind.role()))
        .map(|topic| Choice {
            topic,
            channel: NotifyChannel::Sms,
            enabled: on,
        })
        .collect();
    preferences::record(&mut *tx, kind, id, &choices, Source::SmsReply).await?;
    let legacy = if on {
        crate::domain::SmsUpdates::Yes
    } else {
        crate::domain::SmsUpdates::No
    };
    accounts::set_sms_updates(&mut *tx, kind, id, legacy).await?;
    consents::record_sms_alerts(tx, (kind, id), (on, ConsentSource::SmsReply), None).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whole_texts_in_english_or_french_are_keywords_and_nothing_else() {
        for stop in [
            "STOP",
            " stop ",
            "Arrêt",
            "ARRET",
            "arret",
            "Quit",
            "UNSUBSCRIBE",
        ] {
            assert_eq!(Keyword::of(stop), Some(Keyword::Stop), "{stop}");
        }
        for start in ["START", "Démarrer", "demarrer", "unstop"] {
            assert_eq!(Keyword::of(start), Some(Keyword::Start), "{start}");
        }
        for other in ["", "stop please", "Je serai là à midi", "STOPS"] {
            assert_eq!(Keyword::of(other), None, "{other}");
        }
    }

    #[test]
    fn the_signature_is_twilio_s_worked_example() {
        // From Twilio's webhook security documentation.
        let fields = [
            ("CallSid", "CA1234567890ABCDE"),
            ("Caller", "+12349013030"),
            ("Digits", "1234"),
            ("From", "+12349013030"),
            ("To", "+18005551212"),
        ]
        .map(|(n, v)| (n.to_owned(), v.to_owned()));
        assert_eq!(
            sign(
                "12345",
                "https://mycompany.com/myapp.php?foo=1&bar=2",
                &fields
            ),
            "0/KCTR6DLpKmkAf8muzZqo1nDgQ="
        );
    }
}
