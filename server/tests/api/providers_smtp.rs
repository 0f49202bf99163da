//! The SMTP adapter against a tiny SMTP sink on 127.0.0.1 that keeps what it receives.

use std::{
    net::SocketAddr,
    sync::{Arc, Mutex},
};

use crate::helpers::free_port;
use mail_parser::MessageParser;
use repairs_server::providers::{
    EmailMessage, EmailSender,
    smtp::{SmtpConfig, SmtpEmail, SmtpError, SmtpTls},
};
use tokio::{
    io::{AsyncBufReadExt, AsyncWriteExt, BufReader},
    net::{TcpListener, TcpStream},
    task::JoinHandle,
};

/// One message as the sink got it: the envelope and the raw DATA.
#[derive(Debug, Clone, Default)]
pub(crate) struct Received {
    auth: Option<String>,
    mail_from: String,
    rcpt_to: Vec<String>,
    pub(crate) data: Vec<u8>,
}

/// Speaks just enough SMTP: 220, EHLO/HELO, AUTH, MAIL, RCPT, DATA ... ".", RSET, NOOP, QUIT.
/// A recipient whose address contains "reject" is refused with 550.
pub(crate) struct SmtpSink {
    pub(crate) addr: SocketAddr,
    received: Arc<Mutex<Vec<Received>>>,
    task: JoinHandle<()>,
}

impl SmtpSink {
    async fn start() -> Self {
        Self::start_slow(std::time::Duration::ZERO).await
    }

    /// A sink that keeps each message as soon as its DATA ends and accepts it (250) only
    /// `accept_after` later, as a slow relay does: a sender stopped in between has sent a
    /// message it never heard was accepted.
    pub(crate) async fn start_slow(accept_after: std::time::Duration) -> Self {
        let listener = TcpListener::bind(("127.0.0.1", 0)).await.unwrap();
        let addr = listener.local_addr().unwrap();
        let received = Arc::new(Mutex::new(Vec::new()));
        let store = received.clone();
        let task = tokio::spawn(async move {
            while let Ok((stream, _)) = listener.accept().await {
                tokio::spawn(session(stream, store.clone(), accept_after));
            }
        });
        Self {
            addr,
            received,
            task,
        }
    }

    pub(crate) fn messages(&self) -> Vec<Received> {
        self.received.lock().unwrap().clone()
    }

    pub(crate) fn stop(self) {
        self.task.abort();
    }
}

async fn session(
    stream: TcpStream,
    store: Arc<Mutex<Vec<Received>>>,
    accept_after: std::time::Duration,
) {
    let (read, mut write) = stream.into_split();
    let mut lines = BufReader::new(read);
    let mut current = Received::default();
    if write.write_all(b"220 sink ESMTP\r\n").await.is_err() {
        return;
    }
    loop {
        let mut line = Vec::new();
        if lines.read_until(b'\n', &mut line).await.unwrap_or(0) == 0 {
            return;
        }
        let command = String::from_utf8_lossy(&line).trim_end().to_owned();
        let verb = command
            .split_whitespace()
            .next()
            .unwrap_or("")
            .to_ascii_uppercase();
        let reply: &[u8] = match verb.as_str() {
            "EHLO" => b"250-sink\r\n250-AUTH PLAIN LOGIN\r\n250 8BITMIME\r\n",
            "HELO" => b"250 sink\r\n",
            "AUTH" => {
                current.auth = Some(command.clone());
                b"235 2.7.0 accepted\r\n"
            }
            "MAIL" => {
                current.mail_from = command;
                b"250 2.1.0 ok\r\n"
            }
            "RCPT" if command.contains("reject") => b"550 5.1.1 no such user\r\n",
            "RCPT" => {
                current.rcpt_to.push(command);
                b"250 2.1.5 ok\r\n"
            }
            "DATA" => {
                if write
                    .write_all(b"354 end with <CRLF>.<CRLF>\r\n")
                    .await
                    .is_err()
                {
                    return;
                }
                current.data = read_data(&mut lines).await;
                store.lock().unwrap().push(std::mem::take(&mut current));
                tokio::time::sleep(accept_after).await;
                b"250 2.0.0 queued\r\n"
            }
            "RSET" | "NOOP" => b"250 ok\r\n",
            "QUIT" => {
                let _ = write.write_all(b"221 bye\r\n").await;
                return;
            }
            _ => b"502 5.5.2 not implemented\r\n",
        };
        // The client may be gone (a killed sender).
        if write.write_all(reply).await.is_err() {
            return;
        }
    }
}

/// The message up to the lone ".", with dot-stuffing undone.
async fn read_data(lines: &mut BufReader<tokio::net::tcp::OwnedReadHalf>) -> Vec<u8> {
    let mut data = Vec::new();
    loop {
        let mut line = Vec::new();
        if lines.read_until(b'\n', &mut line).await.unwrap_or(0) == 0 || line == b".\r\n" {
            return data;
        }
        let unstuffed = if line.starts_with(b"..") {
            &line[1..]
        } else {
            &line[..]
        };
        data.extend_from_slice(unstuffed);
    }
}

fn config(sink: &SmtpSink) -> SmtpConfig {
    SmtpConfig {
        port: Some(sink.addr.port()),
        ..SmtpConfig::new(
            "127.0.0.1",
            SmtpTls::None,
            "Réparations Urgentes <no-reply@reparations.example.ca>",
        )
    }
}

