//! Who may see or change which record: the ownership rules, beside the role table of
//! [`super::policy`] (which only knows roles). Each rule is a named predicate over the caller
//! and the parties of a record, with no database and no transport, so the whole of it is read
//! here and proved by one table test; handlers and services call these and decide nothing
//! themselves.
//!
//! A caller who may not see a record is told it does not exist (NOT_FOUND), never that it is
//! someone else's, except for the caller's own account, where the answer is NOT_OWNER.
//!
//! Every RPC that takes an account id of the caller's (a `customer_id`, `professional_id`,
//! `account_id`, or the `id` of GetCustomer, GetProfessional and the profile changes) reads
//! it through [`named_or_caller`]: empty means the caller, except for an admin, who has no
//! such account and must name one.

use uuid::Uuid;

use super::{
    Caller,
    service::{Scope, ServiceCaller},
};
use crate::{
    domain::{Role, conversation::Side},
    error::{ApiError, ApiResult, ErrorReason, parse_id},
    store::{professionals::PublicViewer, standing::Standing},
};

/// The people a repair request concerns.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RequestParties {
    pub customer_id: Uuid,
    pub hired_professional_id: Option<Uuid>,
}

/// The people a quote concerns: the customer of its request and the professional who sent it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct QuoteParties {
    pub customer_id: Uuid,
    pub professional_id: Uuid,
}

/// The two people of a conversation: the request's customer and the professional.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ConversationParties {
    pub customer_id: Uuid,
    pub professional_id: Uuid,
}

/// Where a caller stands in a conversation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ConversationSeat {
    /// One of its two parties (the professional only where [`may_converse`] lets them).
    Party(Side),
    /// An admin: reads it all, writes nothing.
    Admin,
    /// Anyone else: told it does not exist.
    Nobody,
}

/// Where the caller stands in the conversation of `parties`.
pub fn conversation_seat(caller: &Caller, parties: ConversationParties) -> ConversationSeat {
    match caller.role {
        Role::Admin => ConversationSeat::Admin,
        Role::Customer if parties.customer_id == caller.account_id => {
            ConversationSeat::Party(Side::Customer)
        }
        Role::Professional if parties.professional_id == caller.account_id => {
            ConversationSeat::Party(Side::Professional)
        }
        Role::Customer | Role::Professional => ConversationSeat::Nobody,
    }
}

/// How much of a repair request a caller may read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RequestView {
    /// Everything, street address and hire included: its customer, the professional hired on
    /// it, admins.
    Full,
    /// As their standing on it allows ([`professional_access`], which only the database
    /// knows): any other professional.
    ByStanding,
    /// Nothing: another customer.
    None,
}

/// Whose orders a caller asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Whose {
    Customer(Uuid),
    Professional(Uuid),
    All,
}

fn is_admin(caller: &Caller) -> bool {
    caller.role == Role::Admin
}

fn not_owner() -> ApiError {
    ApiError::PermissionDenied {
        reason: ErrorReason::NotOwner,
        message: "you can only see or change your own account".to_owned(),
    }
}

/// The caller must be this account: changes only its owner makes (password, phone, licences).
pub fn own_account(caller: &Caller, account_id: Uuid) -> ApiResult<()> {
    if caller.account_id == account_id {
        Ok(())
    } else {
        Err(not_owner())
    }
}

/// The caller must be this account or an admin: what admins may read or do for anyone.
pub fn own_account_or_admin(caller: &Caller, account_id: Uuid) -> ApiResult<()> {
    if is_admin(caller) {
        Ok(())
    } else {
        own_account(caller, account_id)
    }
}

/// The account an RPC is about, from its account id `field`: the id given, or the caller's
/// own when the field is empty. An admin has no customer or professional account of their
/// own, so an empty field from an admin is INVALID_ARGUMENT on it. Says nothing of whether
/// the caller may see that account: each RPC's own rule does.
pub fn named_or_caller(caller: &Caller, field: &str, raw: &str) -> ApiResult<Uuid> {
    if !raw.trim().is_empty() {
        return parse_id(field, raw);
    }
    if is_admin(caller) {
        return Err(ApiError::invalid(
            field,
            "an admin has no account of this kind: name the account (empty means the caller's \
             own for customers and professionals)",
        ));
    }
    Ok(caller.account_id)
}

