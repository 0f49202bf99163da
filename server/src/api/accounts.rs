//! AccountsService: decode, authorise the record, call `crate::accounts`, encode.

use repairs_proto::accounts::{self as pb, accounts_service_server::AccountsService};
use tonic::Request;

use super::account_view::*;
use super::client_addr::client_addr;
use super::convert::{Reply, ok};
use super::convert::{
    caller, language_from_proto, role_from_proto, role_to_proto, session, sms_from_proto,
    sms_to_proto, timestamp,
};
use crate::{
    accounts::{
        self as rules, consents::Arrival, directory, email_verification, password_reset,
        phone_verification, renewal, review, sessions, sms_replies, social, vetting,
    },
    auth::{Caller, access},
    domain::{Email, PeopleSearch, PersonName, Phone, Role, SmsUpdates},
    error::{ApiError, FieldViolation, parse_id},
    state::AppState,
    store::{accounts::AccountKind, page::PageRequest, professionals::LicenceRow},
};

pub struct AccountsApi {
    state: AppState,
}

impl AccountsApi {
    pub fn new(state: AppState) -> Self {
        Self { state }
    }

    /// A new account's language (`language` as the request asks; English when unset) and the
    /// client's address, for the record of the terms it agrees to.
    fn arrival<T>(&self, request: &Request<T>, language: i32) -> Arrival {
        Arrival {
            language: language_from_proto(language).unwrap_or_default(),
            client: client_addr(request, &self.state.config.trusted_proxies),
        }
    }
}

#[tonic::async_trait]
impl AccountsService for AccountsApi {
    async fn sign_up(&self, request: Request<pb::SignUpRequest>) -> Reply<pb::SignUpResponse> {
        let arrival = self.arrival(&request, request.get_ref().language);
        let req = request.into_inner();
        let role = role_from_proto("role", req.role)?;
        let signed = sessions::sign_up(
            &self.state,
            role,
            &req.name,
            &req.email,
            &req.password,
            arrival,
        )
        .await?;
        let account = match role {
            Role::Customer => pb::sign_up_response::Account::Customer(
                customer(&self.state, signed.account_id).await?,
            ),
            _ => pb::sign_up_response::Account::Professional(
                professional(&self.state, signed.account_id).await?,
            ),
        };
        ok(pb::SignUpResponse {
            session: Some(session(&signed.session)),
            account: Some(account),
        })
    }

    async fn log_in(&self, request: Request<pb::LogInRequest>) -> Reply<pb::LogInResponse> {
        let req = request.into_inner();
        let role = role_from_proto("role", req.role)?;
        let logged = sessions::log_in(&self.state, role, &req.email, &req.password).await?;
        let id = logged.account_id;
        let account = match role {
            Role::Customer => {
                pb::log_in_response::Account::Customer(customer(&self.state, id).await?)
            }
            Role::Professional => {
                pb::log_in_response::Account::Professional(professional(&self.state, id).await?)
            }
            Role::Admin => {
                let admin = logged
                    .admin
                    .ok_or_else(|| crate::error::not_found("admin"))?;
                pb::log_in_response::Account::Admin(pb::Admin {
                    id: id.to_string(),
                    name: admin.name,
                    email: admin.email,
                })
            }
        };
        ok(pb::LogInResponse {
            session: Some(session(&logged.session)),
            account: Some(account),
        })
    }

    async fn refresh_session(
        &self,
        request: Request<pb::RefreshSessionRequest>,
    ) -> Reply<pb::RefreshSessionResponse> {
        let renewed = renewal::renew(&self.state, &request.get_ref().refresh_token).await?;
        ok(pb::RefreshSessionResponse {
            session: Some(session(&renewed)),
        })
    }

    async fn sign_out(&self, request: Request<pb::SignOutRequest>) -> Reply<pb::SignOutResponse> {
        let req = request.get_ref();
        let push_endpoint = Some(req.push_endpoint.as_str()).filter(|e| !e.trim().is_empty());
        renewal::sign_out(&self.state, &req.refresh_token, push_endpoint).await?;
        ok(pb::SignOutResponse {})
    }

