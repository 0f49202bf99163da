//! A problem after the job, against the real server, Postgres and Redis: a customer reports
//! one within 14 days of completion (not after, not on someone else's job, not before the
//! job is done), with photos; the job's conversation opens again for the customer, the
//! professional and admins (whose messages read as from Support), who are told; two
//! concurrent reports make one; the admins' queue and the job's history; only admins resolve,
//! once, a refund outcome only after a refund since the report; resolving closes the
//! conversation again, is audited and tells both parties; every RPC's access checks.

use futures::future::join_all;
use repairs_proto::marketplace as pb;
use repairs_server::{domain::Role, problems, testing::photos};
use tonic::{Code, Status};
use uuid::Uuid;

use crate::helpers::{
    TestServer, emails_to,
    market::{CALGARY_PRO, Market, Stage, customer, db, job_at, market, professional, refund},
    reason, with_token,
};

/// A server, a customer and a Calgary plumber whose job for them is completed; an admin.
struct Job {
    server: TestServer,
    market: Market,
    customer_id: Uuid,
    customer: String,
    pro_id: Uuid,
    pro: String,
    pro_email: String,
    admin_id: Uuid,
    admin: String,
    request: pb::RepairRequest,
    order_id: String,
}

async fn job(stage: Stage) -> Job {
    let server = TestServer::start().await;
    let market = market(&server).await;
    let (customer_id, customer) = customer(&server).await;
    let (pro_id, pro, pro_email) = professional(&server, CALGARY_PRO).await;
    let (admin_id, admin) = server.account_token(Role::Admin).await;
    let (request, order) = job_at(&server, &customer, &pro, stage).await;
    Job {
        server,
        market,
        customer_id,
        customer,
        pro_id,
        pro,
        pro_email,
        admin_id,
        admin,
        request,
        order_id: order.id,
    }
}

fn email_of(id: Uuid) -> String {
    format!("{}@example.ca", id.simple())
}

fn report_of(request_id: &str, text: &str, key: Uuid) -> pb::ReportJobProblemRequest {
    pb::ReportJobProblemRequest {
        repair_request_id: request_id.to_owned(),
        text: text.to_owned(),
        photo_ids: Vec::new(),
        request_id: key.to_string(),
    }
}

async fn report(
    market: &mut Market,
    token: &str,
    message: pb::ReportJobProblemRequest,
) -> Result<pb::JobProblem, Status> {
    market
        .report_job_problem(with_token(message, token))
        .await
        .map(|r| r.into_inner().problem.unwrap())
}

async fn send(
    market: &mut Market,
    token: &str,
    (request_id, pro): (&str, &str),
    text: &str,
) -> Result<pb::ConversationMessage, Status> {
    let message = pb::SendMessageRequest {
        repair_request_id: request_id.to_owned(),
        professional_id: pro.to_owned(),
        text: text.to_owned(),
        request_id: Uuid::now_v7().to_string(),
        photo_ids: Vec::new(),
    };
    market
        .send_message(with_token(message, token))
        .await
        .map(|r| r.into_inner().message.unwrap())
}

async fn resolve(
    market: &mut Market,
    token: &str,
    id: &str,
    outcome: pb::JobProblemOutcome,
) -> Result<pb::JobProblem, Status> {
    let message = pb::ResolveJobProblemRequest {
        id: id.to_owned(),
        outcome: outcome as i32,
        note: "Ana comes back Monday to tighten the fitting, at no charge.".into(),
    };
    market
        .resolve_job_problem(with_token(message, token))
        .await
        .map(|r| r.into_inner().problem.unwrap())
}

async fn get_problem(
    market: &mut Market,
    token: &str,
    id: &str,
) -> Result<pb::GetJobProblemResponse, Status> {
    let message = pb::GetJobProblemRequest { id: id.to_owned() };
    market
        .get_job_problem(with_token(message, token))
        .await
        .map(tonic::Response::into_inner)
}

async fn list(
    market: &mut Market,
    token: &str,
    state: pb::JobProblemState,
    (page_size, page_token): (i32, &str),
) -> Result<pb::ListJobProblemsResponse, Status> {
    let message = pb::ListJobProblemsRequest {
        state: state as i32,
        page_size,
        page_token: page_token.to_owned(),
    };
    market
        .list_job_problems(with_token(message, token))
        .await
        .map(tonic::Response::into_inner)
}