/// An account id given by the caller, or the caller's own when the field is empty; only the
/// caller's own ([`own_account`]).
pub fn own_or_given(caller: &Caller, field: &str, raw: &str) -> ApiResult<Uuid> {
    let id = named_or_caller(caller, field, raw)?;
    own_account(caller, id)?;
    Ok(id)
}

/// An account id given by the caller, or the caller's own when the field is empty; the
/// caller's own, or anyone's for an admin, who must name it ([`own_account_or_admin`]).
pub fn own_or_named_by_admin(caller: &Caller, field: &str, raw: &str) -> ApiResult<Uuid> {
    let id = named_or_caller(caller, field, raw)?;
    own_account_or_admin(caller, id)?;
    Ok(id)
}

/// How much of a request the caller may read.
pub fn request_view(caller: &Caller, request: RequestParties) -> RequestView {
    match caller.role {
        Role::Admin => RequestView::Full,
        Role::Customer if request.customer_id == caller.account_id => RequestView::Full,
        Role::Customer => RequestView::None,
        Role::Professional if request.hired_professional_id == Some(caller.account_id) => {
            RequestView::Full
        }
        Role::Professional => RequestView::ByStanding,
    }
}

/// What a professional may read of a request, its photos and the conversation about it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProfessionalAccess {
    /// Everything, street address and hire included.
    Full,
    /// The approximate view: no street address, nobody's hire, and how far it is.
    Approximate,
    /// Nothing: told it does not exist.
    None,
}

/// The one rule of what a professional sees of a request by where they stand on it, for the
/// request, its photos and the conversation about it alike: the hired professional sees it
/// all; one it matches now, who was alerted of it while it is open, or who quoted on it or
/// has a conversation about it sees the approximate view (a quote and messages stay a record
/// once the request has moved on); anyone else nothing. The approximate view is measured
/// from a home base: without one, nothing.
pub fn professional_access(standing: &Standing) -> ProfessionalAccess {
    let concerned = standing.matches
        || standing.alerted && standing.request_open
        || standing.quoted
        || standing.in_conversation;
    if standing.hired {
        ProfessionalAccess::Full
    } else if concerned && standing.meters.is_some() {
        ProfessionalAccess::Approximate
    } else {
        ProfessionalAccess::None
    }
}

/// Whether the professional takes part in the conversation about a request: once opened it
/// stays its two parties', whatever became of the request or of the professional's account;
/// before, it opens only with a professional who may see the request.
pub fn may_converse(standing: &Standing) -> bool {
    standing.in_conversation || professional_access(standing) != ProfessionalAccess::None
}

/// Whether the caller is a party to the request (its customer, its hired professional, an
/// admin): who learns who was hired, and who reads the job's review.
pub fn is_party(caller: &Caller, request: RequestParties) -> bool {
    request_view(caller, request) == RequestView::Full
}

/// Whether the caller is the request's hired professional: the only one who may say they are
/// on their way to it, share where they are and say they arrived.
pub fn is_hired_professional(caller: &Caller, request: RequestParties) -> bool {
    caller.role == Role::Professional && request.hired_professional_id == Some(caller.account_id)
}

/// Whether the caller may see where the professional on the way to a job is: the request's
/// customer, whose door it is, and nobody else (admins see the estimate, not the position).
pub fn may_see_trip_position(caller: &Caller, request: RequestParties) -> bool {
    caller.role == Role::Customer && request.customer_id == caller.account_id
}

/// Whether the caller may read how far a request reached (how many professionals were
/// alerted and opened it): its customer and admins, never a professional, not even the hired
/// one.
pub fn may_see_reach(caller: &Caller, request: RequestParties) -> bool {
    match caller.role {
        Role::Admin => true,
        Role::Customer => request.customer_id == caller.account_id,
        Role::Professional => false,
    }
}