    async fn request_password_reset(
        &self,
        request: Request<pb::RequestPasswordResetRequest>,
    ) -> Reply<pb::RequestPasswordResetResponse> {
        let client = client_addr(&request, &self.state.config.trusted_proxies);
        let req = request.into_inner();
        let role = role_from_proto("role", req.role)?;
        let email = Email::parse(&req.email).map_err(|_| {
            ApiError::invalid(
                "email",
                "enter a valid email address, such as name@example.com",
            )
        })?;
        password_reset::request(&self.state, role, email, client).await?;
        ok(pb::RequestPasswordResetResponse {})
    }

    async fn check_password_reset_token(
        &self,
        request: Request<pb::CheckPasswordResetTokenRequest>,
    ) -> Reply<pb::CheckPasswordResetTokenResponse> {
        let req = request.into_inner();
        let role = role_from_proto("role", req.role)?;
        let valid = password_reset::check(&self.state, role, &req.account_id, &req.token).await?;
        ok(pb::CheckPasswordResetTokenResponse { valid })
    }

    async fn reset_password(
        &self,
        request: Request<pb::ResetPasswordRequest>,
    ) -> Reply<pb::ResetPasswordResponse> {
        let req = request.into_inner();
        let role = role_from_proto("role", req.role)?;
        password_reset::reset(
            &self.state,
            role,
            &req.account_id,
            &req.token,
            &req.new_password,
        )
        .await?;
        ok(pb::ResetPasswordResponse {})
    }

    async fn send_phone_code(
        &self,
        request: Request<pb::SendPhoneCodeRequest>,
    ) -> Reply<pb::SendPhoneCodeResponse> {
        let who = caller(&request)?;
        let client = client_addr(&request, &self.state.config.trusted_proxies);
        let req = request.into_inner();
        let (kind, id) = own_account(&who, &req.account_id)?;
        let phone = Phone::parse(&req.country_code, &req.phone_number).map_err(|e| {
            let field = if e.starts_with("choose") {
                "country_code"
            } else {
                "phone_number"
            };
            ApiError::invalid(field, e)
        })?;
        let sms_choice = sms_from_proto(req.sms_updates).filter(|c| *c != SmsUpdates::NotAsked);
        let sent =
            phone_verification::send_code(&self.state, kind, id, phone, sms_choice, client).await?;
        let now = chrono::Utc::now();
        let after = |d: std::time::Duration| {
            timestamp(now + chrono::Duration::from_std(d).unwrap_or_default())
        };
        ok(pb::SendPhoneCodeResponse {
            phone: sent.phone.to_string(),
            expire_time: Some(after(sent.expires_in)),
            next_send_time: Some(after(sent.next_send_in)),
        })
    }

    async fn verify_phone_code(
        &self,
        request: Request<pb::VerifyPhoneCodeRequest>,
    ) -> Reply<pb::VerifyPhoneCodeResponse> {
        let who = caller(&request)?;
        let req = request.into_inner();
        let (kind, id) = own_account(&who, &req.account_id)?;
        let phone = if req.phone.trim().is_empty() {
            None
        } else {
            Some(Phone::parse_e164(&req.phone).map_err(|e| ApiError::invalid("phone", e))?)
        };
        let phone =
            phone_verification::verify_code(&self.state, kind, id, phone, &req.code).await?;
        ok(pb::VerifyPhoneCodeResponse {
            phone: phone.to_string(),
        })
    }

    async fn update_sms_preference(
        &self,
        request: Request<pb::UpdateSmsPreferenceRequest>,
    ) -> Reply<pb::UpdateSmsPreferenceResponse> {
        let who = caller(&request)?;
        let req = request.into_inner();
        let (kind, id) = own_account(&who, &req.account_id)?;
        let choice = match sms_from_proto(req.sms_updates) {
            Some(choice @ (SmsUpdates::Yes | SmsUpdates::No)) => choice,
            _ => return Err(ApiError::invalid("sms_updates", "answer yes or no").into()),
        };
        directory::set_sms_updates(&self.state, kind, id, choice).await?;
        ok(pb::UpdateSmsPreferenceResponse {
            sms_updates: sms_to_proto(choice) as i32,
        })
    }

    async fn get_notification_preferences(
        &self,
        request: Request<pb::GetNotificationPreferencesRequest>,
    ) -> Reply<pb::GetNotificationPreferencesResponse> {
        super::notifications::get(&self.state, request).await
    }

