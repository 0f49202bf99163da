//! Receipts, monthly statements and the sales tax report through BillingService, against
//! the running server and Postgres on the offline test gateway: a membership's receipt with
//! the platform's numbers and who may read it, the platform fee's own taxes on a payout, a
//! professional's month, and the admins' report with its CSV.

use crate::{
    helpers::{
        TestServer,
        market::{Billing, CALGARY_PRO, VISA, billing, customer, professional},
        reason, with_token,
    },
    payouts::{Hired, account, complete, hired, only_entry},
};
use chrono::Utc;
use repairs_proto::{billing as pb, types};
use repairs_server::domain::{GstHstNumber, QstNumber, Role};
use tonic::Code;
use uuid::Uuid;

const GST_HST: &str = "123456789RT0001";
const QST: &str = "1234567890TQ0001";

/// A server registered for GST/HST and QST when `registered`, with a platform fee of `fee` %.
async fn server(registered: bool, fee: u8) -> TestServer {
    TestServer::start_with(|config| {
        if registered {
            config.gst_hst_number = Some(GstHstNumber::parse(GST_HST).unwrap());
            config.qst_number = Some(QstNumber::parse(QST).unwrap());
        }
        config.platform_legal_name = "Réparations Canada inc.".to_owned();
        config.platform_fee_percent = fee;
    })
    .await
}

type Line = (String, String, i64, String);

fn lines(taxes: &[types::TaxLine]) -> Vec<Line> {
    taxes
        .iter()
        .map(|t| {
            (
                t.name.clone(),
                t.rate_percent.clone(),
                t.amount.as_ref().unwrap().amount_cents,
                t.registration_number.clone(),
            )
        })
        .collect()
}

fn line(name: &str, rate: &str, cents: i64, number: &str) -> Line {
    (name.into(), rate.into(), cents, number.into())
}

fn cents(money: Option<&types::Money>) -> i64 {
    money.unwrap().amount_cents
}

/// A professional with a verified phone whose home base is in `province`, reading
/// `language`, who buys a month: their id, token and the payment's id.
async fn member(server: &TestServer, province: &str, language: &str) -> (Uuid, String, String) {
    let (id, token) = server.account_token(Role::Professional).await;
    sqlx::query(
        "update professionals set phone = '+14035550100', phone_verified = true,
            state = 'approved', home_province = $2, language = $3, name = 'Ana Roy'
         where id = $1",
    )
    .bind(id)
    .bind(province)
    .bind(language)
    .execute(&server.server.state.db)
    .await
    .unwrap();
    let bought = billing(server)
        .await
        .purchase_membership(with_token(
            pb::PurchaseMembershipRequest {
                payment_method: VISA.into(),
                coupon_code: String::new(),
                request_id: Uuid::now_v7().to_string(),
            },
            &token,
        ))
        .await
        .unwrap()
        .into_inner();
    (id, token, bought.payment.unwrap().id)
}

async fn receipt(
    billing: &mut Billing,
    token: &str,
    payment_id: &str,
    language: types::Language,
) -> Result<pb::Receipt, tonic::Status> {
    billing
        .get_receipt(with_token(
            pb::GetReceiptRequest {
                payment_id: payment_id.into(),
                language: language as i32,
                refund_id: String::new(),
            },
            token,
        ))
        .await
        .map(|r| r.into_inner().receipt.unwrap())
}

