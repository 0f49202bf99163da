//! Conversations between a request's customer and each professional, against the real
//! server, Postgres and Redis: contact details masked before the hire and not after, a
//! retried send stored once (concurrent retries too), the live stream resumed without a gap
//! or a repeat, the email that waits, groups and is skipped when read, blocks (no message,
//! no quote), the sending budget under concurrent sends, who may take part, read-only after
//! the job, the admins' report queue, and an account's deletion.

use std::time::Duration;

use chrono::Utc;
use futures::future::join_all;
use repairs_proto::{
    accounts::{self as apb, accounts_service_client::AccountsServiceClient},
    marketplace::{self as pb, watch_conversation_response::Event},
    types::Language,
};
use repairs_server::{
    conversations::{emails, photos as message_photos},
    domain::Role,
    testing::photos,
};
use tonic::{Code, Status, Streaming};
use uuid::Uuid;

use crate::helpers::{
    TestServer, emails_to,
    market::{
        CALGARY_PRO, Market, Pro, VISA, billing, cancel, complete, customer, db, hire, in_calgary,
        market, place, professional, quote,
    },
    photo_files::{fetch, stored_under},
    push_service::PushService,
    reason, violated_fields, with_token,
};

/// A server, a customer, a Calgary plumber who may see the customer's open request, and the
/// request: the ids and tokens of both.
struct World {
    server: TestServer,
    market: Market,
    customer_id: Uuid,
    customer: String,
    pro_id: Uuid,
    pro: String,
    request: pb::RepairRequest,
}

async fn world() -> World {
    world_with(|_| {}).await
}

async fn world_with(adjust: impl FnOnce(&mut repairs_server::config::Config)) -> World {
    let server = TestServer::start_with(adjust).await;
    let mut market = market(&server).await;
    let (customer_id, customer) = customer(&server).await;
    let (pro_id, pro, _) = professional(&server, CALGARY_PRO).await;
    let request = place(&mut market, &customer, Uuid::now_v7(), in_calgary())
        .await
        .unwrap();
    World {
        server,
        market,
        customer_id,
        customer,
        pro_id,
        pro,
        request,
    }
}

/// `token` sends `text` under `key` in the conversation of `request_id` and `pro` (empty
/// from the professional themself).
async fn send_keyed(
    market: &mut Market,
    token: &str,
    (request_id, pro): (&str, &str),
    text: &str,
    key: Uuid,
) -> Result<pb::SendMessageResponse, Status> {
    let request = pb::SendMessageRequest {
        repair_request_id: request_id.to_owned(),
        professional_id: pro.to_owned(),
        text: text.to_owned(),
        request_id: key.to_string(),
        photo_ids: Vec::new(),
    };
    market
        .send_message(with_token(request, token))
        .await
        .map(tonic::Response::into_inner)
}

/// [`send_keyed`] under a new key, which must succeed.
async fn say(
    market: &mut Market,
    token: &str,
    at: (&str, &str),
    text: &str,
) -> pb::SendMessageResponse {
    send_keyed(market, token, at, text, Uuid::now_v7())
        .await
        .unwrap()
}

impl World {
    fn pro_id(&self) -> String {
        self.pro_id.to_string()
    }

    /// The professional writes to the customer.
    async fn pro_says(&mut self, text: &str) -> pb::ConversationMessage {
        let at = (self.request.id.clone(), String::new());
        let sent = send_keyed(
            &mut self.market,
            &self.pro,
            (&at.0, &at.1),
            text,
            Uuid::now_v7(),
        );
        sent.await.unwrap().message.unwrap()
    }

    /// The customer writes to the professional.
    async fn customer_says(&mut self, text: &str) -> Result<pb::ConversationMessage, Status> {
        let at = (self.request.id.clone(), self.pro_id());
        let sent = send_keyed(
            &mut self.market,
            &self.customer,
            (&at.0, &at.1),
            text,
            Uuid::now_v7(),
        );
        sent.await.map(|sent| sent.message.unwrap())
    }

    /// The conversation as `token` reads it (`pro`: the professional field).
    async fn read_as(
        &mut self,
        token: &str,
        pro: &str,
    ) -> Result<pb::ListMessagesResponse, Status> {
        let request = pb::ListMessagesRequest {
            repair_request_id: self.request.id.clone(),
            professional_id: pro.to_owned(),
            page_size: 0,
            page_token: String::new(),
        };
        self.market
            .list_messages(with_token(request, token))
            .await
            .map(tonic::Response::into_inner)
    }

    async fn customer_reads(&mut self) -> pb::ListMessagesResponse {
        let (token, pro) = (self.customer.clone(), self.pro_id());
        self.read_as(&token, &pro).await.unwrap()
    }

    async fn pro_reads(&mut self) -> pb::ListMessagesResponse {
        let token = self.pro.clone();
        self.read_as(&token, "").await.unwrap()
    }

    async fn mark_read(
        &mut self,
        token: &str,
        pro: &str,
        sequence: i64,
    ) -> pb::MarkConversationReadResponse {
        let request = pb::MarkConversationReadRequest {
            repair_request_id: self.request.id.clone(),
            professional_id: pro.to_owned(),
            sequence,
        };
        self.market
            .mark_conversation_read(with_token(request, token))
            .await
            .unwrap()
            .into_inner()
    }

