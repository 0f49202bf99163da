//! SMS through Twilio's Messages API: `POST {base}/2010-04-01/Accounts/{sid}/Messages.json`,
//! HTTP Basic auth (account SID, auth token), form fields `To`, `From` or
//! `MessagingServiceSid`, `Body`.

use std::time::Duration;

use async_trait::async_trait;
use serde::Deserialize;

use super::{
    SecretString,
    http_client::{self, DEFAULT_TIMEOUT},
    sms::{SmsMessage, SmsSender},
};

/// Twilio's API origin (the default base URL).
pub const TWILIO_API_URL: &str = "https://api.twilio.com";

/// Twilio error codes meaning the number itself cannot get our SMS: 21211 "invalid 'To'
/// number", 21614 "'To' number is not a valid mobile number".
const UNREACHABLE_NUMBER_CODES: [u32; 2] = [21211, 21614];

/// Who the message comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TwilioSender {
    /// A Twilio phone number, E.164.
    From(String),
    /// A Messaging Service SID (`MG...`): Twilio picks the number.
    MessagingService(String),
}

impl TwilioSender {
    /// Reads one setting: a Messaging Service SID starts with `MG`, anything else is a number.
    pub fn from_setting(value: &str) -> Self {
        let value = value.trim();
        if value.starts_with("MG") {
            Self::MessagingService(value.to_owned())
        } else {
            Self::From(value.to_owned())
        }
    }
}

#[derive(Debug, Clone)]
pub struct TwilioConfig {
    pub account_sid: String,
    pub auth_token: SecretString,
    pub sender: TwilioSender,
    /// Without a trailing path: `https://api.twilio.com`, or a local test server.
    pub base_url: String,
    pub timeout: Duration,
}