#[tokio::test]
async fn a_halifax_membership_receipt_carries_the_platform_s_numbers_and_hst_for_its_readers_only()
{
    let server = server(true, 0).await;
    let mut billing = billing(&server).await;
    let admin = server.account_token(Role::Admin).await.1;
    let (owner, token, payment_id) = member(&server, "NS", "fr").await;

    let read = receipt(&mut billing, &token, &payment_id, types::Language::En)
        .await
        .unwrap();
    assert_eq!(read.payment_id, payment_id);
    assert_eq!(read.purpose(), pb::PaymentPurpose::Membership);
    assert_eq!(read.state(), pb::PaymentState::Captured);
    let seller = read.seller.unwrap();
    assert_eq!(seller.name, "Réparations Canada inc.");
    assert_eq!(
        (seller.gst_hst_number.as_str(), seller.qst_number.as_str()),
        (GST_HST, QST)
    );
    assert_eq!(read.buyer.unwrap().name, "Ana Roy");
    assert_eq!(read.description, "Professional membership, one month");
    assert_eq!(read.province, "NS");
    let today = Utc::now().date_naive();
    assert!(
        [today, today.pred_opt().unwrap()]
            .map(|d| d.format("%Y-%m-%d").to_string())
            .contains(&read.supply_date)
    );
    assert_eq!(cents(read.subtotal.as_ref()), 2999);
    assert_eq!(lines(&read.taxes), [line("HST", "14", 420, GST_HST)]);
    assert_eq!(cents(read.total.as_ref()), 3419);
    assert!(read.capture_time.is_some() && read.refund_time.is_none());

    // In the reader's language when none is asked: French.
    let french = receipt(
        &mut billing,
        &token,
        &payment_id,
        types::Language::Unspecified,
    )
    .await
    .unwrap();
    assert_eq!(french.description, "Abonnement professionnel, un mois");

    // An admin reads it; another professional, a customer, or an unknown id: NOT_FOUND.
    assert!(
        receipt(&mut billing, &admin, &payment_id, types::Language::En)
            .await
            .is_ok()
    );
    let (_, stranger, _) = member(&server, "NS", "en").await;
    let (_, customer_token) = customer(&server).await;
    for token in [&stranger, &customer_token] {
        let refused = receipt(&mut billing, token, &payment_id, types::Language::En)
            .await
            .unwrap_err();
        assert_eq!(refused.code(), Code::NotFound, "{refused:?}");
    }
    let unknown = Uuid::now_v7().to_string();
    let refused = receipt(&mut billing, &admin, &unknown, types::Language::En)
        .await
        .unwrap_err();
    assert_eq!(refused.code(), Code::NotFound);

    // The emailed receipt links to the printable page in the reader's language.
    let (id, ..) = (read.payment_id.clone(),);
    let bodies = crate::helpers::emails_to(
        &server.server.state.db,
        &format!("{}@example.ca", owner.simple()),
        "Reçu de votre abonnement",
    )
    .await;
    assert_eq!(bodies.len(), 1);
    assert!(
        bodies[0]
            .1
            .contains(&format!("/fr/receipts/{id}?as=professional")),
        "{}",
        bodies[0].1
    );
    server.stop().await;
}

/// A captured Calgary job of `cents` on `server`, its professional's home base in Alberta.
async fn captured_job(server: &TestServer, cents: i64) -> Hired {
    let mut job = hired(server, cents).await;
    sqlx::query("update professionals set home_province = 'AB' where id = $1")
        .bind(job.pro_id)
        .execute(&server.server.state.db)
        .await
        .unwrap();
    complete(&mut job).await;
    job
}

async fn owed(job: &mut Hired) -> i64 {
    let (pro, token) = (job.pro_id, job.pro_token.clone());
    let account = account(&mut job.billing, &token, pro).await.unwrap();
    cents(account.owed.as_ref())
}

