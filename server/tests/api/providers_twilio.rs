//! The Twilio adapter against a local server that speaks Twilio's Messages API.

use std::{
    collections::HashMap,
    sync::{Arc, Mutex},
    time::Duration,
};

use crate::helpers::{LocalServer, closed_port_url};
use axum::{
    Form, Json, Router,
    extract::{Path, State},
    http::{HeaderMap, StatusCode},
    response::{IntoResponse, Response},
    routing::post,
};
use base64::Engine;
use repairs_server::providers::{
    SmsMessage, SmsSender,
    twilio::{self, TwilioConfig, TwilioError, TwilioSender, TwilioSms},
};
use serde_json::json;

const SID: &str = "AC00000000000000000000000000000001";
const TOKEN: &str = "test-auth-token";
const FROM: &str = "+15875550100";
/// Numbers the fake treats specially, like Twilio's magic test numbers.
const INVALID_NUMBER: &str = "+15005550001";
const FAILING_NUMBER: &str = "+15005550500";
const SLOW_NUMBER: &str = "+15005550999";

type Received = Arc<Mutex<Vec<HashMap<String, String>>>>;

fn twilio_error(status: StatusCode, code: u32, message: &str) -> Response {
    let body = json!({
        "code": code,
        "message": message,
        "more_info": format!("https://www.twilio.com/docs/errors/{code}"),
        "status": status.as_u16(),
    });
    (status, Json(body)).into_response()
}

fn authorised(headers: &HeaderMap) -> bool {
    let expected = format!(
        "Basic {}",
        base64::engine::general_purpose::STANDARD.encode(format!("{SID}:{TOKEN}"))
    );
    headers
        .get("authorization")
        .is_some_and(|value| value == expected.as_str())
}

async fn messages(
    State(received): State<Received>,
    Path(account): Path<String>,
    headers: HeaderMap,
    Form(form): Form<HashMap<String, String>>,
) -> Response {
    if account != SID || !authorised(&headers) {
        return twilio_error(StatusCode::UNAUTHORIZED, 20003, "Authenticate");
    }
    let to = form.get("To").cloned().unwrap_or_default();
    received.lock().unwrap().push(form);
    match to.as_str() {
        INVALID_NUMBER => twilio_error(
            StatusCode::BAD_REQUEST,
            21211,
            &format!("The 'To' number {to} is not a valid phone number."),
        ),
        FAILING_NUMBER => (StatusCode::INTERNAL_SERVER_ERROR, "<html>oops</html>").into_response(),
        SLOW_NUMBER => {
            tokio::time::sleep(Duration::from_secs(5)).await;
            StatusCode::CREATED.into_response()
        }
        _ => (
            StatusCode::CREATED,
            Json(json!({
                "sid": "SM00000000000000000000000000000001",
                "status": "queued",
                "to": to,
                "account_sid": SID,
            })),
        )
            .into_response(),
    }
}

async fn fake_twilio() -> (LocalServer, Received) {
    let received = Received::default();
    let router = Router::new()
        .route(
            "/2010-04-01/Accounts/{account}/Messages.json",
            post(messages),
        )
        .with_state(received.clone());
    (LocalServer::start(router).await, received)
}

fn config(base_url: String) -> TwilioConfig {
    TwilioConfig {
        base_url,
        ..TwilioConfig::new(SID, TOKEN, TwilioSender::From(FROM.into()))
    }
}

fn sms(to: &str) -> SmsMessage {
    SmsMessage {
        delivery_id: uuid::Uuid::now_v7(),
        to: to.into(),
        body: "Votre code : 4821 — valide 10 minutes".into(),
    }
}

