//! What checking a request against the contracts' `buf.validate` rules costs, per request,
//! on typical requests (CreateRepairRequest, SendMessage, UpdateProfessionalProfile):
//!
//! - the server's check: the table generated from the annotations at build time
//!   (`repairs_proto::limits`), walked over the encoded request (`api::limits::schema`);
//! - for scale, prost's decoding of the same bytes, which tonic does anyway after the check;
//! - with `--features protovalidate-crate`, the third-party `prost-protovalidate` crate's
//!   runtime validator on the same requests (decoded as `DynamicMessage`, which it needs, and
//!   validated), the alternative docs/configuration.md weighs. That feature needs `protoc` on
//!   the PATH (the crate compiles `validate.proto` with it).
//!
//! Prints nanoseconds per check; asserts nothing but that the requests are valid. No
//! services needed: `cargo bench -p repairs-server --bench request_limits`.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "a benchmark: failures should panic"
)]

use std::{hint::black_box, time::Instant};

use prost::Message;
use repairs_proto::{accounts, marketplace, types};
use repairs_server::api::limits::schema::Schema;

const ROUNDS: u32 = 200_000;

/// Nanoseconds per call of `f`, the best of three runs of [`ROUNDS`] calls.
fn per_call(mut f: impl FnMut()) -> f64 {
    (0..3)
        .map(|_| {
            let started = Instant::now();
            for _ in 0..ROUNDS {
                f();
            }
            started.elapsed().as_nanos() as f64 / f64::from(ROUNDS)
        })
        .fold(f64::INFINITY, f64::min)
}

fn id() -> String {
    uuid::Uuid::now_v7().to_string()
}

fn address() -> types::Address {
    types::Address {
        line1: "221 Rue Saint-Paul Ouest".into(),
        line2: "Unit 4".into(),
        city: "Montréal".into(),
        province: "QC".into(),
        postal_code: "H2Y 1Z9".into(),
        country: "CA".into(),
    }
}

/// An RPC path, an encoded request of it, and its decoding with prost.
type Request = (&'static str, Vec<u8>, fn(&[u8]));

fn requests() -> Vec<Request> {
    let create = marketplace::CreateRepairRequestRequest {
        photos_to_follow: 0,
        request_id: id(),
        draft: Some(marketplace::RepairRequestDraft {
            service_id: id(),
            description: "The kitchen tap drips all night and the handle is loose. \
                          Water pools under the sink; the shut-off valve still works."
                .into(),
            urgency: 1,
            address: Some(address()),
        }),
    };
    let send = marketplace::SendMessageRequest {
        repair_request_id: id(),
        professional_id: id(),
        text: "Bonjour, I can come by Thursday after 3 pm. Is the water shut off for now?".into(),
        request_id: id(),
        photo_ids: vec![id(), id()],
    };
    let profile = accounts::UpdateProfessionalProfileRequest {
        id: String::new(),
        name: "Émilie Tremblay".into(),
        email: "emilie@example.ca".into(),
        profile: Some(accounts::ProfessionalProfile {
            description: "Licensed plumber, 12 years in residential repairs.".repeat(4),
            registered_address: "1200 Boulevard René-Lévesque Ouest, Montréal QC".into(),
            home_base: Some(address()),
            available_days: vec![1, 2, 3, 4, 5],
            available_from: "08:00".into(),
            available_to: "18:00".into(),
            time_zone: "America/Toronto".into(),
            radius_km: 40,
            service_ids: vec![id(), id(), id()],
            qualification: "Master plumber".into(),
            experience: 3,
            minimum_fee: Some(types::Money {
                amount_cents: 8_000,
                currency: "CAD".into(),
            }),
            emergencies_any_hour: false,
            gst_hst_number: "123456789RT0001".into(),
            qst_number: "1234567890TQ0001".into(),
        }),
        ..Default::default()
    };
    vec![
        (
            "/repairs.marketplace.v1.MarketplaceService/CreateRepairRequest",
            create.encode_to_vec(),
            |b| {
                black_box(marketplace::CreateRepairRequestRequest::decode(b).unwrap());
            },
        ),
        (
            "/repairs.marketplace.v1.MarketplaceService/SendMessage",
            send.encode_to_vec(),
            |b| {
                black_box(marketplace::SendMessageRequest::decode(b).unwrap());
            },
        ),
        (
            "/repairs.accounts.v1.AccountsService/UpdateProfessionalProfile",
            profile.encode_to_vec(),
            |b| {
                black_box(accounts::UpdateProfessionalProfileRequest::decode(b).unwrap());
            },
        ),
    ]
}

fn main() {
    let schema = Schema::from_descriptors(repairs_proto::FILE_DESCRIPTOR_SET).unwrap();
    #[cfg(feature = "protovalidate-crate")]
    let crate_check = crate_check::CrateCheck::new();
    println!("request limits, ns per request (best of 3 x {ROUNDS}):");
    for (path, encoded, decode) in requests() {
        let rpc = path.rsplit('/').next().unwrap();
        let rules = schema.input_of(path).unwrap().rules;
        Schema::check(rules, &encoded).unwrap();
        let ours = per_call(|| {
            black_box(Schema::check(rules, black_box(&encoded))).unwrap();
        });
        let prost = per_call(|| decode(black_box(&encoded)));
        println!(
            "  {rpc:<26} {:>4} bytes  generated table: {ours:>7.0} ns   prost decode (tonic's, for scale): {prost:>7.0} ns",
            encoded.len()
        );
        #[cfg(feature = "protovalidate-crate")]
        crate_check.report(rules.name, &encoded);
    }
}

#[cfg(feature = "protovalidate-crate")]
mod crate_check {
    use std::hint::black_box;

    use prost_reflect::{DescriptorPool, DynamicMessage};

    use super::per_call;

    pub struct CrateCheck {
        pool: DescriptorPool,
        validator: prost_protovalidate::Validator,
    }

    impl CrateCheck {
        pub fn new() -> Self {
            Self {
                pool: DescriptorPool::decode(repairs_proto::FILE_DESCRIPTOR_SET).unwrap(),
                validator: prost_protovalidate::Validator::new(),
            }
        }

        pub fn report(&self, message: &str, encoded: &[u8]) {
            let descriptor = self.pool.get_message_by_name(message).unwrap();
            let decoded = DynamicMessage::decode(descriptor.clone(), encoded).unwrap();
            self.validator.validate(&decoded).unwrap();
            let validate = per_call(|| {
                self.validator.validate(black_box(&decoded)).unwrap();
            });
            let both = per_call(|| {
                let decoded =
                    DynamicMessage::decode(descriptor.clone(), black_box(encoded)).unwrap();
                self.validator.validate(&decoded).unwrap();
            });
            println!(
                "  {:<26}             prost-protovalidate: validate {validate:>7.0} ns, decode to DynamicMessage + validate {both:>7.0} ns",
                ""
            );
        }
    }
}
