//! AccountsService: decode, authorise the record, call `crate::accounts`, encode.

use repairs_proto::accounts::{self as pb, accounts_service_server::AccountsService};
use tonic::{Request, Response, Status};

use super::client_addr::client_addr;
use super::convert::{
    caller, language_from_proto, language_to_proto, role_from_proto, role_to_proto, session,
    sms_from_proto, sms_to_proto, time_from_proto, timestamp,
};
use crate::{
    accounts::{
        self as rules, email_verification, parse_id, password_reset, phone_verification,
        profile::ProfileForm, require_self, review, sessions, social,
    },
    auth::Caller,
    domain::{Email, PeopleSearch, PersonName, Phone, ProfessionalState, Role, SmsUpdates},
    error::{ApiError, ApiResult, FieldViolation},
    state::AppState,
    store::{
        accounts::AccountKind,
        audit::{self, AuditFilter},
        customers,
        customers::CustomerRow,
        page::PageRequest,
        professionals::{self, LicenceRow, ProfessionalRow, PublicViewer},
    },
};

pub struct AccountsApi {
    state: AppState,
}

impl AccountsApi {
    pub fn new(state: AppState) -> Self {
        Self { state }
    }
}

type Reply<T> = Result<Response<T>, Status>;

fn ok<T>(message: T) -> Reply<T> {
    Ok(Response::new(message))
}

fn customer_to_proto(row: CustomerRow) -> pb::Customer {
    pb::Customer {
        id: row.id.to_string(),
        name: row.name,
        email: row.email,
        phone: row.phone.unwrap_or_default(),
        phone_verified: row.phone_verified,
        sms_updates: sms_to_proto(SmsUpdates::from_code(&row.sms_updates).unwrap_or_default())
            as i32,
        language: language_to_proto(row.language) as i32,
        create_time: Some(timestamp(row.created_at)),
    }
}

/// The audit log's filters, checked: ids are UUIDs, texts bounded, the range not empty.
fn audit_filter(req: &pb::ListAuditEventsRequest) -> ApiResult<AuditFilter> {
    let mut violations = Vec::new();
    let mut text = |field: &'static str, value: &str| {
        let value = value.trim();
        if value.chars().count() > 100 {
            violations.push(FieldViolation::new(field, "at most 100 characters"));
        }
        value.to_owned()
    };
    let action = text("action", &req.action);
    let target_type = text("target_type", &req.target_type);
    let target_id = text("target_id", &req.target_id);
    let admin_id = match req.admin_id.trim() {
        "" => None,
        id => match uuid::Uuid::parse_str(id) {
            Ok(id) => Some(id),
            Err(_) => {
                violations.push(FieldViolation::new("admin_id", "this is not an account id"));
                None
            }
        },
    };
    let start = req
        .start_time
        .as_ref()
        .map(|t| time_from_proto("start_time", t))
        .transpose()?;
    let end = req
        .end_time
        .as_ref()
        .map(|t| time_from_proto("end_time", t))
        .transpose()?;
    if let (Some(start), Some(end)) = (start, end)
        && end <= start
    {
        violations.push(FieldViolation::new(
            "end_time",
            "the end must be after the start",
        ));
    }
    if !violations.is_empty() {
        return Err(ApiError::invalid_fields(violations));
    }
    Ok(AuditFilter {
        action,
        target_type,
        target_id,
        admin_id,
        start,
        end,
    })
}

pub fn state_to_proto(state: ProfessionalState) -> pb::ProfessionalState {
    match state {
        ProfessionalState::WaitingForApproval => pb::ProfessionalState::WaitingForApproval,
        ProfessionalState::Approved => pb::ProfessionalState::Approved,
        ProfessionalState::Denied => pb::ProfessionalState::Denied,
        ProfessionalState::ProfileUpdated => pb::ProfessionalState::ProfileUpdated,
    }
}

