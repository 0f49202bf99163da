//! The audit trail: every RPC that the access table opens to admins and marks `WRITES` is
//! called once by an admin through the running server, with a minimal valid request, and must
//! leave exactly one audit entry naming the admin, the action, the record and what the record
//! was before and after. The list comes from the table, so a new admin RPC fails here until it
//! writes its entry (and has a call below) or is marked `READS`.

use crate::helpers::{
    AccountsClient, TestServer, admin_token, licence_upload,
    market::{
        CALGARY_PRO, Market, PLUMBING, VISA, complete, customer, db, hire, in_calgary, market,
        place, professional,
    },
    send_quote, with_token,
};
use prost_types::FieldMask;
use repairs_proto::{
    accounts as acc,
    billing::{self as bill, billing_service_client::BillingServiceClient},
    content::{self as cms, content_service_client::ContentServiceClient},
    marketplace::{self as mkt, RepairRequest},
    types::{Language, LocalizedText},
};
use repairs_server::{auth::policy::audited_admin_rpcs, domain::Role};
use tonic::{Status, transport::Channel};
use uuid::Uuid;

/// What the entry must say of the record.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Change {
    /// Made by the call: an "after" and no "before".
    Created,
    /// Changed by the call: both, and they differ.
    Updated,
    /// Removed by the call: a "before" and no "after".
    Removed,
}

/// The entry a call must leave.
struct Expected {
    action: &'static str,
    target_type: &'static str,
    target_id: String,
    change: Change,
}

fn expect(action: &'static str, target: (&'static str, String), change: Change) -> Expected {
    Expected {
        action,
        target_type: target.0,
        target_id: target.1,
        change,
    }
}

#[derive(Debug, sqlx::FromRow)]
struct Entry {
    admin_id: Option<Uuid>,
    action: String,
    target_type: String,
    target_id: String,
    before_json: Option<serde_json::Value>,
    after_json: Option<serde_json::Value>,
}

struct World {
    server: TestServer,
    token: String,
    accounts: AccountsClient,
    billing: BillingServiceClient<Channel>,
    content: ContentServiceClient<Channel>,
    /// The audit entries that were there before the call under test.
    seen: Vec<Uuid>,
}

impl World {
    fn admin<T>(&self, message: T) -> tonic::Request<T> {
        with_token(message, &self.token)
    }

    /// Forgets the entries written so far: the call under test comes next.
    async fn mark(&mut self) {
        self.seen = sqlx::query_scalar("select id from audit_events")
            .fetch_all(db(&self.server))
            .await
            .unwrap();
    }

    async fn entries_since_mark(&self) -> Vec<Entry> {
        sqlx::query_as(
            "select admin_id, action, target_type, target_id, before_json, after_json
             from audit_events where not (id = any($1)) order by created_at, id",
        )
        .bind(&self.seen)
        .fetch_all(db(&self.server))
        .await
        .unwrap()
    }

    async fn coupon(&mut self) -> String {
        let request = self.admin(bill::CreateCouponRequest {
            code: format!("SAVE{}", &Uuid::new_v4().simple().to_string()[..8]),
            discount_percent: 10,
            expire_time: None,
            max_redemptions: 0,
        });
        let coupon = self.billing.create_coupon(request).await.unwrap();
        coupon.into_inner().coupon.unwrap().id
    }

    /// An admin's test charge: a live hold on the test gateway.
    async fn held_payment(&mut self) -> String {
        let request = self.admin(bill::CreateTestChargeRequest {
            payment_method: "4242 4242 4242 4242".into(),
            coupon_code: String::new(),
            request_id: Uuid::now_v7().to_string(),
        });
        let payment = self.billing.create_test_charge(request).await.unwrap();
        payment.into_inner().payment.unwrap().id
    }

    fn target(payment_id: &str) -> Option<bill::PaymentTarget> {
        Some(bill::PaymentTarget {
            target: Some(bill::payment_target::Target::PaymentId(payment_id.into())),
        })
    }