    async fn watch(
        &mut self,
        token: &str,
        pro: &str,
        after_sequence: i64,
    ) -> Result<Streaming<pb::WatchConversationResponse>, Status> {
        let request = pb::WatchConversationRequest {
            repair_request_id: self.request.id.clone(),
            professional_id: pro.to_owned(),
            after_sequence,
        };
        self.market
            .watch_conversation(with_token(request, token))
            .await
            .map(tonic::Response::into_inner)
    }

    async fn conversations_of(&mut self, token: &str) -> pb::ListConversationsResponse {
        self.market
            .list_conversations(with_token(pb::ListConversationsRequest::default(), token))
            .await
            .unwrap()
            .into_inner()
    }

    async fn stop(self) {
        self.server.stop().await;
    }
}

impl World {
    /// `token` uploads `content` into the conversation (`pro`: the professional field).
    async fn upload(
        &mut self,
        token: &str,
        pro: &str,
        content: Vec<u8>,
    ) -> Result<pb::Photo, Status> {
        let request = pb::AddMessagePhotoRequest {
            repair_request_id: self.request.id.clone(),
            professional_id: pro.to_owned(),
            content,
        };
        self.market
            .add_message_photo(with_token(request, token))
            .await
            .map(|r| r.into_inner().photo.unwrap())
    }

    /// `token` sends `text` with the photos `ids` (`pro`: the professional field).
    async fn send_photos(
        &mut self,
        (token, pro): (&str, &str),
        text: &str,
        ids: &[&str],
    ) -> Result<pb::SendMessageResponse, Status> {
        let request = pb::SendMessageRequest {
            repair_request_id: self.request.id.clone(),
            professional_id: pro.to_owned(),
            text: text.to_owned(),
            request_id: Uuid::now_v7().to_string(),
            photo_ids: ids.iter().map(|id| (*id).to_owned()).collect(),
        };
        self.market
            .send_message(with_token(request, token))
            .await
            .map(tonic::Response::into_inner)
    }

    /// The professional sends `text` with the photos `ids`.
    async fn pro_sends_photos(
        &mut self,
        text: &str,
        ids: &[&str],
    ) -> Result<pb::SendMessageResponse, Status> {
        let pro = self.pro.clone();
        self.send_photos((&pro, ""), text, ids).await
    }

    fn stored(&self) -> usize {
        stored_under(&self.server, &format!("conversations/{}", self.request.id)).len()
    }
}

fn texts(listed: &pb::ListMessagesResponse) -> Vec<&str> {
    listed.messages.iter().map(|m| m.text.as_str()).collect()
}

fn refused(result: Result<impl std::fmt::Debug, Status>, code: Code, why: &str) {
    let status = result.expect_err("refused");
    assert_eq!(
        (status.code(), reason(&status).as_str()),
        (code, why),
        "{status:?}"
    );
}

#[tokio::test]
async fn contact_details_are_masked_for_the_reader_before_the_hire_and_whole_after() {
    let mut w = world().await;
    let said = w
        .pro_says("Is the valve accessible? Call me at (403) 555-0100 or bob at gmail dot com")
        .await;
    assert!(!said.contacts_masked, "the author reads what they wrote");
    let read = w.customer_reads().await;
    let message = &read.messages[0];
    assert!(message.contacts_masked);
    assert_eq!(
        message.text,
        "Is the valve accessible? Call me at [phone number shared once hired] or [email shared once hired]"
    );
    let own = w.pro_reads().await;
    assert_eq!(own.messages[0].text, said.text);
    assert!(!own.messages[0].contacts_masked);

    w.customer_says("Yes, under the sink. Mine is 587.555.0199, ana@example.ca")
        .await
        .unwrap();
    let pro_view = w.pro_reads().await;
    assert_eq!(
        texts(&pro_view)[0],
        "Yes, under the sink. Mine is [phone number shared once hired], [email shared once hired]"
    );

    // Hired: both read each other's words whole, those written before the hire too.
    let sent = quote(&mut w.market, &w.pro, &w.request.id).await;
    hire(
        &billing(&w.server).await,
        &w.customer,
        &sent.id,
        VISA,
        Uuid::now_v7(),
    )
    .await
    .unwrap();
    let read = w.customer_reads().await;
    assert!(read.messages.iter().all(|m| !m.contacts_masked));
    assert!(texts(&read)[1].contains("(403) 555-0100 or bob at gmail dot com"));
    assert!(texts(&w.pro_reads().await)[0].contains("587.555.0199, ana@example.ca"));
    assert_eq!(
        read.conversation.unwrap().state,
        pb::ConversationState::Open as i32,
        "the hired professional's conversation stays writable"
    );
    w.stop().await;
}

#[tokio::test]
async fn the_reader_s_devices_are_pushed_at_once_without_contact_details() {
    let mut w = world().await;
    let mut accounts = AccountsServiceClient::new(w.server.channel().await);
    let key = accounts
        .get_push_public_key(with_token(apb::GetPushPublicKeyRequest {}, &w.customer))
        .await
        .unwrap()
        .into_inner()
        .public_key;
    let push = PushService::start(&key).await;
    let phone = push.device();
    let subscribe = apb::AddPushSubscriptionRequest {
        endpoint: phone.endpoint.clone(),
        keys: Some(apb::PushSubscriptionKeys {
            p256dh: phone.p256dh.clone(),
            auth: phone.auth.clone(),
        }),
        language: Language::En as i32,
        ..Default::default()
    };
    accounts
        .add_push_subscription(with_token(subscribe, &w.customer))
        .await
        .unwrap();
    w.pro_says("I can come at 5, text me on 403 555 0100").await;
    let received = push.wait_for(&phone, 1, 5).await;
    let payload = &received[0].payload;
    assert_eq!(payload["title"], "New message: Plumbing Services");
    let body = payload["body"].as_str().unwrap();
    assert!(
        body.contains("I can come at 5, text me on [phone number shared once hired]"),
        "{body}"
    );
    assert!(!body.contains("555"), "{body}");
    assert!(
        payload["url"]
            .as_str()
            .unwrap()
            .ends_with(&format!("/user-view-request/{}", w.request.id))
    );
    push.stop().await;
    w.stop().await;
}

