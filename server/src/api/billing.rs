//! BillingService: decode, authorise the record, call `crate::billing` (and
//! `crate::hiring` for hires and orders), encode. Every change of a hire payment (confirm,
//! Stripe's webhook, an admin's capture, void or refund) is followed by
//! [`hiring::settle`], which keeps the order and its request in line.

use repairs_proto::billing::{self as pb, billing_service_server::BillingService};
use tonic::{Request, Response, Status};

use super::billing_view::*;
use super::convert::{Reply, ok};
use super::quote_view::tax_treatment_to_proto;
use super::tax_view::{membership_tax_lines, tax_lines_to_proto};
use super::{
    convert::{Who, caller, time_from_proto, timestamp, who},
    dispute_view, payout_view, receipt_view,
    reply_language::reply_language,
};
use crate::{
    auth::access::{self, Whose},
    billing::{
        Ledger, Payment, TestAuthentication,
        admin::{self},
        coupons, disputes,
        ledger::Step,
        manual_payouts::{self, ManualPayoutForm},
        membership::{self, PurchaseRequest, QuoteFor},
        payouts,
        receipt::Issuer,
        receipts, refunds, statement, stripe_events, tax_report, test_charge,
    },
    domain::Role,
    error::{ApiError, parse_id},
    hiring::{self, HireForm},
    providers::payments::GatewayKind,
    state::AppState,
    store::{coupons::NewCoupon, page::PageRequest},
};

pub struct BillingApi {
    state: AppState,
}

impl BillingApi {
    pub fn new(state: AppState) -> Self {
        Self { state }
    }

    fn ledger(&self) -> Ledger {
        Ledger::new(self.state.db.clone(), self.state.payments.clone())
    }

    /// The payment `raw_id` names, if the caller paid it or is an admin.
    async fn own_payment(
        &self,
        ledger: &Ledger,
        caller: crate::auth::Caller,
        raw_id: &str,
    ) -> Result<Payment, Status> {
        let id = parse_id("payment_id", raw_id)?;
        let payment = ledger.find(id).await.map_err(ApiError::from)?;
        access::own_account_or_admin(&caller, payment.payer_id)?;
        Ok(payment)
    }

    /// Capture, void or refund by an admin.
    async fn admin_step(
        &self,
        admin: crate::auth::Caller,
        payment: Option<pb::PaymentTarget>,
        step: Step,
        request_id: &str,
        reason: &str,
    ) -> Result<pb::Payment, Status> {
        let payment = admin::step(
            &self.ledger(),
            admin.account_id,
            target(payment),
            step,
            request_id,
            reason,
        )
        .await?;
        hiring::settle(&self.state, &payment).await?;
        Ok(payment_to_proto(payment))
    }
}

#[tonic::async_trait]
impl BillingService for BillingApi {
    async fn get_payment_config(
        &self,
        _request: Request<pb::GetPaymentConfigRequest>,
    ) -> Reply<pb::GetPaymentConfigResponse> {
        let (mode, key) = match self.state.payments.kind() {
            GatewayKind::Test => (pb::PaymentMode::TestGateway, String::new()),
            GatewayKind::Stripe => (
                pb::PaymentMode::Stripe,
                self.state
                    .config
                    .stripe_publishable_key
                    .clone()
                    .unwrap_or_default(),
            ),
        };
        Ok(Response::new(pb::GetPaymentConfigResponse {
            mode: mode as i32,
            stripe_publishable_key: key,
        }))
    }