/// Whether the caller's reading of a request counts as a professional opening it (for its
/// reach): professionals only, never its customer or an admin.
pub fn read_counts_as_open(caller: &Caller) -> bool {
    caller.role == Role::Professional
}

/// Whether the caller may read this quote: the request's customer, the quoting professional,
/// admins.
pub fn may_see_quote(caller: &Caller, quote: QuoteParties) -> bool {
    match caller.role {
        Role::Admin => true,
        Role::Customer => quote.customer_id == caller.account_id,
        Role::Professional => quote.professional_id == caller.account_id,
    }
}

/// The one professional whose quotes alone the caller may see on a request they may read, or
/// `None` for all of them (its customer, admins). Even the hired professional does not see
/// the others' quotes.
pub fn quotes_only_of(caller: &Caller) -> Option<Uuid> {
    (caller.role == Role::Professional).then_some(caller.account_id)
}

/// Whether the caller may read a professional's own work and money (their quotes, payout
/// account, ledger, transfers): the professional and admins.
pub fn may_see_work_of(caller: &Caller, professional_id: Uuid) -> bool {
    is_admin(caller) || caller.account_id == professional_id
}

/// Whether the caller may list these orders: a customer's or professional's own, anyone's for
/// an admin, all of them for an admin only. `Err` is what a refused caller reads.
pub fn may_list_orders(caller: &Caller, whose: Whose) -> ApiResult<()> {
    let own = |role: Role, id: Uuid| caller.role == role && caller.account_id == id;
    match whose {
        _ if is_admin(caller) => Ok(()),
        Whose::Customer(id) if own(Role::Customer, id) => Ok(()),
        Whose::Professional(id) if own(Role::Professional, id) => Ok(()),
        Whose::All => Err(ApiError::PermissionDenied {
            reason: ErrorReason::AdminOnly,
            message: "only an admin can list every order".to_owned(),
        }),
        Whose::Customer(_) | Whose::Professional(_) => Err(crate::error::not_found("account")),
    }
}

/// Whether a service account may do what an RPC opened to `scope` does: only with that
/// scope, whatever let the call in (the scope table of `super::policy` is checked again here,
/// so no rule of a record leans on the auth layer alone).
pub fn service_may(service: &ServiceCaller, scope: Scope) -> ApiResult<()> {
    if service.scopes.contains(scope) {
        Ok(())
    } else {
        Err(ApiError::PermissionDenied {
            reason: ErrorReason::ServiceScopeMissing,
            message: format!("this service account needs the scope {}", scope.as_str()),
        })
    }
}

/// Whose public profiles the caller may read beyond the approved ones: admins every profile,
/// a professional their own whatever its state, anyone else approved ones only.
pub fn public_viewer(caller: Option<&Caller>) -> PublicViewer {
    match caller {
        Some(caller) if is_admin(caller) => PublicViewer::Admin,
        Some(caller) if caller.role == Role::Professional => {
            PublicViewer::Professional(caller.account_id)
        }
        _ => PublicViewer::Anyone,
    }
}

/// Whether the caller may list archived services too: admins only.
pub fn may_see_archived_services(caller: Option<&Caller>) -> bool {
    caller.is_some_and(is_admin)
}

#[cfg(test)]
mod tests {
    use super::*;

    const ME: Uuid = Uuid::from_u128(1);
    const OTHER: Uuid = Uuid::from_u128(2);

    fn caller(role: Role, account_id: Uuid) -> Caller {
        Caller { account_id, role }
    }

    /// The callers every rule is tried with: each role, as the record's party and not.
    const CALLERS: [(&str, Role, Uuid); 5] = [
        ("admin", Role::Admin, OTHER),
        ("the customer", Role::Customer, ME),
        ("another customer", Role::Customer, OTHER),
        ("the professional", Role::Professional, ME),
        ("another professional", Role::Professional, OTHER),
    ];

