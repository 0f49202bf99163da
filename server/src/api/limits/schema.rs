//! What each RPC's request may hold, read from the contracts' descriptors: its largest size
//! and the longest text of each string field. [`Schema::check`] walks an encoded request
//! (protobuf wire format) against it without decoding it into Rust types.

use std::{collections::HashMap, sync::Arc};

use prost::Message;
use prost_types::{DescriptorProto, FileDescriptorSet, field_descriptor_proto::Type};

use crate::error::FieldViolation;

/// Requests of RPCs with no file in them: plenty for any form.
pub const MAX_REQUEST_BYTES: usize = 64 * 1024;
/// Requests carrying a file (a `bytes` field): a 5 MiB upload and its fields.
pub const MAX_UPLOAD_BYTES: usize = super::super::MAX_MESSAGE_BYTES;
/// Requests carrying a photo (`crate::photos`): a 15 MiB photo and its fields.
pub const MAX_PHOTO_REQUEST_BYTES: usize = super::super::MAX_PHOTO_MESSAGE_BYTES;

/// The request messages that carry a photo, by full name.
const PHOTO_UPLOADS: &[&str] = &[
    ".repairs.marketplace.v1.AddRepairRequestPhotoRequest",
    ".repairs.marketplace.v1.AddMessagePhotoRequest",
];

/// Longest text of a string field, in characters, unless [`LONGER_TEXT`] says otherwise.
/// Ids, names, emails, codes and labels are far shorter; the domain types bound each more
/// tightly (an email at 254, a name at 100, ...).
pub const MAX_TEXT_CHARS: usize = 1_000;

/// Fields that hold longer text, by field name: descriptions and messages people write,
/// and identity providers' tokens.
const LONGER_TEXT: &[(&str, usize)] = &[
    ("description", 5_000),
    ("request_description", 5_000),
    ("services_description", 5_000),
    ("how_description", 5_000),
    ("section_1_description", 5_000),
    ("text", 5_000),
    ("texts", 5_000),
    ("body", 20_000),
    ("message", 5_000),
    ("en", 5_000),
    ("fr", 5_000),
    ("id_token", 8_192),
    ("access_token", 8_192),
];

pub fn max_chars(field: &str) -> usize {
    LONGER_TEXT
        .iter()
        .find(|(name, _)| *name == field)
        .map_or(MAX_TEXT_CHARS, |(_, max)| *max)
}

#[derive(Debug)]
enum Kind {
    Text { max_chars: usize },
    Message(String),
    Bytes,
}

#[derive(Debug)]
struct Field {
    name: String,
    kind: Kind,
}

/// The request limits of every RPC of the contracts.
#[derive(Debug, Default)]
pub struct Schema {
    /// "/package.Service/Method" -> the request message's full name (".package.Message").
    inputs: HashMap<String, Arc<str>>,
    /// Request message -> its largest size, worked out once rather than at each call (a
    /// walk of the nested messages' descriptors).
    sizes: HashMap<Arc<str>, usize>,
    /// Full message name -> its string, bytes and message fields by number.
    messages: HashMap<String, HashMap<u64, Field>>,
}

/// Why an encoded request was refused.
#[derive(Debug, PartialEq, Eq)]
pub enum Refusal {
    /// Not a protobuf message at all.
    Malformed,
    /// Text fields beyond their bounds, or not UTF-8.
    Fields(Vec<FieldViolation>),
}

impl Schema {
    pub fn from_descriptors(encoded: &[u8]) -> Result<Self, prost::DecodeError> {
        let set = FileDescriptorSet::decode(encoded)?;
        let mut schema = Self::default();
        for file in &set.file {
            let package = file.package();
            for message in &file.message_type {
                schema.add_message(&format!(".{package}"), message);
            }
            for service in &file.service {
                for method in &service.method {
                    schema.inputs.insert(
                        format!("/{package}.{}/{}", service.name(), method.name()),
                        Arc::from(method.input_type()),
                    );
                }
            }
        }
        schema.sizes = schema
            .inputs
            .values()
            .map(|input| (input.clone(), schema.size_of(input)))
            .collect();
        Ok(schema)
    }