    async fn handle_sms_reply(
        &self,
        request: Request<pb::HandleSmsReplyRequest>,
    ) -> Reply<pb::HandleSmsReplyResponse> {
        let req = request.into_inner();
        let handled = sms_replies::handle(&self.state, &req.payload, &req.signature)
            .await
            .inspect_err(|error| {
                if let ApiError::InvalidArgument { .. } = error {
                    self.state.metrics.webhook_failed("twilio", "signature");
                }
            })?;
        ok(pb::HandleSmsReplyResponse {
            keyword: handled
                .keyword
                .map(|k| k.as_str())
                .unwrap_or_default()
                .to_owned(),
            accounts: i32::try_from(handled.accounts).unwrap_or(i32::MAX),
        })
    }

    async fn update_notification_preferences(
        &self,
        request: Request<pb::UpdateNotificationPreferencesRequest>,
    ) -> Reply<pb::UpdateNotificationPreferencesResponse> {
        super::notifications::update(&self.state, request).await
    }

    async fn unsubscribe(
        &self,
        request: Request<pb::UnsubscribeRequest>,
    ) -> Reply<pb::UnsubscribeResponse> {
        super::notifications::unsubscribe(&self.state, request).await
    }

    async fn request_data_export(
        &self,
        request: Request<pb::RequestDataExportRequest>,
    ) -> Reply<pb::RequestDataExportResponse> {
        super::data_export::request(&self.state, request).await
    }

    async fn get_data_export(
        &self,
        request: Request<pb::GetDataExportRequest>,
    ) -> Reply<pb::GetDataExportResponse> {
        super::data_export::get(&self.state, request).await
    }

    async fn request_account_deletion(
        &self,
        request: Request<pb::RequestAccountDeletionRequest>,
    ) -> Reply<pb::RequestAccountDeletionResponse> {
        super::account_closure::request(&self.state, request).await
    }

    async fn cancel_account_deletion(
        &self,
        request: Request<pb::CancelAccountDeletionRequest>,
    ) -> Reply<pb::CancelAccountDeletionResponse> {
        super::account_closure::cancel(&self.state, request).await
    }

    async fn get_push_public_key(
        &self,
        _: Request<pb::GetPushPublicKeyRequest>,
    ) -> Reply<pb::GetPushPublicKeyResponse> {
        super::push::get_public_key(&self.state)
    }

    async fn add_push_subscription(
        &self,
        request: Request<pb::AddPushSubscriptionRequest>,
    ) -> Reply<pb::AddPushSubscriptionResponse> {
        super::push::add_subscription(&self.state, request).await
    }

    async fn remove_push_subscription(
        &self,
        request: Request<pb::RemovePushSubscriptionRequest>,
    ) -> Reply<pb::RemovePushSubscriptionResponse> {
        super::push::remove_subscription(&self.state, request).await
    }

    async fn get_customer(
        &self,
        request: Request<pb::GetCustomerRequest>,
    ) -> Reply<pb::GetCustomerResponse> {
        let who = caller(&request)?;
        let id = access::own_or_named_by_admin(&who, "id", &request.get_ref().id)?;
        directory::record_contacts_opened(&self.state, &who, AccountKind::Customer, id).await?;
        ok(pb::GetCustomerResponse {
            customer: Some(customer(&self.state, id).await?),
        })
    }

    async fn update_customer(
        &self,
        request: Request<pb::UpdateCustomerRequest>,
    ) -> Reply<pb::UpdateCustomerResponse> {
        let who = caller(&request)?;
        let req = request.into_inner();
        let id = access::own_or_given(&who, "id", &req.id)?;
        let mut violations = Vec::new();
        let name = PersonName::parse(&req.name)
            .map_err(|e| violations.push(FieldViolation::new("name", e)))
            .ok();
        let email = Email::parse(&req.email)
            .map_err(|e| violations.push(FieldViolation::new("email", e.to_string())))
            .ok();
        let (Some(name), Some(email)) = (name, email) else {
            return Err(ApiError::invalid_fields(violations).into());
        };
        // What is not sent (unspecified) is kept.
        let language = language_from_proto(req.language);
        let sms = sms_from_proto(req.sms_updates).filter(|c| *c != SmsUpdates::NotAsked);
        let row = directory::update_customer(&self.state, id, &name, &email, language, sms).await?;
        ok(pb::UpdateCustomerResponse {
            customer: Some(customer_to_proto(row)),
        })
    }