    async fn handle_stripe_event(
        &self,
        request: Request<pb::HandleStripeEventRequest>,
    ) -> Reply<pb::HandleStripeEventResponse> {
        let req = request.into_inner();
        let handled = stripe_events::handle(
            &self.state,
            &self.ledger(),
            &Issuer::of(&self.state.config),
            self.state.config.stripe_webhook_secret.as_deref(),
            &req.payload,
            &req.signature,
            chrono::Utc::now().timestamp(),
        )
        .await
        .map_err(|error| {
            self.state.metrics.webhook_failed("stripe", error.reason());
            crate::error::ApiError::from(error)
        })?;
        // A hire it moved follows; a membership month it granted has its receipt waiting.
        if let Some(charge_id) = &handled.charge_id {
            let settled = match self.ledger().find_by_charge_id(charge_id).await {
                Ok(payment) => match hiring::settle(&self.state, &payment).await {
                    Ok(()) => refunds::tell(&self.state, &payment).await.map(|_| ()),
                    Err(error) => Err(error),
                },
                Err(crate::billing::LedgerError::NotFound) => Ok(()),
                Err(other) => Err(ApiError::from(other)),
            };
            if let Err(error) = settled {
                self.state.metrics.webhook_failed("stripe", "not_settled");
                return Err(error.into());
            }
        }
        self.state.outbox.wake();
        Ok(Response::new(pb::HandleStripeEventResponse {
            event_id: handled.event_id,
            processed: handled.processed,
        }))
    }

    async fn get_membership_price(
        &self,
        _request: Request<pb::GetMembershipPriceRequest>,
    ) -> Reply<pb::GetMembershipPriceResponse> {
        ok(pb::GetMembershipPriceResponse {
            monthly_price: Some(self.state.config.membership_price().into()),
        })
    }

    async fn get_membership(
        &self,
        request: Request<pb::GetMembershipRequest>,
    ) -> Reply<pb::GetMembershipResponse> {
        let caller = caller(&request)?;
        let id = access::own_or_named_by_admin(
            &caller,
            "professional_id",
            &request.get_ref().professional_id,
        )?;
        let membership = membership::get(&self.state.db, id).await?;
        ok(pb::GetMembershipResponse {
            membership: Some(membership_to_proto(
                &membership,
                self.state.config.membership_price(),
            )),
        })
    }

    async fn quote_membership(
        &self,
        request: Request<pb::QuoteMembershipRequest>,
    ) -> Reply<pb::QuoteMembershipResponse> {
        let caller = caller(&request)?;
        let buyer = match caller.role {
            Role::Admin => QuoteFor::Admin,
            _ => QuoteFor::Professional(caller.account_id),
        };
        let config = &self.state.config;
        let price = config.membership_price();
        let quote = membership::quote(
            &self.state.db,
            &config.registrations(),
            price,
            buyer,
            &request.get_ref().coupon_code,
        )
        .await?;
        let total = quote.sale.total();
        ok(pb::QuoteMembershipResponse {
            monthly_price: Some(price.into()),
            discount_percent: quote.discount_percent,
            amount_payable: Some(total.into()),
            subtotal: Some(quote.sale.subtotal.into()),
            taxes: membership_tax_lines(&quote.sale),
            total: Some(total.into()),
        })
    }

    async fn purchase_membership(
        &self,
        request: Request<pb::PurchaseMembershipRequest>,
    ) -> Reply<pb::PurchaseMembershipResponse> {
        let caller = caller(&request)?;
        let req = request.into_inner();
        let issuer = Issuer::of(&self.state.config);
        let purchased = membership::purchase(
            &self.ledger(),
            caller.account_id,
            &PurchaseRequest {
                price: self.state.config.membership_price(),
                issuer: &issuer,
                payment_method: &req.payment_method,
                coupon_code: &req.coupon_code,
                request_id: &req.request_id,
            },
        )
        .await?;
        self.state.outbox.wake();
        ok(pb::PurchaseMembershipResponse {
            membership: Some(membership_to_proto(
                &purchased.membership,
                self.state.config.membership_price(),
            )),
            payment: purchased.payment.map(payment_to_proto),
            subtotal: Some(purchased.sale.subtotal.into()),
            taxes: membership_tax_lines(&purchased.sale),
            total: Some(purchased.sale.total().into()),
        })
    }

