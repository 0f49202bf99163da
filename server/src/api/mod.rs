//! Transport: the tonic services. Each handler decodes, asks `auth::access` whether the caller
//! may touch the record it names, calls the rules, and encodes. Each service's conversions
//! to and from the contract's messages sit beside it in a `*_view` module.

mod account_closure;
mod account_view;
mod accounts;
mod addresses;
mod billing;
mod billing_view;
mod client_addr;
mod content;
mod conversation_view;
mod conversations;
mod convert;
mod data_export;
pub mod deadline;
mod dispute_view;
pub mod health;
mod job_problems;
pub mod limits;
mod marketplace;
mod matching;
mod notifications;
mod payout_view;
pub mod photo_view;
mod privacy_incidents;
mod professional_profile;
mod professional_view;
mod push;
mod quote_view;
mod receipt_view;
mod reply_language;
mod request_photos;
mod request_view;
mod service_accounts;
mod tax_view;
mod trip_view;
mod trips;

use repairs_proto::{
    accounts::accounts_service_server::AccountsServiceServer,
    billing::billing_service_server::BillingServiceServer,
    content::content_service_server::ContentServiceServer,
    marketplace::marketplace_service_server::MarketplaceServiceServer,
    matching::matching_service_server::MatchingServiceServer,
};
use tonic::service::Routes;

use crate::state::AppState;

/// Names of the product's services, for the health service.
pub const SERVICE_NAMES: [&str; 5] = [
    "repairs.accounts.v1.AccountsService",
    "repairs.marketplace.v1.MarketplaceService",
    "repairs.matching.v1.MatchingService",
    "repairs.billing.v1.BillingService",
    "repairs.content.v1.ContentService",
];

/// Uploads (profile photos, licences) may be 5 MiB; tonic's default message limit is 4 MiB.
/// The request limits layer ([`limits`]) bounds each RPC (64 KiB for those without a file);
/// tonic's own limit is this largest one on every service, so the layer always answers first.
const MAX_MESSAGE_BYTES: usize = 6 * 1024 * 1024;
/// Photos of the damage and of messages may be 15 MiB (`crate::photos`): MarketplaceService
/// takes that and their other fields.
const MAX_PHOTO_MESSAGE_BYTES: usize = crate::photos::MAX_PHOTO_BYTES + 64 * 1024;

/// Every service of the contracts, ready to serve.
pub fn routes(state: AppState) -> Routes {
    let mut builder = Routes::builder();
    builder
        .add_service(
            AccountsServiceServer::new(accounts::AccountsApi::new(state.clone()))
                .max_decoding_message_size(MAX_MESSAGE_BYTES),
        )
        .add_service(
            MarketplaceServiceServer::new(marketplace::MarketplaceApi::new(state.clone()))
                .max_decoding_message_size(MAX_PHOTO_MESSAGE_BYTES),
        )
        .add_service(
            MatchingServiceServer::new(matching::MatchingApi::new(state.clone()))
                .max_decoding_message_size(MAX_MESSAGE_BYTES),
        )
        .add_service(
            BillingServiceServer::new(billing::BillingApi::new(state.clone()))
                .max_decoding_message_size(MAX_MESSAGE_BYTES),
        )
        .add_service(
            ContentServiceServer::new(content::ContentApi::new(state))
                .max_decoding_message_size(MAX_MESSAGE_BYTES),
        );
    builder.routes()
}