#[tokio::test]
async fn a_retried_send_is_stored_once_even_when_the_retries_race() {
    let mut w = world().await;
    let at = (w.request.id.clone(), String::new());
    let key = Uuid::now_v7();
    let first = send_keyed(&mut w.market, &w.pro, (&at.0, &at.1), "Hello", key)
        .await
        .unwrap();
    let again = send_keyed(&mut w.market, &w.pro, (&at.0, &at.1), "Hello", key)
        .await
        .unwrap();
    assert_eq!(first.message, again.message);

    let racing = Uuid::now_v7();
    let sends = (0..8).map(|_| {
        let (mut market, token, at) = (w.market.clone(), w.pro.clone(), at.clone());
        async move {
            send_keyed(&mut market, &token, (&at.0, &at.1), "Are you home?", racing)
                .await
                .unwrap()
                .message
                .unwrap()
        }
    });
    let answers = join_all(sends).await;
    assert!(
        answers.iter().all(|answer| *answer == answers[0]),
        "one message for one key"
    );
    let stored: i64 =
        sqlx::query_scalar("select count(*) from conversation_messages where client_key = $1")
            .bind(racing)
            .fetch_one(db(&w.server))
            .await
            .unwrap();
    assert_eq!(stored, 1);

    // Distinct messages sent at once take the next sequences, none skipped, none twice.
    let sends = (0..10).map(|n| {
        let (mut market, token, at) = (w.market.clone(), w.pro.clone(), at.clone());
        async move {
            send_keyed(
                &mut market,
                &token,
                (&at.0, &at.1),
                &format!("part {n}"),
                Uuid::now_v7(),
            )
            .await
            .unwrap()
            .message
            .unwrap()
            .sequence
        }
    });
    let mut sequences = join_all(sends).await;
    sequences.sort_unstable();
    assert_eq!(sequences, (3..=12).collect::<Vec<i64>>());

    // The key is the sender's: the customer may use the same one for their own message.
    let customer_at = (w.request.id.clone(), w.pro_id());
    let theirs = send_keyed(
        &mut w.market,
        &w.customer,
        (&customer_at.0, &customer_at.1),
        "Yes",
        key,
    )
    .await
    .unwrap();
    assert_eq!(theirs.message.unwrap().sequence, 13);
    w.stop().await;
}

async fn next_event(stream: &mut Streaming<pb::WatchConversationResponse>) -> Event {
    tokio::time::timeout(Duration::from_secs(10), stream.message())
        .await
        .expect("an event in time")
        .unwrap()
        .expect("the stream goes on")
        .event
        .unwrap()
}

/// The sequences of the next `count` messages of the stream (read markers skipped).
async fn next_sequences(
    stream: &mut Streaming<pb::WatchConversationResponse>,
    count: usize,
) -> Vec<i64> {
    let mut seen = Vec::new();
    while seen.len() < count {
        if let Event::Message(message) = next_event(stream).await {
            seen.push(message.sequence);
        }
    }
    seen
}

#[tokio::test]
async fn the_stream_resumes_after_a_reconnect_without_a_gap_or_a_repeat() {
    let mut w = world().await;
    let pro = w.pro_id();
    let customer_token = w.customer.clone();
    // Watching a conversation nobody opened yet: its first message comes live.
    let mut stream = w.watch(&customer_token, &pro, 0).await.unwrap();
    for text in ["one", "two", "three"] {
        w.pro_says(text).await;
    }
    assert_eq!(next_sequences(&mut stream, 3).await, [1, 2, 3]);
    drop(stream);

    w.pro_says("four").await;
    w.pro_says("five").await;
    // Reconnect from 3 while the professional goes on writing: every sequence once, in order.
    let writer = {
        let (mut market, token, id) = (w.market.clone(), w.pro.clone(), w.request.id.clone());
        tokio::spawn(async move {
            for n in 6..=25 {
                say(&mut market, &token, (&id, ""), &format!("live {n}")).await;
            }
        })
    };
    let mut stream = w.watch(&customer_token, &pro, 3).await.unwrap();
    let seen = next_sequences(&mut stream, 22).await;
    assert_eq!(seen, (4..=25).collect::<Vec<i64>>());
    writer.await.unwrap();

    // The customer's reading reaches the professional's stream as the other party's marker.
    let pro_token = w.pro.clone();
    let mut pros = w.watch(&pro_token, "", 25).await.unwrap();
    let answer = w.customer_says("ok").await.unwrap();
    assert!(
        matches!(next_event(&mut pros).await, Event::Message(m) if m.sequence == answer.sequence)
    );
    w.mark_read(&customer_token, &pro, 25).await;
    assert_eq!(
        next_event(&mut pros).await,
        Event::OtherPartyReadSequence(25)
    );
    assert!(
        matches!(next_event(&mut stream).await, Event::Message(m) if m.text == "ok"),
        "the customer's stream carries their own message"
    );
    let silent = tokio::time::timeout(Duration::from_millis(500), stream.message()).await;
    assert!(
        silent.is_err(),
        "the customer's own marker is not sent to them"
    );
    w.stop().await;
}

