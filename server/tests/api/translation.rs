//! Translation: the LibreTranslate and DeepL adapters against local servers that speak their
//! protocols, and TranslateText on the running server (real Postgres and Redis): not
//! configured, signed-in callers only, bounds, the budgets under concurrent calls, the cache,
//! provider failures.

use std::{
    sync::{
        Arc, Mutex,
        atomic::{AtomicUsize, Ordering},
    },
    time::Duration,
};

use crate::helpers::{
    Content, LocalServer, TestServer, closed_port_url, content_client, reason, violated_fields,
    with_token,
};
use axum::{
    Json, Router,
    extract::State,
    http::{HeaderMap, StatusCode},
    response::{IntoResponse, Response},
    routing::post,
};
use repairs_proto::{content as pb, types::Language as PbLanguage};
use repairs_server::{
    config::{Config, TranslationProviderKind},
    domain::{Language, Role},
    providers::translation::{
        Translated, Translator,
        deepl::{DeepL, DeepLConfig},
        libretranslate::{LibreTranslate, LibreTranslateConfig},
    },
};
use serde_json::{Value, json};
use tonic::Code;

const LIBRE_KEY: &str = "libre-test-key";
const DEEPL_KEY: &str = "deepl-test-key:fx";
/// Texts the fakes answer with an error, as the real services do when they fail.
const FAILING_TEXT: &str = "please fail with a server error";
const QUOTA_TEXT: &str = "please fail with a spent quota";

/// What a fake provider saw: every request body, in order.
#[derive(Clone, Default)]
struct Seen {
    calls: Arc<AtomicUsize>,
    bodies: Arc<Mutex<Vec<Value>>>,
}

impl Seen {
    fn record(&self, body: &Value) {
        self.calls.fetch_add(1, Ordering::SeqCst);
        self.bodies.lock().unwrap().push(body.clone());
    }

    fn calls(&self) -> usize {
        self.calls.load(Ordering::SeqCst)
    }

    fn last(&self) -> Value {
        self.bodies.lock().unwrap().last().cloned().unwrap()
    }

    /// How many calls asked to translate `text`.
    fn asked(&self, text: &str) -> usize {
        let bodies = self.bodies.lock().unwrap();
        bodies
            .iter()
            .filter(|body| body["q"] == json!([text]))
            .count()
    }
}

/// A few words each way, and a tag for the rest: enough to tell a translation from its text.
fn translate_word(text: &str, target: &str) -> String {
    match (text, target) {
        ("Hello", "fr") => "Bonjour".to_owned(),
        ("Bonjour", "en") => "Hello".to_owned(),
        (text, target) => format!("[{target}] {text}"),
    }
}

/// French when it reads like French, as the fakes "detect" it.
fn detect(text: &str) -> &'static str {
    if text.starts_with("Bonjour") || text.contains(" fuite ") {
        "fr"
    } else {
        "en"
    }
}

fn libre_error(status: StatusCode, error: &str) -> Response {
    (status, Json(json!({ "error": error }))).into_response()
}

