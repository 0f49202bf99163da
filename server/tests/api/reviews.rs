//! Reviews against the real server and Postgres: only the customer of a completed job whose
//! payment was captured reviews it, once (also under concurrency), with a rating of 1 to 5
//! and a bounded text; who reads a request's review; the public list and the average and
//! count on the public profile, beside each quote and the request's `reviewed`; the
//! professional told of their review once, in their language.

use crate::helpers::{
    TestServer, emails_to,
    market::{
        CALGARY_PRO, Market, Pro, Stage, customer, db, in_calgary, job_at, market, place,
        professional, quote,
    },
    reason, violated_fields, with_token,
};
use repairs_proto::{
    accounts::{GetPublicProfessionalRequest, accounts_service_client::AccountsServiceClient},
    marketplace as pb,
};
use tonic::Code;
use uuid::Uuid;

/// A job: a customer's request, quoted by a plumber, hired and taken to a [`Stage`].
struct Job {
    request_id: String,
    customer_token: String,
    pro_id: Uuid,
    pro_token: String,
}

async fn job_for(
    server: &TestServer,
    customer_token: String,
    (pro_id, pro_token): (Uuid, String),
    stage: Stage,
) -> Job {
    let (request, _) = job_at(server, &customer_token, &pro_token, stage).await;
    Job {
        request_id: request.id,
        customer_token,
        pro_id,
        pro_token,
    }
}

async fn job(server: &TestServer, stage: Stage) -> Job {
    let (_, customer_token) = customer(server).await;
    let (pro_id, pro_token, _) = professional(server, CALGARY_PRO).await;
    job_for(server, customer_token, (pro_id, pro_token), stage).await
}

async fn review(
    market: &mut Market,
    token: &str,
    request_id: &str,
    rating: i32,
    text: &str,
) -> Result<pb::Review, tonic::Status> {
    market
        .create_review(with_token(
            pb::CreateReviewRequest {
                repair_request_id: request_id.into(),
                rating,
                text: text.into(),
            },
            token,
        ))
        .await
        .map(|r| r.into_inner().review.unwrap())
}

async fn review_of(
    market: &mut Market,
    token: &str,
    request_id: &str,
) -> Result<Option<pb::Review>, tonic::Status> {
    market
        .get_repair_request_review(with_token(
            pb::GetRepairRequestReviewRequest {
                repair_request_id: request_id.into(),
            },
            token,
        ))
        .await
        .map(|r| r.into_inner().review)
}