    async fn create_coupon(
        &self,
        request: Request<pb::CreateCouponRequest>,
    ) -> Reply<pb::CreateCouponResponse> {
        let caller = caller(&request)?;
        let req = request.into_inner();
        let expires_at = req
            .expire_time
            .as_ref()
            .map(|t| time_from_proto("expire_time", t))
            .transpose()?;
        let coupon = coupons::create(
            &self.state,
            &caller,
            &NewCoupon {
                code: &req.code,
                discount_percent: req.discount_percent,
                expires_at,
                max_redemptions: req.max_redemptions,
            },
        )
        .await?;
        ok(pb::CreateCouponResponse {
            coupon: Some(coupon_to_proto(coupon)),
        })
    }

    async fn list_coupons(
        &self,
        request: Request<pb::ListCouponsRequest>,
    ) -> Reply<pb::ListCouponsResponse> {
        let req = request.into_inner();
        let page = PageRequest::parse(req.page_size, &req.page_token)?;
        let (rows, next_page_token) = coupons::list(&self.state, &page).await?;
        ok(pb::ListCouponsResponse {
            coupons: rows.into_iter().map(coupon_to_proto).collect(),
            next_page_token,
        })
    }

    async fn set_coupon_active(
        &self,
        request: Request<pb::SetCouponActiveRequest>,
    ) -> Reply<pb::SetCouponActiveResponse> {
        let caller = caller(&request)?;
        let req = request.into_inner();
        let id = parse_id("id", &req.id)?;
        let coupon = coupons::set_active(&self.state, &caller, id, req.active).await?;
        ok(pb::SetCouponActiveResponse {
            coupon: Some(coupon_to_proto(coupon)),
        })
    }

    async fn delete_coupon(
        &self,
        request: Request<pb::DeleteCouponRequest>,
    ) -> Reply<pb::DeleteCouponResponse> {
        let caller = caller(&request)?;
        let id = parse_id("id", &request.get_ref().id)?;
        coupons::delete(&self.state, &caller, id).await?;
        ok(pb::DeleteCouponResponse {})
    }

    async fn create_test_charge(
        &self,
        request: Request<pb::CreateTestChargeRequest>,
    ) -> Reply<pb::CreateTestChargeResponse> {
        let caller = caller(&request)?;
        let req = request.into_inner();
        let payment = test_charge::create(
            &self.ledger(),
            caller.account_id,
            &req.payment_method,
            &req.coupon_code,
            &req.request_id,
        )
        .await?;
        ok(pb::CreateTestChargeResponse {
            payment: Some(payment_to_proto(payment)),
        })
    }

    async fn capture_payment(
        &self,
        request: Request<pb::CapturePaymentRequest>,
    ) -> Reply<pb::CapturePaymentResponse> {
        let caller = caller(&request)?;
        let req = request.into_inner();
        let payment = self
            .admin_step(caller, req.target, Step::Capture, &req.request_id, "")
            .await?;
        ok(pb::CapturePaymentResponse {
            payment: Some(payment),
        })
    }

    async fn void_payment(
        &self,
        request: Request<pb::VoidPaymentRequest>,
    ) -> Reply<pb::VoidPaymentResponse> {
        let caller = caller(&request)?;
        let req = request.into_inner();
        let payment = self
            .admin_step(caller, req.target, Step::Void, &req.request_id, &req.reason)
            .await?;
        ok(pb::VoidPaymentResponse {
            payment: Some(payment),
        })
    }

    async fn refund_payment(
        &self,
        request: Request<pb::RefundPaymentRequest>,
    ) -> Reply<pb::RefundPaymentResponse> {
        let caller = caller(&request)?;
        let req = request.into_inner();
        let ledger = self.ledger();
        let payment = admin::refund(
            &self.state,
            &ledger,
            caller.account_id,
            target(req.target),
            req.amount,
            &req.request_id,
            &req.reason,
        )
        .await?;
        // The order follows a payment refunded in full; each refund's credit note is told.
        hiring::settle(&self.state, &payment).await?;
        refunds::tell(&self.state, &payment).await?;
        let made = refunds::of_payment(&self.state.db, payment.id).await?;
        ok(pb::RefundPaymentResponse {
            payment: Some(payment_with_refunds(payment, made)),
        })
    }

