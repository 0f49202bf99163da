//! The BFF's integration tests, in one test binary: one module per surface, and the helpers
//! they share (a BFF on a port of its own, the real server behind it, legacy calls).
//!
//! The tests run side by side in one process, so none may change what the process shares:
//! no environment variables, no statics. Each starts its own BFF and server on ports of their
//! own, and a BFF's upstreams that a test does not give are ports held closed for its lifetime
//! (see [`helpers::ClosedPort`]).

// Test helpers outside #[test] functions may panic too (clippy.toml only covers the tests).
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod helpers;

mod grpc_web;
mod legacy;
mod legacy_accounts;
mod legacy_billing;
mod legacy_catalogue;
mod legacy_client;
mod legacy_client_addr;
mod legacy_content;
mod legacy_requests;
mod metrics;
mod openapi;
mod prerendered;
mod servers;
mod static_files;
mod unsubscribe;