#[tokio::test]
async fn only_the_customer_of_a_completed_paid_job_reviews_it_once() {
    let server = TestServer::start().await;
    let mut market = market(&server).await;

    // Not completed yet, or completed but not captured: refused with the reason.
    let hired = job(&server, Stage::Hired).await;
    let early = review(&mut market, &hired.customer_token, &hired.request_id, 5, "")
        .await
        .unwrap_err();
    assert_eq!(
        (early.code(), reason(&early).as_str()),
        (Code::FailedPrecondition, "REPAIR_REQUEST_NOT_COMPLETED")
    );
    let unpaid = job(&server, Stage::CompletedUncaptured).await;
    let refused = review(
        &mut market,
        &unpaid.customer_token,
        &unpaid.request_id,
        5,
        "",
    )
    .await
    .unwrap_err();
    assert_eq!(
        (refused.code(), reason(&refused).as_str()),
        (Code::FailedPrecondition, "PAYMENT_NOT_CAPTURED")
    );
    let refunded = job(&server, Stage::Refunded).await;
    let refused = review(
        &mut market,
        &refunded.customer_token,
        &refunded.request_id,
        5,
        "",
    )
    .await
    .unwrap_err();
    assert_eq!(reason(&refused), "PAYMENT_NOT_CAPTURED");

    let done = job(&server, Stage::Completed).await;
    // Bad input, before anything else.
    for rating in [0, 6, -1] {
        let wrong = review(
            &mut market,
            &done.customer_token,
            &done.request_id,
            rating,
            "",
        )
        .await
        .unwrap_err();
        assert_eq!(wrong.code(), Code::InvalidArgument);
        assert_eq!(violated_fields(&wrong), ["rating"]);
    }
    let long = review(
        &mut market,
        &done.customer_token,
        &done.request_id,
        4,
        &"a".repeat(2001),
    )
    .await
    .unwrap_err();
    assert_eq!(long.code(), Code::InvalidArgument);
    // Another customer, the professional: the request is not theirs.
    let (_, stranger) = customer(&server).await;
    let theirs = review(&mut market, &stranger, &done.request_id, 5, "")
        .await
        .unwrap_err();
    assert_eq!(theirs.code(), Code::NotFound);
    let pro = review(&mut market, &done.pro_token, &done.request_id, 5, "")
        .await
        .unwrap_err();
    assert_eq!(pro.code(), Code::PermissionDenied);

    let written = review(
        &mut market,
        &done.customer_token,
        &done.request_id,
        4,
        "  Came at night, fixed the leak.  ",
    )
    .await
    .unwrap();
    assert_eq!(written.rating, 4);
    assert_eq!(written.text, "Came at night, fixed the leak.");
    assert_eq!(written.professional_id, done.pro_id.to_string());
    let again = review(&mut market, &done.customer_token, &done.request_id, 1, "")
        .await
        .unwrap_err();
    assert_eq!(
        (again.code(), reason(&again).as_str()),
        (Code::AlreadyExists, "REVIEW_EXISTS")
    );

    // Read back by the customer and the hired professional; nobody else.
    for token in [&done.customer_token, &done.pro_token] {
        let read = review_of(&mut market, token, &done.request_id)
            .await
            .unwrap();
        assert_eq!(read.unwrap().id, written.id);
    }
    let (_, other_pro, _) = professional(&server, CALGARY_PRO).await;
    for token in [&stranger, &other_pro] {
        let hidden = review_of(&mut market, token, &done.request_id)
            .await
            .unwrap_err();
        assert_eq!(hidden.code(), Code::NotFound);
    }
    assert_eq!(
        review_of(&mut market, &hired.customer_token, &hired.request_id)
            .await
            .unwrap(),
        None
    );
    let request = market
        .get_repair_request(with_token(
            pb::GetRepairRequestRequest {
                id: done.request_id.clone(),
            },
            &done.customer_token,
        ))
        .await
        .unwrap()
        .into_inner()
        .repair_request
        .unwrap();
    assert!(request.reviewed);
    server.stop().await;
}

#[tokio::test]
async fn a_double_review_is_refused_under_concurrency() {
    let server = TestServer::start().await;
    let market = market(&server).await;
    let done = job(&server, Stage::Completed).await;
    let tries = (0..8).map(|i| {
        let mut market = market.clone();
        let token = done.customer_token.clone();
        let id = done.request_id.clone();
        tokio::spawn(async move { review(&mut market, &token, &id, 1 + i % 5, "race").await })
    });
    let results: Vec<_> = futures::future::join_all(tries)
        .await
        .into_iter()
        .map(Result::unwrap)
        .collect();
    assert_eq!(results.iter().filter(|r| r.is_ok()).count(), 1);
    for refused in results.iter().filter_map(|r| r.as_ref().err()) {
        assert_eq!(refused.code(), Code::AlreadyExists, "{refused:?}");
    }
    let stored: i64 = sqlx::query_scalar("select count(*) from reviews")
        .fetch_one(db(&server))
        .await
        .unwrap();
    assert_eq!(stored, 1);
    let told: i64 = sqlx::query_scalar(
        "select count(*) from outbox_messages where starts_with(subject, 'New review:')",
    )
    .fetch_one(db(&server))
    .await
    .unwrap();
    assert_eq!(told, 1, "the professional is told of the one review");
    server.stop().await;
}