fn reset_email(to: &str) -> EmailMessage {
    EmailMessage {
        delivery_id: uuid::Uuid::now_v7(),
        to: to.into(),
        subject: "Réinitialisation du mot de passe".into(),
        body: "Bonjour Anaïs,\n\nPour choisir un nouveau mot de passe, ouvrez ce lien :\n\
               https://reparations.example.ca/fr/reinitialiser?jeton=abc123\n\n\
               . Une ligne qui commence par un point.\n"
            .into(),
        list_unsubscribe: None,
    }
}

#[tokio::test]
async fn a_french_email_arrives_whole() {
    let sink = SmtpSink::start().await;
    let sender: Arc<dyn EmailSender> = Arc::new(SmtpEmail::new(config(&sink)).unwrap());

    let email = reset_email("anais@example.ca");
    sender.send(&email).await.unwrap();

    let messages = sink.messages();
    assert_eq!(messages.len(), 1);
    let received = &messages[0];
    assert_eq!(received.auth, None);
    assert!(
        received
            .mail_from
            .contains("<no-reply@reparations.example.ca>")
    );
    assert_eq!(received.rcpt_to.len(), 1);
    assert!(received.rcpt_to[0].contains("<anais@example.ca>"));

    let parsed = MessageParser::default().parse(&received.data).unwrap();
    assert_eq!(parsed.subject(), Some("Réinitialisation du mot de passe"));
    assert_eq!(
        parsed.message_id(),
        Some(format!("{}@reparations.example.ca", email.delivery_id).as_str()),
        "the delivery id names the mail"
    );
    let to = parsed.to().and_then(|to| to.first()).unwrap();
    assert_eq!(to.address(), Some("anais@example.ca"));
    let from = parsed.from().and_then(|from| from.first()).unwrap();
    assert_eq!(from.name(), Some("Réparations Urgentes"));
    let body = parsed.body_text(0).unwrap();
    assert!(body.starts_with("Bonjour Anaïs,"), "{body}");
    assert!(body.contains("https://reparations.example.ca/fr/reinitialiser?jeton=abc123"));
    assert!(
        body.contains("\n. Une ligne qui commence par un point."),
        "{body}"
    );
    sink.stop();
}

#[tokio::test]
async fn an_email_its_person_may_turn_off_carries_the_one_click_headers() {
    let sink = SmtpSink::start().await;
    let sender = SmtpEmail::new(config(&sink)).unwrap();
    let link = "https://reparations.example.ca/fr/unsubscribe/pn0123.abc";
    let alert = EmailMessage {
        list_unsubscribe: Some(link.to_owned()),
        ..reset_email("anais@example.ca")
    };
    sender.send(&alert).await.unwrap();
    sender.send(&reset_email("anais@example.ca")).await.unwrap();

    let messages = sink.messages();
    let parsed = MessageParser::default().parse(&messages[0].data).unwrap();
    let header = |name: &str| parsed.header_raw(name).map(|value| value.trim().to_owned());
    assert_eq!(header("List-Unsubscribe"), Some(format!("<{link}>")));
    assert_eq!(
        header("List-Unsubscribe-Post").as_deref(),
        Some("List-Unsubscribe=One-Click")
    );
    let security = MessageParser::default().parse(&messages[1].data).unwrap();
    assert_eq!(
        security.header_raw("List-Unsubscribe"),
        None,
        "a reset cannot be turned off"
    );
    sink.stop();
}

#[tokio::test]
async fn credentials_are_used_when_configured() {
    let sink = SmtpSink::start().await;
    let mut config = config(&sink);
    config.username = Some("mailer".into());
    config.password = Some("s3cret".into());
    let email = SmtpEmail::new(config).unwrap();
    email
        .send_message(&reset_email("anais@example.ca"))
        .await
        .unwrap();
    let auth = sink.messages()[0].auth.clone().unwrap();
    assert!(auth.starts_with("AUTH PLAIN"), "{auth}");
    sink.stop();
}

#[tokio::test]
async fn a_refused_recipient_is_a_permanent_error() {
    let sink = SmtpSink::start().await;
    let email = SmtpEmail::new(config(&sink)).unwrap();
    let error = email
        .send_message(&reset_email("reject@example.ca"))
        .await
        .unwrap_err();
    assert!(matches!(error, SmtpError::Send(_)), "{error:?}");
    assert!(!error.is_retryable());
    assert!(sink.messages().is_empty());
    sink.stop();
}

#[tokio::test]
async fn starttls_is_required_when_configured() {
    // The sink offers no STARTTLS: the adapter must stop before sending anything.
    let sink = SmtpSink::start().await;
    let email = SmtpEmail::new(SmtpConfig {
        tls: SmtpTls::StartTls,
        ..config(&sink)
    })
    .unwrap();
    assert!(
        email
            .send_message(&reset_email("anais@example.ca"))
            .await
            .is_err()
    );
    assert!(sink.messages().is_empty());
    sink.stop();
}

#[tokio::test]
async fn an_unreachable_server_is_a_retryable_error() {
    let email = SmtpEmail::new(SmtpConfig {
        port: Some(free_port()),
        ..SmtpConfig::new("127.0.0.1", SmtpTls::None, "no-reply@example.ca")
    })
    .unwrap();
    let error = email
        .send_message(&reset_email("anais@example.ca"))
        .await
        .unwrap_err();
    assert!(error.is_retryable(), "{error:?}");
}