fn state_from_proto(value: i32) -> Option<ProfessionalState> {
    match pb::ProfessionalState::try_from(value) {
        Ok(pb::ProfessionalState::WaitingForApproval) => {
            Some(ProfessionalState::WaitingForApproval)
        }
        Ok(pb::ProfessionalState::Approved) => Some(ProfessionalState::Approved),
        Ok(pb::ProfessionalState::Denied) => Some(ProfessionalState::Denied),
        Ok(pb::ProfessionalState::ProfileUpdated) => Some(ProfessionalState::ProfileUpdated),
        _ => None,
    }
}

impl AccountsApi {
    async fn customer(&self, id: uuid::Uuid) -> ApiResult<pb::Customer> {
        customers::get(&self.state.db, id)
            .await?
            .map(customer_to_proto)
            .ok_or_else(|| rules::not_found("customer"))
    }

    async fn professional(&self, id: uuid::Uuid) -> ApiResult<pb::Professional> {
        let row = professionals::get(&self.state.db, id)
            .await?
            .ok_or_else(|| rules::not_found("professional"))?;
        let licences = professionals::licences(&self.state.db, id).await?;
        Ok(super::professional_view::to_proto(
            &self.state,
            row,
            licences,
        ))
    }

    /// The account a customer-or-professional RPC is about: the caller's own.
    fn own_account(caller: &Caller, account_id: &str) -> ApiResult<(AccountKind, uuid::Uuid)> {
        let id = rules::own_or_given(caller, "account_id", account_id)?;
        Ok((rules::account_kind(caller.role)?, id))
    }
}

#[tonic::async_trait]
impl AccountsService for AccountsApi {
    async fn sign_up(&self, request: Request<pb::SignUpRequest>) -> Reply<pb::SignUpResponse> {
        let req = request.into_inner();
        let role = role_from_proto("role", req.role)?;
        let language = language_from_proto(req.language).unwrap_or_default();
        let signed = sessions::sign_up(
            &self.state,
            role,
            &req.name,
            &req.email,
            &req.password,
            language,
        )
        .await?;
        let account = match role {
            Role::Customer => {
                pb::sign_up_response::Account::Customer(self.customer(signed.account_id).await?)
            }
            _ => pb::sign_up_response::Account::Professional(
                self.professional(signed.account_id).await?,
            ),
        };
        ok(pb::SignUpResponse {
            session: Some(session(&signed.session, role, signed.account_id)),
            account: Some(account),
        })
    }

    async fn log_in(&self, request: Request<pb::LogInRequest>) -> Reply<pb::LogInResponse> {
        let req = request.into_inner();
        let role = role_from_proto("role", req.role)?;
        let logged = sessions::log_in(&self.state, role, &req.email, &req.password).await?;
        let id = logged.account_id;
        let account = match role {
            Role::Customer => pb::log_in_response::Account::Customer(self.customer(id).await?),
            Role::Professional => {
                pb::log_in_response::Account::Professional(self.professional(id).await?)
            }
            Role::Admin => {
                let admin = logged.admin.ok_or_else(|| rules::not_found("admin"))?;
                pb::log_in_response::Account::Admin(pb::Admin {
                    id: id.to_string(),
                    name: admin.name,
                    email: admin.email,
                })
            }
        };
        ok(pb::LogInResponse {
            session: Some(session(&logged.session, role, id)),
            account: Some(account),
        })
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
        let (kind, id) = Self::own_account(&who, &req.account_id)?;
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
        let (kind, id) = Self::own_account(&who, &req.account_id)?;
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
        let (kind, id) = Self::own_account(&who, &req.account_id)?;
        let choice = match sms_from_proto(req.sms_updates) {
            Some(choice @ (SmsUpdates::Yes | SmsUpdates::No)) => choice,
            _ => return Err(ApiError::invalid("sms_updates", "answer yes or no").into()),
        };
        if !crate::store::accounts::set_sms_updates(&self.state.db, kind, id, choice)
            .await
            .map_err(ApiError::from)?
        {
            return Err(rules::not_found("account").into());
        }
        ok(pb::UpdateSmsPreferenceResponse {
            sms_updates: sms_to_proto(choice) as i32,
        })
    }