    async fn capture(&mut self, payment_id: &str) -> Result<(), Status> {
        let request = self.admin(bill::CapturePaymentRequest {
            target: Self::target(payment_id),
            request_id: Uuid::now_v7().to_string(),
        });
        self.billing.capture_payment(request).await.map(drop)
    }

    /// Calls `path` as the admin and says which entry it must leave; `None` when this test
    /// does not know the RPC yet.
    async fn call(&mut self, path: &str) -> Option<Result<Expected, Status>> {
        let method = path.rsplit('/').next().unwrap_or_default();
        Some(match method {
            "DeleteCustomer" => self.delete_customer().await,
            "ApproveProfessional" => self.decide(true).await,
            "DenyProfessional" => self.decide(false).await,
            "ApprovePendingChange" => self.decide_pending_change(true).await,
            "RefusePendingChange" => self.decide_pending_change(false).await,
            "DeleteProfessional" => self.delete_professional().await,
            "SetProfessionalAvailability" => self.set_availability().await,
            "ConfirmPayment" => self.confirm_payment().await,
            "CapturePayment" => self.capture_payment().await,
            "VoidPayment" => self.void_payment().await,
            "RefundPayment" => self.refund_payment().await,
            "CreateCoupon" => self.create_coupon().await,
            "SetCouponActive" => self.set_coupon_active().await,
            "DeleteCoupon" => self.delete_coupon().await,
            "CreateTestCharge" => self.create_test_charge().await,
            "RecordManualPayout" => self.record_manual_payout().await,
            "SubmitDisputeEvidence" => self.submit_dispute_evidence().await,
            "CreateService" => self.create_service().await,
            "UpdateService" => self.update_service().await,
            "DeleteService" => self.delete_service().await,
            "ReorderServices" => self.reorder_services().await,
            "UpdateHomePage" => self.update_home_page().await,
            "UpdateProfessionalPage" => self.update_professional_page().await,
            "UpdateLegalPage" => self.update_legal_page().await,
            "MarkContactMessageRead" => self.mark_contact_message_read().await,
            "ResolveConversationReport" => self.resolve_conversation_report().await,
            "SendMessage" => self.send_message_on_a_problem().await,
            "ResolveJobProblem" => self.resolve_job_problem().await,
            "CreateServiceAccount" => self.create_service_account().await.map(|(e, _)| e),
            "RotateServiceAccountKey" => self.rotate_service_account_key().await,
            "RevokeServiceAccount" => self.revoke_service_account().await,
            "RecordPrivacyIncident" => self.record_privacy_incident().await,
            "RequestDataExport" => self.request_data_export().await,
            _ => return None,
        })
    }

    /// A new service account: its entry and its id.
    async fn create_service_account(&mut self) -> Result<(Expected, String), Status> {
        let request = self.admin(acc::CreateServiceAccountRequest {
            name: "Reporting".into(),
            scopes: vec!["orders.read".into()],
        });
        let made = self.accounts.create_service_account(request).await?;
        let id = made.into_inner().service_account.unwrap_or_default().id;
        let target = ("service_account", id.clone());
        Ok((
            expect("service_account.create", target, Change::Created),
            id,
        ))
    }

    async fn rotate_service_account_key(&mut self) -> Result<Expected, Status> {
        let (_, id) = self.create_service_account().await?;
        self.mark().await;
        let request = self.admin(acc::RotateServiceAccountKeyRequest { id: id.clone() });
        self.accounts.rotate_service_account_key(request).await?;
        let target = ("service_account", id);
        Ok(expect(
            "service_account.rotate_key",
            target,
            Change::Updated,
        ))
    }

    async fn revoke_service_account(&mut self) -> Result<Expected, Status> {
        let (_, id) = self.create_service_account().await?;
        self.mark().await;
        let request = self.admin(acc::RevokeServiceAccountRequest { id: id.clone() });
        self.accounts.revoke_service_account(request).await?;
        let target = ("service_account", id);
        Ok(expect("service_account.revoke", target, Change::Updated))
    }