async fn read_request(market: &mut Market, token: &str, id: &str) -> pb::RepairRequest {
    let message = pb::GetRepairRequestRequest { id: id.to_owned() };
    market
        .get_repair_request(with_token(message, token))
        .await
        .unwrap()
        .into_inner()
        .repair_request
        .unwrap()
}

fn refused<T: std::fmt::Debug>(result: Result<T, Status>) -> (Code, String) {
    let status = result.expect_err("the call must be refused");
    (status.code(), reason(&status))
}

impl Job {
    fn at(&self) -> (String, String) {
        (self.request.id.clone(), self.pro_id.to_string())
    }

    async fn reported(&mut self, text: &str) -> pb::JobProblem {
        let message = report_of(&self.request.id, text, Uuid::now_v7());
        report(&mut self.market, &self.customer, message)
            .await
            .unwrap()
    }

    /// Moves the job's completion `days` back.
    async fn completed_days_ago(&self, days: i32) {
        sqlx::query(
            "update orders set completed_at = now() - make_interval(days => $2)
             where repair_request_id = $1",
        )
        .bind(Uuid::parse_str(&self.request.id).unwrap())
        .bind(days)
        .execute(db(&self.server))
        .await
        .unwrap();
    }
}

#[tokio::test]
async fn a_report_opens_the_conversation_to_the_professional_and_the_admins() {
    let mut job = job(Stage::Completed).await;
    let (request_id, pro_id) = job.at();
    let at = (request_id.as_str(), pro_id.as_str());
    // Read-only after the job, as before.
    let before = send(&mut job.market, &job.pro, (at.0, ""), "Anything else?").await;
    assert_eq!(
        refused(before),
        (Code::FailedPrecondition, "CONVERSATION_CLOSED".into())
    );
    let read = read_request(&mut job.market, &job.customer, &request_id).await;
    assert!(read.open_problem.is_none());
    let deadline = read
        .problem_report_deadline
        .expect("a completed job's deadline");
    let done = read.complete_time.unwrap();
    assert_eq!(deadline.seconds - done.seconds, 14 * 24 * 3600);

    let problem = job.reported("  The leak is back under the sink  ").await;
    assert_eq!(problem.state, pb::JobProblemState::Open as i32);
    assert_eq!(problem.text, "The leak is back under the sink");
    assert_eq!(problem.professional_id, pro_id);
    assert_eq!(problem.customer_id, job.customer_id.to_string());

    // The request says so to its customer and to the hired professional.
    for token in [&job.customer, &job.pro] {
        let read = read_request(&mut job.market, token, &request_id).await;
        assert_eq!(read.open_problem.unwrap().id, problem.id);
    }
    // The professional and the admins are told.
    let told = emails_to(
        db(&job.server),
        &job.pro_email,
        "A question about a finished job",
    )
    .await;
    assert_eq!(told.len(), 1);
    assert!(told[0].1.contains("The leak is back under the sink"));
    let admins = emails_to(
        db(&job.server),
        &email_of(job.admin_id),
        "Problem reported after a job",
    )
    .await;
    assert_eq!(admins.len(), 1);
    assert!(
        admins[0]
            .1
            .contains(&format!("/admin/problems/{}", problem.id))
    );

    // All three write.
    send(&mut job.market, &job.customer, at, "It drips again")
        .await
        .unwrap();
    send(&mut job.market, &job.pro, (at.0, ""), "I can come Monday")
        .await
        .unwrap();
    let from_admin = send(&mut job.market, &job.admin, at, "We are following this")
        .await
        .unwrap();
    assert_eq!(from_admin.author, pb::MessageAuthor::Admin as i32);
    let listed = job
        .market
        .list_messages(with_token(
            pb::ListMessagesRequest {
                repair_request_id: request_id.clone(),
                professional_id: String::new(),
                page_size: 10,
                page_token: String::new(),
            },
            &job.pro,
        ))
        .await
        .unwrap()
        .into_inner();
    let conversation = listed.conversation.unwrap();
    assert_eq!(conversation.state, pb::ConversationState::Open as i32);
    // The admin's message counts unread for the professional, as the customer's does.
    assert_eq!(conversation.unread_count, 2);
    let authors: Vec<i32> = listed.messages.iter().map(|m| m.author).collect();
    assert_eq!(
        authors,
        [
            pb::MessageAuthor::Admin as i32,
            pb::MessageAuthor::Professional as i32,
            pb::MessageAuthor::Customer as i32
        ]
    );
}

