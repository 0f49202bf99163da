//! Who is calling: session tokens, passwords, the per-RPC access table and the tower layer
//! that enforces it before any handler runs.

pub mod layer;
pub mod password;
pub mod policy;
pub mod secret;
pub mod token;

pub use layer::AuthLayer;
pub use token::{Caller, TokenKeys};
