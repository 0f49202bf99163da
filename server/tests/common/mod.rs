//! The test harness for the benches, which include this file by path: the harness itself
//! lives in the server crate (feature `test-support`). The integration tests, one test
//! binary, are in `api/` with their helpers in `api/helpers/`.

pub use repairs_server::testing::*;