/// LibreTranslate's `POST /translate`.
async fn libre_translate(State(seen): State<Seen>, Json(body): Json<Value>) -> Response {
    seen.record(&body);
    if body["api_key"] != LIBRE_KEY {
        return libre_error(
            StatusCode::FORBIDDEN,
            "Invalid API key. Visit the portal to get one.",
        );
    }
    if body["format"] != "text" {
        return libre_error(StatusCode::BAD_REQUEST, "Invalid request: format");
    }
    let (Some(source), Some(target)) = (body["source"].as_str(), body["target"].as_str()) else {
        return libre_error(
            StatusCode::BAD_REQUEST,
            "Invalid request: missing source or target",
        );
    };
    let texts: Vec<String> = match &body["q"] {
        Value::String(one) => vec![one.clone()],
        Value::Array(many) => many
            .iter()
            .filter_map(|t| t.as_str().map(str::to_owned))
            .collect(),
        _ => {
            return libre_error(
                StatusCode::BAD_REQUEST,
                "Invalid request: missing q parameter",
            );
        }
    };
    if texts.iter().any(|t| t == FAILING_TEXT) {
        return libre_error(StatusCode::INTERNAL_SERVER_ERROR, "Cannot translate text");
    }
    if texts.iter().any(|t| t == QUOTA_TEXT) {
        return libre_error(
            StatusCode::TOO_MANY_REQUESTS,
            "Too many request limits violation",
        );
    }
    let translated: Vec<String> = texts.iter().map(|t| translate_word(t, target)).collect();
    let one = body["q"].is_string();
    let mut reply = json!({
        "translatedText": if one { json!(translated[0]) } else { json!(translated) },
    });
    if source == "auto" {
        let detected: Vec<Value> = texts
            .iter()
            .map(|t| json!({ "confidence": 90.0, "language": detect(t) }))
            .collect();
        reply["detectedLanguage"] = if one {
            detected[0].clone()
        } else {
            json!(detected)
        };
    }
    Json(reply).into_response()
}

async fn libretranslate_server(seen: Seen) -> LocalServer {
    LocalServer::start(
        Router::new()
            .route("/translate", post(libre_translate))
            .with_state(seen),
    )
    .await
}

fn deepl_error(status: u16, message: &str) -> Response {
    (
        StatusCode::from_u16(status).unwrap(),
        Json(json!({ "message": message })),
    )
        .into_response()
}

/// DeepL's `POST /v2/translate`.
async fn deepl_translate(
    State(seen): State<Seen>,
    headers: HeaderMap,
    Json(body): Json<Value>,
) -> Response {
    seen.record(&body);
    let expected = format!("DeepL-Auth-Key {DEEPL_KEY}");
    if headers
        .get("authorization")
        .is_none_or(|v| v != expected.as_str())
    {
        return deepl_error(403, "Wrong endpoint. Use https://api.deepl.com");
    }
    let target = match body["target_lang"].as_str() {
        Some("FR") => "fr",
        Some("EN-US" | "EN-GB") => "en",
        _ => return deepl_error(400, "Value for 'target_lang' not supported."),
    };
    let Some(texts) = body["text"].as_array() else {
        return deepl_error(400, "Parameter 'text' not specified.");
    };
    let texts: Vec<&str> = texts.iter().filter_map(Value::as_str).collect();
    if texts.contains(&QUOTA_TEXT) {
        return deepl_error(456, "Quota exceeded");
    }
    if texts.contains(&FAILING_TEXT) {
        return deepl_error(503, "Service unavailable");
    }
    let translations: Vec<Value> = texts
        .iter()
        .map(|t| {
            let source = body["source_lang"]
                .as_str()
                .map_or_else(|| detect(t).to_ascii_uppercase(), str::to_owned);
            json!({ "detected_source_language": source, "text": translate_word(t, target) })
        })
        .collect();
    Json(json!({ "translations": translations })).into_response()
}

async fn deepl_server(seen: Seen) -> LocalServer {
    LocalServer::start(
        Router::new()
            .route("/v2/translate", post(deepl_translate))
            .with_state(seen),
    )
    .await
}

fn texts(all: &[&str]) -> Vec<String> {
    all.iter().map(|t| (*t).to_owned()).collect()
}

fn libre(url: String, key: &str) -> LibreTranslate {
    let mut config = LibreTranslateConfig::new(url);
    config.api_key = Some(key.into());
    config.timeout = Duration::from_secs(2);
    LibreTranslate::new(config).unwrap()
}

fn deepl(url: String, key: &str) -> DeepL {
    let mut config = DeepLConfig::new(key);
    config.base_url = url;
    config.timeout = Duration::from_secs(2);
    DeepL::new(config).unwrap()
}

fn translated(text: &str, source: Language) -> Translated {
    Translated {
        text: text.to_owned(),
        source: Some(source),
    }
}

