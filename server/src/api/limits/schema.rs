//! What each RPC's request may hold: its largest size, and the rules the contracts state in
//! their `buf.validate` annotations, generated into [`repairs_proto::limits`] at build time.
//! [`Schema::check`] walks an encoded request (protobuf wire format) against those rules
//! without decoding it into Rust types.

use std::collections::HashMap;

use prost::Message as _;
use prost_types::FileDescriptorSet;
use repairs_proto::limits::{self, Check, Field, Items, Message, Wire};

use super::problems::{Scalar, problem, thousands};
use crate::error::FieldViolation;

/// Requests of RPCs with no file in them: plenty for any form.
pub const MAX_REQUEST_BYTES: usize = 64 * 1024;
/// Requests carrying a file (a `bytes` field): a 5 MiB upload and its fields.
pub const MAX_UPLOAD_BYTES: usize = super::super::MAX_MESSAGE_BYTES;
/// Requests carrying a photo (`crate::photos`): a 15 MiB photo and its fields.
pub const MAX_PHOTO_REQUEST_BYTES: usize = super::super::MAX_PHOTO_MESSAGE_BYTES;

/// The request messages that carry a photo, by full name.
const PHOTO_UPLOADS: &[&str] = &[
    "repairs.marketplace.v1.AddRepairRequestPhotoRequest",
    "repairs.marketplace.v1.AddMessagePhotoRequest",
    "repairs.marketplace.v1.AddJobProblemPhotoRequest",
];

/// Nesting deeper than this is refused as malformed (the contracts nest a few levels).
const MAX_DEPTH: usize = 32;
/// The most fields a message of the contracts has whose count is kept on the stack.
const MAX_FIELDS: usize = 64;

/// An RPC's request: its rules and its largest encoded size.
#[derive(Debug, Clone, Copy)]
pub struct Input {
    pub rules: &'static Message,
    pub max_bytes: usize,
}

/// The request limits of every RPC of the contracts.
#[derive(Debug, Default)]
pub struct Schema {
    /// "/package.Service/Method" -> its request.
    inputs: HashMap<String, Input>,
}

/// Why an encoded request was refused.
#[derive(Debug, PartialEq, Eq)]
pub enum Refusal {
    /// Not a protobuf message of this type at all.
    Malformed,
    /// Fields that break their rules, one violation per field.
    Fields(Vec<FieldViolation>),
}

impl Schema {
    pub fn from_descriptors(encoded: &[u8]) -> Result<Self, String> {
        let set = FileDescriptorSet::decode(encoded).map_err(|e| e.to_string())?;
        let mut schema = Self::default();
        for file in &set.file {
            let package = file.package();
            if !package.starts_with("repairs.") {
                continue;
            }
            for service in &file.service {
                for method in &service.method {
                    let name = method.input_type().trim_start_matches('.');
                    let rules = limits::message(name)
                        .ok_or_else(|| format!("no generated limits for {name}"))?;
                    let max_bytes = if PHOTO_UPLOADS.contains(&name) {
                        MAX_PHOTO_REQUEST_BYTES
                    } else if carries_bytes(rules, 0) {
                        MAX_UPLOAD_BYTES
                    } else {
                        MAX_REQUEST_BYTES
                    };
                    schema.inputs.insert(
                        format!("/{package}.{}/{}", service.name(), method.name()),
                        Input { rules, max_bytes },
                    );
                }
            }
        }
        Ok(schema)
    }

    /// The request of an RPC path, when it is one of the contracts'.
    pub fn input_of(&self, path: &str) -> Option<Input> {
        self.inputs.get(path).copied()
    }

    /// Every RPC path of the contracts.
    pub fn paths(&self) -> impl Iterator<Item = &str> {
        self.inputs.keys().map(String::as_str)
    }

    /// Checks an encoded request against every rule of its message, nested ones included.
    pub fn check(rules: &'static Message, encoded: &[u8]) -> Result<(), Refusal> {
        let mut violations = Vec::new();
        walk(rules, encoded, "", 0, &mut violations)?;
        if violations.is_empty() {
            Ok(())
        } else {
            Err(Refusal::Fields(violations))
        }
    }
}

fn carries_bytes(message: &Message, depth: usize) -> bool {
    depth < MAX_DEPTH
        && message.fields.iter().any(|field| match field.check {
            Check::Bytes { .. } => true,
            Check::Message { name } => {
                limits::message(name).is_some_and(|m| carries_bytes(m, depth + 1))
            }
            _ => false,
        })
}

/// Collects the violations of one message's fields, each under its path.
struct Found<'a> {
    prefix: &'a str,
    violations: &'a mut Vec<FieldViolation>,
}