    async fn list_customers(
        &self,
        request: Request<pb::ListCustomersRequest>,
    ) -> Reply<pb::ListCustomersResponse> {
        let req = request.into_inner();
        let page = PageRequest::parse(req.page_size, &req.page_token)?;
        let search = PeopleSearch::parse(&req.query).map_err(|e| ApiError::invalid("query", e))?;
        let (rows, next_page_token) =
            directory::list_customers(&self.state, search.as_ref(), &page).await?;
        ok(pb::ListCustomersResponse {
            customers: rows.into_iter().map(customer_to_proto).collect(),
            next_page_token,
        })
    }

    async fn delete_customer(
        &self,
        request: Request<pb::DeleteCustomerRequest>,
    ) -> Reply<pb::DeleteCustomerResponse> {
        let who = caller(&request)?;
        let id = parse_id("id", &request.get_ref().id)?;
        review::delete(&self.state, &who, AccountKind::Customer, id).await?;
        ok(pb::DeleteCustomerResponse {})
    }

    async fn get_professional(
        &self,
        request: Request<pb::GetProfessionalRequest>,
    ) -> Reply<pb::GetProfessionalResponse> {
        let who = caller(&request)?;
        let id = access::own_or_named_by_admin(&who, "id", &request.get_ref().id)?;
        directory::record_contacts_opened(&self.state, &who, AccountKind::Professional, id).await?;
        ok(pb::GetProfessionalResponse {
            professional: Some(professional(&self.state, id).await?),
        })
    }

    async fn list_professionals(
        &self,
        request: Request<pb::ListProfessionalsRequest>,
    ) -> Reply<pb::ListProfessionalsResponse> {
        let req = request.into_inner();
        let page = PageRequest::parse(req.page_size, &req.page_token)?;
        let in_state = super::professional_view::state_from_proto(req.state);
        let (rows, next_page_token) =
            directory::list_professionals(&self.state, in_state, req.with_pending_change, &page)
                .await?;
        let professionals = rows
            .into_iter()
            .map(|row| {
                super::professional_view::to_proto(&self.state, row, Vec::<LicenceRow>::new())
            })
            .collect();
        ok(pb::ListProfessionalsResponse {
            professionals,
            next_page_token,
        })
    }

    async fn approve_professional(
        &self,
        request: Request<pb::ApproveProfessionalRequest>,
    ) -> Reply<pb::ApproveProfessionalResponse> {
        let who = caller(&request)?;
        let id = parse_id("id", &request.get_ref().id)?;
        review::approve(&self.state, &who, id).await?;
        ok(pb::ApproveProfessionalResponse {
            professional: Some(professional(&self.state, id).await?),
        })
    }

    async fn deny_professional(
        &self,
        request: Request<pb::DenyProfessionalRequest>,
    ) -> Reply<pb::DenyProfessionalResponse> {
        let who = caller(&request)?;
        let req = request.into_inner();
        let id = parse_id("id", &req.id)?;
        review::deny(&self.state, &who, id, &req.reason).await?;
        ok(pb::DenyProfessionalResponse {
            professional: Some(professional(&self.state, id).await?),
        })
    }

    async fn approve_pending_change(
        &self,
        request: Request<pb::ApprovePendingChangeRequest>,
    ) -> Reply<pb::ApprovePendingChangeResponse> {
        let who = caller(&request)?;
        let req = request.into_inner();
        let id = parse_id("id", &req.id)?;
        vetting::approve(&self.state, &who, id, req.revision).await?;
        ok(pb::ApprovePendingChangeResponse {
            professional: Some(professional(&self.state, id).await?),
        })
    }