    async fn request_data_export(&mut self) -> Result<Expected, Status> {
        let (id, _) = self.server.account_token(Role::Customer).await;
        let request = self.admin(acc::RequestDataExportRequest {
            account_id: id.to_string(),
            role: acc::Role::Customer as i32,
        });
        self.accounts.request_data_export(request).await?;
        Ok(expect(
            "data_export.request",
            ("customer", id.to_string()),
            Change::Created,
        ))
    }

    async fn record_privacy_incident(&mut self) -> Result<Expected, Status> {
        let now = prost_types::Timestamp {
            seconds: chrono::Utc::now().timestamp() - 60,
            nanos: 0,
        };
        let request = self.admin(acc::RecordPrivacyIncidentRequest {
            incident: Some(acc::PrivacyIncident {
                occurred_at: Some(now),
                discovered_at: Some(now),
                description: "A laptop with a support export was stolen.".into(),
                information_involved: "Customers' names and emails".into(),
                people_affected: 12,
                risk_assessment: "The disk was encrypted.".into(),
                ..Default::default()
            }),
        });
        let recorded = self.accounts.record_privacy_incident(request).await?;
        let id = recorded.into_inner().incident.unwrap_or_default().id;
        Ok(expect(
            "privacy_incident.record",
            ("privacy_incident", id),
            Change::Created,
        ))
    }

    async fn delete_customer(&mut self) -> Result<Expected, Status> {
        let (id, _) = self.server.account_token(Role::Customer).await;
        let request = self.admin(acc::DeleteCustomerRequest { id: id.to_string() });
        self.accounts.delete_customer(request).await?;
        Ok(expect(
            "customer.delete",
            ("customer", id.to_string()),
            Change::Updated,
        ))
    }

    async fn decide(&mut self, approve: bool) -> Result<Expected, Status> {
        let (id, _) = self.server.account_token(Role::Professional).await;
        let target = ("professional", id.to_string());
        if approve {
            let request = self.admin(acc::ApproveProfessionalRequest { id: id.to_string() });
            self.accounts.approve_professional(request).await?;
            Ok(expect("professional.approve", target, Change::Updated))
        } else {
            let request = self.admin(acc::DenyProfessionalRequest {
                id: id.to_string(),
                reason: "The licence is unreadable".into(),
            });
            self.accounts.deny_professional(request).await?;
            Ok(expect("professional.deny", target, Change::Updated))
        }
    }

    /// An approved professional's licence upload waits for an admin, who decides it.
    async fn decide_pending_change(&mut self, approve: bool) -> Result<Expected, Status> {
        let (id, token) = self.server.account_token(Role::Professional).await;
        let request = self.admin(acc::ApproveProfessionalRequest { id: id.to_string() });
        self.accounts.approve_professional(request).await?;
        let upload = licence_upload(&id.to_string(), &token);
        self.accounts.add_licence(upload).await?;
        self.mark().await;
        let target = ("professional", id.to_string());
        if approve {
            let request = self.admin(acc::ApprovePendingChangeRequest {
                id: id.to_string(),
                revision: 0,
            });
            self.accounts.approve_pending_change(request).await?;
            Ok(expect(
                "professional.pending_change.approve",
                target,
                Change::Updated,
            ))
        } else {
            let request = self.admin(acc::RefusePendingChangeRequest {
                id: id.to_string(),
                reason: "The licence is unreadable".into(),
                ..Default::default()
            });
            self.accounts.refuse_pending_change(request).await?;
            Ok(expect(
                "professional.pending_change.refuse",
                target,
                Change::Updated,
            ))
        }
    }

    async fn delete_professional(&mut self) -> Result<Expected, Status> {
        let (id, _) = self.server.account_token(Role::Professional).await;
        let request = self.admin(acc::DeleteProfessionalRequest { id: id.to_string() });
        self.accounts.delete_professional(request).await?;
        Ok(expect(
            "professional.delete",
            ("professional", id.to_string()),
            Change::Removed,
        ))
    }

