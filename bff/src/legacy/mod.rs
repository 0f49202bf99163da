//! The legacy `/api` surface of the old product: every call of proto/README.md's table,
//! one module per area, each becoming a gRPC call to the server.

use axum::Router;
use axum::routing::any;

use crate::AppState;
use error::ApiError;
use table::Call;

pub mod auth;
pub mod body;
pub mod error;
pub mod pending;
pub mod table;

mod admin;
mod applications;
mod coupons;
mod orders;
mod pages;
mod professionals;
mod requests;
mod services;
mod sms;
mod stripe;
mod users;

/// One legacy area: its rows of the table and the routes that serve them.
struct Area {
    calls: &'static [Call],
    routes: fn() -> Router<AppState>,
}

const AREAS: [Area; 11] = [
    Area {
        calls: users::CALLS,
        routes: users::routes,
    },
    Area {
        calls: professionals::CALLS,
        routes: professionals::routes,
    },
    Area {
        calls: sms::CALLS,
        routes: sms::routes,
    },
    Area {
        calls: requests::CALLS,
        routes: requests::routes,
    },
    Area {
        calls: applications::CALLS,
        routes: applications::routes,
    },
    Area {
        calls: stripe::CALLS,
        routes: stripe::routes,
    },
    Area {
        calls: orders::CALLS,
        routes: orders::routes,
    },
    Area {
        calls: coupons::CALLS,
        routes: coupons::routes,
    },
    Area {
        calls: pages::CALLS,
        routes: pages::routes,
    },
    Area {
        calls: services::CALLS,
        routes: services::routes,
    },
    Area {
        calls: admin::CALLS,
        routes: admin::routes,
    },
];

/// Every legacy call, all areas together (the 84 rows of the table).
pub fn calls() -> impl Iterator<Item = &'static Call> {
    AREAS.iter().flat_map(|area| area.calls)
}

/// The `/api` router: every area, then JSON 404/405 for whatever else is under `/api`
/// (never the web app, and never tonic-web's 400).
pub fn routes() -> Router<AppState> {
    let areas = AREAS
        .iter()
        .fold(Router::new(), |router, area| router.merge((area.routes)()));
    let router = areas
        .route("/api", any(not_found))
        .route("/api/", any(not_found))
        .route("/api/{*rest}", any(not_found))
        .method_not_allowed_fallback(method_not_allowed);
    body::limit(router)
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
}