#[tokio::test]
async fn an_admin_writes_only_in_the_job_s_conversation_while_its_problem_is_open() {
    let mut job = job(Stage::Completed).await;
    let (request_id, pro_id) = job.at();
    let at = (request_id.as_str(), pro_id.as_str());
    let early = send(&mut job.market, &job.admin, at, "Hello").await;
    assert_eq!(
        refused(early),
        (Code::PermissionDenied, "ROLE_NOT_ALLOWED".into())
    );
    job.reported("The tap still leaks").await;
    // Another professional's conversation on the request stays closed to them.
    let (other, _, _) = professional(&job.server, CALGARY_PRO).await;
    let elsewhere = send(
        &mut job.market,
        &job.admin,
        (at.0, &other.to_string()),
        "Hi",
    )
    .await;
    assert!(elsewhere.is_err());
    send(&mut job.market, &job.admin, at, "We are on it")
        .await
        .unwrap();
}

#[tokio::test]
async fn a_report_comes_within_fourteen_days_of_completion_not_after() {
    let mut job = job(Stage::Completed).await;
    job.completed_days_ago(13).await;
    let in_time = report_of(&job.request.id, "The leak is back", Uuid::now_v7());
    report(&mut job.market, &job.customer, in_time)
        .await
        .unwrap();

    let mut late = self::job(Stage::Completed).await;
    late.completed_days_ago(15).await;
    let message = report_of(&late.request.id, "The leak is back", Uuid::now_v7());
    let refusal = report(&mut late.market, &late.customer, message).await;
    assert_eq!(
        refused(refusal),
        (Code::FailedPrecondition, "PROBLEM_REPORT_CLOSED".into())
    );
    let photo = pb::AddJobProblemPhotoRequest {
        repair_request_id: late.request.id.clone(),
        content: photos::jpeg(64, 48),
    };
    let upload = late
        .market
        .add_job_problem_photo(with_token(photo, &late.customer))
        .await;
    assert_eq!(
        refused(upload),
        (Code::FailedPrecondition, "PROBLEM_REPORT_CLOSED".into())
    );
    // The request no longer offers it: its deadline is past.
    let read = read_request(&mut late.market, &late.customer, &late.request.id).await;
    let deadline = read.problem_report_deadline.unwrap();
    assert!(deadline.seconds < chrono::Utc::now().timestamp());
}

#[tokio::test]
async fn only_the_customer_reports_on_their_own_completed_job() {
    let mut job = job(Stage::Completed).await;
    let (_, stranger) = customer(&job.server).await;
    let message = || report_of(&job.request.id, "The leak is back", Uuid::now_v7());
    let theirs = report(&mut job.market, &stranger, message()).await;
    assert_eq!(refused(theirs), (Code::NotFound, "NOT_FOUND".into()));
    for token in [&job.pro, &job.admin] {
        let refusal = report(&mut job.market, token, message()).await;
        assert_eq!(refused(refusal).0, Code::PermissionDenied);
    }
    let blank = report_of(&job.request.id, "   ", Uuid::now_v7());
    let refusal = report(&mut job.market, &job.customer, blank).await;
    assert_eq!(refused(refusal).0, Code::InvalidArgument);

    let mut hired = self::job(Stage::Hired).await;
    let message = report_of(&hired.request.id, "Nobody came", Uuid::now_v7());
    let refusal = report(&mut hired.market, &hired.customer, message).await;
    assert_eq!(
        refused(refusal),
        (
            Code::FailedPrecondition,
            "REPAIR_REQUEST_NOT_COMPLETED".into()
        )
    );
}