    async fn set_availability(&mut self) -> Result<Expected, Status> {
        let (id, _) = self.server.account_token(Role::Professional).await;
        let request = self.admin(acc::SetProfessionalAvailabilityRequest {
            id: id.to_string(),
            paused_until: Some(prost_types::Timestamp {
                seconds: (chrono::Utc::now() + chrono::Duration::days(2)).timestamp(),
                nanos: 0,
            }),
            on_call_until: None,
        });
        self.accounts.set_professional_availability(request).await?;
        Ok(expect(
            "professional.availability",
            ("professional", id.to_string()),
            Change::Updated,
        ))
    }

    async fn confirm_payment(&mut self) -> Result<Expected, Status> {
        let (payer, _) = self.server.account_token(Role::Professional).await;
        let payment = self.server.pending_membership_payment(payer).await;
        let request = self.admin(bill::ConfirmPaymentRequest {
            payment_id: payment.id.to_string(),
            test_authentication: bill::TestAuthentication::Approve as i32,
        });
        self.billing.confirm_payment(request).await?;
        Ok(expect(
            "payment.confirm",
            ("payment", payment.id.to_string()),
            Change::Updated,
        ))
    }

    async fn capture_payment(&mut self) -> Result<Expected, Status> {
        let payment = self.held_payment().await;
        self.mark().await;
        self.capture(&payment).await?;
        Ok(expect(
            "payment.capture",
            ("payment", payment),
            Change::Updated,
        ))
    }

    async fn void_payment(&mut self) -> Result<Expected, Status> {
        let payment = self.held_payment().await;
        self.mark().await;
        let request = self.admin(bill::VoidPaymentRequest {
            target: Self::target(&payment),
            request_id: Uuid::now_v7().to_string(),
            reason: String::new(),
        });
        self.billing.void_payment(request).await?;
        Ok(expect(
            "payment.void",
            ("payment", payment),
            Change::Updated,
        ))
    }

    async fn refund_payment(&mut self) -> Result<Expected, Status> {
        let payment = self.held_payment().await;
        self.capture(&payment).await.unwrap();
        self.mark().await;
        let request = self.admin(bill::RefundPaymentRequest {
            target: Self::target(&payment),
            request_id: Uuid::now_v7().to_string(),
            reason: "Charged twice".into(),
            amount: None,
        });
        self.billing.refund_payment(request).await?;
        Ok(expect(
            "payment.refund",
            ("payment", payment),
            Change::Updated,
        ))
    }

    async fn create_coupon(&mut self) -> Result<Expected, Status> {
        let id = self.coupon().await;
        Ok(expect("coupon.create", ("coupon", id), Change::Created))
    }

    async fn set_coupon_active(&mut self) -> Result<Expected, Status> {
        let id = self.coupon().await;
        self.mark().await;
        let request = self.admin(bill::SetCouponActiveRequest {
            id: id.clone(),
            active: false,
        });
        self.billing.set_coupon_active(request).await?;
        Ok(expect("coupon.deactivate", ("coupon", id), Change::Updated))
    }

    async fn delete_coupon(&mut self) -> Result<Expected, Status> {
        let id = self.coupon().await;
        self.mark().await;
        let request = self.admin(bill::DeleteCouponRequest { id: id.clone() });
        self.billing.delete_coupon(request).await?;
        Ok(expect("coupon.delete", ("coupon", id), Change::Removed))
    }

    async fn create_test_charge(&mut self) -> Result<Expected, Status> {
        let id = self.held_payment().await;
        Ok(expect(
            "payment.test_charge",
            ("payment", id),
            Change::Created,
        ))
    }

    /// A customer's open request in Calgary and a plumber who may see it: a marketplace
    /// client, the customer's token, the professional's id and token, and the request.
    async fn request_and_professional(&self) -> (Market, String, (Uuid, String), RepairRequest) {
        let server = &self.server;
        let mut market = market(server).await;
        let (_, customer_token) = customer(server).await;
        let (pro_id, pro_token, _) = professional(server, CALGARY_PRO).await;
        let request = place(&mut market, &customer_token, Uuid::now_v7(), in_calgary())
            .await
            .unwrap();
        (market, customer_token, (pro_id, pro_token), request)
    }