impl Found<'_> {
    fn add(&mut self, field: &Field, problem: String) {
        let path = format!("{}{}", self.prefix, field.name);
        // One violation per field: the first found.
        if !self.violations.iter().any(|v| v.field == path) {
            self.violations.push(FieldViolation::new(path, problem));
        }
    }
}

fn walk(
    rules: &'static Message,
    mut bytes: &[u8],
    prefix: &str,
    depth: usize,
    violations: &mut Vec<FieldViolation>,
) -> Result<(), Refusal> {
    if depth > MAX_DEPTH || rules.fields.len() > MAX_FIELDS {
        return Err(Refusal::Malformed);
    }
    // How many values of each field (by its index in `rules.fields`) the request holds.
    let mut counts = [0usize; MAX_FIELDS];
    while !bytes.is_empty() {
        let tag = varint(&mut bytes)?;
        let number = u32::try_from(tag >> 3).map_err(|_| Refusal::Malformed)?;
        let wire = tag & 7;
        let index = rules.fields.iter().position(|f| f.number == number);
        let value = match wire {
            0 => Value::Varint(varint(&mut bytes)?),
            1 => Value::Fixed64(u64::from_le_bytes(fixed(&mut bytes)?)),
            5 => Value::Fixed32(u32::from_le_bytes(fixed(&mut bytes)?)),
            2 => {
                let len = usize::try_from(varint(&mut bytes)?).map_err(|_| Refusal::Malformed)?;
                Value::Delimited(take(&mut bytes, len)?)
            }
            // Groups (3, 4) are not used by the contracts; anything else is not protobuf.
            _ => return Err(Refusal::Malformed),
        };
        // Fields the contracts do not know (a newer client's) are left to the handler.
        let Some(index) = index else { continue };
        let field = &rules.fields[index];
        let mut found = Found {
            prefix,
            violations: &mut *violations,
        };
        match (field.check, value) {
            (Check::Message { name }, Value::Delimited(inner)) => {
                counts[index] += 1;
                if let Some(inner_rules) = limits::message(name) {
                    let path = format!("{prefix}{}.", field.name);
                    walk(inner_rules, inner, &path, depth + 1, violations)?;
                }
            }
            (Check::Opaque | Check::Text { .. } | Check::Bytes { .. }, Value::Delimited(value)) => {
                counts[index] += 1;
                check_value(field, Scalar::Delimited(value), &mut found);
            }
            // A packed repeated scalar: each item counts and is checked.
            (check, Value::Delimited(mut packed)) if field.items.is_some() => {
                while !packed.is_empty() {
                    let item = match check {
                        Check::Double { .. } | Check::Scalar(Wire::Fixed64) => {
                            Scalar::Fixed64(u64::from_le_bytes(fixed(&mut packed)?))
                        }
                        Check::Scalar(Wire::Fixed32) => {
                            Scalar::Fixed32(u32::from_le_bytes(fixed(&mut packed)?))
                        }
                        _ => Scalar::Varint(varint(&mut packed)?),
                    };
                    counts[index] += 1;
                    check_value(field, item, &mut found);
                }
            }
            (
                Check::Int { .. } | Check::Enum { .. } | Check::Scalar(Wire::Varint),
                Value::Varint(v),
            ) => {
                counts[index] += 1;
                check_value(field, Scalar::Varint(v), &mut found);
            }
            (Check::Double { .. } | Check::Scalar(Wire::Fixed64), Value::Fixed64(v)) => {
                counts[index] += 1;
                check_value(field, Scalar::Fixed64(v), &mut found);
            }
            (Check::Scalar(Wire::Fixed32), Value::Fixed32(v)) => {
                counts[index] += 1;
                check_value(field, Scalar::Fixed32(v), &mut found);
            }
            // A value encoded as another type than the contract's: not this message.
            _ => return Err(Refusal::Malformed),
        }
    }
    let mut found = Found { prefix, violations };
    for (field, &count) in rules.fields.iter().zip(&counts) {
        match field.items {
            Some(items) => check_items(field, items, count, &mut found),
            None if count > 0 => {}
            None if field.required => found.add(field, "is required".to_owned()),
            None if field.presence || field.ignore_if_zero => {}
            // Not on the wire: the field holds its zero value, which its rules also judge.
            None => check_value(field, Scalar::Zero, &mut found),
        }
    }
    Ok(())
}

/// A field's value as read from the wire.
#[derive(Clone, Copy)]
enum Value<'a> {
    Varint(u64),
    Fixed64(u64),
    Fixed32(u32),
    Delimited(&'a [u8]),
}

