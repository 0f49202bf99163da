//! What every translated legacy call needs to call the server: the gRPC clients on the shared
//! channel (each request sent whole, [`super::unary`]), the metadata each call carries (the
//! caller's token as `authorization: Bearer`, the `x-request-id` of the HTTP request, so server
//! logs line up with the BFF's, and the caller's address in `x-forwarded-for`, which the
//! server's per-client limits count by), and the legacy routes' copy of the service catalogue.

use std::net::SocketAddr;

use axum::extract::{ConnectInfo, FromRequestParts};
use http::request::Parts;
use repairs_proto::accounts::accounts_service_client::AccountsServiceClient;
use repairs_proto::billing::billing_service_client::BillingServiceClient;
use repairs_proto::content::content_service_client::ContentServiceClient;
use repairs_proto::marketplace::marketplace_service_client::MarketplaceServiceClient;
use repairs_proto::matching::matching_service_client::MatchingServiceClient;
use tonic::metadata::AsciiMetadataValue;
use tonic::transport::Channel;

use super::auth::LegacyToken;
use super::error::ApiError;
use super::unary::UnaryChannel;
use crate::cache::Cached;
use crate::forwarded::forwarded_for;

const X_REQUEST_ID: &str = "x-request-id";
const X_FORWARDED_FOR: &str = "x-forwarded-for";

/// The active catalogue as one BFF keeps it for `LEGACY_CATALOGUE_TTL_MS`
/// (docs/configuration.md): most legacy calls name a service, and the server would otherwise
/// list the catalogue for each.
/// The BFF's own legacy edits drop it (`Catalogue::changed`).
pub type CatalogueCache = Cached<Vec<repairs_proto::content::Service>, tonic::Status>;

/// The caller's side of a legacy call, ready to make gRPC requests.
#[derive(Clone)]
pub struct Rpc {
    token: LegacyToken,
    request_id: Option<AsciiMetadataValue>,
    forwarded_for: Option<AsciiMetadataValue>,
    channel: Channel,
    catalogue: CatalogueCache,
}

impl Rpc {
    /// Wraps a message with the call's metadata.
    pub fn request<T>(&self, message: T) -> tonic::Request<T> {
        let mut request = self.token.request(message);
        request.metadata_mut().insert(
            repairs_proto::LEGACY_CALL,
            AsciiMetadataValue::from_static("1"),
        );
        if let Some(id) = &self.request_id {
            request.metadata_mut().insert(X_REQUEST_ID, id.clone());
        }
        if let Some(client) = &self.forwarded_for {
            request
                .metadata_mut()
                .insert(X_FORWARDED_FOR, client.clone());
        }
        request
    }

    /// The token the caller sent.
    pub fn token(&self) -> &LegacyToken {
        &self.token
    }

    /// The same call made with another token (one the legacy call carries in its path or has
    /// just been issued).
    pub fn with_token(&self, token: LegacyToken) -> Self {
        Self {
            token,
            ..self.clone()
        }
    }

    /// The catalogue as this BFF keeps it (see [`super::catalogue::Catalogue::load`]).
    pub fn catalogue_cache(&self) -> &CatalogueCache {
        &self.catalogue
    }

    pub fn accounts(&self) -> AccountsServiceClient<UnaryChannel> {
        AccountsServiceClient::new(UnaryChannel::new(self.channel.clone()))
    }

    pub fn billing(&self) -> BillingServiceClient<UnaryChannel> {
        BillingServiceClient::new(UnaryChannel::new(self.channel.clone()))
    }

    pub fn content(&self) -> ContentServiceClient<UnaryChannel> {
        ContentServiceClient::new(UnaryChannel::new(self.channel.clone()))
    }

    pub fn marketplace(&self) -> MarketplaceServiceClient<UnaryChannel> {
        MarketplaceServiceClient::new(UnaryChannel::new(self.channel.clone()))
    }

    pub fn matching(&self) -> MatchingServiceClient<UnaryChannel> {
        MatchingServiceClient::new(UnaryChannel::new(self.channel.clone()))
    }
}

/// The legacy routes' state is the channel itself (see [`super::table::Handler`]); their
/// catalogue cache is an extension [`super::routes`] (and the prerendered pages) add.
/// Elsewhere (the Stripe webhook) there is none, and a catalogue would be loaded on every
/// call.
impl FromRequestParts<Channel> for Rpc {
    type Rejection = ApiError;

    async fn from_request_parts(
        parts: &mut Parts,
        channel: &Channel,
    ) -> Result<Self, Self::Rejection> {
        let token = LegacyToken::from_headers(&parts.headers)?;
        // Set by the request-id layer on every request; a value gRPC metadata cannot carry is
        // simply not forwarded.
        let request_id = parts
            .headers
            .get(X_REQUEST_ID)
            .and_then(|value| value.to_str().ok())
            .and_then(|value| value.parse().ok());
        let forwarded_for = parts
            .extensions
            .get::<ConnectInfo<SocketAddr>>()
            .and_then(|info| forwarded_for(&parts.headers, info.0).parse().ok());
        let catalogue = parts
            .extensions
            .get::<CatalogueCache>()
            .cloned()
            .unwrap_or_default();
        Ok(Self {
            token,
            request_id,
            forwarded_for,
            channel: channel.clone(),
            catalogue,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use http::{HeaderMap, HeaderValue};
    use tonic::transport::Endpoint;

    #[tokio::test]
    async fn calls_carry_the_token_the_request_id_and_the_client() {
        let mut headers = HeaderMap::new();
        headers.insert("x-auth-token", HeaderValue::from_static("a.b.c"));
        let rpc = Rpc {
            token: LegacyToken::from_headers(&headers).unwrap(),
            request_id: Some(AsciiMetadataValue::from_static("req-1")),
            forwarded_for: Some(AsciiMetadataValue::from_static("198.51.100.7")),
            channel: Endpoint::from_static("http://127.0.0.1:1").connect_lazy(),
            catalogue: CatalogueCache::default(),
        };
        let request = rpc.request(());
        assert_eq!(
            request.metadata().get("authorization").unwrap(),
            "Bearer a.b.c"
        );
        assert_eq!(request.metadata().get(X_REQUEST_ID).unwrap(), "req-1");
        assert_eq!(
            request.metadata().get(X_FORWARDED_FOR).unwrap(),
            "198.51.100.7"
        );

        let other = rpc.with_token(LegacyToken::from_path("d.e.f").unwrap());
        let request = other.request(());
        assert_eq!(
            request.metadata().get("authorization").unwrap(),
            "Bearer d.e.f"
        );
        assert_eq!(request.metadata().get(X_REQUEST_ID).unwrap(), "req-1");

        let anonymous = rpc.with_token(LegacyToken::default());
        assert!(
            anonymous
                .request(())
                .metadata()
                .get("authorization")
                .is_none()
        );
    }
}