    /// One row per caller of [`CALLERS`]: what each rule answers them about a record whose
    /// customer and professional are both `ME` (the roles tell them apart).
    #[test]
    fn each_rule_answers_each_caller_as_the_table_says() {
        use RequestView::{ByStanding, Full, None as Nothing};
        // (own account, own or admin, request view, quote, work and money, customer's orders,
        //  professional's orders, all orders, reach, read counts as an open)
        type Row = (
            bool,
            bool,
            RequestView,
            bool,
            bool,
            bool,
            bool,
            bool,
            bool,
            bool,
        );
        let table: [Row; 5] = [
            (false, true, Full, true, true, true, true, true, true, false),
            (
                true, true, Full, true, true, true, false, false, true, false,
            ),
            (
                false, false, Nothing, false, false, false, false, false, false, false,
            ),
            (
                true, true, Full, true, true, false, true, false, false, true,
            ),
            (
                false, false, ByStanding, false, false, false, false, false, false, true,
            ),
        ];
        let request = RequestParties {
            customer_id: ME,
            hired_professional_id: Some(ME),
        };
        let quote = QuoteParties {
            customer_id: ME,
            professional_id: ME,
        };
        for ((name, role, id), row) in CALLERS.into_iter().zip(table) {
            let who = caller(role, id);
            let seen: Row = (
                own_account(&who, ME).is_ok(),
                own_account_or_admin(&who, ME).is_ok(),
                request_view(&who, request),
                may_see_quote(&who, quote),
                may_see_work_of(&who, ME),
                may_list_orders(&who, Whose::Customer(ME)).is_ok(),
                may_list_orders(&who, Whose::Professional(ME)).is_ok(),
                may_list_orders(&who, Whose::All).is_ok(),
                may_see_reach(&who, request),
                read_counts_as_open(&who),
            );
            assert_eq!(seen, row, "{name}");
        }
    }

    #[test]
    fn a_conversation_seats_its_two_parties_and_admins_only() {
        let parties = ConversationParties {
            customer_id: ME,
            professional_id: ME,
        };
        let seats = [
            ConversationSeat::Admin,
            ConversationSeat::Party(Side::Customer),
            ConversationSeat::Nobody,
            ConversationSeat::Party(Side::Professional),
            ConversationSeat::Nobody,
        ];
        for ((name, role, id), seat) in CALLERS.into_iter().zip(seats) {
            assert_eq!(
                conversation_seat(&caller(role, id), parties),
                seat,
                "{name}"
            );
        }
    }

    #[test]
    fn a_request_nobody_was_hired_on_is_the_customer_s_and_the_admins_only() {
        let open = RequestParties {
            customer_id: ME,
            hired_professional_id: None,
        };
        for (name, role, id) in CALLERS {
            let who = caller(role, id);
            let party = matches!(name, "admin" | "the customer");
            assert_eq!(is_party(&who, open), party, "{name}");
        }
    }

    #[test]
    fn refusals_say_why_as_the_contract_names_it() {
        let stranger = caller(Role::Customer, OTHER);
        assert_eq!(
            own_account(&stranger, ME).unwrap_err().reason(),
            ErrorReason::NotOwner
        );
        assert_eq!(
            may_list_orders(&stranger, Whose::Customer(ME))
                .unwrap_err()
                .reason(),
            ErrorReason::NotFound
        );
        assert_eq!(
            may_list_orders(&stranger, Whose::All).unwrap_err().reason(),
            ErrorReason::AdminOnly
        );
        assert_eq!(quotes_only_of(&caller(Role::Professional, ME)), Some(ME));
        assert_eq!(quotes_only_of(&caller(Role::Admin, ME)), None);
        assert_eq!(quotes_only_of(&caller(Role::Customer, ME)), None);
        assert_eq!(public_viewer(None), PublicViewer::Anyone);
        assert!(!may_see_archived_services(None));
        assert!(!may_see_archived_services(Some(&caller(
            Role::Professional,
            ME
        ))));
        assert!(may_see_archived_services(Some(&caller(Role::Admin, ME))));
        assert_eq!(
            public_viewer(Some(&caller(Role::Customer, ME))),
            PublicViewer::Anyone
        );
        assert_eq!(
            public_viewer(Some(&caller(Role::Professional, ME))),
            PublicViewer::Professional(ME)
        );
        assert_eq!(
            public_viewer(Some(&caller(Role::Admin, ME))),
            PublicViewer::Admin
        );
    }