    async fn refuse_pending_change(
        &self,
        request: Request<pb::RefusePendingChangeRequest>,
    ) -> Reply<pb::RefusePendingChangeResponse> {
        let who = caller(&request)?;
        let req = request.into_inner();
        let id = parse_id("id", &req.id)?;
        // A profile holds at most MAX_LICENCES licences to revoke.
        let most = rules::profile::MAX_LICENCES;
        if req.revoke_licence_ids.len() > most as usize {
            return Err(ApiError::invalid(
                "revoke_licence_ids",
                format!("a profile holds at most {most} licences"),
            )
            .into());
        }
        let revoke_licence_ids = req
            .revoke_licence_ids
            .iter()
            .map(|raw| parse_id("revoke_licence_ids", raw))
            .collect::<Result<_, _>>()?;
        let refusal = vetting::Refusal {
            reason: req.reason,
            revoke_licence_ids,
            revision: req.revision,
        };
        vetting::refuse(&self.state, &who, id, refusal).await?;
        ok(pb::RefusePendingChangeResponse {
            professional: Some(professional(&self.state, id).await?),
        })
    }

    async fn delete_professional(
        &self,
        request: Request<pb::DeleteProfessionalRequest>,
    ) -> Reply<pb::DeleteProfessionalResponse> {
        let who = caller(&request)?;
        let id = parse_id("id", &request.get_ref().id)?;
        review::delete(&self.state, &who, AccountKind::Professional, id).await?;
        ok(pb::DeleteProfessionalResponse {})
    }

    async fn list_audit_events(
        &self,
        request: Request<pb::ListAuditEventsRequest>,
    ) -> Reply<pb::ListAuditEventsResponse> {
        let req = request.into_inner();
        let page = PageRequest::parse(req.page_size, &req.page_token)?;
        let filter = audit_filter(&req)?;
        let (rows, next_page_token) = directory::audit_events(&self.state, &filter, &page).await?;
        let events = rows
            .into_iter()
            .map(|r| pb::AuditEvent {
                id: r.id.to_string(),
                admin_id: r.admin_id.map(|id| id.to_string()).unwrap_or_default(),
                action: r.action,
                target_type: r.target_type,
                target_id: r.target_id,
                reason: r.reason,
                create_time: Some(timestamp(r.created_at)),
                before_json: r.before_json.unwrap_or_default(),
                after_json: r.after_json.unwrap_or_default(),
                admin_email: r.admin_email.unwrap_or_default(),
                outcome: match r.outcome.as_str() {
                    "pending" => pb::AuditOutcome::Pending,
                    "failed" => pb::AuditOutcome::Failed,
                    _ => pb::AuditOutcome::Succeeded,
                } as i32,
                failure: r.failure,
                service_account_id: r
                    .service_account_id
                    .map(|id| id.to_string())
                    .unwrap_or_default(),
                service_account_name: r.service_account_name.unwrap_or_default(),
            })
            .collect();
        ok(pb::ListAuditEventsResponse {
            events,
            next_page_token,
        })
    }

    async fn record_privacy_incident(
        &self,
        request: Request<pb::RecordPrivacyIncidentRequest>,
    ) -> Reply<pb::RecordPrivacyIncidentResponse> {
        super::privacy_incidents::record(&self.state, request).await
    }

    async fn list_privacy_incidents(
        &self,
        request: Request<pb::ListPrivacyIncidentsRequest>,
    ) -> Reply<pb::ListPrivacyIncidentsResponse> {
        super::privacy_incidents::list(&self.state, request).await
    }

    async fn get_sign_in_options(
        &self,
        _request: Request<pb::GetSignInOptionsRequest>,
    ) -> Reply<pb::GetSignInOptionsResponse> {
        let config = &self.state.config;
        ok(pb::GetSignInOptionsResponse {
            google_client_id: config
                .google_client_ids
                .first()
                .cloned()
                .unwrap_or_default(),
            facebook_app_id: config.facebook_app_id.clone().unwrap_or_default(),
        })
    }

    async fn sign_in_with_google(
        &self,
        request: Request<pb::SignInWithGoogleRequest>,
    ) -> Reply<pb::SignInWithGoogleResponse> {
        let arrival = self.arrival(&request, request.get_ref().language);
        let req = request.into_inner();
        let role = role_from_proto("role", req.role)?;
        let signed =
            social::google(&self.state, role, &req.id_token, &req.password, arrival).await?;
        ok(pb::SignInWithGoogleResponse {
            session: Some(session(&signed.session)),
            created: signed.created,
        })
    }