    fn add_message(&mut self, scope: &str, message: &DescriptorProto) {
        let full_name = format!("{scope}.{}", message.name());
        let fields = message
            .field
            .iter()
            .filter_map(|field| {
                let kind = match field.r#type() {
                    Type::String => Kind::Text {
                        max_chars: max_chars(field.name()),
                    },
                    Type::Bytes => Kind::Bytes,
                    Type::Message => Kind::Message(field.type_name().to_owned()),
                    _ => return None,
                };
                Some((
                    u64::from(field.number.unwrap_or_default().unsigned_abs()),
                    Field {
                        name: field.name().to_owned(),
                        kind,
                    },
                ))
            })
            .collect();
        for nested in &message.nested_type {
            self.add_message(&full_name, nested);
        }
        self.messages.insert(full_name, fields);
    }

    /// The request message of an RPC path, when it is one of the contracts'.
    pub fn input_of(&self, path: &str) -> Option<&Arc<str>> {
        self.inputs.get(path)
    }

    /// The largest encoded request the RPC accepts: more for those that carry a file, most
    /// for a photo.
    pub fn max_bytes(&self, input: &str) -> usize {
        self.sizes
            .get(input)
            .copied()
            .unwrap_or_else(|| self.size_of(input))
    }

    fn size_of(&self, input: &str) -> usize {
        if PHOTO_UPLOADS.contains(&input) {
            MAX_PHOTO_REQUEST_BYTES
        } else if self.carries_bytes(input, 0) {
            MAX_UPLOAD_BYTES
        } else {
            MAX_REQUEST_BYTES
        }
    }

    fn carries_bytes(&self, message: &str, depth: usize) -> bool {
        // Contracts nest a few levels; the bound only guards against recursive types.
        depth < 16
            && self.messages.get(message).is_some_and(|fields| {
                fields.values().any(|field| match &field.kind {
                    Kind::Bytes => true,
                    Kind::Message(inner) => self.carries_bytes(inner, depth + 1),
                    Kind::Text { .. } => false,
                })
            })
    }

    /// Checks every text field of an encoded `message`, nested ones included.
    pub fn check(&self, message: &str, encoded: &[u8]) -> Result<(), Refusal> {
        let mut violations = Vec::new();
        self.walk(message, encoded, "", 0, &mut violations)?;
        if violations.is_empty() {
            Ok(())
        } else {
            Err(Refusal::Fields(violations))
        }
    }

    fn walk(
        &self,
        message: &str,
        mut bytes: &[u8],
        prefix: &str,
        depth: usize,
        violations: &mut Vec<FieldViolation>,
    ) -> Result<(), Refusal> {
        if depth > 32 {
            return Err(Refusal::Malformed);
        }
        let fields = self.messages.get(message);
        while !bytes.is_empty() {
            let tag = varint(&mut bytes)?;
            match tag & 7 {
                0 => {
                    varint(&mut bytes)?;
                }
                1 => {
                    take(&mut bytes, 8)?;
                }
                5 => {
                    take(&mut bytes, 4)?;
                }
                2 => {
                    let len =
                        usize::try_from(varint(&mut bytes)?).map_err(|_| Refusal::Malformed)?;
                    let value = take(&mut bytes, len)?;
                    if let Some(field) = fields.and_then(|f| f.get(&(tag >> 3))) {
                        // The field's path is only written out when it is needed.
                        let path = || format!("{prefix}{}", field.name);
                        match &field.kind {
                            Kind::Text { max_chars } => {
                                if let Some(problem) = text_problem(value, *max_chars) {
                                    let path = path();
                                    if !violations.iter().any(|v| v.field == path) {
                                        violations.push(FieldViolation::new(path, problem));
                                    }
                                }
                            }
                            Kind::Message(inner) => {
                                self.walk(
                                    inner,
                                    value,
                                    &format!("{}.", path()),
                                    depth + 1,
                                    violations,
                                )?;
                            }
                            Kind::Bytes => {}
                        }
                    }
                }
                // Groups (3, 4) are not used by the contracts; anything else is not protobuf.
                _ => return Err(Refusal::Malformed),
            }
        }
        Ok(())
    }
}