fn check_items(field: &Field, items: Items, count: usize, found: &mut Found<'_>) {
    if field.required && count == 0 {
        found.add(field, "is required".to_owned());
    } else if let Some(max) = items.max.filter(|&max| count > max) {
        found.add(
            field,
            format!("must have at most {} items", thousands(max as u64)),
        );
    } else if let Some(min) = items.min.filter(|&min| count < min) {
        let problem = if min == 1 {
            "must have at least one item".to_owned()
        } else {
            format!("must have at least {} items", thousands(min as u64))
        };
        found.add(field, problem);
    }
}

fn check_value(field: &Field, value: Scalar<'_>, found: &mut Found<'_>) {
    let zero = match value {
        Scalar::Zero => true,
        Scalar::Varint(v) => v == 0,
        Scalar::Fixed64(v) => v == 0,
        Scalar::Fixed32(v) => v == 0,
        Scalar::Delimited(v) => v.is_empty(),
    };
    // Items of a repeated field are judged by their own rules, whatever their value.
    if zero && field.items.is_none() {
        if field.required {
            found.add(field, "is required".to_owned());
            return;
        }
        if field.ignore_if_zero {
            return;
        }
    }
    if let Some(problem) = problem(field.check, value) {
        found.add(field, problem);
    }
}

fn varint(bytes: &mut &[u8]) -> Result<u64, Refusal> {
    let mut value = 0u64;
    for shift in (0..64).step_by(7) {
        let (&byte, rest) = bytes.split_first().ok_or(Refusal::Malformed)?;
        *bytes = rest;
        value |= u64::from(byte & 0x7f) << shift;
        if byte & 0x80 == 0 {
            return Ok(value);
        }
    }
    Err(Refusal::Malformed)
}

fn fixed<const N: usize>(bytes: &mut &[u8]) -> Result<[u8; N], Refusal> {
    let value = take(bytes, N)?;
    value.try_into().map_err(|_| Refusal::Malformed)
}

fn take<'a>(bytes: &mut &'a [u8], len: usize) -> Result<&'a [u8], Refusal> {
    if bytes.len() < len {
        return Err(Refusal::Malformed);
    }
    let (value, rest) = bytes.split_at(len);
    *bytes = rest;
    Ok(value)
}

#[cfg(test)]
mod tests {
    use prost::Message;
    use repairs_proto::{accounts as pb, limits as generated, marketplace, types};

    use super::*;

    fn schema() -> Schema {
        Schema::from_descriptors(repairs_proto::FILE_DESCRIPTOR_SET).unwrap()
    }

    const LOG_IN: &str = "/repairs.accounts.v1.AccountsService/LogIn";
    const PROFILE: &str = "/repairs.accounts.v1.AccountsService/UpdateProfessionalProfile";
    const SEND: &str = "/repairs.marketplace.v1.MarketplaceService/SendMessage";

    fn violations(schema: &Schema, path: &str, encoded: &[u8]) -> Vec<(String, String)> {
        match Schema::check(schema.input_of(path).unwrap().rules, encoded) {
            Ok(()) => Vec::new(),
            Err(Refusal::Fields(found)) => found
                .into_iter()
                .map(|v| (v.field, v.description))
                .collect(),
            Err(Refusal::Malformed) => panic!("malformed"),
        }
    }

    #[test]
    fn every_rpc_has_its_rules_and_a_size() {
        let schema = schema();
        let input = schema.input_of(LOG_IN).unwrap();
        assert_eq!(input.rules.name, "repairs.accounts.v1.LogInRequest");
        assert_eq!(input.max_bytes, MAX_REQUEST_BYTES);
        let upload = schema
            .input_of("/repairs.accounts.v1.AccountsService/AddLicence")
            .unwrap();
        assert_eq!(upload.max_bytes, MAX_UPLOAD_BYTES);
        assert!(schema.input_of("/grpc.health.v1.Health/Check").is_none());
        for path in [
            "/repairs.marketplace.v1.MarketplaceService/AddRepairRequestPhoto",
            "/repairs.marketplace.v1.MarketplaceService/AddMessagePhoto",
            "/repairs.marketplace.v1.MarketplaceService/AddJobProblemPhoto",
        ] {
            let photo = schema.input_of(path).unwrap();
            assert_eq!(photo.max_bytes, MAX_PHOTO_REQUEST_BYTES, "{path}");
        }
        const { assert!(MAX_PHOTO_REQUEST_BYTES > crate::photos::MAX_PHOTO_BYTES) };
        assert_eq!(schema.paths().count(), 145);
    }