    /// A hire completed and captured, then paid by hand (test mode).
    async fn record_manual_payout(&mut self) -> Result<Expected, Status> {
        let (mut market, customer_token, (pro_id, pro_token), request) =
            self.request_and_professional().await;
        let server = &self.server;
        let quote = send_quote(server, &pro_token, &request.id, 10_000).await;
        let order = hire(
            &self.billing,
            &customer_token,
            &quote.id,
            VISA,
            Uuid::now_v7(),
        )
        .await?;
        complete(&mut market, &customer_token, &request.id).await?;
        self.mark().await;
        let request = self.admin(bill::RecordManualPayoutRequest {
            professional_id: pro_id.to_string(),
            order_ids: vec![order.id],
            note: "Interac e-Transfer".into(),
            request_id: Uuid::now_v7().to_string(),
        });
        self.billing.record_manual_payout(request).await?;
        Ok(expect(
            "professional.record_payout",
            ("professional", pro_id.to_string()),
            Change::Updated,
        ))
    }

    async fn submit_dispute_evidence(&mut self) -> Result<Expected, Status> {
        let (mut market, customer_token, (_, pro_token), request) =
            self.request_and_professional().await;
        let server = &self.server;
        let quote = send_quote(server, &pro_token, &request.id, 10_000).await;
        let dispute_card = "tok_createDispute";
        hire(
            &self.billing,
            &customer_token,
            &quote.id,
            dispute_card,
            Uuid::now_v7(),
        )
        .await?;
        complete(&mut market, &customer_token, &request.id).await?;
        repairs_server::billing::disputes::apply_played(&server.server.state)
            .await
            .unwrap();
        let listed = self
            .billing
            .list_disputes(self.admin(bill::ListDisputesRequest::default()))
            .await?;
        let dispute_id = listed.into_inner().disputes.remove(0).id;
        self.mark().await;
        let request = self.admin(bill::SubmitDisputeEvidenceRequest {
            dispute_id: dispute_id.clone(),
            request_id: Uuid::now_v7().to_string(),
            note: "The repair was done; see the conversation.".into(),
        });
        self.billing.submit_dispute_evidence(request).await?;
        Ok(expect(
            "dispute.submit_evidence",
            ("dispute", dispute_id),
            Change::Updated,
        ))
    }

    async fn create_service(&mut self) -> Result<Expected, Status> {
        let request = self.admin(cms::CreateServiceRequest {
            name: Some(LocalizedText {
                en: "Locksmith".into(),
                fr: "Serrurier".into(),
            }),
            description: None,
            icon_content_type: String::new(),
            icon: Vec::new(),
        });
        let service = self.content.create_service(request).await?;
        let id = service.into_inner().service.unwrap_or_default().id;
        Ok(expect("service.create", ("service", id), Change::Created))
    }

    async fn update_service(&mut self) -> Result<Expected, Status> {
        let request = self.admin(cms::UpdateServiceRequest {
            id: PLUMBING.into(),
            name: Some(LocalizedText {
                en: String::new(),
                fr: "Plomberie d'urgence".into(),
            }),
            update_mask: Some(FieldMask {
                paths: vec!["name.fr".into()],
            }),
            ..Default::default()
        });
        self.content.update_service(request).await?;
        Ok(expect(
            "service.update",
            ("service", PLUMBING.into()),
            Change::Updated,
        ))
    }

    /// A service no request names, so it is deleted rather than archived.
    async fn delete_service(&mut self) -> Result<Expected, Status> {
        let create = self.admin(cms::CreateServiceRequest {
            name: Some(LocalizedText {
                en: "Chimney sweeping".into(),
                fr: "Ramonage".into(),
            }),
            ..Default::default()
        });
        let created = self.content.create_service(create).await?.into_inner();
        let id = created.service.unwrap_or_default().id;
        self.mark().await;
        let request = self.admin(cms::DeleteServiceRequest {
            id: id.clone(),
            etag: String::new(),
        });
        self.content.delete_service(request).await?;
        Ok(expect("service.delete", ("service", id), Change::Removed))
    }