#[tokio::test]
async fn libretranslate_detects_and_translates_several_texts() {
    let seen = Seen::default();
    let server = libretranslate_server(seen.clone()).await;
    let adapter = libre(server.url(), LIBRE_KEY);

    let answer = adapter
        .translate(&texts(&["Hello", "Bonjour"]), None, Language::French)
        .await
        .unwrap();
    assert_eq!(
        answer,
        vec![
            translated("Bonjour", Language::English),
            translated("[fr] Bonjour", Language::French)
        ]
    );
    assert_eq!(
        seen.last(),
        json!({ "q": ["Hello", "Bonjour"], "source": "auto", "target": "fr",
                "format": "text", "api_key": LIBRE_KEY })
    );

    // A named source is sent as it is and is what the answer reads the text as.
    let answer = adapter
        .translate(
            &texts(&["Bonjour"]),
            Some(Language::French),
            Language::English,
        )
        .await
        .unwrap();
    assert_eq!(answer, vec![translated("Hello", Language::French)]);
    assert_eq!(seen.last()["source"], "fr");
    server.stop().await;
}

#[tokio::test]
async fn libretranslate_errors_are_unavailable() {
    let seen = Seen::default();
    let server = libretranslate_server(seen.clone()).await;
    for (adapter, text, expected) in [
        (libre(server.url(), "wrong-key"), "Hello", "403"),
        (libre(server.url(), LIBRE_KEY), FAILING_TEXT, "500"),
        (libre(server.url(), LIBRE_KEY), QUOTA_TEXT, "429"),
    ] {
        let error = adapter
            .translate(&texts(&[text]), None, Language::French)
            .await
            .unwrap_err();
        assert!(error.to_string().contains("not answering"), "{error}");
        assert!(format!("{error:?}").contains(expected), "{error:?}");
    }
    server.stop().await;

    let gone = libre(closed_port_url(), LIBRE_KEY);
    assert!(
        gone.translate(&texts(&["Hello"]), None, Language::French)
            .await
            .is_err()
    );
}

#[tokio::test]
async fn deepl_translates_with_its_language_codes() {
    let seen = Seen::default();
    let server = deepl_server(seen.clone()).await;
    let adapter = deepl(server.url(), DEEPL_KEY);

    let answer = adapter
        .translate(&texts(&["Bonjour", "Hello"]), None, Language::English)
        .await
        .unwrap();
    assert_eq!(
        answer,
        vec![
            translated("Hello", Language::French),
            translated("[en] Hello", Language::English)
        ]
    );
    assert_eq!(
        seen.last(),
        json!({ "text": ["Bonjour", "Hello"], "target_lang": "EN-US" })
    );

    let answer = adapter
        .translate(
            &texts(&["Hello"]),
            Some(Language::English),
            Language::French,
        )
        .await
        .unwrap();
    assert_eq!(answer, vec![translated("Bonjour", Language::English)]);
    assert_eq!(
        seen.last(),
        json!({ "text": ["Hello"], "target_lang": "FR", "source_lang": "EN" })
    );
    server.stop().await;
}

#[tokio::test]
async fn deepl_errors_are_unavailable() {
    let server = deepl_server(Seen::default()).await;
    for (adapter, text, expected) in [
        (deepl(server.url(), "wrong-key"), "Hello", "403"),
        (deepl(server.url(), DEEPL_KEY), QUOTA_TEXT, "456"),
        (deepl(server.url(), DEEPL_KEY), FAILING_TEXT, "503"),
    ] {
        let error = adapter
            .translate(&texts(&[text]), None, Language::French)
            .await
            .unwrap_err();
        assert!(format!("{error:?}").contains(expected), "{error:?}");
    }
    server.stop().await;
}

// --- TranslateText on the running server ---