    async fn sign_in_with_facebook(
        &self,
        request: Request<pb::SignInWithFacebookRequest>,
    ) -> Reply<pb::SignInWithFacebookResponse> {
        let arrival = self.arrival(&request, request.get_ref().language);
        let req = request.into_inner();
        let role = role_from_proto("role", req.role)?;
        let signed =
            social::facebook(&self.state, role, &req.access_token, &req.password, arrival).await?;
        ok(pb::SignInWithFacebookResponse {
            session: Some(session(&signed.session)),
            created: signed.created,
        })
    }

    async fn confirm_email(
        &self,
        request: Request<pb::ConfirmEmailRequest>,
    ) -> Reply<pb::ConfirmEmailResponse> {
        let req = request.into_inner();
        let (role, account_id) = email_verification::confirm(&self.state, &req.token).await?;
        ok(pb::ConfirmEmailResponse {
            role: role_to_proto(role) as i32,
            account_id: account_id.to_string(),
        })
    }

    async fn get_public_professional(
        &self,
        request: Request<pb::GetPublicProfessionalRequest>,
    ) -> Reply<pb::GetPublicProfessionalResponse> {
        let id = parse_id("id", &request.get_ref().id)?;
        let caller = request.extensions().get::<Caller>();
        let row = directory::public_professional(&self.state, caller, id).await?;
        ok(pb::GetPublicProfessionalResponse {
            professional: Some(super::professional_view::to_public(&self.state, row)),
        })
    }

    async fn update_professional_profile(
        &self,
        request: Request<pb::UpdateProfessionalProfileRequest>,
    ) -> Reply<pb::UpdateProfessionalProfileResponse> {
        super::professional_profile::update_profile(&self.state, request).await
    }

    async fn set_professional_photo(
        &self,
        request: Request<pb::SetProfessionalPhotoRequest>,
    ) -> Reply<pb::SetProfessionalPhotoResponse> {
        super::professional_profile::set_photo(&self.state, request).await
    }

    async fn add_licence(
        &self,
        request: Request<pb::AddLicenceRequest>,
    ) -> Reply<pb::AddLicenceResponse> {
        super::professional_profile::add_licence(&self.state, request).await
    }

    async fn delete_licence(
        &self,
        request: Request<pb::DeleteLicenceRequest>,
    ) -> Reply<pb::DeleteLicenceResponse> {
        super::professional_profile::delete_licence(&self.state, request).await
    }

    async fn preview_delete_licence(
        &self,
        request: Request<pb::PreviewDeleteLicenceRequest>,
    ) -> Reply<pb::PreviewDeleteLicenceResponse> {
        super::professional_profile::preview_delete_licence(&self.state, request).await
    }

    async fn submit_profile_for_review(
        &self,
        request: Request<pb::SubmitProfileForReviewRequest>,
    ) -> Reply<pb::SubmitProfileForReviewResponse> {
        super::professional_profile::submit_for_review(&self.state, request).await
    }

    async fn set_professional_availability(
        &self,
        request: Request<pb::SetProfessionalAvailabilityRequest>,
    ) -> Reply<pb::SetProfessionalAvailabilityResponse> {
        super::professional_profile::set_availability(&self.state, request).await
    }

    async fn create_service_account(
        &self,
        request: Request<pb::CreateServiceAccountRequest>,
    ) -> Reply<pb::CreateServiceAccountResponse> {
        super::service_accounts::create(&self.state, request).await
    }

    async fn list_service_accounts(
        &self,
        request: Request<pb::ListServiceAccountsRequest>,
    ) -> Reply<pb::ListServiceAccountsResponse> {
        super::service_accounts::list(&self.state, request).await
    }

    async fn rotate_service_account_key(
        &self,
        request: Request<pb::RotateServiceAccountKeyRequest>,
    ) -> Reply<pb::RotateServiceAccountKeyResponse> {
        super::service_accounts::rotate(&self.state, request).await
    }

    async fn revoke_service_account(
        &self,
        request: Request<pb::RevokeServiceAccountRequest>,
    ) -> Reply<pb::RevokeServiceAccountResponse> {
        super::service_accounts::revoke(&self.state, request).await
    }
}
