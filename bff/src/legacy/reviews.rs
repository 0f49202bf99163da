//! The review calls of the users and professionals areas (`/api/users/submit-review`,
//! `/get-reviews/{professionalId}`, `/api/professionals/get-review/{requestId}/{professionalId}`).
//! Who may write or read which review is the server's to decide.

use axum::Json;
use axum::extract::Path;
use axum::extract::Query;
use axum::extract::rejection::QueryRejection;
use axum::response::Response;
use repairs_proto::marketplace as pb;
use serde::{Deserialize, Serialize};
use serde_json::json;

use super::body::{LegacyJson, text};
use super::error::{ApiError, Reply};
use super::paging::{self, PAGE_SIZE};
use super::rpc::Rpc;
use super::shapes::time_text;

/// What the old review form sends. `user_id` and `professional_id` are read past: the
/// customer is the token's and the professional the one hired on the request.
#[derive(Debug, Deserialize)]
pub struct SubmitBody {
    #[serde(default, deserialize_with = "text")]
    request_id: String,
    #[serde(default, deserialize_with = "text")]
    review: String,
    #[serde(default, deserialize_with = "text")]
    rating: String,
}

/// A review as the old profile page read it: `rating`, `review` and `users` (the first
/// holding the reviewer's name).
#[derive(Debug, Clone, PartialEq, Serialize)]
struct LegacyReview {
    #[serde(rename = "_id")]
    id: String,
    request_id: String,
    professional_id: String,
    rating: i32,
    review: String,
    users: Vec<serde_json::Value>,
    #[serde(rename = "createdAt")]
    created_at: Option<String>,
}

impl LegacyReview {
    fn new(review: &pb::Review) -> Self {
        Self {
            id: review.id.clone(),
            request_id: review.repair_request_id.clone(),
            professional_id: review.professional_id.clone(),
            rating: review.rating,
            review: review.text.clone(),
            users: vec![json!({ "_id": review.customer_id, "name": review.customer_name })],
            created_at: time_text(review.create_time.as_ref()),
        }
    }
}

/// `POST /api/users/submit-review` -> CreateReview -> `{msg, alerted}`. 409 before the job
/// is completed and paid or when reviewed already, 400 for a rating outside 1 to 5 or a
/// text over 2000 characters, 404 for another customer's request.
pub async fn submit(rpc: Rpc, LegacyJson(body): LegacyJson<SubmitBody>) -> Reply {
    let written = rpc
        .marketplace()
        .create_review(rpc.request(pb::CreateReviewRequest {
            repair_request_id: body.request_id.trim().to_owned(),
            // Not a whole number: 0, which the server refuses with its own message.
            rating: body.rating.trim().parse().unwrap_or(0),
            text: body.review,
        }))
        .await?
        .into_inner()
        .review
        .unwrap_or_default();
    let mut reply = json!(LegacyReview::new(&written));
    reply["msg"] = json!("Review Submitted Successfully");
    reply["alerted"] = json!(true);
    Ok(Json(reply))
}

/// `GET /api/professionals/get-review/{requestId}/{professionalId}` ->
/// GetRepairRequestReview -> `review_submitted` 'Yes' with the review, or 'No' when none
/// was written on the request for that professional.
pub async fn get_one(
    rpc: Rpc,
    Path((request_id, professional_id)): Path<(String, String)>,
) -> Reply {
    let review = rpc
        .marketplace()
        .get_repair_request_review(rpc.request(pb::GetRepairRequestReviewRequest {
            repair_request_id: request_id,
        }))
        .await?
        .into_inner()
        .review
        .filter(|review| review.professional_id == professional_id.trim());
    Ok(Json(match review {
        Some(review) => {
            let mut reply = json!(LegacyReview::new(&review));
            reply["review_submitted"] = json!("Yes");
            reply
        }
        None => json!({ "review_submitted": "No" }),
    }))
}

#[derive(Debug, Default, Deserialize)]
pub struct ListQuery {
    #[serde(default)]
    page_token: String,
}

/// `GET /api/users/get-reviews/{professionalId}` -> ListProfessionalReviews: the
/// professional's reviews, newest first. Anyone.
pub async fn list(
    rpc: Rpc,
    Path(professional_id): Path<String>,
    query: Result<Query<ListQuery>, QueryRejection>,
) -> Result<Response, ApiError> {
    let ListQuery { page_token } = paging::query(query)?;
    let (reviews, next) = paging::collect(page_token, |page_token| {
        let call = rpc.request(pb::ListProfessionalReviewsRequest {
            professional_id: professional_id.clone(),
            page_size: PAGE_SIZE,
            page_token,
        });
        let mut client = rpc.marketplace();
        async move {
            let page = client.list_professional_reviews(call).await?.into_inner();
            Ok((page.reviews, page.next_page_token))
        }
    })
    .await?;
    let records: Vec<LegacyReview> = reviews.iter().map(LegacyReview::new).collect();
    Ok(paging::reply((records, next)))
}
