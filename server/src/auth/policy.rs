//! Who may call each RPC. One row per method of every service; an RPC without a row is
//! refused (default deny). Ownership of the records an RPC names (own account, own request)
//! is checked by the handler, which knows the record; this table only knows roles.

use crate::domain::Role;

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

/// `(full method path, access)` for every RPC the server offers.
pub const RULES: &[(&str, Access)] = &[
    // Infrastructure.
    ("/grpc.health.v1.Health/Check", ANYONE),
    ("/grpc.health.v1.Health/Watch", ANYONE),
    (
        "/grpc.reflection.v1.ServerReflection/ServerReflectionInfo",
        ANYONE,
    ),
    (
        "/grpc.reflection.v1alpha.ServerReflection/ServerReflectionInfo",
        ANYONE,
    ),
    // Accounts.
    ("/repairs.accounts.v1.AccountsService/SignUp", ANYONE),
    ("/repairs.accounts.v1.AccountsService/LogIn", ANYONE),
    (
        "/repairs.accounts.v1.AccountsService/GetSignInOptions",
        ANYONE,
    ),
    (
        "/repairs.accounts.v1.AccountsService/SignInWithGoogle",
        ANYONE,
    ),
    (
        "/repairs.accounts.v1.AccountsService/SignInWithFacebook",
        ANYONE,
    ),
    (
        "/repairs.accounts.v1.AccountsService/RequestPasswordReset",
        ANYONE,
    ),
    (
        "/repairs.accounts.v1.AccountsService/CheckPasswordResetToken",
        ANYONE,
    ),
    ("/repairs.accounts.v1.AccountsService/ResetPassword", ANYONE),
    ("/repairs.accounts.v1.AccountsService/ConfirmEmail", ANYONE),
    (
        "/repairs.accounts.v1.AccountsService/SendPhoneCode",
        CUSTOMER_OR_PROFESSIONAL,
    ),
    (
        "/repairs.accounts.v1.AccountsService/VerifyPhoneCode",
        CUSTOMER_OR_PROFESSIONAL,
    ),
    (
        "/repairs.accounts.v1.AccountsService/UpdateSmsPreference",
        CUSTOMER_OR_PROFESSIONAL,
    ),
    (
        "/repairs.accounts.v1.AccountsService/GetCustomer",
        CUSTOMER_OR_ADMIN,
    ),
    (
        "/repairs.accounts.v1.AccountsService/UpdateCustomer",
        CUSTOMER,
    ),
    ("/repairs.accounts.v1.AccountsService/ListCustomers", ADMIN),
    ("/repairs.accounts.v1.AccountsService/DeleteCustomer", ADMIN),
    (
        "/repairs.accounts.v1.AccountsService/GetProfessional",
        PROFESSIONAL_OR_ADMIN,
    ),
    (
        "/repairs.accounts.v1.AccountsService/GetPublicProfessional",
        ANYONE,
    ),
    (
        "/repairs.accounts.v1.AccountsService/UpdateProfessionalProfile",
        PROFESSIONAL,
    ),
    (
        "/repairs.accounts.v1.AccountsService/SetProfessionalPhoto",
        PROFESSIONAL,
    ),
    (
        "/repairs.accounts.v1.AccountsService/AddLicence",
        PROFESSIONAL,
    ),
    (
        "/repairs.accounts.v1.AccountsService/DeleteLicence",
        PROFESSIONAL,
    ),
    (
        "/repairs.accounts.v1.AccountsService/SubmitProfileForReview",
        PROFESSIONAL,
    ),
    (
        "/repairs.accounts.v1.AccountsService/ListProfessionals",
        ADMIN,
    ),
    (
        "/repairs.accounts.v1.AccountsService/ApproveProfessional",
        ADMIN,
    ),
    (
        "/repairs.accounts.v1.AccountsService/DenyProfessional",
        ADMIN,
    ),
    (
        "/repairs.accounts.v1.AccountsService/DeleteProfessional",
        ADMIN,
    ),
    (
        "/repairs.accounts.v1.AccountsService/ListAuditEvents",
        ADMIN,
    ),
    // Marketplace.
    (
        "/repairs.marketplace.v1.MarketplaceService/CreateRepairRequest",
        CUSTOMER,
    ),
    (
        "/repairs.marketplace.v1.MarketplaceService/GetRepairRequest",
        SIGNED_IN,
    ),
    (
        "/repairs.marketplace.v1.MarketplaceService/UpdateRepairRequest",
        CUSTOMER,
    ),
    (
        "/repairs.marketplace.v1.MarketplaceService/CancelRepairRequest",
        CUSTOMER,
    ),
    (
        "/repairs.marketplace.v1.MarketplaceService/CompleteRepairRequest",
        CUSTOMER,
    ),
    (
        "/repairs.marketplace.v1.MarketplaceService/ListCustomerRepairRequests",
        CUSTOMER_OR_ADMIN,
    ),
    (
        "/repairs.marketplace.v1.MarketplaceService/ListRepairRequests",
        ADMIN,
    ),
    (
        "/repairs.marketplace.v1.MarketplaceService/WatchRepairRequest",
        SIGNED_IN,
    ),
    (
        "/repairs.marketplace.v1.MarketplaceService/SuggestAddresses",
        SIGNED_IN,
    ),
    (
        "/repairs.marketplace.v1.MarketplaceService/CreateQuote",
        PROFESSIONAL,
    ),
    (
        "/repairs.marketplace.v1.MarketplaceService/GetQuote",
        SIGNED_IN,
    ),
    (
        "/repairs.marketplace.v1.MarketplaceService/WithdrawQuote",
        PROFESSIONAL,
    ),
    (
        "/repairs.marketplace.v1.MarketplaceService/ListRepairRequestQuotes",
        CUSTOMER_OR_ADMIN,
    ),
    (
        "/repairs.marketplace.v1.MarketplaceService/ListProfessionalRepairRequests",
        PROFESSIONAL_OR_ADMIN,
    ),
    (
        "/repairs.marketplace.v1.MarketplaceService/CreateReview",
        CUSTOMER,
    ),
    (
        "/repairs.marketplace.v1.MarketplaceService/GetRepairRequestReview",
        SIGNED_IN,
    ),
    (
        "/repairs.marketplace.v1.MarketplaceService/ListProfessionalReviews",
        ANYONE,
    ),
    (
        "/repairs.marketplace.v1.MarketplaceService/GetCustomerDashboard",
        CUSTOMER,
    ),
    (
        "/repairs.marketplace.v1.MarketplaceService/GetProfessionalDashboard",
        PROFESSIONAL,
    ),
    // Matching.
    (
        "/repairs.matching.v1.MatchingService/ListOpenRequests",
        PROFESSIONAL,
    ),
    (
        "/repairs.matching.v1.MatchingService/WatchOpenRequests",
        PROFESSIONAL,
    ),
    (
        "/repairs.matching.v1.MatchingService/GetDistance",
        SIGNED_IN,
    ),
    (
        "/repairs.matching.v1.MatchingService/ListRepairRequestMatches",
        ADMIN,
    ),
    (
        "/repairs.matching.v1.MatchingService/NotifyProfessional",
        CUSTOMER,
    ),
    // Billing.
    (
        "/repairs.billing.v1.BillingService/GetPaymentConfig",
        ANYONE,
    ),
    (
        "/repairs.billing.v1.BillingService/GetMembershipPrice",
        ANYONE,
    ),
    ("/repairs.billing.v1.BillingService/PreviewHire", CUSTOMER),
    (
        "/repairs.billing.v1.BillingService/HireProfessional",
        CUSTOMER,
    ),
    // The payer or an admin: the handler checks whose payment it is.
    (
        "/repairs.billing.v1.BillingService/ConfirmPayment",
        SIGNED_IN,
    ),
    ("/repairs.billing.v1.BillingService/GetPayment", SIGNED_IN),
    ("/repairs.billing.v1.BillingService/CapturePayment", ADMIN),
    ("/repairs.billing.v1.BillingService/VoidPayment", ADMIN),
    ("/repairs.billing.v1.BillingService/RefundPayment", ADMIN),
    ("/repairs.billing.v1.BillingService/ListOrders", SIGNED_IN),
    (
        "/repairs.billing.v1.BillingService/QuoteMembership",
        PROFESSIONAL_OR_ADMIN,
    ),
    (
        "/repairs.billing.v1.BillingService/PurchaseMembership",
        PROFESSIONAL,
    ),
    (
        "/repairs.billing.v1.BillingService/GetMembership",
        PROFESSIONAL_OR_ADMIN,
    ),
    ("/repairs.billing.v1.BillingService/CreateCoupon", ADMIN),
    ("/repairs.billing.v1.BillingService/ListCoupons", ADMIN),
    ("/repairs.billing.v1.BillingService/SetCouponActive", ADMIN),
    ("/repairs.billing.v1.BillingService/DeleteCoupon", ADMIN),
    ("/repairs.billing.v1.BillingService/CreateTestCharge", ADMIN),
    // Verified by Stripe's signature inside the handler, not by a session.
    (
        "/repairs.billing.v1.BillingService/HandleStripeEvent",
        ANYONE,
    ),
    (
        "/repairs.billing.v1.BillingService/GetPayoutAccount",
        PROFESSIONAL_OR_ADMIN,
    ),
    (
        "/repairs.billing.v1.BillingService/CreatePayoutOnboardingLink",
        PROFESSIONAL,
    ),
    (
        "/repairs.billing.v1.BillingService/ListPayouts",
        PROFESSIONAL_OR_ADMIN,
    ),
    (
        "/repairs.billing.v1.BillingService/RecordManualPayout",
        ADMIN,
    ),
    // Content.
    ("/repairs.content.v1.ContentService/ListServices", ANYONE),
    ("/repairs.content.v1.ContentService/GetService", ANYONE),
    ("/repairs.content.v1.ContentService/CreateService", ADMIN),
    ("/repairs.content.v1.ContentService/UpdateService", ADMIN),
    ("/repairs.content.v1.ContentService/DeleteService", ADMIN),
    ("/repairs.content.v1.ContentService/ReorderServices", ADMIN),
    ("/repairs.content.v1.ContentService/GetHomePage", ANYONE),
    ("/repairs.content.v1.ContentService/UpdateHomePage", ADMIN),
    (
        "/repairs.content.v1.ContentService/GetProfessionalPage",
        ANYONE,
    ),
    (
        "/repairs.content.v1.ContentService/UpdateProfessionalPage",
        ADMIN,
    ),
    ("/repairs.content.v1.ContentService/GetLegalPage", ANYONE),
    ("/repairs.content.v1.ContentService/UpdateLegalPage", ADMIN),
    (
        "/repairs.content.v1.ContentService/SendContactMessage",
        ANYONE,
    ),
    (
        "/repairs.content.v1.ContentService/ListContactMessages",
        ADMIN,
    ),
    (
        "/repairs.content.v1.ContentService/MarkContactMessageRead",
        ADMIN,
    ),
    (
        "/repairs.content.v1.ContentService/TranslateText",
        SIGNED_IN,
    ),
];

