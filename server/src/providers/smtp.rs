//! Email through an SMTP server (lettre). Plain text, UTF-8: French subjects and bodies are
//! encoded by lettre as the RFC requires.

use std::{str::FromStr, time::Duration};

use async_trait::async_trait;
use lettre::{
    AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor,
    message::{
        Mailbox,
        header::{ContentType, HeaderName, HeaderValue},
    },
    transport::smtp::authentication::Credentials,
};

use super::{
    SecretString,
    email::{EmailMessage, EmailSender},
    http_client::DEFAULT_TIMEOUT,
};

/// How the connection to the SMTP server is protected.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SmtpTls {
    /// Plain text: only for a relay on the same machine or a test sink.
    None,
    /// Upgrade with STARTTLS, refusing to go on without it (port 587).
    StartTls,
    /// TLS from the first byte (port 465).
    Tls,
}

impl SmtpTls {
    pub fn default_port(self) -> u16 {
        match self {
            Self::None => 25,
            Self::StartTls => 587,
            Self::Tls => 465,
        }
    }
}

impl FromStr for SmtpTls {
    type Err = String;

    fn from_str(value: &str) -> Result<Self, Self::Err> {
        match value.trim().to_ascii_lowercase().as_str() {
            "none" => Ok(Self::None),
            "starttls" => Ok(Self::StartTls),
            "tls" => Ok(Self::Tls),
            other => Err(format!(
                "SMTP TLS mode {other:?} is not one of none, starttls, tls"
            )),
        }
    }
}

#[derive(Debug, Clone)]
pub struct SmtpConfig {
    pub host: String,
    /// When unset, the usual port of the TLS mode.
    pub port: Option<u16>,
    pub tls: SmtpTls,
    pub username: Option<String>,
    pub password: Option<SecretString>,
    /// The From mailbox: `Réparations <no-reply@example.ca>` or a bare address.
    pub from: String,
    pub timeout: Duration,
}

impl SmtpConfig {
    pub fn new(host: impl Into<String>, tls: SmtpTls, from: impl Into<String>) -> Self {
        Self {
            host: host.into(),
            port: None,
            tls,
            username: None,
            password: None,
            from: from.into(),
            timeout: DEFAULT_TIMEOUT,
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum SmtpError {
    #[error("the sender address {0:?} is not a valid email address")]
    InvalidFrom(String),
    #[error("{0:?} is not an email address we can send to")]
    InvalidRecipient(String),
    #[error("SMTP needs both a user name and a password, or neither")]
    PartialCredentials,
    #[error("could not compose the email: {0}")]
    Compose(#[from] lettre::error::Error),
    #[error("the mail server did not take the email: {0}")]
    Send(#[from] lettre::transport::smtp::Error),
}

impl SmtpError {
    /// True when sending again later may work (the server was unreachable or said "later").
    pub fn is_retryable(&self) -> bool {
        matches!(self, Self::Send(error) if !error.is_permanent())
    }
}

pub struct SmtpEmail {
    transport: AsyncSmtpTransport<Tokio1Executor>,
    from: Mailbox,
}

impl std::fmt::Debug for SmtpEmail {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SmtpEmail")
            .field("from", &self.from.to_string())
            .finish_non_exhaustive()
    }
}

impl SmtpEmail {
    pub fn new(config: SmtpConfig) -> Result<Self, SmtpError> {
        let from: Mailbox = config
            .from
            .parse()
            .map_err(|_| SmtpError::InvalidFrom(config.from.clone()))?;
        let builder = match config.tls {
            SmtpTls::None => AsyncSmtpTransport::<Tokio1Executor>::builder_dangerous(&config.host),
            SmtpTls::StartTls => {
                AsyncSmtpTransport::<Tokio1Executor>::starttls_relay(&config.host)?
            }
            SmtpTls::Tls => AsyncSmtpTransport::<Tokio1Executor>::relay(&config.host)?,
        };
        let mut builder = builder
            .port(config.port.unwrap_or(config.tls.default_port()))
            .timeout(Some(config.timeout));
        match (config.username, config.password) {
            (Some(user), Some(password)) => {
                builder = builder.credentials(Credentials::new(user, password.expose().to_owned()));
            }
            (None, None) => {}
            _ => return Err(SmtpError::PartialCredentials),
        }
        Ok(Self {
            transport: builder.build(),
            from,
        })
    }

    fn compose(&self, message: &EmailMessage) -> Result<Message, SmtpError> {
        let to: Mailbox = message
            .to
            .parse()
            .map_err(|_| SmtpError::InvalidRecipient(message.to.clone()))?;
        let mut builder = Message::builder();
        if let Some(link) = &message.list_unsubscribe {
            // RFC 8058: a mail client's one-click unsubscribe posts to the link.
            builder = builder
                .raw_header(HeaderValue::new(
                    HeaderName::new_from_ascii_str("List-Unsubscribe"),
                    format!("<{link}>"),
                ))
                .raw_header(HeaderValue::new(
                    HeaderName::new_from_ascii_str("List-Unsubscribe-Post"),
                    "List-Unsubscribe=One-Click".to_owned(),
                ));
        }
        Ok(builder
            .from(self.from.clone())
            .to(to)
            .subject(message.subject.as_str())
            // The delivery id as Message-ID: a retried send is recognisably the same mail.
            .message_id(Some(format!(
                "<{}@{}>",
                message.delivery_id,
                self.from.email.domain()
            )))
            .header(ContentType::TEXT_PLAIN)
            .body(message.body.clone())?)
    }

    pub async fn send_message(&self, message: &EmailMessage) -> Result<(), SmtpError> {
        let email = self.compose(message)?;
        self.transport.send(email).await?;
        Ok(())
    }
}

#[async_trait]
impl EmailSender for SmtpEmail {
    async fn send(&self, message: &EmailMessage) -> anyhow::Result<()> {
        Ok(self.send_message(message).await?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tls_modes_parse_and_pick_their_port() {
        assert_eq!("STARTTLS".parse::<SmtpTls>(), Ok(SmtpTls::StartTls));
        assert_eq!("none".parse::<SmtpTls>().map(SmtpTls::default_port), Ok(25));
        assert_eq!("tls".parse::<SmtpTls>().map(SmtpTls::default_port), Ok(465));
        assert!("ssl".parse::<SmtpTls>().is_err());
    }

    #[test]
    fn a_bad_from_address_is_refused_at_start() {
        let error = SmtpEmail::new(SmtpConfig::new(
            "localhost",
            SmtpTls::None,
            "not an address",
        ))
        .unwrap_err();
        assert!(matches!(error, SmtpError::InvalidFrom(_)));
    }

    #[test]
    fn a_user_name_without_password_is_refused() {
        let mut config = SmtpConfig::new("localhost", SmtpTls::None, "a@example.ca");
        config.username = Some("mailer".into());
        assert!(matches!(
            SmtpEmail::new(config),
            Err(SmtpError::PartialCredentials)
        ));
    }

    #[tokio::test]
    async fn a_bad_recipient_is_refused_before_connecting() {
        let email = SmtpEmail::new(SmtpConfig::new(
            "localhost",
            SmtpTls::None,
            "Réparations <no-reply@example.ca>",
        ))
        .unwrap();
        let error = email
            .send_message(&EmailMessage {
                delivery_id: uuid::Uuid::now_v7(),
                to: "nobody".into(),
                subject: "s".into(),
                body: "b".into(),
                list_unsubscribe: None,
            })
            .await
            .unwrap_err();
        assert!(matches!(error, SmtpError::InvalidRecipient(_)));
        assert!(!error.is_retryable());
    }
}
