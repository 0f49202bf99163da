//! Deleting the last licence an approved professional was approved with, through the RPCs:
//! the screen's preview says how many live quotes it ends; without the confirmation nothing is
//! deleted; confirmed, the quotes are withdrawn (customers told), the professional is neither
//! matched nor hired, and an admin's approval of a new licence makes them fit again.

use repairs_proto::{accounts as acc, marketplace as pb};
use tonic::Code;
use uuid::Uuid;

use crate::helpers::{
    AccountsClient, TestServer, admin_token, emails_to, licence_upload,
    market::{CALGARY_PRO, billing, customer, db, hire, in_calgary, market, place, professional},
    reason, send_quote, with_token,
};

async fn approve_change(
    accounts: &mut AccountsClient,
    admin: &str,
    pro: Uuid,
) -> acc::Professional {
    let approve = acc::ApprovePendingChangeRequest {
        id: pro.to_string(),
        revision: 0,
    };
    let approved = accounts
        .approve_pending_change(with_token(approve, admin))
        .await;
    approved.unwrap().into_inner().professional.unwrap()
}

/// Professional `pro` as admin `admin` reads them.
async fn read_professional(
    accounts: &mut AccountsClient,
    admin: &str,
    pro: Uuid,
) -> acc::Professional {
    let request = acc::GetProfessionalRequest {
        id: pro.to_string(),
    };
    let read = accounts.get_professional(with_token(request, admin)).await;
    read.unwrap().into_inner().professional.unwrap()
}

/// The professional's one approved licence: uploaded, then approved by the admin.
async fn approved_licence(
    accounts: &mut AccountsClient,
    admin: &str,
    (pro, token): (Uuid, &str),
) -> String {
    let added = accounts
        .add_licence(licence_upload(&pro.to_string(), token))
        .await
        .unwrap();
    approve_change(accounts, admin, pro).await;
    added.into_inner().licence.unwrap().id
}

async fn delete(
    accounts: &mut AccountsClient,
    token: &str,
    licence_id: &str,
    end_live_quotes: bool,
) -> Result<(), tonic::Status> {
    accounts
        .delete_licence(with_token(
            acc::DeleteLicenceRequest {
                professional_id: String::new(),
                licence_id: licence_id.into(),
                end_live_quotes,
            },
            token,
        ))
        .await
        .map(drop)
}

#[tokio::test]
async fn the_last_approved_licence_goes_only_when_confirmed_and_ends_the_live_quotes() {
    let server = TestServer::start().await;
    let mut market = market(&server).await;
    let mut accounts = AccountsClient::new(server.channel().await);
    let admin = admin_token(&server, &mut accounts).await;
    let (pro, pro_token, _) = professional(&server, CALGARY_PRO).await;
    let licence = approved_licence(&mut accounts, &admin, (pro, &pro_token)).await;
    let (customer_id, customer_token) = customer(&server).await;
    let request = place(&mut market, &customer_token, Uuid::now_v7(), in_calgary())
        .await
        .unwrap();
    let quote = send_quote(&server, &pro_token, &request.id, 9_000).await;

    let preview = accounts
        .preview_delete_licence(with_token(
            acc::PreviewDeleteLicenceRequest {
                professional_id: String::new(),
                licence_id: licence.clone(),
            },
            &pro_token,
        ))
        .await
        .unwrap()
        .into_inner();
    assert!(preview.last_approved_licence);
    assert_eq!(preview.live_quotes_ended, 1);

    let refused = delete(&mut accounts, &pro_token, &licence, false)
        .await
        .unwrap_err();
    assert_eq!(refused.code(), Code::FailedPrecondition);
    assert_eq!(reason(&refused), "LAST_APPROVED_LICENCE");
    let state: String = sqlx::query_scalar("select state from quotes where id = $1")
        .bind(Uuid::parse_str(&quote.id).unwrap())
        .fetch_one(db(&server))
        .await
        .unwrap();
    assert_eq!(state, "submitted", "nothing moved without the confirmation");

    delete(&mut accounts, &pro_token, &licence, true)
        .await
        .unwrap();
    let state: String = sqlx::query_scalar("select state from quotes where id = $1")
        .bind(Uuid::parse_str(&quote.id).unwrap())
        .fetch_one(db(&server))
        .await
        .unwrap();
    assert_eq!(state, "withdrawn");
    let customer_email: String =
        sqlx::query_scalar("select email::text from customers where id = $1")
            .bind(customer_id)
            .fetch_one(db(&server))
            .await
            .unwrap();
    let told = emails_to(db(&server), &customer_email, "Quote withdrawn").await;
    assert_eq!(told.len(), 1);
    assert!(
        !told[0].1.contains("licence"),
        "no reason given: {}",
        told[0].1
    );
    let read = read_professional(&mut accounts, &admin, pro).await;
    assert!(read.licence_needed_since.is_some());
    assert_eq!(read.state(), acc::ProfessionalState::Approved);

    // Unfit meanwhile: a new request of theirs is neither matched nor quoted on.
    let other = place(&mut market, &customer_token, Uuid::now_v7(), in_calgary())
        .await
        .unwrap();
    let quoted = market
        .create_quote(with_token(
            pb::CreateQuoteRequest {
                repair_request_id: other.id.clone(),
                estimated_minutes: 60,
                fee: Some(repairs_proto::types::Money {
                    amount_cents: 9_000,
                    currency: "CAD".into(),
                }),
                surge: false,
                add_taxes: None,
                arrival_minutes: Some(45),
            },
            &pro_token,
        ))
        .await
        .unwrap_err();
    assert_eq!(quoted.code(), Code::NotFound);

    // A new licence approved: fit again, and quoting works.
    approved_licence(&mut accounts, &admin, (pro, &pro_token)).await;
    let read = read_professional(&mut accounts, &admin, pro).await;
    assert!(read.licence_needed_since.is_none());
    let again = send_quote(&server, &pro_token, &other.id, 9_000).await;
    assert_eq!(again.state(), pb::QuoteState::Submitted);
    server.stop().await;
}

#[tokio::test]
async fn a_professional_who_needs_a_licence_cannot_be_hired_on_an_older_quote() {
    let server = TestServer::start().await;
    let mut market = market(&server).await;
    let mut accounts = AccountsClient::new(server.channel().await);
    let admin = admin_token(&server, &mut accounts).await;
    let (pro, pro_token, _) = professional(&server, CALGARY_PRO).await;
    let licence = approved_licence(&mut accounts, &admin, (pro, &pro_token)).await;
    let (_, customer_token) = customer(&server).await;
    let request = place(&mut market, &customer_token, Uuid::now_v7(), in_calgary())
        .await
        .unwrap();
    let quote = send_quote(&server, &pro_token, &request.id, 9_000).await;
    delete(&mut accounts, &pro_token, &licence, true)
        .await
        .unwrap();
    // The quote is withdrawn; even read as it was, the hire is refused.
    let refused = hire(
        &billing(&server).await,
        &customer_token,
        &quote.id,
        crate::helpers::market::VISA,
        Uuid::now_v7(),
    )
    .await
    .unwrap_err();
    assert_eq!(refused.code(), Code::FailedPrecondition, "{refused:?}");
    // A licence that is not the last one goes without asking.
    let (other_pro, other_token, _) = professional(&server, CALGARY_PRO).await;
    let first = approved_licence(&mut accounts, &admin, (other_pro, &other_token)).await;
    approved_licence(&mut accounts, &admin, (other_pro, &other_token)).await;
    delete(&mut accounts, &other_token, &first, false)
        .await
        .unwrap();
    server.stop().await;
}