/// The rule for a request path, if there is one.
pub fn access_for(path: &str) -> Option<Access> {
    RULES
        .iter()
        .find(|(p, _)| *p == path)
        .map(|(_, access)| *access)
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use prost::Message;
    use prost_types::FileDescriptorSet;

    use super::*;

    fn contract_methods() -> BTreeSet<String> {
        let set = FileDescriptorSet::decode(repairs_proto::FILE_DESCRIPTOR_SET).unwrap();
        set.file
            .iter()
            .flat_map(|file| {
                let package = file.package().to_owned();
                file.service.iter().flat_map(move |service| {
                    let package = package.clone();
                    service.method.iter().map(move |method| {
                        format!("/{package}.{}/{}", service.name(), method.name())
                    })
                })
            })
            .collect()
    }

    #[test]
    fn every_rpc_of_the_contracts_has_exactly_one_rule() {
        let ruled: Vec<&str> = RULES.iter().map(|(p, _)| *p).collect();
        let unique: BTreeSet<&str> = ruled.iter().copied().collect();
        assert_eq!(unique.len(), ruled.len(), "a method has two rules");
        let missing: Vec<String> = contract_methods()
            .into_iter()
            .filter(|m| !unique.contains(m.as_str()))
            .collect();
        assert!(
            missing.is_empty(),
            "RPCs without an access rule: {missing:?}"
        );
    }

    #[test]
    fn every_rule_names_a_real_rpc() {
        let methods = contract_methods();
        let stray: Vec<&str> = RULES
            .iter()
            .map(|(p, _)| *p)
            .filter(|p| !p.starts_with("/grpc.") && !methods.contains(*p))
            .collect();
        assert!(
            stray.is_empty(),
            "rules for RPCs that do not exist: {stray:?}"
        );
    }

    #[test]
    fn unknown_paths_have_no_rule() {
        assert_eq!(
            access_for("/repairs.accounts.v1.AccountsService/DropEverything"),
            None
        );
        assert_eq!(
            access_for("/repairs.accounts.v1.AccountsService/LogIn"),
            Some(Access::Anyone)
        );
    }
}
