//! The contracts of the product, generated from `proto/repairs/**.proto` at build time.
//!
//! Generated code is never edited by hand. The only hand-written parts are these module
//! declarations, [`province`], the table of the province codes an `Address` carries,
//! [`reason`], how an error's reason travels as a string, the types of [`limits`], whose
//! data is generated from the contracts' `buf.validate` rules, and [`LEGACY_CALL`].

#[allow(missing_docs, clippy::unreadable_literal)]
pub mod limits;
pub mod province;
pub mod reason;

/// The metadata key the BFF sets (to "1") on the calls it makes for a legacy `/api` path,
/// so that a rule the old forms cannot follow (CreateQuote's `arrival_minutes` on an
/// emergency) asks nothing of them. A client that sets it only loses what the old forms
/// lack.
pub const LEGACY_CALL: &str = "x-repairs-legacy-call";

/// Encoded `FileDescriptorSet` of every contract (and of `buf/validate/validate.proto`, whose
/// annotations its options keep), for gRPC reflection and for reading the rules.
pub const FILE_DESCRIPTOR_SET: &[u8] =
    include_bytes!(concat!(env!("OUT_DIR"), "/repairs_descriptor.bin"));

#[allow(clippy::all, clippy::pedantic, missing_docs)]
pub mod repairs {
    pub mod r#type {
        pub mod v1 {
            include!(concat!(env!("OUT_DIR"), "/repairs.r#type.v1.rs"));
        }
    }
    pub mod accounts {
        pub mod v1 {
            tonic::include_proto!("repairs.accounts.v1");
        }
    }
    pub mod marketplace {
        pub mod v1 {
            tonic::include_proto!("repairs.marketplace.v1");
        }
    }
    pub mod matching {
        pub mod v1 {
            tonic::include_proto!("repairs.matching.v1");
        }
    }
    pub mod billing {
        pub mod v1 {
            tonic::include_proto!("repairs.billing.v1");
        }
    }
    pub mod content {
        pub mod v1 {
            tonic::include_proto!("repairs.content.v1");
        }
    }
    pub mod errors {
        pub mod v1 {
            tonic::include_proto!("repairs.errors.v1");
        }
    }
}

pub use repairs::{
    accounts::v1 as accounts, billing::v1 as billing, content::v1 as content, errors::v1 as errors,
    marketplace::v1 as marketplace, matching::v1 as matching, r#type::v1 as types,
};