    async fn reorder_services(&mut self) -> Result<Expected, Status> {
        let listed = self
            .content
            .list_services(cms::ListServicesRequest::default())
            .await?;
        let mut ids: Vec<String> = listed
            .into_inner()
            .services
            .into_iter()
            .map(|s| s.id)
            .collect();
        ids.reverse();
        let request = self.admin(cms::ReorderServicesRequest { service_ids: ids });
        self.content.reorder_services(request).await?;
        Ok(expect(
            "service.reorder",
            ("service_catalogue", "active".into()),
            Change::Updated,
        ))
    }

    async fn update_home_page(&mut self) -> Result<Expected, Status> {
        let request = self.admin(cms::UpdateHomePageRequest {
            language: Language::Fr as i32,
            page: Some(cms::HomePage {
                banner_h1: "Réparations d'urgence".into(),
                ..Default::default()
            }),
            etag: String::new(),
            update_mask: Some(FieldMask {
                paths: vec!["banner_h1".into()],
            }),
        });
        self.content.update_home_page(request).await?;
        Ok(expect(
            "home_page.update",
            ("home_page", "fr".into()),
            Change::Updated,
        ))
    }

    async fn update_professional_page(&mut self) -> Result<Expected, Status> {
        let request = self.admin(cms::UpdateProfessionalPageRequest {
            language: Language::En as i32,
            page: Some(cms::ProfessionalPage {
                banner_h1: "Find work near you".into(),
                ..Default::default()
            }),
            etag: String::new(),
            update_mask: Some(FieldMask {
                paths: vec!["banner_h1".into()],
            }),
        });
        self.content.update_professional_page(request).await?;
        Ok(expect(
            "professional_page.update",
            ("professional_page", "en".into()),
            Change::Updated,
        ))
    }

    async fn update_legal_page(&mut self) -> Result<Expected, Status> {
        let request = self.admin(cms::UpdateLegalPageRequest {
            language: Language::En as i32,
            page: Some(cms::LegalPage {
                kind: cms::LegalPageKind::Terms as i32,
                title: "Terms".into(),
                body: "Be kind.".into(),
                person_in_charge: String::new(),
            }),
            etag: String::new(),
        });
        self.content.update_legal_page(request).await?;
        Ok(expect(
            "terms_page.update",
            ("terms_page", "en".into()),
            Change::Updated,
        ))
    }

    /// A customer reports the conversation a professional opened on their request.
    async fn resolve_conversation_report(&mut self) -> Result<Expected, Status> {
        let (mut market, customer_token, (pro_id, pro_token), request) =
            self.request_and_professional().await;
        let send = mkt::SendMessageRequest {
            repair_request_id: request.id.clone(),
            text: "Pay me outside the app".into(),
            request_id: Uuid::now_v7().to_string(),
            ..Default::default()
        };
        market.send_message(with_token(send, &pro_token)).await?;
        let report = mkt::ReportConversationRequest {
            repair_request_id: request.id,
            professional_id: pro_id.to_string(),
            reason: mkt::ConversationReportReason::Fraud as i32,
            details: String::new(),
        };
        let reported = market
            .report_conversation(with_token(report, &customer_token))
            .await?;
        let id = reported.into_inner().report.unwrap_or_default().id;
        self.mark().await;
        let request = self.admin(mkt::ResolveConversationReportRequest {
            report_id: id.clone(),
            resolution_note: "Warned the professional".into(),
        });
        market.resolve_conversation_report(request).await?;
        Ok(expect(
            "conversation_report.resolve",
            ("conversation_report", id),
            Change::Updated,
        ))
    }