#[tokio::test]
async fn a_registered_platform_charges_gst_on_its_fee_and_the_net_is_reduced() {
    let server = server(true, 10).await;
    let mut billing = billing(&server).await;
    let mut job = captured_job(&server, 12_345).await;
    let (pro, token) = (job.pro_id, job.pro_token.clone());
    let customer_token = job.customer_token.clone();
    let order_id = job.order.id.clone();
    let payment_id = job.order.payment.as_ref().unwrap().id.clone();

    // 10 % of 123.45 $ is 12.34 $ (rounded down); GST 5 % of it in Alberta, 0.62 $.
    let payout = only_entry(&mut job).await;
    assert_eq!(cents(payout.gross.as_ref()), 12_345);
    assert_eq!(cents(payout.platform_fee.as_ref()), 1_234);
    assert_eq!(
        lines(&payout.platform_fee_taxes),
        [line("GST", "5", 62, GST_HST)]
    );
    assert_eq!(cents(payout.net.as_ref()), 12_345 - 1_234 - 62);
    assert_eq!(owed(&mut job).await, 12_345 - 1_234 - 62);

    // The hire's receipt is the professional's, untaxed (they are not registered), for
    // the customer and the professional alike.
    for reader in [&customer_token, &token] {
        let read = receipt(&mut billing, reader, &payment_id, types::Language::En)
            .await
            .unwrap();
        let seller = read.seller.unwrap();
        assert!(seller.gst_hst_number.is_empty() && seller.qst_number.is_empty());
        assert!(read.taxes.is_empty());
        assert!(
            read.description.starts_with("Plumbing"),
            "{}",
            read.description
        );
        assert!(
            read.description.contains(": repair work"),
            "{}",
            read.description
        );
    }

    // An admin pays it by hand: the fee's taxes are kept with the payout.
    let admin = server.account_token(Role::Admin).await.1;
    let paid = billing
        .record_manual_payout(with_token(
            pb::RecordManualPayoutRequest {
                professional_id: pro.to_string(),
                order_ids: vec![order_id],
                note: "bank transfer".into(),
                request_id: Uuid::now_v7().to_string(),
            },
            &admin,
        ))
        .await
        .unwrap()
        .into_inner()
        .payouts;
    assert_eq!(cents(paid[0].net.as_ref()), 12_345 - 1_234 - 62);
    let kept: i64 = sqlx::query_scalar(
        "select count(*) from payout_fee_taxes x join payouts t on t.order_id = x.order_id
         where t.professional_id = $1 and x.amount_cents = 62 and x.province = 'AB'",
    )
    .bind(pro)
    .fetch_one(&server.server.state.db)
    .await
    .unwrap();
    assert_eq!(kept, 1);

    // The month's statement: the job, the fee, its tax, and the payout.
    let month = Utc::now().format("%Y-%m").to_string();
    let statement = billing
        .get_monthly_statement(with_token(
            pb::GetMonthlyStatementRequest {
                professional_id: String::new(),
                month: month.clone(),
                language: 0,
            },
            &token,
        ))
        .await
        .unwrap()
        .into_inner()
        .statement
        .unwrap();
    assert_eq!(statement.month, month);
    assert_eq!(statement.jobs.len(), 1);
    assert_eq!(cents(statement.jobs_subtotal.as_ref()), 12_345);
    assert_eq!(cents(statement.platform_fees.as_ref()), 1_234);
    assert_eq!(
        lines(&statement.platform_fee_taxes),
        [line("GST", "5", 62, GST_HST)]
    );
    assert_eq!(statement.payouts.len(), 1);
    assert_eq!(cents(statement.paid_out.as_ref()), 12_345 - 1_234 - 62);
    assert_eq!(statement.platform.unwrap().gst_hst_number, GST_HST);

    // Another professional learns nothing; a bad or future month is INVALID_ARGUMENT.
    let (_, other, _) = professional(&server, CALGARY_PRO).await;
    let ask = |token: &str, professional: String, month: &str| {
        with_token(
            pb::GetMonthlyStatementRequest {
                professional_id: professional,
                month: month.into(),
                language: 0,
            },
            token,
        )
    };
    let refused = billing
        .get_monthly_statement(ask(&other, pro.to_string(), &month))
        .await
        .unwrap_err();
    assert_eq!(refused.code(), Code::NotFound);
    for bad in ["2026-13", "12-2026", "2999-01"] {
        let refused = billing
            .get_monthly_statement(ask(&token, String::new(), bad))
            .await
            .unwrap_err();
        assert_eq!(refused.code(), Code::InvalidArgument, "{bad}: {refused:?}");
    }
    server.stop().await;
}

#[tokio::test]
async fn an_unregistered_platform_charges_no_tax_on_its_fee() {
    let server = server(false, 10).await;
    let mut job = captured_job(&server, 12_345).await;
    let payout = only_entry(&mut job).await;
    assert_eq!(cents(payout.platform_fee.as_ref()), 1_234);
    assert!(payout.platform_fee_taxes.is_empty());
    assert_eq!(cents(payout.net.as_ref()), 12_345 - 1_234);
    server.stop().await;
}

async fn report(
    billing: &mut Billing,
    token: &str,
    (start, end): (&str, &str),
) -> Result<pb::GetTaxReportResponse, tonic::Status> {
    billing
        .get_tax_report(with_token(
            pb::GetTaxReportRequest {
                start_date: start.into(),
                end_date: end.into(),
            },
            token,
        ))
        .await
        .map(tonic::Response::into_inner)
}

