//! Rows of the legacy call table (proto/README.md): a method, a path pattern and the RPC behind it.

use std::fmt;

use axum::Router;
use axum::routing::{MethodFilter, MethodRouter};
use tonic::transport::Channel;

/// The HTTP methods legacy calls use.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Verb {
    Get,
    Post,
    Delete,
}

impl Verb {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Get => "GET",
            Self::Post => "POST",
            Self::Delete => "DELETE",
        }
    }

    pub fn filter(self) -> MethodFilter {
        match self {
            Self::Get => MethodFilter::GET,
            Self::Post => MethodFilter::POST,
            Self::Delete => MethodFilter::DELETE,
        }
    }
}

impl fmt::Display for Verb {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One legacy call: `path` is the full axum pattern (`/api/users/get-user/{id}`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Call {
    pub verb: Verb,
    pub path: &'static str,
    /// `Service.Method` the call becomes.
    pub rpc: &'static str,
}

pub const fn get(path: &'static str, rpc: &'static str) -> Call {
    Call {
        verb: Verb::Get,
        path,
        rpc,
    }
}

pub const fn post(path: &'static str, rpc: &'static str) -> Call {
    Call {
        verb: Verb::Post,
        path,
        rpc,
    }
}

pub const fn delete(path: &'static str, rpc: &'static str) -> Call {
    Call {
        verb: Verb::Delete,
        path,
        rpc,
    }
}

impl fmt::Display for Call {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {} ({})", self.verb, self.path, self.rpc)
    }
}

/// Registers `handler` for `call`, at its path and at the same path with the trailing slash
/// toggled: the legacy Express server matched both (`/api/orders/view-orders` and
/// `/api/orders/view-orders/`), so old callers use either.
pub fn route(router: Router<Channel>, call: &Call, handler: Handler) -> Router<Channel> {
    let twin = match call.path.strip_suffix('/') {
        Some(without) => without.to_owned(),
        None => format!("{}/", call.path),
    };
    router
        .route(call.path, handler.clone())
        .route(&twin, handler)
}

/// What serves a translated call. Legacy routes share one state, the gRPC channel to the
/// server (see [`super::rpc::Rpc`]), and nothing else of the app.
pub type Handler = MethodRouter<Channel>;

/// A translated call and the handler that serves it.
pub type Translation = (Call, Handler);

/// The routes of one area: each call of `calls` to its translation.
pub fn area(calls: &'static [Call], translated: Vec<Translation>) -> Router<Channel> {
    debug_assert!(
        translated.iter().all(|(call, _)| calls.contains(call)),
        "a translation for a call that is not in its area's table"
    );
    translated
        .into_iter()
        .fold(Router::new(), |router, (call, handler)| {
            route(router, &call, handler)
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_call_names_itself() {
        let call = post("/api/users", "AccountsService.SignUp");
        assert_eq!(call.to_string(), "POST /api/users (AccountsService.SignUp)");
        assert_eq!(call.verb.filter(), MethodFilter::POST);
    }
}
