//! Who may call each RPC. One row per method of every service; an RPC without a row is
//! refused (default deny). This table only knows roles; who may see or change the records an
//! RPC names (own account, own request) is ruled by [`super::access`].
//!
//! Each row also says whether the RPC writes anything. Every call by an admin to one that
//! does leaves one entry in the audit log: `tests/api/audit_trail.rs` calls each of them and
//! checks, so an admin RPC marked `WRITES` without an audit entry fails it, and one that
//! only reads must be marked `READS` here.

use crate::domain::Role;

mod scopes;
pub use scopes::{SCOPED_RULES, scopes_for};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    /// No token needed (sign-up, public pages). A token, if sent and valid, still identifies
    /// the caller.
    Anyone,
    /// Only these roles.
    Roles(&'static [Role]),
}

use Role::{Admin, Customer, Professional};

const ANYONE: Access = Access::Anyone;
const CUSTOMER: Access = Access::Roles(&[Customer]);
const PROFESSIONAL: Access = Access::Roles(&[Professional]);
const ADMIN: Access = Access::Roles(&[Admin]);
const CUSTOMER_OR_PROFESSIONAL: Access = Access::Roles(&[Customer, Professional]);
const CUSTOMER_OR_ADMIN: Access = Access::Roles(&[Customer, Admin]);
const PROFESSIONAL_OR_ADMIN: Access = Access::Roles(&[Professional, Admin]);
const SIGNED_IN: Access = Access::Roles(&[Customer, Professional, Admin]);

/// Whether an RPC writes records (limit counters aside).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Effect {
    Reads,
    Writes,
}

const READS: Effect = Effect::Reads;
const WRITES: Effect = Effect::Writes;