    async fn confirm_payment(
        &self,
        request: Request<pb::ConfirmPaymentRequest>,
    ) -> Reply<pb::ConfirmPaymentResponse> {
        let ledger = self.ledger();
        let who = caller(&request)?;
        let before = self
            .own_payment(&ledger, who, &request.get_ref().payment_id)
            .await?;
        let answer = match request.get_ref().test_authentication() {
            pb::TestAuthentication::Unspecified => None,
            pb::TestAuthentication::Approve => Some(TestAuthentication::Approve),
            pb::TestAuthentication::Refuse => Some(TestAuthentication::Refuse),
        };
        let confirming = async {
            match answer {
                Some(answer) => ledger.answer_and_confirm(before.id, answer).await,
                None => ledger.confirm(before.id).await,
            }
        };
        let payment = if who.role == Role::Admin {
            admin::confirm(&ledger, who.account_id, &before, confirming).await?
        } else {
            confirming.await.map_err(ApiError::from)?
        };
        membership::grant_if_captured(ledger.db(), &Issuer::of(&self.state.config), &payment)
            .await
            .map_err(ApiError::from)?;
        hiring::settle(&self.state, &payment).await?;
        self.state.outbox.wake();
        ok(pb::ConfirmPaymentResponse {
            payment: Some(payment_to_proto(payment)),
        })
    }

    async fn preview_hire(
        &self,
        request: Request<pb::PreviewHireRequest>,
    ) -> Reply<pb::PreviewHireResponse> {
        let caller = caller(&request)?;
        let preview =
            hiring::preview(&self.state, caller.account_id, &request.get_ref().quote_id).await?;
        let language = reply_language(&self.state.db, &caller, request.get_ref().language).await?;
        let (quote, sale) = (preview.quote, preview.sale);
        let total = sale.total();
        ok(pb::PreviewHireResponse {
            service_name: quote.service_name.of(language).to_owned(),
            estimated_minutes: quote.estimated_minutes,
            professional_name: quote.professional_name,
            fee: Some(sale.subtotal.into()),
            amount_payable: Some(total.into()),
            subtotal: Some(sale.subtotal.into()),
            taxes: tax_lines_to_proto(&sale),
            total: Some(total.into()),
            tax_treatment: tax_treatment_to_proto(quote.tax_treatment) as i32,
        })
    }

    async fn hire_professional(
        &self,
        request: Request<pb::HireProfessionalRequest>,
    ) -> Reply<pb::HireProfessionalResponse> {
        let caller = caller(&request)?;
        let req = request.get_ref();
        let order = hiring::hire(
            &self.state,
            caller.account_id,
            HireForm {
                quote_id: &req.quote_id,
                payment_method: &req.payment_method,
                request_id: &req.request_id,
            },
        )
        .await?;
        let (view, payment) = hiring::order_with_payment(&self.state, &order).await?;
        ok(pb::HireProfessionalResponse {
            order: Some(order_to_proto(view, payment)),
        })
    }

