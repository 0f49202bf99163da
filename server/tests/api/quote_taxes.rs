//! What professionals sell, taxed: a registered professional's quote carries the sales taxes
//! of the property's province on the day it is sent, under their registration numbers, and
//! keeps them; the customer previews fee + taxes = total, the hire holds the total and the
//! capture charges it, the ledger keeping each tax. An unregistered professional's quote
//! carries none and says so; a registered one may leave them off; nobody adds taxes without
//! a number. The numbers are the professional's own business: given on the profile, checked,
//! saved at once.

use repairs_proto::{
    accounts as acc, billing as bpb, marketplace as pb,
    types::{Language, Money, TaxLine},
};
use tonic::Code;
use uuid::Uuid;

use crate::helpers::{
    AccountsClient, TestServer, admin_token,
    market::{
        self, Billing, CALGARY_PRO, Market, Pro, VISA, billing, customer, db, draft, hire,
        in_calgary, place, professional,
    },
    reason, save_profile, valid_profile, violated_fields, with_token,
};

const GST_HST: &str = "123456789RT0001";
const QST: &str = "1234567890TQ0001";

/// A server, its clients, a customer's token and their open request placed from `draft`.
struct Job {
    server: TestServer,
    market: Market,
    billing: Billing,
    customer: String,
    request: pb::RepairRequest,
}

async fn job(draft: pb::RepairRequestDraft) -> Job {
    let server = TestServer::start().await;
    let mut market = market::market(&server).await;
    let billing = billing(&server).await;
    let (_, customer) = customer(&server).await;
    let request = place(&mut market, &customer, Uuid::now_v7(), draft)
        .await
        .unwrap();
    Job {
        server,
        market,
        billing,
        customer,
        request,
    }
}

impl Job {
    /// A member plumber near postal area `area` registered under `numbers` (GST/HST, QST),
    /// as their profile would store them; their id and token.
    async fn professional(
        &self,
        area: &'static str,
        numbers: (Option<&str>, Option<&str>),
    ) -> (Uuid, String) {
        let (id, token, _) = professional(
            &self.server,
            Pro {
                area,
                ..CALGARY_PRO
            },
        )
        .await;
        register(&self.server, id, numbers).await;
        (id, token)
    }

    /// Professional `token`'s quote of `cents` on the job, `add_taxes` as given.
    async fn quote(
        &mut self,
        token: &str,
        cents: i64,
        add_taxes: Option<bool>,
    ) -> Result<pb::Quote, tonic::Status> {
        self.market
            .create_quote(with_token(
                pb::CreateQuoteRequest {
                    repair_request_id: self.request.id.clone(),
                    estimated_minutes: 90,
                    fee: Some(cad(cents)),
                    surge: false,
                    add_taxes,
                    arrival_minutes: Some(45),
                },
                token,
            ))
            .await
            .map(|r| r.into_inner().quote.unwrap())
    }

    /// Quote `id` as the customer reads it.
    async fn customer_quote(&mut self, id: &str) -> pb::Quote {
        let read = pb::GetQuoteRequest { id: id.into() };
        self.market
            .get_quote(with_token(read, &self.customer))
            .await
            .unwrap()
            .into_inner()
            .quote
            .unwrap()
    }

    async fn preview(&mut self, quote_id: &str) -> bpb::PreviewHireResponse {
        let preview = bpb::PreviewHireRequest {
            quote_id: quote_id.into(),
            language: Language::Unspecified as i32,
        };
        self.billing
            .preview_hire(with_token(preview, &self.customer))
            .await
            .unwrap()
            .into_inner()
    }

    /// The customer hires quote `id` with a card authorised at once.
    async fn hire(&self, quote_id: &str) -> bpb::Order {
        hire(
            &self.billing,
            &self.customer,
            quote_id,
            VISA,
            Uuid::now_v7(),
        )
        .await
        .unwrap()
    }

    async fn payment(&mut self, id: &str) -> bpb::Payment {
        let read = bpb::GetPaymentRequest {
            payment_id: id.into(),
        };
        self.billing
            .get_payment(with_token(read, &self.customer))
            .await
            .unwrap()
            .into_inner()
            .payment
            .unwrap()
    }

    /// The customer's orders, as ListOrders answers them.
    async fn orders(&mut self) -> Vec<bpb::Order> {
        self.billing
            .list_orders(with_token(
                bpb::ListOrdersRequest {
                    // Empty: the caller's own.
                    party: Some(bpb::list_orders_request::Party::CustomerId(String::new())),
                    ..Default::default()
                },
                &self.customer,
            ))
            .await
            .unwrap()
            .into_inner()
            .orders
    }