#[tokio::test]
async fn a_reader_who_asked_for_texts_gets_one_with_the_email_masked_as_they_read_it() {
    let mut w = world().await;
    let phone = "+14035550142";
    sqlx::query(
        "update customers set phone = $2, phone_verified = true, sms_updates = 'yes'
         where id = $1",
    )
    .bind(w.customer_id)
    .bind(phone)
    .execute(db(&w.server))
    .await
    .unwrap();
    let texts_to = |pool: sqlx::PgPool| async move {
        sqlx::query_scalar::<_, String>(
            "select body from outbox_messages
             where channel = 'sms' and recipient = $1 order by id",
        )
        .bind(phone)
        .fetch_all(&pool)
        .await
        .unwrap()
    };
    let state = &w.server.server.state.clone();
    let pool = db(&w.server).clone();
    let start = Utc::now();
    w.pro_says("Can I come at 5? Call me at 403 555 0100").await;
    assert_eq!(
        emails::send_due(state, start + chrono::Duration::seconds(60))
            .await
            .unwrap(),
        0
    );
    assert!(
        texts_to(pool.clone()).await.is_empty(),
        "no text before the email is due"
    );
    assert_eq!(
        emails::send_due(state, start + chrono::Duration::seconds(125))
            .await
            .unwrap(),
        1
    );
    let texts = texts_to(pool.clone()).await;
    assert_eq!(texts.len(), 1, "{texts:?}");
    assert!(
        texts[0].contains("wrote to you") && texts[0].contains("Can I come at 5?"),
        "{}",
        texts[0]
    );
    assert!(
        !texts[0].contains("555"),
        "masked until the hire: {}",
        texts[0]
    );
    assert!(
        texts[0].contains(&w.request.id),
        "the link opens the request: {}",
        texts[0]
    );
    w.stop().await;
}

#[tokio::test]
async fn the_email_waits_groups_what_is_unread_and_is_skipped_once_read() {
    let mut w = world().await;
    let address: String = sqlx::query_scalar("select email::text from customers where id = $1")
        .bind(w.customer_id)
        .fetch_one(db(&w.server))
        .await
        .unwrap();
    let state = &w.server.server.state.clone();
    let pool = db(&w.server).clone();
    let wrote_to = |pool: sqlx::PgPool, address: String| async move {
        emails_to(&pool, &address, "")
            .await
            .into_iter()
            .filter(|(subject, _)| subject.contains("wrote to you"))
            .collect::<Vec<_>>()
    };
    let start = Utc::now();
    w.pro_says("First question: is the valve accessible?").await;
    assert_eq!(
        emails::send_due(state, start + chrono::Duration::seconds(60))
            .await
            .unwrap(),
        0
    );
    w.pro_says("Second: call me at 403 555 0100").await;
    assert_eq!(
        emails::send_due(state, start + chrono::Duration::seconds(110))
            .await
            .unwrap(),
        0
    );
    let first_email = start + chrono::Duration::seconds(125);
    assert_eq!(emails::send_due(state, first_email).await.unwrap(), 1);
    let wrote = wrote_to(pool.clone(), address.clone()).await;
    assert_eq!(wrote.len(), 1, "{wrote:?}");
    let (subject, body) = &wrote[0];
    assert!(
        subject.ends_with("wrote to you: Plumbing Services"),
        "{subject}"
    );
    assert!(body.contains("2 messages you have not read"), "{body}");
    assert!(
        body.contains("First question")
            && body.contains("Second: call me at [phone number shared once hired]"),
        "{body}"
    );
    assert!(!body.contains("555"), "{body}");

    // Within fifteen minutes of that email, nothing more; then one email for what came since.
    w.pro_says("Third: I am on my way").await;
    assert_eq!(
        emails::send_due(state, first_email + chrono::Duration::minutes(5))
            .await
            .unwrap(),
        0
    );
    assert_eq!(
        emails::send_due(state, first_email + chrono::Duration::minutes(16))
            .await
            .unwrap(),
        1
    );
    let wrote = wrote_to(pool.clone(), address.clone()).await;
    assert_eq!(wrote.len(), 2, "{wrote:?}");
    let second = &wrote[1].1;
    assert!(
        second.contains("Third") && !second.contains("First question"),
        "{second}"
    );
    assert!(
        second.contains(": a message you have not read."),
        "{second}"
    );

    // Read before it was due: no email at all.
    let fourth = w.pro_says("Fourth: see you soon").await;
    let pro = w.pro_id();
    let customer_token = w.customer.clone();
    let left = w.mark_read(&customer_token, &pro, fourth.sequence).await;
    assert_eq!((left.unread_count, left.unread_total), (0, 0));
    assert_eq!(
        emails::send_due(state, first_email + chrono::Duration::days(1))
            .await
            .unwrap(),
        0
    );
    let due: i64 = sqlx::query_scalar(
        "select count(*) from conversation_readers where email_due_at is not null",
    )
    .fetch_one(&pool)
    .await
    .unwrap();
    assert_eq!(due, 0);
    w.stop().await;
}