    async fn get_customer(
        &self,
        request: Request<pb::GetCustomerRequest>,
    ) -> Reply<pb::GetCustomerResponse> {
        let who = caller(&request)?;
        let id = parse_id("id", &request.get_ref().id)?;
        require_self(&who, id, true)?;
        ok(pb::GetCustomerResponse {
            customer: Some(self.customer(id).await?),
        })
    }

    async fn update_customer(
        &self,
        request: Request<pb::UpdateCustomerRequest>,
    ) -> Reply<pb::UpdateCustomerResponse> {
        let who = caller(&request)?;
        let req = request.into_inner();
        let id = parse_id("id", &req.id)?;
        require_self(&who, id, false)?;
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
        let row = customers::update(&self.state.db, id, &name, &email, language, sms)
            .await
            .map_err(ApiError::from)?
            .ok_or_else(|| rules::not_found("customer"))?;
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
        let rows = customers::list(&self.state.db, search.as_ref(), &page)
            .await
            .map_err(ApiError::from)?;
        let (rows, next_page_token) = page.finish(rows, |r| (r.created_at, r.id));
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
        let id = parse_id("id", &request.get_ref().id)?;
        require_self(&who, id, true)?;
        ok(pb::GetProfessionalResponse {
            professional: Some(self.professional(id).await?),
        })
    }