    /// What the ledger and the order hold of the hire of order `order_id`: (order amount,
    /// payment amount, subtotal, province, state) and the payment's taxes as (name, rate in
    /// thousandths, cents, number).
    async fn stored(&self, order_id: &str) -> (StoredPayment, Vec<(String, i32, i64, String)>) {
        let payment: StoredPayment = sqlx::query_as(
            "select o.amount_cents, p.amount_cents, p.subtotal_cents, p.tax_province, p.state
             from orders o join payments p on p.id = o.payment_id where o.id = $1::uuid",
        )
        .bind(order_id)
        .fetch_one(db(&self.server))
        .await
        .unwrap();
        let taxes = sqlx::query_as(
            "select t.tax, t.rate_thousandths_percent, t.amount_cents, t.registration_number
             from payment_taxes t join orders o on o.payment_id = t.payment_id
             where o.id = $1::uuid order by t.tax",
        )
        .bind(order_id)
        .fetch_all(db(&self.server))
        .await
        .unwrap();
        (payment, taxes)
    }
}

type StoredPayment = (i64, i64, i64, Option<String>, String);

/// Stores professional `id`'s registration numbers as their profile does.
async fn register(server: &TestServer, id: Uuid, (gst_hst, qst): (Option<&str>, Option<&str>)) {
    sqlx::query("update professionals set gst_hst_number = $2, qst_number = $3 where id = $1")
        .bind(id)
        .bind(gst_hst)
        .bind(qst)
        .execute(db(server))
        .await
        .unwrap();
}

fn cad(cents: i64) -> Money {
    Money {
        amount_cents: cents,
        currency: "CAD".into(),
    }
}

fn cents(money: Option<&Money>) -> i64 {
    let money = money.expect("an amount");
    assert_eq!(money.currency, "CAD");
    money.amount_cents
}

/// A tax line as compared: (name, rate, cents, registration number).
type Line = (String, String, i64, String);

fn lines(taxes: &[TaxLine]) -> Vec<Line> {
    taxes
        .iter()
        .map(|t| {
            (
                t.name.clone(),
                t.rate_percent.clone(),
                cents(t.amount.as_ref()),
                t.registration_number.clone(),
            )
        })
        .collect()
}

fn line(name: &str, rate: &str, cents: i64, number: &str) -> Line {
    (name.into(), rate.into(), cents, number.into())
}

fn treatment(quote: &pb::Quote) -> pb::QuoteTaxTreatment {
    quote.tax_treatment()
}

/// Fails unless `payment` is in `state`, its (amount, subtotal) `amounts`, with `taxes`.
fn assert_paid(
    payment: &bpb::Payment,
    state: bpb::PaymentState,
    amounts: (i64, i64),
    taxes: &[Line],
) {
    assert_eq!(payment.state(), state);
    assert_eq!(
        (
            cents(payment.amount.as_ref()),
            cents(payment.subtotal.as_ref())
        ),
        amounts
    );
    assert_eq!(lines(&payment.taxes), taxes);
}

/// Fails unless `quote` carries no tax, for the reason `why`, its total its fee `fee`.
fn assert_untaxed(quote: &pb::Quote, why: pb::QuoteTaxTreatment, fee: i64) {
    assert_eq!(treatment(quote), why);
    assert!(quote.taxes.is_empty());
    assert_eq!(cents(quote.fee.as_ref()), fee);
    assert_eq!(cents(quote.total.as_ref()), fee);
}