#[tokio::test]
async fn unread_counts_move_per_conversation_and_in_total_and_markers_never_go_back() {
    let mut w = world().await;
    let (other_pro, other_token, _) = professional(&w.server, CALGARY_PRO).await;
    for text in ["a", "b", "c"] {
        w.pro_says(text).await;
    }
    let id = w.request.id.clone();
    say(&mut w.market, &other_token, (&id, ""), "from another").await;
    let customer_token = w.customer.clone();
    let listed = w.conversations_of(&customer_token).await;
    assert_eq!(listed.unread_total, 4);
    assert_eq!(listed.conversations.len(), 2);
    assert_eq!(
        listed.conversations[0].professional_id,
        other_pro.to_string(),
        "newest first"
    );
    assert_eq!(listed.conversations[1].unread_count, 3);
    assert_eq!(
        listed.conversations[1].last_message.as_ref().unwrap().text,
        "c"
    );

    let pro = w.pro_id();
    let left = w.mark_read(&customer_token, &pro, 2).await;
    assert_eq!((left.unread_count, left.unread_total), (1, 2));
    let back = w.mark_read(&customer_token, &pro, 1).await;
    assert_eq!(
        (back.unread_count, back.unread_total),
        (1, 2),
        "a marker never moves back"
    );
    let past = w.mark_read(&customer_token, &pro, 99).await;
    assert_eq!(past.unread_count, 0);
    let conversation = w.pro_reads().await.conversation.unwrap();
    assert_eq!(
        conversation.other_party_read_sequence, 3,
        "never past the newest message"
    );

    let dashboard = w
        .market
        .get_customer_dashboard(with_token(
            pb::GetCustomerDashboardRequest::default(),
            &customer_token,
        ))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(dashboard.unread_messages, 1);
    w.customer_says("thanks").await.unwrap();
    let pro_token = w.pro.clone();
    let dashboard = w
        .market
        .get_professional_dashboard(with_token(
            pb::GetProfessionalDashboardRequest::default(),
            &pro_token,
        ))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(dashboard.unread_messages, 1);
    assert_eq!(w.conversations_of(&pro_token).await.unread_total, 1);
    w.stop().await;
}

#[tokio::test]
async fn a_blocked_professional_can_neither_write_nor_quote_until_unblocked() {
    let mut w = world().await;
    w.pro_says("Hello").await;
    let block = pb::BlockProfessionalRequest {
        professional_id: w.pro_id(),
    };
    for _ in 0..2 {
        w.market
            .block_professional(with_token(block.clone(), &w.customer))
            .await
            .unwrap();
    }
    let listed = w
        .market
        .list_blocked_professionals(with_token(
            pb::ListBlockedProfessionalsRequest {},
            &w.customer,
        ))
        .await
        .unwrap()
        .into_inner()
        .blocked_professionals;
    assert_eq!(listed.len(), 1, "blocking twice answers unchanged");
    assert_eq!(listed[0].professional_id, w.pro_id());

    let id = w.request.id.clone();
    let pro = w.pro.clone();
    let write = send_keyed(
        &mut w.market,
        &pro,
        (&id, ""),
        "Please answer",
        Uuid::now_v7(),
    )
    .await;
    refused(write, Code::FailedPrecondition, "PROFESSIONAL_BLOCKED");
    let quoted = w
        .market
        .create_quote(with_token(
            pb::CreateQuoteRequest {
                repair_request_id: id.clone(),
                estimated_minutes: 60,
                fee: Some(repairs_proto::types::Money {
                    amount_cents: 9_000,
                    currency: "CAD".into(),
                }),
                surge: false,
                add_taxes: None,
                arrival_minutes: Some(45),
            },
            &pro,
        ))
        .await;
    refused(quoted, Code::FailedPrecondition, "PROFESSIONAL_BLOCKED");
    refused(
        w.customer_says("hi").await,
        Code::FailedPrecondition,
        "PROFESSIONAL_BLOCKED",
    );
    assert_eq!(w.pro_reads().await.messages.len(), 1, "reading stays open");

    w.market
        .unblock_professional(with_token(
            pb::UnblockProfessionalRequest {
                professional_id: w.pro_id(),
            },
            &w.customer,
        ))
        .await
        .unwrap();
    w.pro_says("Thanks").await;
    quote(&mut w.market, &pro, &id).await;
    let missing = w
        .market
        .block_professional(with_token(
            pb::BlockProfessionalRequest {
                professional_id: Uuid::now_v7().to_string(),
            },
            &w.customer,
        ))
        .await;
    refused(missing, Code::NotFound, "NOT_FOUND");
    w.stop().await;
}

#[tokio::test]
async fn the_budget_holds_under_concurrent_sends() {
    let mut w = world_with(|config| config.messages_per_account_per_10_minutes = 5).await;
    let id = w.request.id.clone();
    let sends = (0..12).map(|n| {
        let (mut market, token, id) = (w.market.clone(), w.pro.clone(), id.clone());
        async move {
            send_keyed(
                &mut market,
                &token,
                (&id, ""),
                &format!("n{n}"),
                Uuid::now_v7(),
            )
            .await
        }
    });
    let answers = join_all(sends).await;
    let sent: Vec<i64> = answers
        .iter()
        .filter_map(|answer| answer.as_ref().ok())
        .map(|answer| answer.message.as_ref().unwrap().sequence)
        .collect();
    assert_eq!(sent.len(), 5, "{answers:?}");
    for refusal in answers.iter().filter_map(|answer| answer.as_ref().err()) {
        assert_eq!(refusal.code(), Code::ResourceExhausted);
        assert_eq!(reason(refusal), "MESSAGE_BUDGET_SPENT");
        assert!(refusal.message().contains("renews in"), "{refusal:?}");
        let wait = tonic_types::StatusExt::get_details_retry_info(refusal)
            .and_then(|info| info.retry_delay)
            .unwrap();
        assert!(
            wait > Duration::from_secs(500) && wait <= Duration::from_secs(600),
            "{wait:?}"
        );
    }
    let stored: i64 = sqlx::query_scalar("select count(*) from conversation_messages")
        .fetch_one(db(&w.server))
        .await
        .unwrap();
    assert_eq!(stored, 5);
    // The customer's budget is their own.
    w.customer_says("fine").await.unwrap();
    w.stop().await;
}

