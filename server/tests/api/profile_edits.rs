//! Edits by what they change: a professional's own business (days and hours here) takes
//! effect at once and never costs live work: an approved professional with a live quote stays
//! approved and the quote stays hireable. What an admin vetted (the registered address) still
//! goes back to review.

use repairs_proto::accounts as acc;
use uuid::Uuid;

use crate::helpers::{
    AccountsClient, TestServer, admin_token,
    market::{
        CALGARY_PRO, PLUMBING, VISA, billing, customer, in_calgary, market, place, professional,
        quote,
    },
    valid_profile, with_token,
};

fn save(
    id: Uuid,
    token: &str,
    profile: acc::ProfessionalProfile,
) -> tonic::Request<acc::UpdateProfessionalProfileRequest> {
    with_token(
        acc::UpdateProfessionalProfileRequest {
            id: id.to_string(),
            name: "Paul Pro".into(),
            email: format!("{id}@example.ca"),
            profile: Some(profile),
            ..Default::default()
        },
        token,
    )
}

#[tokio::test]
async fn an_approved_professional_changes_their_hours_and_their_live_quote_stays_hireable() {
    let server = TestServer::start().await;
    let mut market = market(&server).await;
    let mut accounts = AccountsClient::new(server.channel().await);
    let admin = admin_token(&server, &mut accounts).await;
    let (_, customer_token) = customer(&server).await;
    let (pro, pro_token, _) = professional(&server, CALGARY_PRO).await;
    // Their first profile is vetted and approved, as a new professional's is.
    let first = accounts
        .update_professional_profile(save(pro, &pro_token, valid_profile(PLUMBING)))
        .await
        .unwrap()
        .into_inner()
        .professional
        .unwrap();
    assert_eq!(first.state, acc::ProfessionalState::ProfileUpdated as i32);
    accounts
        .approve_professional(with_token(
            acc::ApproveProfessionalRequest {
                id: pro.to_string(),
            },
            &admin,
        ))
        .await
        .unwrap();
    let request = place(&mut market, &customer_token, Uuid::now_v7(), in_calgary())
        .await
        .unwrap();
    let live = quote(&mut market, &pro_token, &request.id).await;

    // Off for the weekend only: their hours change, at once, without review.
    let weekend_off = acc::ProfessionalProfile {
        available_days: vec![1, 2, 3, 4, 5],
        available_from: "08:00".into(),
        available_to: "17:00".into(),
        ..valid_profile(PLUMBING)
    };
    let edited = accounts
        .update_professional_profile(save(pro, &pro_token, weekend_off))
        .await
        .unwrap()
        .into_inner()
        .professional
        .unwrap();
    assert_eq!(edited.state, acc::ProfessionalState::Approved as i32);
    let profile = edited.profile.unwrap();
    assert_eq!(
        (
            profile.available_from.as_str(),
            profile.available_to.as_str()
        ),
        ("08:00", "17:00")
    );
    // "Continue without licence update", as the profile screens go on, keeps them approved.
    let submitted = accounts
        .submit_profile_for_review(with_token(
            acc::SubmitProfileForReviewRequest {
                id: pro.to_string(),
            },
            &pro_token,
        ))
        .await
        .unwrap()
        .into_inner()
        .professional
        .unwrap();
    assert_eq!(submitted.state, acc::ProfessionalState::Approved as i32);

    // The quote sent before the edit is still live, and the customer hires it.
    let order = crate::helpers::market::hire(
        &billing(&server).await,
        &customer_token,
        &live.id,
        VISA,
        Uuid::now_v7(),
    )
    .await
    .unwrap();
    assert_eq!(order.quote_id, live.id);
    server.stop().await;
}
