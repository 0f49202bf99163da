//! What the tests share. The harness itself lives in the server crate (feature
//! `test-support`) so the BFF's tests start the server the same way; here are the worlds
//! built on it (the marketplace's, the content admin's) and a local HTTP server for the
//! providers' fakes.

pub use repairs_server::testing::*;

pub mod content;
pub mod market;

mod local_server;
pub use local_server::{LocalServer, closed_port, closed_port_url};