#[tokio::test]
async fn only_the_two_parties_take_part_and_a_professional_who_may_not_see_the_request_is_not_found()
 {
    let mut w = world().await;
    w.pro_says("Hello").await;
    let far = Pro {
        area: "H2X",
        ..CALGARY_PRO
    };
    let (far_id, far_token, _) = professional(&w.server, far).await;
    let id = w.request.id.clone();
    let write = send_keyed(&mut w.market, &far_token, (&id, ""), "Hi", Uuid::now_v7()).await;
    refused(write, Code::NotFound, "NOT_FOUND");
    refused(w.read_as(&far_token, "").await, Code::NotFound, "NOT_FOUND");
    refused(
        w.watch(&far_token, "", 0).await,
        Code::NotFound,
        "NOT_FOUND",
    );
    let customer_token = w.customer.clone();
    let to_far = send_keyed(
        &mut w.market,
        &customer_token,
        (&id, &far_id.to_string()),
        "Hi",
        Uuid::now_v7(),
    )
    .await;
    refused(to_far, Code::NotFound, "NOT_FOUND");
    // Another professional's conversation is not theirs, nor another customer's request.
    let pro = w.pro_id();
    refused(
        w.read_as(&far_token, &pro).await,
        Code::NotFound,
        "NOT_FOUND",
    );
    let (_, stranger) = customer(&w.server).await;
    refused(
        w.read_as(&stranger, &pro).await,
        Code::NotFound,
        "NOT_FOUND",
    );
    let nameless = w.read_as(&customer_token, "").await.unwrap_err();
    assert_eq!(violated_fields(&nameless), ["professional_id"]);
    let (_, admin) = w.server.account_token(Role::Admin).await;
    assert_eq!(texts(&w.read_as(&admin, &pro).await.unwrap()), ["Hello"]);
    // A conversation not opened yet reads empty for a professional who may open it.
    let (_, other_token, _) = professional(&w.server, CALGARY_PRO).await;
    let empty = w.read_as(&other_token, "").await.unwrap();
    assert!(empty.conversation.is_none() && empty.messages.is_empty());
    w.stop().await;
}

#[tokio::test]
async fn a_conversation_is_read_only_for_the_others_once_hired_and_for_all_once_done() {
    let mut w = world().await;
    let (_, other, _) = professional(&w.server, CALGARY_PRO).await;
    let id = w.request.id.clone();
    w.pro_says("I can do it").await;
    say(&mut w.market, &other, (&id, ""), "Me too").await;
    let sent = quote(&mut w.market, &w.pro, &id).await;
    hire(
        &billing(&w.server).await,
        &w.customer,
        &sent.id,
        VISA,
        Uuid::now_v7(),
    )
    .await
    .unwrap();
    let late = send_keyed(
        &mut w.market,
        &other,
        (&id, ""),
        "Still there?",
        Uuid::now_v7(),
    )
    .await;
    refused(late, Code::FailedPrecondition, "CONVERSATION_CLOSED");
    let record = w.read_as(&other, "").await.unwrap();
    assert_eq!(texts(&record), ["Me too"], "the others keep their record");
    assert_eq!(
        record.conversation.unwrap().state,
        pb::ConversationState::ReadOnly as i32
    );
    w.pro_says("On my way").await;
    w.customer_says("Thanks").await.unwrap();

    complete(&mut w.market, &w.customer, &id).await.unwrap();
    let pro = w.pro.clone();
    refused(
        send_keyed(&mut w.market, &pro, (&id, ""), "Bye", Uuid::now_v7()).await,
        Code::FailedPrecondition,
        "CONVERSATION_CLOSED",
    );
    refused(
        w.customer_says("Bye").await,
        Code::FailedPrecondition,
        "CONVERSATION_CLOSED",
    );
    assert_eq!(w.customer_reads().await.messages.len(), 3);

    // A cancelled request's conversations stay readable too.
    let cancelled = place(&mut w.market, &w.customer, Uuid::now_v7(), in_calgary())
        .await
        .unwrap();
    say(&mut w.market, &pro, (&cancelled.id, ""), "Hello").await;
    cancel(&mut w.market, &w.customer, &cancelled.id)
        .await
        .unwrap();
    refused(
        send_keyed(
            &mut w.market,
            &pro,
            (&cancelled.id, ""),
            "Hello?",
            Uuid::now_v7(),
        )
        .await,
        Code::FailedPrecondition,
        "CONVERSATION_CLOSED",
    );
    w.request = cancelled;
    assert_eq!(texts(&w.pro_reads().await), ["Hello"]);
    w.stop().await;
}