fn with_libretranslate(url: String) -> impl FnOnce(&mut Config) {
    move |config| {
        config.translation_provider = TranslationProviderKind::Libretranslate;
        config.libretranslate_url = Some(url);
        config.libretranslate_api_key = Some(LIBRE_KEY.to_owned());
    }
}

fn request(all: &[&str], target: PbLanguage) -> pb::TranslateTextRequest {
    pb::TranslateTextRequest {
        texts: texts(all),
        target_language: target as i32,
        source_language: PbLanguage::Unspecified as i32,
    }
}

async fn translate(
    content: &mut Content,
    token: &str,
    body: pb::TranslateTextRequest,
) -> Result<pb::TranslateTextResponse, tonic::Status> {
    content
        .translate_text(with_token(body, token))
        .await
        .map(tonic::Response::into_inner)
}

#[tokio::test]
async fn without_a_provider_translation_is_not_configured() {
    let server = TestServer::start().await;
    let mut content = content_client(&server).await;
    let (_, token) = server.account_token(Role::Customer).await;
    let status = translate(&mut content, &token, request(&["Hello"], PbLanguage::Fr))
        .await
        .unwrap_err();
    assert_eq!(status.code(), Code::FailedPrecondition);
    assert_eq!(reason(&status), "TRANSLATION_NOT_CONFIGURED");
    server.stop().await;
}

#[tokio::test]
async fn only_signed_in_callers_translate_and_bounds_hold() {
    let seen = Seen::default();
    let provider = libretranslate_server(seen.clone()).await;
    let server = TestServer::start_with(with_libretranslate(provider.url())).await;
    let mut content = content_client(&server).await;

    let anonymous = content
        .translate_text(request(&["Hello"], PbLanguage::Fr))
        .await
        .unwrap_err();
    assert_eq!(anonymous.code(), Code::Unauthenticated);

    let (_, token) = server.account_token(Role::Professional).await;
    let long = "a".repeat(4_001);
    let cases: Vec<(pb::TranslateTextRequest, &str)> = vec![
        (request(&[], PbLanguage::Fr), "texts"),
        (request(&["Hello"; 21], PbLanguage::Fr), "texts"),
        (request(&["Hello", "  "], PbLanguage::Fr), "texts[1]"),
        (request(&[long.as_str(); 5], PbLanguage::Fr), "texts"),
        (
            request(&["Hello"], PbLanguage::Unspecified),
            "target_language",
        ),
    ];
    for (body, field) in cases {
        let status = translate(&mut content, &token, body).await.unwrap_err();
        assert_eq!(status.code(), Code::InvalidArgument, "{field}: {status:?}");
        assert_eq!(violated_fields(&status), vec![field.to_owned()]);
    }
    let too_long = translate(
        &mut content,
        &token,
        request(&[&"a".repeat(5_001)], PbLanguage::Fr),
    )
    .await
    .unwrap_err();
    assert_eq!(too_long.code(), Code::InvalidArgument);
    assert_eq!(
        seen.calls(),
        0,
        "nothing out of bounds reaches the provider"
    );

    let answer = translate(
        &mut content,
        &token,
        request(&["Hello", "Bonjour"], PbLanguage::Fr),
    )
    .await
    .unwrap();
    let got: Vec<(String, i32)> = answer
        .translations
        .into_iter()
        .map(|t| (t.text, t.detected_source_language))
        .collect();
    assert_eq!(
        got,
        vec![
            ("Bonjour".to_owned(), PbLanguage::En as i32),
            ("[fr] Bonjour".to_owned(), PbLanguage::Fr as i32)
        ]
    );
    server.stop().await;
    provider.stop().await;
}