#[tokio::test]
async fn two_reports_at_once_make_one_and_a_retry_answers_the_first() {
    let job = job(Stage::Completed).await;
    let calls = (0..6).map(|i| {
        let mut market = job.market.clone();
        let message = report_of(&job.request.id, &format!("Report {i}"), Uuid::now_v7());
        let token = job.customer.clone();
        async move { report(&mut market, &token, message).await }
    });
    let results = join_all(calls).await;
    let made: Vec<_> = results.iter().filter_map(|r| r.as_ref().ok()).collect();
    assert_eq!(made.len(), 1, "{results:?}");
    for result in results.iter().filter(|r| r.is_err()) {
        let status = result.as_ref().unwrap_err();
        assert_eq!(
            (status.code(), reason(status)),
            (Code::AlreadyExists, "PROBLEM_ALREADY_OPEN".into())
        );
    }
    let rows: i64 = sqlx::query_scalar("select count(*) from job_problems")
        .fetch_one(db(&job.server))
        .await
        .unwrap();
    assert_eq!(rows, 1);

    // The same key, sent again at once, answers the problem it made.
    let key = Uuid::now_v7();
    let mut again = self::job(Stage::Completed).await;
    let retries = (0..4).map(|_| {
        let mut market = again.market.clone();
        let message = report_of(&again.request.id, "The leak is back", key);
        let token = again.customer.clone();
        async move { report(&mut market, &token, message).await }
    });
    let answered: Vec<_> = join_all(retries)
        .await
        .into_iter()
        .map(|r| r.unwrap().id)
        .collect();
    assert!(answered.iter().all(|id| *id == answered[0]), "{answered:?}");
    let other_request = report_of(&job.request.id, "The leak is back", key);
    let reused = report(&mut again.market, &again.customer, other_request).await;
    assert!(reused.is_err());
}

#[tokio::test]
async fn photos_go_with_the_report_they_were_uploaded_for() {
    let mut job = job(Stage::Completed).await;
    let upload = |content: Vec<u8>| pb::AddJobProblemPhotoRequest {
        repair_request_id: job.request.id.clone(),
        content,
    };
    let photo = job
        .market
        .clone()
        .add_job_problem_photo(with_token(upload(photos::jpeg(640, 480)), &job.customer))
        .await
        .unwrap()
        .into_inner()
        .photo
        .unwrap();
    let (_, stranger) = customer(&job.server).await;
    let theirs = job
        .market
        .add_job_problem_photo(with_token(upload(photos::jpeg(64, 48)), &stranger))
        .await;
    assert_eq!(refused(theirs).0, Code::NotFound);
    let by_pro = job
        .market
        .add_job_problem_photo(with_token(upload(photos::jpeg(64, 48)), &job.pro))
        .await;
    assert_eq!(refused(by_pro).0, Code::PermissionDenied);

    let mut unknown = report_of(&job.request.id, "The leak is back", Uuid::now_v7());
    unknown.photo_ids = vec![Uuid::now_v7().to_string()];
    let refusal = report(&mut job.market, &job.customer, unknown).await;
    assert_eq!(refused(refusal).0, Code::InvalidArgument);

    let mut message = report_of(&job.request.id, "The leak is back", Uuid::now_v7());
    message.photo_ids = vec![photo.id.clone()];
    let problem = report(&mut job.market, &job.customer, message)
        .await
        .unwrap();
    assert_eq!(problem.photos.len(), 1);
    assert_eq!(problem.photos[0].id, photo.id);
    let read = get_problem(&mut job.market, &job.pro, &problem.id)
        .await
        .unwrap();
    assert_eq!(read.problem.unwrap().photos.len(), 1);

    // A photo no report took goes a day after its upload; an attached one stays.
    let state = job.server.server.state.clone();
    let later = problems::purge_unattached(&state, chrono::Utc::now()).await;
    assert_eq!(later.unwrap(), 0, "not yet a day old");
    let waiting = job
        .market
        .add_job_problem_photo(with_token(upload(photos::jpeg(64, 48)), &job.customer))
        .await;
    assert!(waiting.is_ok(), "{waiting:?}");
    let a_day_on = chrono::Utc::now() + chrono::Duration::days(1) + chrono::Duration::minutes(1);
    let purged = problems::purge_unattached(&state, a_day_on).await.unwrap();
    assert_eq!(purged, 1);
    let kept: i64 = sqlx::query_scalar("select count(*) from job_problem_photos")
        .fetch_one(db(&job.server))
        .await
        .unwrap();
    assert_eq!(kept, 1, "the report's photo stays");
}