#[tokio::test]
async fn reports_join_the_admins_queue_reading_them_is_audited_and_closing_them_too() {
    let mut w = world().await;
    w.pro_says("Pay me in cash outside the app").await;
    let (reporting, request_id) = (w.market.clone(), w.request.id.clone());
    let report = |token: &str, reason: pb::ConversationReportReason, details: &str, pro: &str| {
        let request = pb::ReportConversationRequest {
            repair_request_id: request_id.clone(),
            professional_id: pro.to_owned(),
            reason: reason as i32,
            details: details.to_owned(),
        };
        let mut market = reporting.clone();
        let request = with_token(request, token);
        async move {
            market
                .report_conversation(request)
                .await
                .map(|r| r.into_inner().report.unwrap())
        }
    };
    let pro = w.pro_id();
    let unnamed = report(
        &w.customer,
        pb::ConversationReportReason::Unspecified,
        "",
        &pro,
    )
    .await;
    assert_eq!(violated_fields(&unnamed.unwrap_err()), ["reason"]);
    let vague = report(&w.customer, pb::ConversationReportReason::Other, " ", &pro).await;
    assert_eq!(violated_fields(&vague.unwrap_err()), ["details"]);
    let first = report(
        &w.customer,
        pb::ConversationReportReason::Fraud,
        "asks for cash",
        &pro,
    )
    .await
    .unwrap();
    let again = report(&w.customer, pb::ConversationReportReason::Spam, "", &pro)
        .await
        .unwrap();
    assert_eq!(again.id, first.id, "one open report per party");
    let theirs = report(&w.pro, pb::ConversationReportReason::Abuse, "", "")
        .await
        .unwrap();
    assert_eq!(theirs.reported_by, pb::MessageAuthor::Professional as i32);

    let (admin_id, admin) = w.server.account_token(Role::Admin).await;
    let reports_market = w.market.clone();
    let queue = |include_resolved: bool| {
        let mut market = reports_market.clone();
        let request = with_token(
            pb::ListConversationReportsRequest {
                include_resolved,
                page_size: 1,
                page_token: String::new(),
            },
            &admin,
        );
        async move {
            market
                .list_conversation_reports(request)
                .await
                .unwrap()
                .into_inner()
        }
    };
    let page = queue(false).await;
    assert_eq!(page.reports.len(), 1);
    assert_eq!(page.reports[0].id, first.id, "oldest open first");
    assert!(!page.next_page_token.is_empty());
    let conversation = page.reports[0].conversation.as_ref().unwrap();
    assert_eq!(
        conversation.last_message.as_ref().unwrap().text,
        "Pay me in cash outside the app"
    );

    let audited = |db: sqlx::PgPool, action: &'static str| async move {
        sqlx::query_as::<_, (Option<Uuid>, String)>(
            "select admin_id, target_id from audit_events where action = $1",
        )
        .bind(action)
        .fetch_all(&db)
        .await
        .unwrap()
    };
    let pool = db(&w.server).clone();
    assert_eq!(texts(&w.read_as(&admin, &pro).await.unwrap()).len(), 1);
    let reads = audited(pool.clone(), "conversation.read").await;
    assert_eq!(reads, [(Some(admin_id), conversation.id.clone())]);

    let resolve = pb::ResolveConversationReportRequest {
        report_id: first.id.clone(),
        resolution_note: "Warned the professional".into(),
    };
    let closed = w
        .market
        .resolve_conversation_report(with_token(resolve.clone(), &admin))
        .await
        .unwrap()
        .into_inner()
        .report
        .unwrap();
    assert!(closed.resolve_time.is_some());
    assert_eq!(closed.resolution_note, "Warned the professional");
    let twice = w
        .market
        .resolve_conversation_report(with_token(resolve, &admin))
        .await
        .unwrap()
        .into_inner()
        .report
        .unwrap();
    assert_eq!(
        twice.resolve_time, closed.resolve_time,
        "closing a closed report changes nothing"
    );
    assert_eq!(audited(pool, "conversation_report.resolve").await.len(), 1);

    let open: Vec<String> = queue(false)
        .await
        .reports
        .into_iter()
        .map(|r| r.id)
        .collect();
    assert_eq!(open, std::slice::from_ref(&theirs.id));
    let mut all = Vec::new();
    let mut token = String::new();
    loop {
        let page = w
            .market
            .list_conversation_reports(with_token(
                pb::ListConversationReportsRequest {
                    include_resolved: true,
                    page_size: 1,
                    page_token: token,
                },
                &admin,
            ))
            .await
            .unwrap()
            .into_inner();
        all.extend(page.reports.into_iter().map(|r| r.id));
        if page.next_page_token.is_empty() {
            break;
        }
        token = page.next_page_token;
    }
    assert_eq!(
        all,
        [theirs.id, first.id],
        "open ones first, then closed ones"
    );
    w.stop().await;
}

#[tokio::test]
async fn deleting_an_account_removes_the_words_it_wrote_and_keeps_the_other_side_s() {
    let mut w = world().await;
    w.pro_says("My number is 403 555 0100").await;
    w.customer_says("Thanks, see you").await.unwrap();
    let (_, admin) = w.server.account_token(Role::Admin).await;
    let mut accounts = AccountsServiceClient::new(w.server.channel().await);
    accounts
        .delete_professional(with_token(
            apb::DeleteProfessionalRequest { id: w.pro_id() },
            &admin,
        ))
        .await
        .unwrap();
    let read = w.customer_reads().await;
    let (theirs, mine) = (&read.messages[1], &read.messages[0]);
    assert!(theirs.deleted && theirs.text.is_empty() && !theirs.contacts_masked);
    assert_eq!(
        (mine.text.as_str(), mine.deleted),
        ("Thanks, see you", false)
    );
    let customer_token = w.customer.clone();
    let listed = w.conversations_of(&customer_token).await;
    assert_eq!(
        listed.conversations.len(),
        1,
        "the conversation stays for the customer"
    );
    let left: i64 =
        sqlx::query_scalar("select count(*) from conversation_messages where text like '%403%'")
            .fetch_one(db(&w.server))
            .await
            .unwrap();
    assert_eq!(left, 0, "nothing of it stays in the database");

    // A deleted customer's words go the same way; the professional keeps the conversation.
    let (pro_id, pro_token, _) = professional(&w.server, CALGARY_PRO).await;
    let (customer_id, their_token) = customer(&w.server).await;
    let request = place(&mut w.market, &their_token, Uuid::now_v7(), in_calgary())
        .await
        .unwrap();
    say(
        &mut w.market,
        &their_token,
        (&request.id, &pro_id.to_string()),
        "Reach me at ana@example.ca",
    )
    .await;
    say(&mut w.market, &pro_token, (&request.id, ""), "Will do").await;
    accounts
        .delete_customer(with_token(
            apb::DeleteCustomerRequest {
                id: customer_id.to_string(),
            },
            &admin,
        ))
        .await
        .unwrap();
    w.request = request;
    let read = w.read_as(&pro_token, "").await.unwrap();
    assert!(read.messages[1].deleted && read.messages[1].text.is_empty());
    assert_eq!(read.messages[0].text, "Will do");
    w.stop().await;
}