#[tokio::test]
async fn a_montreal_job_is_quoted_held_and_charged_with_gst_and_qst() {
    let mut job = job(draft("H2X 1Y4", "Montréal", "QC")).await;
    let (pro, token) = job.professional("H2X", (Some(GST_HST), Some(QST))).await;
    let montreal = [
        line("GST", "5", 1000, GST_HST),
        line("QST", "9.975", 1995, QST),
    ];

    // Registered, and not told otherwise: the taxes of the property's province are added.
    let quote = job.quote(&token, 20_000, None).await.unwrap();
    assert_eq!(treatment(&quote), pb::QuoteTaxTreatment::Added);
    assert_eq!(cents(quote.fee.as_ref()), 20_000);
    assert_eq!(lines(&quote.taxes), montreal);
    assert_eq!(cents(quote.total.as_ref()), 22_995);

    // The quote keeps its taxes whatever the professional's numbers become.
    register(&job.server, pro, (Some("987654321RT0001"), None)).await;
    let read = job.customer_quote(&quote.id).await;
    assert_eq!(lines(&read.taxes), montreal);
    assert_eq!(cents(read.total.as_ref()), 22_995);
    assert_eq!(treatment(&read), pb::QuoteTaxTreatment::Added);

    // Fee + taxes = total before hiring; the hold is the total.
    let preview = job.preview(&quote.id).await;
    assert_eq!(cents(preview.fee.as_ref()), 20_000);
    assert_eq!(cents(preview.subtotal.as_ref()), 20_000);
    assert_eq!(lines(&preview.taxes), montreal);
    assert_eq!(cents(preview.total.as_ref()), 22_995);
    assert_eq!(cents(preview.amount_payable.as_ref()), 22_995);
    assert_eq!(preview.tax_treatment(), pb::QuoteTaxTreatment::Added);

    let order = job.hire(&quote.id).await;
    let held = order.payment.clone().unwrap();
    assert_paid(
        &held,
        bpb::PaymentState::Authorized,
        (22_995, 20_000),
        &montreal,
    );
    let ledger = |state: &str| {
        (
            (
                22_995,
                22_995,
                20_000,
                Some("QC".to_owned()),
                state.to_owned(),
            ),
            vec![
                ("GST".to_owned(), 5_000, 1000, GST_HST.to_owned()),
                ("QST".to_owned(), 9_975, 1995, QST.to_owned()),
            ],
        )
    };
    assert_eq!(job.stored(&order.id).await, ledger("authorized"));

    // Marking the job done captures the total held.
    market::complete(&mut job.market, &job.customer, &job.request.id)
        .await
        .unwrap();
    let charged = job.payment(&held.id).await;
    assert_paid(
        &charged,
        bpb::PaymentState::Captured,
        (22_995, 20_000),
        &montreal,
    );
    assert_eq!(job.stored(&order.id).await, ledger("captured"));
    let orders = job.orders().await;
    assert_eq!(orders.len(), 1);
    let listed = orders[0].payment.as_ref().unwrap();
    assert_paid(
        listed,
        bpb::PaymentState::Captured,
        (22_995, 20_000),
        &montreal,
    );
    job.server.stop().await;
}

#[tokio::test]
async fn a_halifax_property_is_quoted_and_held_with_14_percent_hst() {
    let mut job = job(draft("B3H 4R2", "Halifax", "NS")).await;
    // A QST number changes nothing outside Quebec.
    let (_, token) = job.professional("B3H", (Some(GST_HST), Some(QST))).await;
    let quote = job.quote(&token, 20_000, Some(true)).await.unwrap();
    let hst = [line("HST", "14", 2800, GST_HST)];
    assert_eq!(treatment(&quote), pb::QuoteTaxTreatment::Added);
    assert_eq!(lines(&quote.taxes), hst);
    assert_eq!(cents(quote.total.as_ref()), 22_800);
    let preview = job.preview(&quote.id).await;
    assert_eq!(lines(&preview.taxes), hst);
    assert_eq!(cents(preview.amount_payable.as_ref()), 22_800);
    let order = job.hire(&quote.id).await;
    assert_eq!(
        job.stored(&order.id).await,
        (
            (
                22_800,
                22_800,
                20_000,
                Some("NS".to_owned()),
                "authorized".to_owned()
            ),
            vec![("HST".to_owned(), 14_000, 2800, GST_HST.to_owned())]
        )
    );
    job.server.stop().await;
}

#[tokio::test]
async fn no_tax_without_a_number_and_none_when_a_registered_professional_leaves_it_off() {
    let mut job = job(in_calgary()).await;
    let (_, unregistered) = job.professional("T2P", (None, None)).await;
    let (_, registered) = job.professional("T2P", (Some(GST_HST), None)).await;

    // Taxes without a number are refused, and nothing is sent.
    let refused = job
        .quote(&unregistered, 15_000, Some(true))
        .await
        .unwrap_err();
    assert_eq!(refused.code(), Code::FailedPrecondition);
    assert_eq!(reason(&refused), "TAX_REGISTRATION_REQUIRED");

    // Unregistered: no tax, and the quote says why, whether or not they said to add none.
    let first = job.quote(&unregistered, 15_000, None).await.unwrap();
    assert_untaxed(&first, pb::QuoteTaxTreatment::NotRegistered, 15_000);
    let withdraw = pb::WithdrawQuoteRequest { id: first.id };
    job.market
        .withdraw_quote(with_token(withdraw, &unregistered))
        .await
        .unwrap();
    let unregistered_quote = job.quote(&unregistered, 15_000, Some(false)).await.unwrap();
    assert_untaxed(
        &unregistered_quote,
        pb::QuoteTaxTreatment::NotRegistered,
        15_000,
    );

    // Registered, and leaving the taxes off: the fee is all they ask.
    let left_off = job.quote(&registered, 12_000, Some(false)).await.unwrap();
    assert_untaxed(&left_off, pb::QuoteTaxTreatment::NotAdded, 12_000);
    assert_untaxed(
        &job.customer_quote(&left_off.id).await,
        pb::QuoteTaxTreatment::NotAdded,
        12_000,
    );
    let preview = job.preview(&left_off.id).await;
    assert_eq!(preview.tax_treatment(), pb::QuoteTaxTreatment::NotAdded);
    assert_eq!(cents(preview.total.as_ref()), 12_000);

    // The unregistered professional's hire holds the fee alone.
    let preview = job.preview(&unregistered_quote.id).await;
    assert_eq!(
        preview.tax_treatment(),
        pb::QuoteTaxTreatment::NotRegistered
    );
    assert!(preview.taxes.is_empty());
    assert_eq!(cents(preview.subtotal.as_ref()), 15_000);
    assert_eq!(cents(preview.amount_payable.as_ref()), 15_000);
    let order = job.hire(&unregistered_quote.id).await;
    let held = order.payment.clone().unwrap();
    assert_paid(&held, bpb::PaymentState::Authorized, (15_000, 15_000), &[]);
    assert_eq!(
        job.stored(&order.id).await,
        (
            (15_000, 15_000, 15_000, None, "authorized".to_owned()),
            vec![]
        )
    );
    job.server.stop().await;
}