impl TwilioConfig {
    pub fn new(
        account_sid: impl Into<String>,
        auth_token: impl Into<SecretString>,
        sender: TwilioSender,
    ) -> Self {
        Self {
            account_sid: account_sid.into(),
            auth_token: auth_token.into(),
            sender,
            base_url: TWILIO_API_URL.to_owned(),
            timeout: DEFAULT_TIMEOUT,
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum TwilioError {
    #[error("Twilio refused the message (error {code}): {message}")]
    Rejected {
        http_status: u16,
        code: u32,
        message: String,
        more_info: Option<String>,
    },
    #[error("Twilio answered HTTP {http_status} without saying why")]
    Unexpected { http_status: u16, body: String },
    #[error("could not reach Twilio: {0}")]
    Transport(#[from] reqwest::Error),
}

impl TwilioError {
    /// Twilio's own error code, when it gave one.
    pub fn code(&self) -> Option<u32> {
        match self {
            Self::Rejected { code, .. } => Some(*code),
            _ => None,
        }
    }

    /// True when the number cannot receive SMS: tell the person, do not retry.
    pub fn number_cannot_receive_sms(&self) -> bool {
        self.code()
            .is_some_and(|code| UNREACHABLE_NUMBER_CODES.contains(&code))
    }

    /// True when sending again later may work (network trouble, Twilio busy or failing).
    pub fn is_retryable(&self) -> bool {
        match self {
            Self::Transport(_) => true,
            Self::Rejected { http_status, .. } | Self::Unexpected { http_status, .. } => {
                *http_status == 429 || *http_status >= 500
            }
        }
    }
}

/// For callers holding the `anyhow::Error` of [`SmsSender::send`].
pub fn number_cannot_receive_sms(error: &anyhow::Error) -> bool {
    error
        .downcast_ref::<TwilioError>()
        .is_some_and(TwilioError::number_cannot_receive_sms)
}

/// What Twilio answered for an accepted message.
#[derive(Debug, Clone, Deserialize)]
pub struct TwilioReceipt {
    pub sid: String,
    pub status: String,
}

#[derive(Deserialize)]
struct TwilioErrorBody {
    code: Option<u32>,
    message: Option<String>,
    more_info: Option<String>,
}

#[derive(Debug)]
pub struct TwilioSms {
    config: TwilioConfig,
    http: reqwest::Client,
}

impl TwilioSms {
    pub fn new(config: TwilioConfig) -> Result<Self, TwilioError> {
        let http = http_client::client(config.timeout)?;
        Ok(Self { config, http })
    }

    fn messages_url(&self) -> String {
        http_client::endpoint(
            &self.config.base_url,
            &format!(
                "2010-04-01/Accounts/{}/Messages.json",
                self.config.account_sid
            ),
        )
    }

    pub async fn send_message(&self, message: &SmsMessage) -> Result<TwilioReceipt, TwilioError> {
        let (sender_field, sender) = match &self.config.sender {
            TwilioSender::From(number) => ("From", number),
            TwilioSender::MessagingService(sid) => ("MessagingServiceSid", sid),
        };
        let form = [
            ("To", message.to.as_str()),
            (sender_field, sender.as_str()),
            ("Body", message.body.as_str()),
        ];
        let response = self
            .http
            .post(self.messages_url())
            .basic_auth(
                &self.config.account_sid,
                Some(self.config.auth_token.expose()),
            )
            .form(&form)
            .send()
            .await?;
        let http_status = response.status();
        let body = response.text().await?;
        if http_status.is_success() {
            let receipt: TwilioReceipt =
                serde_json::from_str(&body).map_err(|_| TwilioError::Unexpected {
                    http_status: http_status.as_u16(),
                    body: truncated(&body),
                })?;
            tracing::debug!(sid = %receipt.sid, status = %receipt.status, "Twilio accepted an SMS");
            return Ok(receipt);
        }
        Err(rejection(http_status.as_u16(), &body))
    }
}

fn rejection(http_status: u16, body: &str) -> TwilioError {
    match serde_json::from_str::<TwilioErrorBody>(body) {
        Ok(TwilioErrorBody {
            code: Some(code),
            message,
            more_info,
        }) => TwilioError::Rejected {
            http_status,
            code,
            message: message.unwrap_or_default(),
            more_info,
        },
        _ => TwilioError::Unexpected {
            http_status,
            body: truncated(body),
        },
    }
}

/// Enough of an odd answer to diagnose it in a log, not a whole HTML page.
fn truncated(body: &str) -> String {
    body.chars().take(200).collect()
}

#[async_trait]
impl SmsSender for TwilioSms {
    async fn send(&self, message: &SmsMessage) -> anyhow::Result<()> {
        self.send_message(message).await?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sender_setting_tells_numbers_from_messaging_services() {
        assert_eq!(
            TwilioSender::from_setting(" +15875550100 "),
            TwilioSender::From("+15875550100".into())
        );
        assert_eq!(
            TwilioSender::from_setting("MG0123456789abcdef0123456789abcdef"),
            TwilioSender::MessagingService("MG0123456789abcdef0123456789abcdef".into())
        );
    }

    #[test]
    fn twilio_errors_keep_code_and_message() {
        let error = rejection(
            400,
            r#"{"code": 21211, "message": "The 'To' number 555 is not a valid phone number.",
                "more_info": "https://www.twilio.com/docs/errors/21211", "status": 400}"#,
        );
        assert_eq!(error.code(), Some(21211));
        assert!(error.number_cannot_receive_sms());
        assert!(!error.is_retryable());
        assert!(error.to_string().contains("not a valid phone number"));
        assert!(number_cannot_receive_sms(&anyhow::Error::new(error)));
    }

    #[test]
    fn an_answer_without_a_twilio_error_is_unexpected_and_retryable() {
        let error = rejection(503, "<html>Service Unavailable</html>");
        assert!(matches!(
            error,
            TwilioError::Unexpected {
                http_status: 503,
                ..
            }
        ));
        assert!(error.is_retryable());
        assert!(!error.number_cannot_receive_sms());
    }

    #[test]
    fn debug_hides_the_auth_token() {
        let config = TwilioConfig::new(
            "AC123",
            "secret-token",
            TwilioSender::From("+15875550100".into()),
        );
        assert!(!format!("{config:?}").contains("secret-token"));
    }
}
