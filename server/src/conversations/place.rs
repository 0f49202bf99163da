//! The conversation a call names (a request and a professional) and where the caller stands
//! in it: one of its two parties, or an admin; anyone else is told the request does not
//! exist. Whether the professional takes part is the one visibility rule's
//! (`access::may_converse`, over their standing on the request).

use uuid::Uuid;

use crate::{
    auth::{
        Caller,
        access::{self, ConversationParties, ConversationSeat},
    },
    domain::{
        Role,
        conversation::{Author, Side},
    },
    error::{ApiError, ApiResult, ErrorReason, not_found, parse_id},
    state::AppState,
    store::{
        job_problems,
        repair_requests::{self, RepairRequestRow},
        standing,
    },
};

/// A conversation as a call names it, whether or not it was opened yet.
#[derive(Debug, Clone)]
pub struct Place {
    /// The request, as stored (its hire included: for the rules, never shown as it is).
    pub request: RepairRequestRow,
    pub professional_id: Uuid,
    /// The caller's side; `None` for an admin.
    pub side: Option<Side>,
    /// Whether a problem reported on the request's job is open (admins write then).
    pub problem_open: bool,
}

impl Place {
    /// The caller's side, for what only the two parties do (admins read, never write).
    pub fn party(&self) -> ApiResult<Side> {
        self.side.ok_or_else(|| ApiError::PermissionDenied {
            reason: ErrorReason::RoleNotAllowed,
            message: "only the customer and the professional take part in a conversation"
                .to_owned(),
        })
    }

    /// Who the caller writes as: their side, or an admin.
    pub fn author(&self) -> Author {
        self.side.map_or(Author::Admin, Author::Party)
    }

    /// The account on `side`.
    pub fn account_of(&self, side: Side) -> Uuid {
        match side {
            Side::Customer => self.request.customer_id,
            Side::Professional => self.professional_id,
        }
    }
}

/// The professional a call names: the caller themself for a professional (empty, or their
/// own id: another's is no conversation of theirs), required from anyone else.
fn professional_named(caller: &Caller, raw: &str) -> ApiResult<Uuid> {
    if caller.role == Role::Professional {
        let id = access::named_or_caller(caller, "professional_id", raw)?;
        return if id == caller.account_id {
            Ok(id)
        } else {
            Err(not_found("conversation"))
        };
    }
    if raw.trim().is_empty() {
        return Err(ApiError::invalid(
            "professional_id",
            "name the professional of the conversation",
        ));
    }
    parse_id("professional_id", raw)
}

/// Finds the conversation of request `repair_request_id` and the professional `raw_professional`
/// names, checking that `caller` takes part (or is an admin) and that the professional may
/// see the request; NOT_FOUND otherwise.
pub async fn locate(
    state: &AppState,
    caller: &Caller,
    repair_request_id: Uuid,
    raw_professional: &str,
) -> ApiResult<Place> {
    let professional_id = professional_named(caller, raw_professional)?;
    let request = repair_requests::get(&state.db, repair_request_id)
        .await?
        .ok_or_else(|| not_found("request"))?;
    let parties = ConversationParties {
        customer_id: request.customer_id,
        professional_id,
    };
    let side = match access::conversation_seat(caller, parties) {
        ConversationSeat::Party(side) => Some(side),
        ConversationSeat::Admin => None,
        ConversationSeat::Nobody => return Err(not_found("request")),
    };
    if let Some(side) = side {
        let standing = standing::on(&state.db, professional_id, repair_request_id).await?;
        if !access::may_converse(&standing.unwrap_or_default()) {
            return Err(not_found(match side {
                Side::Customer => "professional",
                Side::Professional => "request",
            }));
        }
    }
    let problem_open = job_problems::open_on(&state.db, repair_request_id)
        .await?
        .is_some();
    Ok(Place {
        request,
        professional_id,
        side,
        problem_open,
    })
}