/// `(full method path, access, effect)` for every RPC the server offers.
pub const RULES: &[(&str, Access, Effect)] = &[
    // Infrastructure.
    ("/grpc.health.v1.Health/Check", ANYONE, READS),
    ("/grpc.health.v1.Health/Watch", ANYONE, READS),
    (
        "/grpc.reflection.v1.ServerReflection/ServerReflectionInfo",
        ANYONE,
        READS,
    ),
    (
        "/grpc.reflection.v1alpha.ServerReflection/ServerReflectionInfo",
        ANYONE,
        READS,
    ),
    // Accounts.
    (
        "/repairs.accounts.v1.AccountsService/SignUp",
        ANYONE,
        WRITES,
    ),
    ("/repairs.accounts.v1.AccountsService/LogIn", ANYONE, READS),
    (
        "/repairs.accounts.v1.AccountsService/GetSignInOptions",
        ANYONE,
        READS,
    ),
    (
        "/repairs.accounts.v1.AccountsService/SignInWithGoogle",
        ANYONE,
        WRITES,
    ),
    (
        "/repairs.accounts.v1.AccountsService/SignInWithFacebook",
        ANYONE,
        WRITES,
    ),
    (
        "/repairs.accounts.v1.AccountsService/RequestPasswordReset",
        ANYONE,
        WRITES,
    ),
    (
        "/repairs.accounts.v1.AccountsService/CheckPasswordResetToken",
        ANYONE,
        READS,
    ),
    (
        "/repairs.accounts.v1.AccountsService/ResetPassword",
        ANYONE,
        WRITES,
    ),
    (
        "/repairs.accounts.v1.AccountsService/ConfirmEmail",
        ANYONE,
        WRITES,
    ),
    // Their proof is the refresh token in the request, not a bearer token: an expired access
    // token must not stand in the way of renewing or ending its session.
    (
        "/repairs.accounts.v1.AccountsService/RefreshSession",
        ANYONE,
        WRITES,
    ),
    (
        "/repairs.accounts.v1.AccountsService/SignOut",
        ANYONE,
        WRITES,
    ),
    (
        "/repairs.accounts.v1.AccountsService/SendPhoneCode",
        CUSTOMER_OR_PROFESSIONAL,
        WRITES,
    ),
    (
        "/repairs.accounts.v1.AccountsService/VerifyPhoneCode",
        CUSTOMER_OR_PROFESSIONAL,
        WRITES,
    ),
    (
        "/repairs.accounts.v1.AccountsService/UpdateSmsPreference",
        CUSTOMER_OR_PROFESSIONAL,
        WRITES,
    ),
    // Web Push: a subscription belongs to the caller's own account.
    (
        "/repairs.accounts.v1.AccountsService/GetPushPublicKey",
        CUSTOMER_OR_PROFESSIONAL,
        READS,
    ),
    (
        "/repairs.accounts.v1.AccountsService/AddPushSubscription",
        CUSTOMER_OR_PROFESSIONAL,
        WRITES,
    ),
    (
        "/repairs.accounts.v1.AccountsService/RemovePushSubscription",
        CUSTOMER_OR_PROFESSIONAL,
        WRITES,
    ),
    (
        "/repairs.accounts.v1.AccountsService/GetCustomer",
        CUSTOMER_OR_ADMIN,
        READS,
    ),
    (
        "/repairs.accounts.v1.AccountsService/UpdateCustomer",
        CUSTOMER,
        WRITES,
    ),
    (
        "/repairs.accounts.v1.AccountsService/ListCustomers",
        ADMIN,
        READS,
    ),
    (
        "/repairs.accounts.v1.AccountsService/DeleteCustomer",
        ADMIN,
        WRITES,
    ),
    (
        "/repairs.accounts.v1.AccountsService/GetProfessional",
        PROFESSIONAL_OR_ADMIN,
        READS,
    ),
    (
        "/repairs.accounts.v1.AccountsService/GetPublicProfessional",
        ANYONE,
        READS,
    ),
    (
        "/repairs.accounts.v1.AccountsService/UpdateProfessionalProfile",
        PROFESSIONAL,
        WRITES,
    ),
    (
        "/repairs.accounts.v1.AccountsService/SetProfessionalPhoto",
        PROFESSIONAL,
        WRITES,
    ),
    (
        "/repairs.accounts.v1.AccountsService/AddLicence",
        PROFESSIONAL,
        WRITES,
    ),
    (
        "/repairs.accounts.v1.AccountsService/DeleteLicence",
        PROFESSIONAL,
        WRITES,
    ),
    (
        "/repairs.accounts.v1.AccountsService/SubmitProfileForReview",
        PROFESSIONAL,
        WRITES,
    ),
    (
        "/repairs.accounts.v1.AccountsService/ListProfessionals",
        ADMIN,
        READS,
    ),
    (
        "/repairs.accounts.v1.AccountsService/ApproveProfessional",
        ADMIN,
        WRITES,
    ),
    (
        "/repairs.accounts.v1.AccountsService/DenyProfessional",
        ADMIN,
        WRITES,
    ),
    (
        "/repairs.accounts.v1.AccountsService/ApprovePendingChange",
        ADMIN,
        WRITES,
    ),
    (
        "/repairs.accounts.v1.AccountsService/RefusePendingChange",
        ADMIN,
        WRITES,
    ),
    (
        "/repairs.accounts.v1.AccountsService/DeleteProfessional",
        ADMIN,
        WRITES,
    ),
    (
        "/repairs.accounts.v1.AccountsService/ListAuditEvents",
        ADMIN,
        READS,
    ),
    (
        "/repairs.accounts.v1.AccountsService/SetProfessionalAvailability",
        PROFESSIONAL_OR_ADMIN,
        WRITES,
    ),
    // Service accounts (what each scope opens: `scopes.rs`).
    (
        "/repairs.accounts.v1.AccountsService/CreateServiceAccount",
        ADMIN,
        WRITES,
    ),
    (
        "/repairs.accounts.v1.AccountsService/ListServiceAccounts",
        ADMIN,
        READS,
    ),
    (
        "/repairs.accounts.v1.AccountsService/RotateServiceAccountKey",
        ADMIN,
        WRITES,
    ),
    (
        "/repairs.accounts.v1.AccountsService/RevokeServiceAccount",
        ADMIN,
        WRITES,
    ),
    // Marketplace.
    (
        "/repairs.marketplace.v1.MarketplaceService/CreateRepairRequest",
        CUSTOMER,
        WRITES,
    ),
    (
        "/repairs.marketplace.v1.MarketplaceService/GetRepairRequest",
        SIGNED_IN,
        READS,
    ),
    (
        "/repairs.marketplace.v1.MarketplaceService/AddRepairRequestPhoto",
        CUSTOMER,
        WRITES,
    ),
    (
        "/repairs.marketplace.v1.MarketplaceService/RemoveRepairRequestPhoto",
        CUSTOMER,
        WRITES,
    ),
    (
        "/repairs.marketplace.v1.MarketplaceService/UpdateRepairRequest",
        CUSTOMER,
        WRITES,
    ),
    (
        "/repairs.marketplace.v1.MarketplaceService/CancelRepairRequest",
        CUSTOMER,
        WRITES,
    ),
    (
        "/repairs.marketplace.v1.MarketplaceService/CompleteRepairRequest",
        CUSTOMER,
        WRITES,
    ),
    (
        "/repairs.marketplace.v1.MarketplaceService/ListCustomerRepairRequests",
        CUSTOMER_OR_ADMIN,
        READS,
    ),
    (
        "/repairs.marketplace.v1.MarketplaceService/ListRepairRequests",
        ADMIN,
        READS,
    ),
    (
        "/repairs.marketplace.v1.MarketplaceService/WatchRepairRequest",
        SIGNED_IN,
        READS,
    ),
    (
        "/repairs.marketplace.v1.MarketplaceService/SuggestAddresses",
        SIGNED_IN,
        READS,
    ),
    (
        "/repairs.marketplace.v1.MarketplaceService/GeocodeAddress",
        SIGNED_IN,
        READS,
    ),
    (
        "/repairs.marketplace.v1.MarketplaceService/ReverseGeocode",
        SIGNED_IN,
        READS,
    ),
    (
        "/repairs.marketplace.v1.MarketplaceService/CreateQuote",
        PROFESSIONAL,
        WRITES,
    ),
    (
        "/repairs.marketplace.v1.MarketplaceService/GetQuote",
        SIGNED_IN,
        READS,
    ),
    (
        "/repairs.marketplace.v1.MarketplaceService/WithdrawQuote",
        PROFESSIONAL,
        WRITES,
    ),
    (
        "/repairs.marketplace.v1.MarketplaceService/ListRepairRequestQuotes",
        CUSTOMER_OR_ADMIN,
        READS,
    ),
    (
        "/repairs.marketplace.v1.MarketplaceService/ListProfessionalRepairRequests",
        PROFESSIONAL_OR_ADMIN,
        READS,
    ),
    (
        "/repairs.marketplace.v1.MarketplaceService/CreateReview",
        CUSTOMER,
        WRITES,
    ),
    (
        "/repairs.marketplace.v1.MarketplaceService/GetRepairRequestReview",
        SIGNED_IN,
        READS,
    ),
    (
        "/repairs.marketplace.v1.MarketplaceService/ListProfessionalReviews",
        ANYONE,
        READS,
    ),
    (
        "/repairs.marketplace.v1.MarketplaceService/GetCustomerDashboard",
        CUSTOMER,
        READS,
    ),
    (
        "/repairs.marketplace.v1.MarketplaceService/GetProfessionalDashboard",
        PROFESSIONAL,
        READS,
    ),
    // Conversations: the handlers check that the caller is one of the conversation's two
    // parties (`conversations::place`); admins read a request's conversations (a reported
    // one's reading is audited by the handler, not counted here as a write) and keep the
    // reports' queue.
    (
        "/repairs.marketplace.v1.MarketplaceService/SendMessage",
        CUSTOMER_OR_PROFESSIONAL,
        WRITES,
    ),
    (
        "/repairs.marketplace.v1.MarketplaceService/AddMessagePhoto",
        CUSTOMER_OR_PROFESSIONAL,
        WRITES,
    ),
    (
        "/repairs.marketplace.v1.MarketplaceService/ListConversations",
        SIGNED_IN,
        READS,
    ),
    (
        "/repairs.marketplace.v1.MarketplaceService/ListMessages",
        SIGNED_IN,
        READS,
    ),
    (
        "/repairs.marketplace.v1.MarketplaceService/MarkConversationRead",
        CUSTOMER_OR_PROFESSIONAL,
        WRITES,
    ),
    (
        "/repairs.marketplace.v1.MarketplaceService/WatchConversation",
        CUSTOMER_OR_PROFESSIONAL,
        READS,
    ),
    (
        "/repairs.marketplace.v1.MarketplaceService/ReportConversation",
        CUSTOMER_OR_PROFESSIONAL,
        WRITES,
    ),
    (
        "/repairs.marketplace.v1.MarketplaceService/ListConversationReports",
        ADMIN,
        READS,
    ),
    (
        "/repairs.marketplace.v1.MarketplaceService/ResolveConversationReport",
        ADMIN,
        WRITES,
    ),
    (
        "/repairs.marketplace.v1.MarketplaceService/BlockProfessional",
        CUSTOMER,
        WRITES,
    ),
    (
        "/repairs.marketplace.v1.MarketplaceService/UnblockProfessional",
        CUSTOMER,
        WRITES,
    ),
    (
        "/repairs.marketplace.v1.MarketplaceService/ListBlockedProfessionals",
        CUSTOMER,
        READS,
    ),
    // Matching.
    (
        "/repairs.matching.v1.MatchingService/ListOpenRequests",
        PROFESSIONAL,
        READS,
    ),
    (
        "/repairs.matching.v1.MatchingService/WatchOpenRequests",
        PROFESSIONAL,
        READS,
    ),
    (
        "/repairs.matching.v1.MatchingService/GetDistance",
        SIGNED_IN,
        READS,
    ),
    (
        "/repairs.matching.v1.MatchingService/ListRepairRequestMatches",
        ADMIN,
        READS,
    ),
    (
        "/repairs.matching.v1.MatchingService/NotifyProfessional",
        CUSTOMER,
        WRITES,
    ),
    // Billing.
    (
        "/repairs.billing.v1.BillingService/GetPaymentConfig",
        ANYONE,
        READS,
    ),
    (
        "/repairs.billing.v1.BillingService/GetMembershipPrice",
        ANYONE,
        READS,
    ),
    (
        "/repairs.billing.v1.BillingService/PreviewHire",
        CUSTOMER,
        READS,
    ),
    (
        "/repairs.billing.v1.BillingService/HireProfessional",
        CUSTOMER,
        WRITES,
    ),
    // The payer or an admin: the handler checks whose payment it is.
    (
        "/repairs.billing.v1.BillingService/ConfirmPayment",
        SIGNED_IN,
        WRITES,
    ),
    (
        "/repairs.billing.v1.BillingService/GetPayment",
        SIGNED_IN,
        READS,
    ),
    (
        "/repairs.billing.v1.BillingService/CapturePayment",
        ADMIN,
        WRITES,
    ),
    (
        "/repairs.billing.v1.BillingService/VoidPayment",
        ADMIN,
        WRITES,
    ),
    (
        "/repairs.billing.v1.BillingService/RefundPayment",
        ADMIN,
        WRITES,
    ),
    (
        "/repairs.billing.v1.BillingService/ListOrders",
        SIGNED_IN,
        READS,
    ),
    (
        "/repairs.billing.v1.BillingService/QuoteMembership",
        PROFESSIONAL_OR_ADMIN,
        READS,
    ),
    (
        "/repairs.billing.v1.BillingService/PurchaseMembership",
        PROFESSIONAL,
        WRITES,
    ),
    (
        "/repairs.billing.v1.BillingService/GetMembership",
        PROFESSIONAL_OR_ADMIN,
        READS,
    ),
    (
        "/repairs.billing.v1.BillingService/CreateCoupon",
        ADMIN,
        WRITES,
    ),
    (
        "/repairs.billing.v1.BillingService/ListCoupons",
        ADMIN,
        READS,
    ),
    (
        "/repairs.billing.v1.BillingService/SetCouponActive",
        ADMIN,
        WRITES,
    ),
    (
        "/repairs.billing.v1.BillingService/DeleteCoupon",
        ADMIN,
        WRITES,
    ),
    (
        "/repairs.billing.v1.BillingService/CreateTestCharge",
        ADMIN,
        WRITES,
    ),
    // Verified by Stripe's signature inside the handler, not by a session.
    (
        "/repairs.billing.v1.BillingService/HandleStripeEvent",
        ANYONE,
        WRITES,
    ),
    (
        "/repairs.billing.v1.BillingService/GetPayoutAccount",
        PROFESSIONAL_OR_ADMIN,
        READS,
    ),
    (
        "/repairs.billing.v1.BillingService/CreatePayoutOnboardingLink",
        PROFESSIONAL,
        WRITES,
    ),
    (
        "/repairs.billing.v1.BillingService/ListPayouts",
        PROFESSIONAL_OR_ADMIN,
        READS,
    ),
    (
        "/repairs.billing.v1.BillingService/RecordManualPayout",
        ADMIN,
        WRITES,
    ),
    // Content.
    (
        "/repairs.content.v1.ContentService/ListServices",
        ANYONE,
        READS,
    ),
    (
        "/repairs.content.v1.ContentService/GetService",
        ANYONE,
        READS,
    ),
    (
        "/repairs.content.v1.ContentService/CreateService",
        ADMIN,
        WRITES,
    ),
    (
        "/repairs.content.v1.ContentService/UpdateService",
        ADMIN,
        WRITES,
    ),
    (
        "/repairs.content.v1.ContentService/DeleteService",
        ADMIN,
        WRITES,
    ),
    (
        "/repairs.content.v1.ContentService/ReorderServices",
        ADMIN,
        WRITES,
    ),
    (
        "/repairs.content.v1.ContentService/GetHomePage",
        ANYONE,
        READS,
    ),
    (
        "/repairs.content.v1.ContentService/UpdateHomePage",
        ADMIN,
        WRITES,
    ),
    (
        "/repairs.content.v1.ContentService/GetProfessionalPage",
        ANYONE,
        READS,
    ),
    (
        "/repairs.content.v1.ContentService/UpdateProfessionalPage",
        ADMIN,
        WRITES,
    ),
    (
        "/repairs.content.v1.ContentService/GetLegalPage",
        ANYONE,
        READS,
    ),
    (
        "/repairs.content.v1.ContentService/UpdateLegalPage",
        ADMIN,
        WRITES,
    ),
    (
        "/repairs.content.v1.ContentService/SendContactMessage",
        ANYONE,
        WRITES,
    ),
    (
        "/repairs.content.v1.ContentService/ListContactMessages",
        ADMIN,
        READS,
    ),
    (
        "/repairs.content.v1.ContentService/MarkContactMessageRead",
        ADMIN,
        WRITES,
    ),
    (
        "/repairs.content.v1.ContentService/TranslateText",
        SIGNED_IN,
        READS,
    ),
];

/// The RPCs that admins call to change something: each call writes one audit entry.
pub fn audited_admin_rpcs() -> impl Iterator<Item = &'static str> {
    RULES
        .iter()
        .filter(|(_, access, effect)| {
            *effect == Effect::Writes
                && matches!(access, Access::Roles(roles) if roles.contains(&Admin))
        })
        .map(|(path, ..)| *path)
}

/// The rule for a request path, if there is one.
pub fn access_for(path: &str) -> Option<Access> {
    RULES
        .iter()
        .find(|(p, ..)| *p == path)
        .map(|(_, access, _)| *access)
}

#[cfg(test)]
mod tests;