/// What is wrong with a text value, if anything.
fn text_problem(value: &[u8], max_chars: usize) -> Option<String> {
    let Ok(text) = std::str::from_utf8(value) else {
        return Some("this text is not valid UTF-8".to_owned());
    };
    // A character takes at least one byte: a short value needs no counting.
    (value.len() > max_chars && text.chars().count() > max_chars)
        .then(|| format!("use at most {max_chars} characters"))
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
    use repairs_proto::{accounts as pb, types};

    use super::*;

    fn schema() -> Schema {
        Schema::from_descriptors(repairs_proto::FILE_DESCRIPTOR_SET).unwrap()
    }

    const LOG_IN: &str = "/repairs.accounts.v1.AccountsService/LogIn";
    const PROFILE: &str = "/repairs.accounts.v1.AccountsService/UpdateProfessionalProfile";

    fn violations(schema: &Schema, path: &str, encoded: &[u8]) -> Vec<(String, String)> {
        match schema.check(schema.input_of(path).unwrap(), encoded) {
            Ok(()) => Vec::new(),
            Err(Refusal::Fields(found)) => found
                .into_iter()
                .map(|v| (v.field, v.description))
                .collect(),
            Err(Refusal::Malformed) => panic!("malformed"),
        }
    }

    #[test]
    fn every_rpc_has_a_request_type_and_a_size() {
        let schema = schema();
        let input = schema.input_of(LOG_IN).unwrap();
        assert_eq!(&**input, ".repairs.accounts.v1.LogInRequest");
        assert_eq!(schema.max_bytes(input), MAX_REQUEST_BYTES);
        let upload = schema
            .input_of("/repairs.accounts.v1.AccountsService/AddLicence")
            .unwrap();
        assert_eq!(schema.max_bytes(upload), MAX_UPLOAD_BYTES);
        assert!(schema.input_of("/grpc.health.v1.Health/Check").is_none());
        for path in [
            "/repairs.marketplace.v1.MarketplaceService/AddRepairRequestPhoto",
            "/repairs.marketplace.v1.MarketplaceService/AddMessagePhoto",
        ] {
            let photo = schema.input_of(path).unwrap();
            assert_eq!(schema.max_bytes(photo), MAX_PHOTO_REQUEST_BYTES, "{path}");
        }
        const { assert!(MAX_PHOTO_REQUEST_BYTES > crate::photos::MAX_PHOTO_BYTES) };
    }

    #[test]
    fn text_fields_are_bounded_by_characters_not_bytes() {
        let schema = schema();
        let fine = pb::LogInRequest {
            role: 1,
            email: "é".repeat(MAX_TEXT_CHARS),
            password: "correct horse".into(),
        };
        assert!(violations(&schema, LOG_IN, &fine.encode_to_vec()).is_empty());
        let long = pb::LogInRequest {
            email: "a".repeat(MAX_TEXT_CHARS + 1),
            password: "p".repeat(MAX_TEXT_CHARS + 1),
            ..fine
        };
        assert_eq!(
            violations(&schema, LOG_IN, &long.encode_to_vec()),
            [
                ("email".to_owned(), "use at most 1000 characters".to_owned()),
                (
                    "password".to_owned(),
                    "use at most 1000 characters".to_owned()
                ),
            ]
        );
    }

    #[test]
    fn nested_and_repeated_fields_are_checked_with_their_path() {
        let schema = schema();
        let request = pb::UpdateProfessionalProfileRequest {
            profile: Some(pb::ProfessionalProfile {
                description: "d".repeat(5_000),
                home_base: Some(types::Address {
                    city: "c".repeat(MAX_TEXT_CHARS + 1),
                    ..Default::default()
                }),
                service_ids: vec!["ok".into(), "s".repeat(MAX_TEXT_CHARS + 1)],
                ..Default::default()
            }),
            ..Default::default()
        };
        let found: Vec<String> = violations(&schema, PROFILE, &request.encode_to_vec())
            .into_iter()
            .map(|(field, _)| field)
            .collect();
        assert_eq!(found, ["profile.home_base.city", "profile.service_ids"]);
    }

    #[test]
    fn what_is_not_protobuf_or_not_text_is_refused() {
        let schema = schema();
        let input = schema.input_of(LOG_IN).unwrap();
        // Field 2 (email), length-delimited, claiming 100 bytes of which 3 follow.
        assert_eq!(
            schema.check(input, &[0x12, 100, b'a', b'b', b'c']),
            Err(Refusal::Malformed)
        );
        assert_eq!(
            violations(&schema, LOG_IN, &[0x12, 2, 0xff, 0xfe]),
            [(
                "email".to_owned(),
                "this text is not valid UTF-8".to_owned()
            )]
        );
    }
}