#[tokio::test]
async fn a_callers_budget_lets_exactly_its_characters_through_under_load() {
    let seen = Seen::default();
    let provider = libretranslate_server(seen.clone()).await;
    // Ten texts of ten characters fit in the budget.
    let server = TestServer::start_with(|config| {
        with_libretranslate(provider.url())(config);
        config.translation_chars_per_caller_per_hour = 100;
    })
    .await;
    let (_, token) = server.account_token(Role::Customer).await;
    let content = content_client(&server).await;
    let calls: Vec<_> = (0..50)
        .map(|i| {
            let mut content = content.clone();
            let token = token.clone();
            tokio::spawn(async move {
                let text = format!("text {i:05}");
                translate(&mut content, &token, request(&[&text], PbLanguage::Fr)).await
            })
        })
        .collect();
    let mut passed = 0;
    for call in calls {
        match call.await.unwrap() {
            Ok(_) => passed += 1,
            Err(status) => {
                assert_eq!(status.code(), Code::ResourceExhausted, "{status:?}");
                assert_eq!(reason(&status), "TRANSLATION_CALLER_LIMIT");
            }
        }
    }
    assert_eq!(passed, 10);
    assert_eq!(seen.calls(), 10, "refused calls never reach the provider");

    // Another caller has a budget of their own.
    let (_, other) = server.account_token(Role::Customer).await;
    let mut content = content_client(&server).await;
    translate(
        &mut content,
        &other,
        request(&["text 99999"], PbLanguage::Fr),
    )
    .await
    .unwrap();
    server.stop().await;
    provider.stop().await;
}

#[tokio::test]
async fn the_service_budget_is_shared_and_unused_characters_are_given_back() {
    let seen = Seen::default();
    let provider = libretranslate_server(seen.clone()).await;
    let server = TestServer::start_with(|config| {
        with_libretranslate(provider.url())(config);
        config.translation_chars_per_hour = 30;
    })
    .await;
    let mut content = content_client(&server).await;
    let (_, first) = server.account_token(Role::Customer).await;
    let (_, second) = server.account_token(Role::Professional).await;

    translate(
        &mut content,
        &first,
        request(&["twenty characters!!"], PbLanguage::Fr),
    )
    .await
    .unwrap();
    let status = translate(
        &mut content,
        &second,
        request(&["twenty more chars!!"], PbLanguage::Fr),
    )
    .await
    .unwrap_err();
    assert_eq!(status.code(), Code::ResourceExhausted);
    assert_eq!(reason(&status), "TRANSLATION_BUDGET_SPENT");
    // The refused call's characters were given back: ten more still fit.
    translate(
        &mut content,
        &second,
        request(&["ten chars!"], PbLanguage::Fr),
    )
    .await
    .unwrap();

    // A failing provider is UNAVAILABLE, safe to retry, and costs nothing.
    let fresh_budget = TestServer::start_with(with_libretranslate(provider.url())).await;
    let mut other = content_client(&fresh_budget).await;
    let (_, token) = fresh_budget.account_token(Role::Customer).await;
    for text in [FAILING_TEXT, QUOTA_TEXT] {
        let status = translate(&mut other, &token, request(&[text], PbLanguage::En))
            .await
            .unwrap_err();
        assert_eq!(status.code(), Code::Unavailable);
        assert_eq!(reason(&status), "TRANSLATION_UNAVAILABLE");
    }
    fresh_budget.stop().await;
    server.stop().await;
    provider.stop().await;
}

#[tokio::test]
async fn a_text_translated_once_is_not_paid_again() {
    let seen = Seen::default();
    let provider = libretranslate_server(seen.clone()).await;
    let server = TestServer::start_with(|config| {
        with_libretranslate(provider.url())(config);
        // One translation of "Hello" fits; a second paid one would not.
        config.translation_chars_per_caller_per_hour = 5;
    })
    .await;
    let mut content = content_client(&server).await;
    let (_, token) = server.account_token(Role::Customer).await;
    for _ in 0..3 {
        let answer = translate(&mut content, &token, request(&["Hello"], PbLanguage::Fr))
            .await
            .unwrap();
        assert_eq!(answer.translations[0].text, "Bonjour");
        assert_eq!(
            answer.translations[0].detected_source_language,
            PbLanguage::En as i32
        );
    }
    assert_eq!(seen.calls(), 1);
    // Into the other language it is another translation.
    let status = translate(&mut content, &token, request(&["Hello"], PbLanguage::En))
        .await
        .unwrap_err();
    assert_eq!(reason(&status), "TRANSLATION_CALLER_LIMIT");
    server.stop().await;
    provider.stop().await;
}