    /// A completed job whose customer reported a problem: the customer's token, the
    /// professional's id, the request and the problem.
    async fn reported_problem(
        &mut self,
    ) -> Result<(Market, (Uuid, RepairRequest), mkt::JobProblem), Status> {
        let (mut market, customer_token, (pro_id, pro_token), request) =
            self.request_and_professional().await;
        let quote = send_quote(&self.server, &pro_token, &request.id, 10_000).await;
        let key = Uuid::now_v7();
        hire(&self.billing, &customer_token, &quote.id, VISA, key).await?;
        complete(&mut market, &customer_token, &request.id).await?;
        let report = mkt::ReportJobProblemRequest {
            repair_request_id: request.id.clone(),
            text: "The leak is back".into(),
            photo_ids: Vec::new(),
            request_id: Uuid::now_v7().to_string(),
        };
        let problem = market
            .report_job_problem(with_token(report, &customer_token))
            .await?
            .into_inner()
            .problem
            .unwrap_or_default();
        Ok((market, (pro_id, request), problem))
    }

    /// An admin writes in the job's conversation while its problem is open.
    async fn send_message_on_a_problem(&mut self) -> Result<Expected, Status> {
        let (mut market, (pro_id, request), _) = self.reported_problem().await?;
        self.mark().await;
        let send = self.admin(mkt::SendMessageRequest {
            repair_request_id: request.id,
            professional_id: pro_id.to_string(),
            text: "We are looking into it".into(),
            request_id: Uuid::now_v7().to_string(),
            ..Default::default()
        });
        let sent = market.send_message(send).await?;
        let id = sent.into_inner().message.unwrap_or_default().id;
        Ok(expect(
            "conversation_message.send",
            ("conversation_message", id),
            Change::Created,
        ))
    }

    async fn resolve_job_problem(&mut self) -> Result<Expected, Status> {
        let (mut market, _, problem) = self.reported_problem().await?;
        self.mark().await;
        let request = self.admin(mkt::ResolveJobProblemRequest {
            id: problem.id.clone(),
            outcome: mkt::JobProblemOutcome::Note as i32,
            note: "The professional comes back on Monday".into(),
        });
        market.resolve_job_problem(request).await?;
        Ok(expect(
            "job_problem.resolve",
            ("job_problem", problem.id),
            Change::Updated,
        ))
    }

    async fn mark_contact_message_read(&mut self) -> Result<Expected, Status> {
        let sent = self
            .content
            .send_contact_message(cms::SendContactMessageRequest {
                name: "Ana Lopez".into(),
                email: "ana@example.ca".into(),
                message: "Do you cover Red Deer?".into(),
            })
            .await
            .unwrap();
        let id = sent.into_inner().id;
        let request = self.admin(cms::MarkContactMessageReadRequest {
            id: id.clone(),
            read: true,
        });
        self.content.mark_contact_message_read(request).await?;
        Ok(expect(
            "contact_message.mark_read",
            ("contact_message", id),
            Change::Updated,
        ))
    }
}

/// A record as the log keeps it: its fields, or a list (the catalogue's order).
fn is_object(value: Option<&serde_json::Value>) -> bool {
    value.is_some_and(|v| {
        v.as_object().is_some_and(|o| !o.is_empty()) || v.as_array().is_some_and(|a| !a.is_empty())
    })
}

/// What is wrong with the entries one call left; empty when it is right.
fn check(admin_id: Uuid, expected: &Expected, entries: &[Entry]) -> Vec<String> {
    let [entry] = entries else {
        let actions: Vec<&str> = entries.iter().map(|e| e.action.as_str()).collect();
        return vec![format!(
            "{} audit entries, not one: {actions:?}",
            entries.len()
        )];
    };
    let mut wrong = Vec::new();
    if entry.admin_id != Some(admin_id) {
        wrong.push(format!("admin {:?}, not {admin_id}", entry.admin_id));
    }
    if entry.action != expected.action {
        wrong.push(format!(
            "action {:?}, not {:?}",
            entry.action, expected.action
        ));
    }
    if (entry.target_type.as_str(), entry.target_id.as_str())
        != (expected.target_type, expected.target_id.as_str())
    {
        wrong.push(format!(
            "target {}/{}, not {}/{}",
            entry.target_type, entry.target_id, expected.target_type, expected.target_id
        ));
    }
    let (before, after) = (entry.before_json.as_ref(), entry.after_json.as_ref());
    let shape_ok = match expected.change {
        Change::Created => before.is_none() && is_object(after),
        Change::Updated => is_object(before) && is_object(after) && before != after,
        Change::Removed => is_object(before) && after.is_none(),
    };
    if !shape_ok {
        wrong.push(format!(
            "{:?} needs its before/after, got {before:?} -> {after:?}",
            expected.change
        ));
    }
    wrong
}