#[tokio::test]
async fn only_an_admin_resolves_once_and_the_conversation_closes_again() {
    let mut job = job(Stage::Completed).await;
    let (request_id, pro_id) = job.at();
    let at = (request_id.as_str(), pro_id.as_str());
    let problem = job.reported("The leak is back").await;
    for token in [&job.customer, &job.pro] {
        let refusal = resolve(
            &mut job.market,
            token,
            &problem.id,
            pb::JobProblemOutcome::Note,
        )
        .await;
        assert_eq!(refused(refusal).0, Code::PermissionDenied);
    }
    let unspecified = resolve(
        &mut job.market,
        &job.admin,
        &problem.id,
        pb::JobProblemOutcome::Unspecified,
    )
    .await;
    assert_eq!(refused(unspecified).0, Code::InvalidArgument);

    // Two admins at once: one resolves it, the other is told it was.
    let (_, second_admin) = job.server.account_token(Role::Admin).await;
    let calls = [job.admin.clone(), second_admin].map(|token| {
        let mut market = job.market.clone();
        let id = problem.id.clone();
        async move { resolve(&mut market, &token, &id, pb::JobProblemOutcome::Note).await }
    });
    let results = join_all(calls).await;
    let resolved: Vec<_> = results.iter().filter_map(|r| r.as_ref().ok()).collect();
    assert_eq!(resolved.len(), 1, "{results:?}");
    assert_eq!(resolved[0].state, pb::JobProblemState::Resolved as i32);
    assert_eq!(resolved[0].outcome, pb::JobProblemOutcome::Note as i32);
    let twice = resolve(
        &mut job.market,
        &job.admin,
        &problem.id,
        pb::JobProblemOutcome::Nothing,
    )
    .await;
    assert_eq!(
        refused(twice),
        (Code::FailedPrecondition, "PROBLEM_RESOLVED".into())
    );

    // Closed again for everyone.
    let pro_says = send(&mut job.market, &job.pro, (at.0, ""), "Done").await;
    assert_eq!(refused(pro_says).1, "CONVERSATION_CLOSED");
    let admin_says = send(&mut job.market, &job.admin, at, "Closing").await;
    assert_eq!(refused(admin_says).0, Code::PermissionDenied);
    let read = read_request(&mut job.market, &job.customer, &request_id).await;
    assert!(read.open_problem.is_none());
    // Both parties are told; the audit log keeps it.
    for to in [email_of(job.customer_id), job.pro_email.clone()] {
        let told = emails_to(db(&job.server), &to, "Problem closed").await;
        assert_eq!(told.len(), 1, "{to}");
        assert!(told[0].1.contains("Ana comes back Monday"));
    }
    let audited: i64 = sqlx::query_scalar(
        "select count(*) from audit_events
         where action = 'job_problem.resolve' and target_id = $1
           and after_json->>'outcome' = 'note'",
    )
    .bind(&problem.id)
    .fetch_one(db(&job.server))
    .await
    .unwrap();
    assert_eq!(audited, 1);
    // A new problem may be reported once the first is closed.
    job.reported("It leaks again").await;
}

#[tokio::test]
async fn a_refund_outcome_needs_the_payment_refunded_after_the_report() {
    // Refunded before the problem was reported: not this problem's refund.
    let mut before = job(Stage::Refunded).await;
    let problem = before.reported("The leak is back").await;
    let early = resolve(
        &mut before.market,
        &before.admin,
        &problem.id,
        pb::JobProblemOutcome::Refund,
    )
    .await;
    assert_eq!(
        refused(early),
        (Code::FailedPrecondition, "PROBLEM_NOT_REFUNDED".into())
    );

    let mut job = job(Stage::Completed).await;
    let problem = job.reported("The leak is back").await;
    let unrefunded = resolve(
        &mut job.market,
        &job.admin,
        &problem.id,
        pb::JobProblemOutcome::Refund,
    )
    .await;
    assert_eq!(refused(unrefunded).1, "PROBLEM_NOT_REFUNDED");
    refund(&job.server, &job.admin, &job.order_id)
        .await
        .unwrap();
    let resolved = resolve(
        &mut job.market,
        &job.admin,
        &problem.id,
        pb::JobProblemOutcome::Refund,
    )
    .await
    .unwrap();
    assert_eq!(resolved.outcome, pb::JobProblemOutcome::Refund as i32);
    let history = get_problem(&mut job.market, &job.customer, &problem.id)
        .await
        .unwrap()
        .history;
    let kinds: Vec<i32> = history.iter().map(|event| event.kind).collect();
    use pb::JobEventKind as K;
    for kind in [
        K::Posted,
        K::Quoted,
        K::Hired,
        K::Completed,
        K::PaymentCaptured,
        K::ProblemReported,
        K::Refunded,
        K::ProblemResolved,
    ] {
        assert!(kinds.contains(&(kind as i32)), "{kind:?} in {kinds:?}");
    }
    let times: Vec<i64> = history
        .iter()
        .map(|event| event.time.unwrap().seconds)
        .collect();
    assert!(times.is_sorted(), "{times:?}");
}