    async fn list_orders(
        &self,
        request: Request<pb::ListOrdersRequest>,
    ) -> Reply<pb::ListOrdersResponse> {
        use pb::list_orders_request::Party;
        let who = who(&request)?;
        let req = request.into_inner();
        let page = PageRequest::parse(req.page_size, &req.page_token)?;
        let caller = match who {
            Who::Person(caller) => caller,
            Who::Service(service) => {
                // A service account has no orders of its own: it names the party, if any.
                let whose = match &req.party {
                    Some(Party::CustomerId(id)) => Whose::Customer(parse_id("customer_id", id)?),
                    Some(Party::ProfessionalId(id)) => {
                        Whose::Professional(parse_id("professional_id", id)?)
                    }
                    None => Whose::All,
                };
                let (rows, next_page_token, disclosure) =
                    hiring::list_orders_for_service(&self.state, &service, whose, &page).await?;
                let mut reply = orders_reply(rows, next_page_token);
                if disclosure == hiring::Disclosure::WithoutContacts {
                    reply.orders.iter_mut().for_each(withhold_contacts);
                }
                return ok(reply);
            }
        };
        // A party named by an empty id is the caller.
        let whose = match &req.party {
            Some(Party::CustomerId(id)) => {
                Whose::Customer(access::named_or_caller(&caller, "customer_id", id)?)
            }
            Some(Party::ProfessionalId(id)) => {
                Whose::Professional(access::named_or_caller(&caller, "professional_id", id)?)
            }
            None => Whose::All,
        };
        let (rows, next_page_token) =
            hiring::list_orders(&self.state, &caller, whose, &page).await?;
        ok(orders_reply(rows, next_page_token))
    }

    async fn get_payment(
        &self,
        request: Request<pb::GetPaymentRequest>,
    ) -> Reply<pb::GetPaymentResponse> {
        let payment = self
            .own_payment(
                &self.ledger(),
                caller(&request)?,
                &request.get_ref().payment_id,
            )
            .await?;
        let made = refunds::of_payment(&self.state.db, payment.id).await?;
        ok(pb::GetPaymentResponse {
            payment: Some(payment_with_refunds(payment, made)),
        })
    }

    async fn get_payout_account(
        &self,
        request: Request<pb::GetPayoutAccountRequest>,
    ) -> Reply<pb::GetPayoutAccountResponse> {
        let caller = caller(&request)?;
        let id = access::named_or_caller(
            &caller,
            "professional_id",
            &request.get_ref().professional_id,
        )?;
        let account = payouts::account(&self.state, &caller, id).await?;
        ok(pb::GetPayoutAccountResponse {
            account: Some(payout_view::account_to_proto(account)),
        })
    }

    async fn create_payout_onboarding_link(
        &self,
        request: Request<pb::CreatePayoutOnboardingLinkRequest>,
    ) -> Reply<pb::CreatePayoutOnboardingLinkResponse> {
        let caller = caller(&request)?;
        let link = payouts::onboarding_link(&self.state, &caller).await?;
        ok(pb::CreatePayoutOnboardingLinkResponse {
            url: link.url,
            expire_time: Some(timestamp(link.expires_at)),
        })
    }

    async fn list_payouts(
        &self,
        request: Request<pb::ListPayoutsRequest>,
    ) -> Reply<pb::ListPayoutsResponse> {
        let caller = caller(&request)?;
        let req = request.into_inner();
        let id = access::named_or_caller(&caller, "professional_id", &req.professional_id)?;
        let page = PageRequest::parse(req.page_size, &req.page_token)?;
        let (rows, next_page_token) = payouts::list(&self.state, &caller, id, &page).await?;
        ok(pb::ListPayoutsResponse {
            payouts: rows.into_iter().map(payout_view::payout_to_proto).collect(),
            next_page_token,
        })
    }

    async fn record_manual_payout(
        &self,
        request: Request<pb::RecordManualPayoutRequest>,
    ) -> Reply<pb::RecordManualPayoutResponse> {
        let caller = caller(&request)?;
        let req = request.into_inner();
        let form = ManualPayoutForm {
            professional_id: &req.professional_id,
            order_ids: &req.order_ids,
            note: &req.note,
            request_id: &req.request_id,
        };
        let rows = manual_payouts::record(&self.state, caller.account_id, &form).await?;
        ok(pb::RecordManualPayoutResponse {
            payouts: rows.into_iter().map(payout_view::payout_to_proto).collect(),
        })
    }