#[tokio::test]
async fn every_admin_rpc_that_writes_leaves_one_audit_entry() {
    let server = TestServer::start().await;
    let mut accounts = AccountsClient::new(server.channel().await);
    let token = admin_token(&server, &mut accounts).await;
    let admin_id: Uuid = sqlx::query_scalar("select id from admins")
        .fetch_one(db(&server))
        .await
        .unwrap();
    let channel = server.channel().await;
    let mut world = World {
        token,
        accounts,
        billing: BillingServiceClient::new(channel.clone()),
        content: ContentServiceClient::new(channel),
        seen: Vec::new(),
        server,
    };

    let mut failures = Vec::new();
    let mut checked = 0;
    for path in audited_admin_rpcs() {
        let path = path.as_str();
        world.mark().await;
        let expected = match world.call(path).await {
            None => {
                failures.push(format!(
                    "{path}: writes, but this test has no call for it: add one (or mark it \
                     READS in the access table)"
                ));
                continue;
            }
            Some(Err(status)) => {
                failures.push(format!("{path}: the call failed: {status:?}"));
                continue;
            }
            Some(Ok(expected)) => expected,
        };
        let entries = world.entries_since_mark().await;
        for wrong in check(admin_id, &expected, &entries) {
            failures.push(format!("{path}: {wrong}"));
        }
        checked += 1;
    }
    assert!(
        failures.is_empty(),
        "admin RPCs without a proper audit entry:\n{}",
        failures.join("\n")
    );
    assert!(
        checked >= 17,
        "only {checked} admin RPCs checked: was the table emptied?"
    );
    world.server.stop().await;
}

#[tokio::test]
async fn an_admin_opening_a_person_s_contacts_is_on_record_and_the_person_s_own_reads_are_not() {
    let server = TestServer::start().await;
    let mut accounts = AccountsClient::new(server.channel().await);
    let (customer_id, customer) = server.account_token(Role::Customer).await;
    let (pro_id, pro) = server.account_token(Role::Professional).await;
    let (admin_id, admin) = server.account_token(Role::Admin).await;
    let opened = |db: sqlx::PgPool| async move {
        sqlx::query_as::<_, (Option<Uuid>, String, String)>(
            "select admin_id, action, target_id from audit_events
             where action like '%.contacts_view' order by created_at, id",
        )
        .fetch_all(&db)
        .await
        .unwrap()
    };
    let get_customer = |id: Uuid| acc::GetCustomerRequest { id: id.to_string() };
    let get_pro = |id: Uuid| acc::GetProfessionalRequest { id: id.to_string() };
    accounts
        .get_customer(with_token(get_customer(customer_id), &customer))
        .await
        .unwrap();
    accounts
        .get_professional(with_token(get_pro(pro_id), &pro))
        .await
        .unwrap();
    assert!(opened(server.server.state.db.clone()).await.is_empty());

    accounts
        .get_customer(with_token(get_customer(customer_id), &admin))
        .await
        .unwrap();
    accounts
        .get_professional(with_token(get_pro(pro_id), &admin))
        .await
        .unwrap();
    assert_eq!(
        opened(server.server.state.db.clone()).await,
        [
            (
                Some(admin_id),
                "customer.contacts_view".to_owned(),
                customer_id.to_string()
            ),
            (
                Some(admin_id),
                "professional.contacts_view".to_owned(),
                pro_id.to_string()
            ),
        ]
    );
    server.stop().await;
}
