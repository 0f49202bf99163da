//! Who is calling: session tokens, passwords, the per-RPC access table and the tower layer
//! that enforces it before any handler runs, and the live streams that end with their
//! session.

pub mod access;
pub mod layer;
pub mod password;
pub mod policy;
pub mod refresh_token;
pub mod revocation;
pub mod secret;
pub mod service;
pub mod stream;
pub mod token;

pub use layer::AuthLayer;
pub use revocation::SessionVersions;
pub use token::{Caller, TokenKeys};