#[tokio::test]
async fn photos_go_with_a_message_and_those_never_sent_are_deleted_after_a_day() {
    let mut w = world().await;
    let pro = w.pro.clone();
    let first = w.upload(&pro, "", photos::jpeg(1200, 900)).await.unwrap();
    let second = w.upload(&pro, "", photos::jpeg(400, 300)).await.unwrap();
    assert_eq!((first.width, first.height), (1200, 900));
    assert_eq!(w.stored(), 4, "two sizes each");
    let sent = w
        .pro_sends_photos("", &[&second.id, &first.id])
        .await
        .unwrap();
    let message = sent.message.unwrap();
    assert_eq!(message.text, "");
    let ids: Vec<&str> = message.photos.iter().map(|p| p.id.as_str()).collect();
    assert_eq!(
        ids,
        [second.id.as_str(), first.id.as_str()],
        "in the order sent"
    );
    let read = w.customer_reads().await;
    let seen = &read.messages[0].photos;
    assert_eq!(seen.len(), 2);
    assert!(
        fetch(&w.server, &seen[1].url).await.is_some(),
        "the reader opens them"
    );
    assert!(fetch(&w.server, &seen[0].thumbnail_url).await.is_some());
    let customer = w.customer.clone();
    let listed = w.conversations_of(&customer).await;
    assert_eq!(
        listed.conversations[0]
            .last_message
            .as_ref()
            .unwrap()
            .photos
            .len(),
        2
    );

    // A photo goes with one message, of its uploader, in its conversation; four at most.
    let again = w.pro_sends_photos("again", &[&first.id]).await.unwrap_err();
    assert_eq!(violated_fields(&again), ["photo_ids"]);
    let pro_id = w.pro_id();
    let theirs = w
        .upload(&customer, &pro_id, photos::jpeg(300, 300))
        .await
        .unwrap();
    let borrowed = w.pro_sends_photos("look", &[&theirs.id]).await.unwrap_err();
    assert_eq!(violated_fields(&borrowed), ["photo_ids"]);
    let five: Vec<String> = (0..5).map(|_| Uuid::now_v7().to_string()).collect();
    let five: Vec<&str> = five.iter().map(String::as_str).collect();
    let too_many = w.pro_sends_photos("many", &five).await.unwrap_err();
    assert_eq!(violated_fields(&too_many), ["photo_ids"]);
    let empty = w.pro_sends_photos(" ", &[]).await.unwrap_err();
    assert_eq!(violated_fields(&empty), ["text"]);
    let not_an_image = w
        .upload(&pro, "", b"%PDF-1.7 not a photo".to_vec())
        .await
        .unwrap_err();
    assert_eq!(reason(&not_an_image), "FILE_TYPE_NOT_ALLOWED");

    // Nobody sent the customer's photo: a day later the housekeeping pass deletes it.
    let state = w.server.server.state.clone();
    let within = message_photos::purge_unsent(&state, Utc::now() + chrono::Duration::hours(23));
    assert_eq!(within.await.unwrap(), 0);
    let after = message_photos::purge_unsent(&state, Utc::now() + chrono::Duration::hours(25));
    assert_eq!(after.await.unwrap(), 1);
    assert_eq!(w.stored(), 4, "the sent photos stay");
    let gone = w
        .send_photos((&customer, &pro_id), "", &[&theirs.id])
        .await
        .unwrap_err();
    assert_eq!(violated_fields(&gone), ["photo_ids"]);

    // A professional who may not see the request uploads nothing into it.
    let far = Pro {
        area: "H2X",
        ..CALGARY_PRO
    };
    let (_, far_token, _) = professional(&w.server, far).await;
    let refused_upload = w.upload(&far_token, "", photos::jpeg(10, 10)).await;
    refused(refused_upload, Code::NotFound, "NOT_FOUND");

    // Deleting the professional's account deletes the photos they sent, rows and files.
    let (_, admin) = w.server.account_token(Role::Admin).await;
    let mut accounts = AccountsServiceClient::new(w.server.channel().await);
    accounts
        .delete_professional(with_token(
            apb::DeleteProfessionalRequest { id: pro_id },
            &admin,
        ))
        .await
        .unwrap();
    assert_eq!(w.stored(), 0);
    let read = w.customer_reads().await;
    assert!(read.messages[0].deleted && read.messages[0].photos.is_empty());
    w.stop().await;
}
