//! The shared test harness lives in the server crate (feature `test-support`) so the BFF's
//! tests start the server the same way.

#![allow(unused_imports, reason = "each test file uses part of the harness")]

pub use repairs_server::testing::*;

#[allow(dead_code, reason = "the content tests' world, unused by the others")]
pub mod content;

#[allow(
    dead_code,
    reason = "each test file uses part of the marketplace world"
)]
pub mod market;