    async fn get_receipt(
        &self,
        request: Request<pb::GetReceiptRequest>,
    ) -> Reply<pb::GetReceiptResponse> {
        let caller = caller(&request)?;
        let req = request.into_inner();
        let id = parse_id("payment_id", &req.payment_id)?;
        let language = reply_language(&self.state.db, &caller, req.language).await?;
        let refund_id = match req.refund_id.trim() {
            "" => None,
            given => Some(parse_id("refund_id", given)?),
        };
        let receipt = receipts::receipt(&self.state, &caller, id, refund_id, language).await?;
        ok(pb::GetReceiptResponse {
            receipt: Some(receipt_view::receipt_to_proto(receipt)),
        })
    }

    async fn get_monthly_statement(
        &self,
        request: Request<pb::GetMonthlyStatementRequest>,
    ) -> Reply<pb::GetMonthlyStatementResponse> {
        let caller = caller(&request)?;
        let req = request.into_inner();
        let id = access::named_or_caller(&caller, "professional_id", &req.professional_id)?;
        let language = reply_language(&self.state.db, &caller, req.language).await?;
        let statement =
            statement::statement(&self.state, &caller, id, &req.month, language).await?;
        ok(pb::GetMonthlyStatementResponse {
            statement: Some(receipt_view::statement_to_proto(statement)),
        })
    }

    async fn get_tax_report(
        &self,
        request: Request<pb::GetTaxReportRequest>,
    ) -> Reply<pb::GetTaxReportResponse> {
        let req = request.into_inner();
        let rows = tax_report::report(&self.state, &req.start_date, &req.end_date).await?;
        ok(pb::GetTaxReportResponse {
            csv: tax_report::csv(&rows),
            rows: rows.iter().map(receipt_view::tax_row_to_proto).collect(),
        })
    }

    async fn list_disputes(
        &self,
        request: Request<pb::ListDisputesRequest>,
    ) -> Reply<pb::ListDisputesResponse> {
        let req = request.into_inner();
        let page = PageRequest::parse(req.page_size, &req.page_token)?;
        let only = dispute_view::state_filter(req.state)?;
        let (rows, next_page_token) = disputes::answer::list(&self.state, only, &page).await?;
        ok(pb::ListDisputesResponse {
            disputes: rows
                .into_iter()
                .map(dispute_view::dispute_to_proto)
                .collect(),
            next_page_token,
        })
    }

    async fn get_dispute(
        &self,
        request: Request<pb::GetDisputeRequest>,
    ) -> Reply<pb::GetDisputeResponse> {
        let (row, evidence) =
            disputes::answer::get(&self.state, &request.get_ref().dispute_id).await?;
        ok(pb::GetDisputeResponse {
            dispute: Some(dispute_view::dispute_to_proto(row)),
            evidence: Some(dispute_view::evidence_to_proto(evidence)),
        })
    }

    async fn submit_dispute_evidence(
        &self,
        request: Request<pb::SubmitDisputeEvidenceRequest>,
    ) -> Reply<pb::SubmitDisputeEvidenceResponse> {
        let caller = caller(&request)?;
        let req = request.into_inner();
        let (row, evidence) = disputes::answer::submit(
            &self.state,
            caller.account_id,
            &req.dispute_id,
            &req.request_id,
            &req.note,
        )
        .await?;
        ok(pb::SubmitDisputeEvidenceResponse {
            dispute: Some(dispute_view::dispute_to_proto(row)),
            evidence: Some(dispute_view::evidence_to_proto(evidence)),
        })
    }
}

fn orders_reply(
    rows: Vec<(crate::store::orders::OrderView, crate::billing::Payment)>,
    next_page_token: String,
) -> pb::ListOrdersResponse {
    pb::ListOrdersResponse {
        orders: rows
            .into_iter()
            .map(|(view, payment)| order_to_proto(view, Some(payment)))
            .collect(),
        next_page_token,
    }
}