// --- Requests shown to professionals of the other language ---

use crate::helpers::market::{self, CALGARY_PRO, Market, Pro};
use repairs_proto::marketplace as mpb;

async fn read_request(market: &mut Market, token: &str, id: &str) -> mpb::RepairRequest {
    market::get(market, token, id).await.unwrap()
}

async fn place_in_calgary(market: &mut Market, customer: &str) -> mpb::RepairRequest {
    market::place(market, customer, uuid::Uuid::now_v7(), market::in_calgary())
        .await
        .unwrap()
}

/// The request as `token` reads it once its translation is `expected` (the pass runs after
/// the request is written), or a panic after ten seconds.
async fn read_translated(
    market: &mut Market,
    token: &str,
    id: &str,
    expected: &str,
) -> mpb::RepairRequest {
    for _ in 0..100 {
        let request = read_request(market, token, id).await;
        if request.description_translation == expected {
            return request;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("{id} was not translated into {expected:?}");
}

#[tokio::test]
async fn a_request_is_shown_translated_to_professionals_of_the_other_language() {
    let seen = Seen::default();
    let provider = libretranslate_server(seen.clone()).await;
    let server = TestServer::start_with(with_libretranslate(provider.url())).await;
    let mut market = market::market(&server).await;
    let (_, customer) = market::customer(&server).await;
    let (_, french_pro, _) = market::professional(
        &server,
        Pro {
            language: "fr",
            ..CALGARY_PRO
        },
    )
    .await;
    let (_, english_pro, _) = market::professional(&server, CALGARY_PRO).await;
    let placed = place_in_calgary(&mut market, &customer).await;
    assert_eq!(placed.description_language, PbLanguage::En as i32);

    let original = "The kitchen sink leaks under the counter";
    let french = read_translated(
        &mut market,
        &french_pro,
        &placed.id,
        &format!("[fr] {original}"),
    )
    .await;
    assert_eq!(french.description, original, "the original stays beside it");
    assert_eq!(french.description_language, PbLanguage::En as i32);
    assert_eq!(
        seen.last(),
        json!({ "q": [original], "source": "en", "target": "fr", "format": "text",
                "api_key": LIBRE_KEY })
    );
    // Readers of the description's own language get no translation.
    for token in [&english_pro, &customer] {
        let request = read_request(&mut market, token, &placed.id).await;
        assert_eq!(request.description_translation, "");
        assert_eq!(request.description_language, PbLanguage::En as i32);
    }
    assert_eq!(
        seen.calls(),
        1,
        "one translation, made once, read many times"
    );

    // A new description is translated afresh; the old translation is never shown for it.
    let mut draft = market::in_calgary();
    draft.description = "Water drips from the ceiling".into();
    market
        .update_repair_request(with_token(
            mpb::UpdateRepairRequestRequest {
                id: placed.id.clone(),
                draft: Some(draft),
            },
            &customer,
        ))
        .await
        .unwrap();
    let edited = read_request(&mut market, &french_pro, &placed.id).await;
    assert_ne!(edited.description_translation, format!("[fr] {original}"));
    read_translated(
        &mut market,
        &french_pro,
        &placed.id,
        "[fr] Water drips from the ceiling",
    )
    .await;
    assert_eq!(seen.calls(), 2);
    server.stop().await;
    provider.stop().await;
}

#[tokio::test]
async fn without_a_provider_requests_carry_their_language_and_no_translation() {
    let server = TestServer::start().await;
    let mut market = market::market(&server).await;
    let (customer_id, customer) = market::customer(&server).await;
    sqlx::query("update customers set language = 'fr' where id = $1")
        .bind(customer_id)
        .execute(market::db(&server))
        .await
        .unwrap();
    let (_, english_pro, _) = market::professional(&server, CALGARY_PRO).await;
    let placed = place_in_calgary(&mut market, &customer).await;
    let read = read_request(&mut market, &english_pro, &placed.id).await;
    assert_eq!(read.description_language, PbLanguage::Fr as i32);
    assert_eq!(read.description_translation, "");
    let due: i64 = sqlx::query_scalar("select count(*) from repair_request_translations")
        .fetch_one(market::db(&server))
        .await
        .unwrap();
    assert_eq!(due, 0, "nothing waits for a provider that is not there");
    server.stop().await;
}

// --- Messages shown to a reader of the other language ---

/// The conversation of `request_id` and `pro` (empty: the caller) as `token` reads it.
async fn read_messages(
    market: &mut Market,
    token: &str,
    request_id: &str,
    pro: &str,
) -> mpb::ListMessagesResponse {
    let request = mpb::ListMessagesRequest {
        repair_request_id: request_id.to_owned(),
        professional_id: pro.to_owned(),
        ..Default::default()
    };
    market
        .list_messages(with_token(request, token))
        .await
        .unwrap()
        .into_inner()
}

async fn say(market: &mut Market, token: &str, at: (&str, &str), text: &str) {
    let request = mpb::SendMessageRequest {
        repair_request_id: at.0.to_owned(),
        professional_id: at.1.to_owned(),
        text: text.to_owned(),
        request_id: uuid::Uuid::now_v7().to_string(),
        photo_ids: Vec::new(),
    };
    market
        .send_message(with_token(request, token))
        .await
        .unwrap();
}

#[tokio::test]
async fn a_message_is_shown_translated_to_a_reader_of_the_other_language_and_masked_in_it_too() {
    let seen = Seen::default();
    let provider = libretranslate_server(seen.clone()).await;
    let server = TestServer::start_with(with_libretranslate(provider.url())).await;
    let mut market = market::market(&server).await;
    let (_, customer) = market::customer(&server).await;
    let french = Pro {
        language: "fr",
        ..CALGARY_PRO
    };
    let (pro_id, pro, _) = market::professional(&server, french).await;
    let placed = place_in_calgary(&mut market, &customer).await;
    let original = "Appelez-moi au 403 555 0100";
    say(&mut market, &pro, (&placed.id, ""), original).await;
    let pro_id = pro_id.to_string();
    let mut read = None;
    for _ in 0..100 {
        let listed = read_messages(&mut market, &customer, &placed.id, &pro_id).await;
        if !listed.messages[0].text_translation.is_empty() {
            read = Some(listed);
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let message = read.expect("translated within ten seconds").messages[0].clone();
    assert_eq!(message.text_language, PbLanguage::Fr as i32);
    assert_eq!(
        message.text,
        "Appelez-moi au [phone number shared once hired]"
    );
    assert_eq!(
        message.text_translation,
        "[en] Appelez-moi au [phone number shared once hired]"
    );
    assert_eq!(seen.asked(original), 1);
    // Its author reads it as written, untranslated; an answer in English is translated for
    // the professional.
    let own = read_messages(&mut market, &pro, &placed.id, "").await;
    assert_eq!(
        (
            own.messages[0].text.as_str(),
            own.messages[0].text_translation.as_str()
        ),
        (original, "")
    );
    say(&mut market, &customer, (&placed.id, &pro_id), "Sure").await;
    for _ in 0..100 {
        let listed = read_messages(&mut market, &pro, &placed.id, "").await;
        if listed.messages[0].text_translation == "[fr] Sure" {
            assert_eq!((seen.asked(original), seen.asked("Sure")), (1, 1));
            server.stop().await;
            provider.stop().await;
            return;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("the answer was not translated");
}