/// A partial refund's credit note gives back part of the tax in the period it is made: the
/// report shows the membership's HST less the refund's, on its amount before tax less the
/// refund's.
#[tokio::test]
async fn the_tax_report_takes_off_what_partial_refunds_gave_back() {
    let server = server(true, 0).await;
    let mut billing = billing(&server).await;
    let admin = server.account_token(Role::Admin).await.1;
    let (_, _, payment_id) = member(&server, "NS", "en").await;
    billing
        .refund_payment(with_token(
            pb::RefundPaymentRequest {
                target: Some(pb::PaymentTarget {
                    target: Some(pb::payment_target::Target::PaymentId(payment_id.clone())),
                }),
                request_id: Uuid::now_v7().to_string(),
                reason: "a week not used".into(),
                amount: Some(repairs_proto::types::Money {
                    amount_cents: 1_000,
                    currency: "CAD".into(),
                }),
            },
            &admin,
        ))
        .await
        .unwrap();
    let (refunded, refunded_tax): (i64, i64) = sqlx::query_as(
        "select amount_cents, tax_cents from refunds where payment_id = $1 and state = 'succeeded'",
    )
    .bind(Uuid::parse_str(&payment_id).unwrap())
    .fetch_one(&server.server.state.db)
    .await
    .unwrap();
    assert_eq!(refunded, 1_000);
    assert!(refunded_tax > 0 && refunded_tax < 420, "{refunded_tax}");

    let today = Utc::now().date_naive().format("%Y-%m-%d").to_string();
    let read = report(&mut billing, &admin, (&today, &today))
        .await
        .unwrap();
    let hst = read.rows.iter().find(|r| r.province == "NS").unwrap();
    assert_eq!(
        cents(hst.taxable_sales.as_ref()),
        2_999 - (refunded - refunded_tax)
    );
    assert_eq!(cents(hst.tax_collected.as_ref()), 420 - refunded_tax);
    assert_eq!(hst.sale_count, 1);
    server.stop().await;
}

#[tokio::test]
async fn the_tax_report_sums_membership_taxes_per_province_without_refunds_and_as_csv() {
    let server = server(true, 0).await;
    let mut billing = billing(&server).await;
    let admin = server.account_token(Role::Admin).await.1;
    member(&server, "NS", "en").await;
    member(&server, "NS", "en").await;
    member(&server, "QC", "fr").await;
    let (_, _, refunded) = member(&server, "QC", "fr").await;
    billing
        .refund_payment(with_token(
            pb::RefundPaymentRequest {
                target: Some(pb::PaymentTarget {
                    target: Some(pb::payment_target::Target::PaymentId(refunded)),
                }),
                request_id: Uuid::now_v7().to_string(),
                reason: "a mistake".into(),
                amount: None,
            },
            &admin,
        ))
        .await
        .unwrap();

    let today = Utc::now().date_naive();
    let (start, end) = (
        today.pred_opt().unwrap().format("%Y-%m-%d").to_string(),
        today.format("%Y-%m-%d").to_string(),
    );
    let read = report(&mut billing, &admin, (&start, &end)).await.unwrap();
    let rows: Vec<(i32, String, String, String, i64, i64, i32)> = read
        .rows
        .iter()
        .map(|r| {
            (
                r.seller,
                r.province.clone(),
                r.tax_name.clone(),
                r.rate_percent.clone(),
                cents(r.taxable_sales.as_ref()),
                cents(r.tax_collected.as_ref()),
                r.sale_count,
            )
        })
        .collect();
    let platform = pb::TaxSeller::Platform as i32;
    assert_eq!(
        rows,
        [
            (
                platform,
                "NS".into(),
                "HST".into(),
                "14".into(),
                5998,
                840,
                2
            ),
            (
                platform,
                "QC".into(),
                "GST".into(),
                "5".into(),
                2999,
                150,
                1
            ),
            (
                platform,
                "QC".into(),
                "QST".into(),
                "9.975".into(),
                2999,
                299,
                1
            ),
        ]
    );
    assert_eq!(
        read.csv,
        "seller,province,tax,rate_percent,taxable_sales,tax_collected,sale_count\r\n\
         platform,NS,HST,14,59.98,8.40,2\r\n\
         platform,QC,GST,5,29.99,1.50,1\r\n\
         platform,QC,QST,9.975,29.99,2.99,1\r\n"
    );

    // A period before: nothing.
    let empty = report(&mut billing, &admin, ("2020-01-01", "2020-12-31"))
        .await
        .unwrap();
    assert!(empty.rows.is_empty());

    // Bad days, an end before the start, more than 366 days: INVALID_ARGUMENT.
    for period in [
        ("2026-1-01", "2026-12-31"),
        ("2026-01-01", "tomorrow"),
        ("2026-12-31", "2026-01-01"),
        ("2025-01-01", "2026-01-02"),
    ] {
        let refused = report(&mut billing, &admin, period).await.unwrap_err();
        assert_eq!(refused.code(), Code::InvalidArgument, "{period:?}");
    }
    // Admins only.
    let (_, pro_token, _) = member(&server, "NS", "en").await;
    let refused = report(&mut billing, &pro_token, (&start, &end))
        .await
        .unwrap_err();
    assert_eq!(
        refused.code(),
        Code::PermissionDenied,
        "{}",
        reason(&refused)
    );
    server.stop().await;
}