#[tokio::test]
async fn the_queue_is_the_admins_and_each_party_reads_only_their_own() {
    let mut job = job(Stage::Completed).await;
    let first = job.reported("The leak is back").await;
    // A second job of another customer with the same professional.
    let (_, other_customer) = customer(&job.server).await;
    let (other_request, _) = job_at(&job.server, &other_customer, &job.pro, Stage::Completed).await;
    let message = report_of(&other_request.id, "The door sticks", Uuid::now_v7());
    let second = report(&mut job.market, &other_customer, message)
        .await
        .unwrap();
    resolve(
        &mut job.market,
        &job.admin,
        &second.id,
        pb::JobProblemOutcome::Nothing,
    )
    .await
    .unwrap();

    // The admin pages through every one: open first.
    let page = list(
        &mut job.market,
        &job.admin,
        pb::JobProblemState::Unspecified,
        (1, ""),
    )
    .await
    .unwrap();
    assert_eq!(page.problems[0].id, first.id);
    assert!(!page.next_page_token.is_empty());
    let next = list(
        &mut job.market,
        &job.admin,
        pb::JobProblemState::Unspecified,
        (1, &page.next_page_token),
    )
    .await
    .unwrap();
    assert_eq!(next.problems[0].id, second.id);
    assert!(next.next_page_token.is_empty(), "the last page");
    let open = list(
        &mut job.market,
        &job.admin,
        pb::JobProblemState::Open,
        (0, ""),
    )
    .await
    .unwrap();
    let ids: Vec<_> = open.problems.iter().map(|p| p.id.clone()).collect();
    assert_eq!(ids, std::slice::from_ref(&first.id));
    let resolved = list(
        &mut job.market,
        &job.admin,
        pb::JobProblemState::Resolved,
        (0, ""),
    )
    .await
    .unwrap();
    let ids: Vec<_> = resolved.problems.iter().map(|p| p.id.clone()).collect();
    assert_eq!(ids, std::slice::from_ref(&second.id));

    // Each customer lists their own; the professional both of theirs.
    let all = pb::JobProblemState::Unspecified;
    let mine = list(&mut job.market, &job.customer, all, (0, ""))
        .await
        .unwrap();
    let ids: Vec<_> = mine.problems.iter().map(|p| p.id.clone()).collect();
    assert_eq!(ids, std::slice::from_ref(&first.id));
    let theirs = list(&mut job.market, &job.pro, all, (0, "")).await.unwrap();
    assert_eq!(theirs.problems.len(), 2);
    let (_, stranger_pro, _) = professional(&job.server, CALGARY_PRO).await;
    let none = list(&mut job.market, &stranger_pro, all, (0, ""))
        .await
        .unwrap();
    assert!(none.problems.is_empty());
    let bad_token = list(&mut job.market, &job.admin, all, (0, "bm9wZQ")).await;
    assert_eq!(refused(bad_token).0, Code::InvalidArgument);

    // Reading one: its parties and admins; NOT_FOUND for anyone else.
    for token in [&job.customer, &job.pro, &job.admin] {
        let read = get_problem(&mut job.market, token, &first.id)
            .await
            .unwrap();
        assert_eq!(read.problem.unwrap().id, first.id);
        assert!(!read.history.is_empty());
    }
    for token in [&other_customer, &stranger_pro] {
        let refusal = get_problem(&mut job.market, token, &first.id).await;
        assert_eq!(refused(refusal).0, Code::NotFound);
    }
    let missing = get_problem(&mut job.market, &job.admin, &Uuid::now_v7().to_string()).await;
    assert_eq!(refused(missing).0, Code::NotFound);
    let unsigned = job
        .market
        .list_job_problems(pb::ListJobProblemsRequest::default())
        .await;
    assert_eq!(refused(unsigned).0, Code::Unauthenticated);
}