    #[test]
    fn text_fields_are_bounded_by_characters_not_bytes() {
        let schema = schema();
        let max = generated::log_in::EMAIL_MAX_LEN;
        let fine = pb::LogInRequest {
            role: 1,
            email: "é".repeat(max),
            password: "correct horse".into(),
        };
        assert!(violations(&schema, LOG_IN, &fine.encode_to_vec()).is_empty());
        let long = pb::LogInRequest {
            email: "a".repeat(max + 1),
            password: "p".repeat(generated::log_in::PASSWORD_MAX_LEN + 1),
            ..fine
        };
        assert_eq!(
            violations(&schema, LOG_IN, &long.encode_to_vec()),
            [
                (
                    "email".to_owned(),
                    "must be at most 254 characters".to_owned()
                ),
                (
                    "password".to_owned(),
                    "must be at most 128 characters".to_owned()
                ),
            ]
        );
    }

    #[test]
    fn nested_and_repeated_fields_are_checked_with_their_path() {
        let schema = schema();
        let request = pb::UpdateProfessionalProfileRequest {
            profile: Some(pb::ProfessionalProfile {
                description: "d".repeat(generated::professional_profile::DESCRIPTION_MAX_LEN),
                home_base: Some(types::Address {
                    city: "c".repeat(generated::address::CITY_MAX_LEN + 1),
                    ..Default::default()
                }),
                service_ids: vec![uuid::Uuid::now_v7().to_string(), "s".repeat(101)],
                available_days: vec![1, 2, 99],
                ..Default::default()
            }),
            ..Default::default()
        };
        let found: Vec<String> = violations(&schema, PROFILE, &request.encode_to_vec())
            .into_iter()
            .map(|(field, _)| field)
            .collect();
        assert_eq!(
            found,
            [
                "profile.home_base.city",
                "profile.available_days",
                "profile.service_ids"
            ]
        );
    }

    #[test]
    fn counts_ranges_ids_and_absent_fields() {
        let schema = schema();
        let id = uuid::Uuid::now_v7().to_string();
        let message = |photos: usize, text: &str| marketplace::SendMessageRequest {
            repair_request_id: id.clone(),
            text: text.into(),
            photo_ids: vec![id.clone(); photos],
            ..Default::default()
        };
        let max = generated::send_message::PHOTO_IDS_MAX_ITEMS;
        assert!(violations(&schema, SEND, &message(max, "hello").encode_to_vec()).is_empty());
        assert_eq!(
            violations(&schema, SEND, &message(max + 1, "hello").encode_to_vec()),
            [(
                "photo_ids".to_owned(),
                "must have at most 4 items".to_owned()
            )]
        );
        // An absent id is the empty text, which is not a UUID; an empty own id means "me".
        let no_request = marketplace::SendMessageRequest::default();
        assert_eq!(
            violations(&schema, SEND, &no_request.encode_to_vec()),
            [(
                "repair_request_id".to_owned(),
                "must be an id (a UUID)".to_owned()
            )]
        );
        let review = |rating| marketplace::CreateReviewRequest {
            repair_request_id: id.clone(),
            rating,
            text: String::new(),
        };
        let path = "/repairs.marketplace.v1.MarketplaceService/CreateReview";
        assert!(violations(&schema, path, &review(5).encode_to_vec()).is_empty());
        for wrong in [0, 6, -1] {
            assert_eq!(
                violations(&schema, path, &review(wrong).encode_to_vec()),
                [("rating".to_owned(), "must be from 1 to 5".to_owned())]
            );
        }
        // A required message that is missing; an empty own idempotency key is allowed.
        let place = marketplace::CreateRepairRequestRequest::default();
        let path = "/repairs.marketplace.v1.MarketplaceService/CreateRepairRequest";
        assert_eq!(
            violations(&schema, path, &place.encode_to_vec()),
            [("draft".to_owned(), "is required".to_owned())]
        );
    }

    #[test]
    fn what_is_not_protobuf_or_not_text_is_refused() {
        let schema = schema();
        let input = schema.input_of(LOG_IN).unwrap();
        // Field 2 (email), length-delimited, claiming 100 bytes of which 3 follow.
        assert_eq!(
            Schema::check(input.rules, &[0x12, 100, b'a', b'b', b'c']),
            Err(Refusal::Malformed)
        );
        // Field 2 (email) sent as a number.
        assert_eq!(
            Schema::check(input.rules, &[0x10, 1]),
            Err(Refusal::Malformed)
        );
        assert_eq!(
            violations(&schema, LOG_IN, &[0x12, 2, 0xff, 0xfe, 0x1a, 1, b'p']),
            [(
                "email".to_owned(),
                "this text is not valid UTF-8".to_owned()
            ),]
        );
    }
}