    async fn list_professionals(
        &self,
        request: Request<pb::ListProfessionalsRequest>,
    ) -> Reply<pb::ListProfessionalsResponse> {
        let req = request.into_inner();
        let page = PageRequest::parse(req.page_size, &req.page_token)?;
        let rows = professionals::list(&self.state.db, state_from_proto(req.state), &page)
            .await
            .map_err(ApiError::from)?;
        let (rows, next_page_token) = page.finish(rows, |r: &ProfessionalRow| (r.created_at, r.id));
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
            professional: Some(self.professional(id).await?),
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
            professional: Some(self.professional(id).await?),
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
        let rows = audit::list(&self.state.db, &filter, &page)
            .await
            .map_err(ApiError::from)?;
        let (rows, next_page_token) = page.finish(rows, |r| (r.created_at, r.id));
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
            })
            .collect();
        ok(pb::ListAuditEventsResponse {
            events,
            next_page_token,
        })
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
        let req = request.into_inner();
        let role = role_from_proto("role", req.role)?;
        let language = language_from_proto(req.language).unwrap_or_default();
        let signed =
            social::google(&self.state, role, &req.id_token, &req.password, language).await?;
        ok(pb::SignInWithGoogleResponse {
            session: Some(session(&signed.session, role, signed.account_id)),
            created: signed.created,
        })
    }

    async fn sign_in_with_facebook(
        &self,
        request: Request<pb::SignInWithFacebookRequest>,
    ) -> Reply<pb::SignInWithFacebookResponse> {
        let req = request.into_inner();
        let role = role_from_proto("role", req.role)?;
        let language = language_from_proto(req.language).unwrap_or_default();
        let signed = social::facebook(
            &self.state,
            role,
            &req.access_token,
            &req.password,
            language,
        )
        .await?;
        ok(pb::SignInWithFacebookResponse {
            session: Some(session(&signed.session, role, signed.account_id)),
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
        let viewer = match request.extensions().get::<Caller>() {
            Some(caller) if caller.role == Role::Admin => PublicViewer::Admin,
            Some(caller) if caller.role == Role::Professional => {
                PublicViewer::Professional(caller.account_id)
            }
            _ => PublicViewer::Anyone,
        };
        let id = parse_id("id", &request.get_ref().id)?;
        let row = professionals::get_public(&self.state.db, id, viewer)
            .await
            .map_err(ApiError::from)?
            .ok_or_else(|| rules::not_found("professional"))?;
        ok(pb::GetPublicProfessionalResponse {
            professional: Some(super::professional_view::to_public(&self.state, row)),
        })
    }

    async fn update_professional_profile(
        &self,
        request: Request<pb::UpdateProfessionalProfileRequest>,
    ) -> Reply<pb::UpdateProfessionalProfileResponse> {
        let who = caller(&request)?;
        let req = request.into_inner();
        let id = parse_id("id", &req.id)?;
        require_self(&who, id, false)?;
        let profile = req.profile.unwrap_or_default();
        let home = profile.home_base.unwrap_or_default();
        let fee = profile.minimum_fee;
        let form = ProfileForm {
            name: req.name,
            email: req.email,
            sms_updates: sms_from_proto(req.sms_updates).filter(|c| *c != SmsUpdates::NotAsked),
            language: language_from_proto(req.language),
            description: profile.description,
            registered_address: profile.registered_address,
            home_line1: home.line1,
            home_line2: home.line2,
            home_city: home.city,
            home_province: home.province,
            home_postal_code: home.postal_code,
            available_days: profile.available_days,
            available_from: profile.available_from,
            available_to: profile.available_to,
            radius_km: profile.radius_km,
            service_ids: profile.service_ids,
            qualification: profile.qualification,
            experience: super::professional_view::experience_from_proto(profile.experience),
            minimum_fee_cents: fee.as_ref().map(|m| m.amount_cents),
            minimum_fee_currency: fee.map(|m| m.currency).unwrap_or_default(),
        };
        rules::profile::save(&self.state, id, form).await?;
        ok(pb::UpdateProfessionalProfileResponse {
            professional: Some(self.professional(id).await?),
        })
    }

    async fn set_professional_photo(
        &self,
        request: Request<pb::SetProfessionalPhotoRequest>,
    ) -> Reply<pb::SetProfessionalPhotoResponse> {
        let who = caller(&request)?;
        let req = request.into_inner();
        let id = parse_id("id", &req.id)?;
        require_self(&who, id, false)?;
        let key =
            rules::profile::set_photo(&self.state, id, &req.content_type, req.content).await?;
        ok(pb::SetProfessionalPhotoResponse {
            photo_url: super::professional_view::file_link(
                &self.state,
                &key,
                chrono::Duration::hours(24),
            ),
        })
    }

    async fn add_licence(
        &self,
        request: Request<pb::AddLicenceRequest>,
    ) -> Reply<pb::AddLicenceResponse> {
        let who = caller(&request)?;
        let req = request.into_inner();
        let id = parse_id("professional_id", &req.professional_id)?;
        require_self(&who, id, false)?;
        let row = rules::profile::add_licence(
            &self.state,
            id,
            &req.label,
            &req.file_name,
            &req.content_type,
            req.content,
        )
        .await?;
        ok(pb::AddLicenceResponse {
            licence: Some(super::professional_view::licence_to_proto(&self.state, row)),
        })
    }

    async fn delete_licence(
        &self,
        request: Request<pb::DeleteLicenceRequest>,
    ) -> Reply<pb::DeleteLicenceResponse> {
        let who = caller(&request)?;
        let req = request.into_inner();
        let id = parse_id("professional_id", &req.professional_id)?;
        require_self(&who, id, false)?;
        rules::profile::delete_licence(&self.state, id, parse_id("licence_id", &req.licence_id)?)
            .await?;
        ok(pb::DeleteLicenceResponse {})
    }

    async fn submit_profile_for_review(
        &self,
        request: Request<pb::SubmitProfileForReviewRequest>,
    ) -> Reply<pb::SubmitProfileForReviewResponse> {
        let who = caller(&request)?;
        let id = parse_id("id", &request.get_ref().id)?;
        require_self(&who, id, false)?;
        rules::profile::submit_for_review(&self.state, id).await?;
        ok(pb::SubmitProfileForReviewResponse {
            professional: Some(self.professional(id).await?),
        })
    }
}
