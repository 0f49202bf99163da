//! The legacy `/api` surface of the old product: every call of proto/README.md's table,
//! one module per area, each becoming a gRPC call to the server.

use axum::routing::{any, get};
use axum::{Extension, Json, Router};
use tonic::transport::Channel;

use error::ApiError;
use rpc::CatalogueCache;
use table::{Call, Translation};

pub mod auth;
pub mod body;
pub mod catalogue;
pub mod error;
pub mod keys;
pub mod openapi;
pub mod paging;
pub mod rpc;
pub mod shapes;
pub mod table;
pub mod text;
pub mod unary;

mod accounts_shared;
mod admin;
mod applications;
mod coupons;
mod matching;
mod orders;
pub(crate) mod pages;
mod professionals;
mod requests;
mod reviews;
mod services;
mod sms;
mod stripe;
mod users;

/// One legacy area: its rows of the table and their translations (every row has one, as a
/// test checks).
struct Area {
    calls: &'static [Call],
    translations: fn() -> Vec<Translation>,
}

const AREAS: [Area; 11] = [
    Area {
        calls: users::CALLS,
        translations: users::translations,
    },
    Area {
        calls: professionals::CALLS,
        translations: professionals::translations,
    },
    Area {
        calls: sms::CALLS,
        translations: sms::translations,
    },
    Area {
        calls: requests::CALLS,
        translations: requests::translations,
    },
    Area {
        calls: applications::CALLS,
        translations: applications::translations,
    },
    Area {
        calls: stripe::CALLS,
        translations: stripe::translations,
    },
    Area {
        calls: orders::CALLS,
        translations: orders::translations,
    },
    Area {
        calls: coupons::CALLS,
        translations: coupons::translations,
    },
    Area {
        calls: pages::CALLS,
        translations: pages::translations,
    },
    Area {
        calls: services::CALLS,
        translations: services::translations,
    },
    Area {
        calls: admin::CALLS,
        translations: admin::translations,
    },
];

/// Every legacy call, all areas together (the 84 rows of the table).
pub fn calls() -> impl Iterator<Item = &'static Call> {
    AREAS.iter().flat_map(|area| area.calls)
}

/// The calls that are translated into gRPC.
pub fn translated_calls() -> Vec<Call> {
    AREAS
        .iter()
        .flat_map(|area| (area.translations)())
        .map(|(call, _)| call)
        .collect()
}

/// The `/api` router: every area, then JSON 404/405 for whatever else is under `/api`
/// (never the web app, and never tonic-web's 400). Its calls go to the server on `channel`,
/// and name services from `catalogue` (read by [`rpc::Rpc`]).
pub fn routes<S: Clone + Send + Sync + 'static>(
    channel: Channel,
    catalogue: CatalogueCache,
) -> Router<S> {
    let areas = AREAS.iter().fold(Router::new(), |router, area| {
        router.merge(table::area(area.calls, (area.translations)()))
    });
    let router = areas
        .route(
            openapi::PATH,
            get(|| async { Json(openapi::document(calls())) }),
        )
        .route("/api", any(not_found))
        .route("/api/", any(not_found))
        .route("/api/{*rest}", any(not_found))
        .method_not_allowed_fallback(method_not_allowed)
        .layer(Extension(catalogue));
    body::limit(router).with_state(channel)
}

async fn not_found() -> ApiError {
    ApiError::not_found()
}

async fn method_not_allowed() -> ApiError {
    ApiError::new(http::StatusCode::METHOD_NOT_ALLOWED, "Method not allowed")
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn the_table_has_84_distinct_calls() {
        let distinct: HashSet<_> = calls().map(|call| (call.verb, call.path)).collect();
        assert_eq!(calls().count(), 84);
        assert_eq!(distinct.len(), 84);
        assert!(calls().all(|call| call.path.starts_with("/api/")));
    }

    #[test]
    fn each_translation_is_a_row_of_its_own_area_once() {
        for area in AREAS {
            let translated: Vec<Call> = (area.translations)()
                .into_iter()
                .map(|(call, _)| call)
                .collect();
            for call in &translated {
                assert!(area.calls.contains(call), "{call} is not in its area");
                assert_eq!(
                    translated.iter().filter(|c| *c == call).count(),
                    1,
                    "{call} twice"
                );
            }
        }
    }

    #[test]
    fn every_call_of_the_table_is_translated() {
        let translated = translated_calls();
        let missing: Vec<String> = calls()
            .filter(|call| !translated.contains(call))
            .map(ToString::to_string)
            .collect();
        assert!(missing.is_empty(), "not translated: {missing:?}");
        assert_eq!(translated.len(), 84);
    }
}