#[tokio::test]
async fn the_reviewed_professional_is_told_once_in_their_language() {
    let server = TestServer::start().await;
    let mut market = market(&server).await;
    let words = "Quick, tidy and kind.";
    for (code, subject, parts) in [
        (
            "en",
            "New review: Plumbing Services",
            [
                "Test account reviewed your work on their request (Plumbing Services).",
                "Rating: 4 out of 5\n",
                "\u{201c}Quick, tidy and kind.\u{201d}",
                "/view-professional-profile",
            ],
        ),
        (
            "fr",
            "Nouvelle évaluation\u{a0}: Services de plomberie",
            [
                "Test account a évalué votre travail pour sa demande (Services de plomberie).",
                "Note\u{a0}: 4 sur 5\n",
                "«\u{a0}Quick, tidy and kind.\u{a0}»",
                "/view-professional-profile",
            ],
        ),
    ] {
        let (_, customer_token) = customer(&server).await;
        let pro = Pro {
            language: code,
            ..CALGARY_PRO
        };
        let (pro_id, pro_token, pro_email) = professional(&server, pro).await;
        let done = job_for(
            &server,
            customer_token,
            (pro_id, pro_token),
            Stage::Completed,
        )
        .await;
        // Sent twice: the second is refused, and nobody is told twice.
        let mut answers = Vec::new();
        for _ in 0..2 {
            let (token, id) = (&done.customer_token, &done.request_id);
            answers.push(review(&mut market, token, id, 4, words).await);
        }
        assert!(answers[0].is_ok(), "{answers:?}");
        assert_eq!(answers[1].as_ref().unwrap_err().code(), Code::AlreadyExists);
        let sent = emails_to(db(&server), &pro_email, subject).await;
        assert_eq!(sent.len(), 1, "{sent:#?}");
        for part in parts {
            assert!(
                sent[0].1.contains(part),
                "{part:?} is not in:\n{}",
                sent[0].1
            );
        }
    }
    server.stop().await;
}

#[tokio::test]
async fn the_average_and_count_show_on_the_profile_the_public_list_and_beside_each_quote() {
    let server = TestServer::start().await;
    let mut market = market(&server).await;
    let (pro_id, pro_token, _) = professional(&server, CALGARY_PRO).await;
    for rating in [5, 4, 4] {
        let (_, customer_token) = customer(&server).await;
        let done = job_for(
            &server,
            customer_token,
            (pro_id, pro_token.clone()),
            Stage::Completed,
        )
        .await;
        review(
            &mut market,
            &done.customer_token,
            &done.request_id,
            rating,
            "Good",
        )
        .await
        .unwrap();
    }

    // The public list, anonymously, in pages, with the summary over all.
    let page = |page_token: String| {
        let mut market = market.clone();
        async move {
            market
                .list_professional_reviews(pb::ListProfessionalReviewsRequest {
                    professional_id: pro_id.to_string(),
                    page_size: 2,
                    page_token,
                })
                .await
                .unwrap()
                .into_inner()
        }
    };
    let first = page(String::new()).await;
    assert_eq!(first.reviews.len(), 2);
    let summary = first.summary.unwrap();
    assert_eq!(summary.review_count, 3);
    assert!((summary.average_rating - 13.0 / 3.0).abs() < 1e-9);
    let second = page(first.next_page_token.clone()).await;
    assert_eq!(second.reviews.len(), 1);
    assert!(second.next_page_token.is_empty());
    assert_eq!(
        second.reviews[0].rating, 5,
        "newest first: the first written is last"
    );

    let mut accounts = AccountsServiceClient::new(server.channel().await);
    let public = accounts
        .get_public_professional(GetPublicProfessionalRequest {
            id: pro_id.to_string(),
        })
        .await
        .unwrap()
        .into_inner()
        .professional
        .unwrap();
    assert_eq!((public.review_count, public.average_rating_centi), (3, 433));

    // Beside their quote on a new request.
    let (_, customer_token) = customer(&server).await;
    let request = place(&mut market, &customer_token, Uuid::now_v7(), in_calgary())
        .await
        .unwrap();
    quote(&mut market, &pro_token, &request.id).await;
    let quotes = market
        .list_repair_request_quotes(with_token(
            pb::ListRepairRequestQuotesRequest {
                repair_request_id: request.id,
                page_size: 0,
                page_token: String::new(),
            },
            &customer_token,
        ))
        .await
        .unwrap()
        .into_inner()
        .quotes;
    let beside = quotes[0].professional_reviews.unwrap();
    assert_eq!(beside.review_count, 3);
    assert!((beside.average_rating - 13.0 / 3.0).abs() < 1e-9);
    server.stop().await;
}