#[tokio::test]
async fn a_message_is_posted_with_basic_auth_and_its_form() {
    let (server, received) = fake_twilio().await;
    let twilio = TwilioSms::new(config(server.url())).unwrap();

    let receipt = twilio.send_message(&sms("+14035550123")).await.unwrap();
    assert_eq!(receipt.status, "queued");
    assert!(receipt.sid.starts_with("SM"));

    let sender: Arc<dyn SmsSender> = Arc::new(twilio);
    sender.send(&sms("+14035550124")).await.unwrap();

    let forms = received.lock().unwrap().clone();
    assert_eq!(forms.len(), 2);
    assert_eq!(forms[0]["To"], "+14035550123");
    assert_eq!(forms[0]["From"], FROM);
    assert_eq!(forms[0]["Body"], "Votre code : 4821 — valide 10 minutes");
    assert!(!forms[0].contains_key("MessagingServiceSid"));
    server.stop().await;
}

#[tokio::test]
async fn a_messaging_service_replaces_the_from_number() {
    let (server, received) = fake_twilio().await;
    let service = "MG00000000000000000000000000000001";
    let twilio = TwilioSms::new(TwilioConfig {
        sender: TwilioSender::from_setting(service),
        ..config(server.url())
    })
    .unwrap();
    twilio.send_message(&sms("+14035550123")).await.unwrap();
    let form = received.lock().unwrap()[0].clone();
    assert_eq!(form["MessagingServiceSid"], service);
    assert!(!form.contains_key("From"));
    server.stop().await;
}

#[tokio::test]
async fn an_invalid_number_is_told_apart_through_the_trait() {
    let (server, _) = fake_twilio().await;
    let sender: Arc<dyn SmsSender> = Arc::new(TwilioSms::new(config(server.url())).unwrap());
    let error = sender.send(&sms(INVALID_NUMBER)).await.unwrap_err();
    assert!(twilio::number_cannot_receive_sms(&error));
    let twilio_error = error.downcast_ref::<TwilioError>().unwrap();
    assert_eq!(twilio_error.code(), Some(21211));
    assert!(
        twilio_error
            .to_string()
            .contains("is not a valid phone number")
    );
    assert!(!twilio_error.is_retryable());
    server.stop().await;
}

#[tokio::test]
async fn a_wrong_token_is_refused_with_twilio_code() {
    let (server, _) = fake_twilio().await;
    let twilio = TwilioSms::new(TwilioConfig {
        auth_token: "wrong".into(),
        ..config(server.url())
    })
    .unwrap();
    let error = twilio.send_message(&sms("+14035550123")).await.unwrap_err();
    assert_eq!(error.code(), Some(20003));
    assert!(!error.number_cannot_receive_sms());
    assert!(!error.is_retryable());
    server.stop().await;
}

#[tokio::test]
async fn a_server_error_is_a_retryable_error() {
    let (server, _) = fake_twilio().await;
    let twilio = TwilioSms::new(config(server.url())).unwrap();
    let error = twilio.send_message(&sms(FAILING_NUMBER)).await.unwrap_err();
    assert!(
        matches!(
            error,
            TwilioError::Unexpected {
                http_status: 500,
                ..
            }
        ),
        "{error:?}"
    );
    assert!(error.is_retryable());
    server.stop().await;
}

#[tokio::test]
async fn a_slow_twilio_times_out() {
    let (server, _) = fake_twilio().await;
    let twilio = TwilioSms::new(TwilioConfig {
        timeout: Duration::from_millis(200),
        ..config(server.url())
    })
    .unwrap();
    let error = twilio.send_message(&sms(SLOW_NUMBER)).await.unwrap_err();
    assert!(
        matches!(&error, TwilioError::Transport(e) if e.is_timeout()),
        "{error:?}"
    );
    assert!(error.is_retryable());
    server.stop().await;
}

#[tokio::test]
async fn an_unreachable_twilio_is_a_retryable_error() {
    let twilio = TwilioSms::new(config(closed_port_url())).unwrap();
    let error = twilio.send_message(&sms("+14035550123")).await.unwrap_err();
    assert!(matches!(error, TwilioError::Transport(_)), "{error:?}");
    assert!(error.is_retryable());
}