    #[test]
    fn an_empty_account_field_is_the_caller_s_own_and_another_s_is_refused() {
        let me = caller(Role::Professional, ME);
        for rule in [own_or_given, own_or_named_by_admin] {
            assert_eq!(rule(&me, "professional_id", " ").unwrap(), ME);
            assert_eq!(rule(&me, "professional_id", &ME.to_string()).unwrap(), ME);
            let other = rule(&me, "professional_id", &OTHER.to_string()).unwrap_err();
            assert_eq!(other.reason(), ErrorReason::NotOwner);
            let junk = rule(&me, "professional_id", "not-an-id").unwrap_err();
            assert_eq!(junk.reason(), ErrorReason::InvalidArgument);
        }
        assert_eq!(named_or_caller(&me, "customer_id", "").unwrap(), ME);
    }

    #[test]
    fn an_admin_must_name_the_account() {
        let admin = caller(Role::Admin, ME);
        for rule in [named_or_caller, own_or_given, own_or_named_by_admin] {
            let empty = rule(&admin, "customer_id", "").unwrap_err();
            assert_eq!(empty.reason(), ErrorReason::InvalidArgument);
            assert!(format!("{empty:?}").contains("customer_id"), "{empty:?}");
        }
        assert_eq!(
            own_or_named_by_admin(&admin, "customer_id", &OTHER.to_string()).unwrap(),
            OTHER
        );
        assert_eq!(
            named_or_caller(&admin, "customer_id", &OTHER.to_string()).unwrap(),
            OTHER
        );
    }

    /// Each standing a professional can have on a request, and what it may see and whether
    /// it takes part in the conversation about it.
    #[test]
    fn a_professional_sees_a_request_by_their_standing_on_it() {
        use ProfessionalAccess::{Approximate, Full, None as Nothing};
        let base = Standing {
            meters: Some(1_500.0),
            request_open: true,
            ..Standing::default()
        };
        let with = |change: fn(&mut Standing)| {
            let mut standing = base;
            change(&mut standing);
            standing
        };
        let table: [(&str, Standing, ProfessionalAccess, bool); 11] = [
            ("a stranger to it", base, Nothing, false),
            ("matched now", with(|s| s.matches = true), Approximate, true),
            (
                "alerted, open",
                with(|s| s.alerted = true),
                Approximate,
                true,
            ),
            (
                "alerted, closed since",
                with(|s| (s.alerted, s.request_open) = (true, false)),
                Nothing,
                false,
            ),
            ("quoted", with(|s| s.quoted = true), Approximate, true),
            (
                "quoted, closed since",
                with(|s| (s.quoted, s.request_open) = (true, false)),
                Approximate,
                true,
            ),
            (
                "in a conversation",
                with(|s| s.in_conversation = true),
                Approximate,
                true,
            ),
            (
                "in a conversation, no home base any more",
                with(|s| (s.in_conversation, s.meters) = (true, None)),
                Nothing,
                true,
            ),
            (
                "matched, no home base",
                with(|s| (s.matches, s.meters) = (true, None)),
                Nothing,
                false,
            ),
            ("hired", with(|s| s.hired = true), Full, true),
            (
                "hired, no home base",
                with(|s| (s.hired, s.meters, s.request_open) = (true, None, false)),
                Full,
                true,
            ),
        ];
        for (name, standing, access, converses) in table {
            assert_eq!(professional_access(&standing), access, "{name}");
            assert_eq!(may_converse(&standing), converses, "{name}");
        }
    }
}