/// Professional `id`'s profile save with `numbers` (GST/HST, QST) as typed.
fn save_numbers(
    id: Uuid,
    token: &str,
    (gst_hst, qst): (&str, &str),
) -> tonic::Request<acc::UpdateProfessionalProfileRequest> {
    let profile = acc::ProfessionalProfile {
        gst_hst_number: gst_hst.into(),
        qst_number: qst.into(),
        ..valid_profile(market::PLUMBING)
    };
    save_profile(id, token, profile)
}

async fn read(accounts: &mut AccountsClient, id: Uuid, token: &str) -> acc::Professional {
    let request = acc::GetProfessionalRequest { id: id.to_string() };
    let read = accounts.get_professional(with_token(request, token)).await;
    read.unwrap().into_inner().professional.unwrap()
}

fn numbers(professional: &acc::Professional) -> (String, String) {
    let profile = professional.profile.as_ref().unwrap();
    (profile.gst_hst_number.clone(), profile.qst_number.clone())
}

#[tokio::test]
async fn registration_numbers_are_checked_normalised_and_saved_at_once() {
    let server = TestServer::start().await;
    let mut accounts = AccountsClient::new(server.channel().await);
    let admin = admin_token(&server, &mut accounts).await;
    let (id, token, _) = professional(&server, CALGARY_PRO).await;
    let both = (GST_HST.to_owned(), QST.to_owned());

    // Typed with spaces and in lower case, kept normalised; the professional and the admins
    // read them.
    let saved = accounts
        .update_professional_profile(save_numbers(
            id,
            &token,
            (" 123456789 rt 0001", "1234567890 tq 0001"),
        ))
        .await
        .unwrap()
        .into_inner()
        .professional
        .unwrap();
    assert_eq!(numbers(&saved), both);
    assert_eq!(numbers(&read(&mut accounts, id, &token).await), both);
    assert_eq!(numbers(&read(&mut accounts, id, &admin).await), both);
    // An own-business field: saved without review, the professional still approved.
    assert_eq!(saved.state(), acc::ProfessionalState::Approved);
    let stored: (Option<String>, Option<String>) =
        sqlx::query_as("select gst_hst_number, qst_number from professionals where id = $1")
            .bind(id)
            .fetch_one(db(&server))
            .await
            .unwrap();
    assert_eq!(stored, (Some(GST_HST.into()), Some(QST.into())));

    // A malformed number, and a QST number alone, are refused field by field; nothing
    // changes.
    for (typed, field) in [
        (("123456789 RP 0001", ""), "profile.gst_hst_number"),
        ((GST_HST, "123456789RT0001"), "profile.qst_number"),
        (("", QST), "profile.qst_number"),
    ] {
        let refused = accounts
            .update_professional_profile(save_numbers(id, &token, typed))
            .await
            .unwrap_err();
        assert_eq!(refused.code(), Code::InvalidArgument, "{typed:?}");
        assert_eq!(violated_fields(&refused), [field], "{typed:?}");
    }
    assert_eq!(numbers(&read(&mut accounts, id, &token).await), both);

    // Left empty: not registered any more.
    let cleared = accounts
        .update_professional_profile(save_numbers(id, &token, ("", "")))
        .await
        .unwrap()
        .into_inner()
        .professional
        .unwrap();
    assert_eq!(numbers(&cleared), (String::new(), String::new()));
    server.stop().await;
}
