//! The limits the contracts state in their `buf.validate` annotations hold on the real server,
//! before any handler runs. The rules are read here from the descriptors on their own (not
//! from the server's generated table): for every request message of the five services and
//! every rule of each of its fields (nested messages included), a request that is valid but
//! for that one rule, broken by one, is sent to its RPC and must come back INVALID_ARGUMENT
//! with exactly that field named and the limit's own description; the same request at the
//! limit exactly must not be refused by the limits.
//!
//! "Before any handler": each call goes without a token when the auth layer lets it (public
//! RPCs), else with a token of a role the RPC admits, random ids included, so the handlers'
//! own refusals (ownership, NOT_FOUND, the membership gate) would answer first if they ran;
//! and nothing a handler writes is written by the refused calls.

use std::{collections::HashMap, time::Duration};

use bytes::{Buf, BufMut, Bytes};
use prost_reflect::{
    DescriptorPool, DynamicMessage, FieldDescriptor, Kind, MessageDescriptor, MethodDescriptor,
    ReflectMessage, Value,
};
use tonic::{
    Code, Status,
    client::Grpc,
    codec::{Codec, DecodeBuf, Decoder, EncodeBuf, Encoder},
    transport::Channel,
};
use tonic_types::StatusExt;

use crate::helpers::{TestServer, reason};
use repairs_server::api::limits::problems::{self, thousands};
use repairs_server::domain::Role;

/// What the annotations of one field (or of its items) say.
#[derive(Debug, Default, Clone)]
struct Rules {
    required: bool,
    ignore_if_zero: bool,
    min_len: Option<u64>,
    max_len: Option<u64>,
    uuid: bool,
    min: Option<f64>,
    max: Option<f64>,
    defined_only: bool,
    min_items: Option<u64>,
    max_items: Option<u64>,
    items: Option<Box<Rules>>,
}

fn u64_of(message: &DynamicMessage, name: &str) -> Option<u64> {
    message
        .has_field_by_name(name)
        .then(|| message.get_field_by_name(name)?.as_u64())
        .flatten()
}

fn number_of(message: &DynamicMessage, name: &str) -> Option<f64> {
    if !message.has_field_by_name(name) {
        return None;
    }
    match &*message.get_field_by_name(name)? {
        Value::I32(n) => Some(f64::from(*n)),
        Value::I64(n) => Some(*n as f64),
        Value::F64(n) => Some(*n),
        other => panic!("a bound of {other:?}"),
    }
}

/// Reads a `buf.validate.FieldRules`, refusing any rule this test does not break.
fn read(rules: &DynamicMessage, what: &str) -> Rules {
    let mut out = Rules::default();
    for (field, value) in rules.fields() {
        let sub = |value: &Value| value.as_message().cloned().unwrap();
        let known = |message: &DynamicMessage, names: &[&str]| {
            for (rule, _) in message.fields() {
                assert!(
                    names.contains(&rule.name()),
                    "{what}: this test does not break the rule {}.{}",
                    field.name(),
                    rule.name()
                );
            }
        };
        match field.name() {
            "required" => out.required = value.as_bool().unwrap(),
            "ignore" => out.ignore_if_zero = value.as_enum_number() == Some(1),
            "string" => {
                let string = sub(value);
                known(&string, &["min_len", "max_len", "uuid"]);
                out.min_len = u64_of(&string, "min_len");
                out.max_len = u64_of(&string, "max_len");
                out.uuid = string.has_field_by_name("uuid");
            }
            "bytes" => {
                let bytes = sub(value);
                known(&bytes, &["min_len", "max_len"]);
                out.min_len = u64_of(&bytes, "min_len");
                out.max_len = u64_of(&bytes, "max_len");
            }
            "int32" | "int64" | "double" => {
                let number = sub(value);
                known(&number, &["gte", "lte"]);
                out.min = number_of(&number, "gte");
                out.max = number_of(&number, "lte");
            }
            "enum" => {
                let rules = sub(value);
                known(&rules, &["defined_only"]);
                out.defined_only = true;
            }
            "repeated" => {
                let repeated = sub(value);
                known(&repeated, &["min_items", "max_items", "items"]);
                out.min_items = u64_of(&repeated, "min_items");
                out.max_items = u64_of(&repeated, "max_items");
                if repeated.has_field_by_name("items") {
                    let items = repeated.get_field_by_name("items").unwrap();
                    out.items = Some(Box::new(read(items.as_message().unwrap(), what)));
                }
            }
            other => panic!("{what}: this test does not break the rule {other}"),
        }
    }
    out
}

fn rules_of(pool: &DescriptorPool, field: &FieldDescriptor) -> Rules {
    let extension = pool.get_extension_by_name("buf.validate.field").unwrap();
    let options = field.options();
    if !options.has_extension(&extension) {
        return Rules::default();
    }
    let rules = options.get_extension(&extension);
    read(rules.as_message().unwrap(), field.full_name())
}

fn ours(message: &MessageDescriptor) -> bool {
    message.package_name().starts_with("repairs.")
}

/// A value of the field's type valid under `rules` (`count` characters, bytes or items).
fn valid_value(pool: &DescriptorPool, field: &FieldDescriptor, rules: &Rules) -> Option<Value> {
    match field.kind() {
        Kind::String if rules.uuid => Some(Value::String(uuid::Uuid::now_v7().to_string())),
        Kind::String => rules.min_len.map(|n| Value::String("a".repeat(n as usize))),
        Kind::Bytes => rules
            .min_len
            .map(|n| Value::Bytes(Bytes::from(vec![7u8; n as usize]))),
        Kind::Int32 => rules
            .min
            .filter(|&min| min > 0.0)
            .map(|min| Value::I32(min as i32)),
        Kind::Int64 => rules
            .min
            .filter(|&min| min > 0.0)
            .map(|min| Value::I64(min as i64)),
        Kind::Message(inner) if rules.required => Some(Value::Message(baseline(pool, &inner))),
        _ => None,
    }
}

/// A message that every rule accepts: only what a rule needs is set.
fn baseline(pool: &DescriptorPool, message: &MessageDescriptor) -> DynamicMessage {
    let mut out = DynamicMessage::new(message.clone());
    for field in message.fields() {
        let rules = rules_of(pool, &field);
        if field.is_list() {
            let items = rules.items.as_deref().cloned().unwrap_or_default();
            let count = rules.min_items.unwrap_or(0) as usize;
            if count > 0 {
                let item = valid_value(pool, &field, &items)
                    .unwrap_or_else(|| Value::default_value(&field.kind()));
                out.set_field(&field, Value::List(vec![item; count]));
            }
        } else if !rules.ignore_if_zero
            && let Some(value) = valid_value(pool, &field, &rules)
        {
            out.set_field(&field, value);
        }
    }
    out
}

/// One request to send: the RPC, the encoded message, and the rule it breaks or meets.
struct Case {
    method: MethodDescriptor,
    what: String,
    field: String,
    description: String,
    message: DynamicMessage,
}

/// A size in bytes as the violations write it.
fn size(bytes: u64) -> String {
    problems::size(usize::try_from(bytes).unwrap())
}

fn number(n: f64, kind: &Kind) -> String {
    match kind {
        Kind::Double => n.to_string(),
        _ if n < 0.0 => format!("-{}", thousands(n.abs() as u64)),
        _ => thousands(n as u64),
    }
}

fn range(rules: &Rules, kind: &Kind) -> String {
    match (rules.min, rules.max) {
        (Some(min), Some(max)) => format!(
            "must be from {} to {}",
            number(min, kind),
            number(max, kind)
        ),
        (Some(min), None) => format!("must be at least {}", number(min, kind)),
        (None, Some(max)) => format!("must be at most {}", number(max, kind)),
        (None, None) => unreachable!(),
    }
}

fn number_value(kind: &Kind, n: f64) -> Value {
    match kind {
        Kind::Int32 => Value::I32(n as i32),
        Kind::Int64 => Value::I64(n as i64),
        Kind::Double => Value::F64(n),
        other => panic!("a range on {other:?}"),
    }
}

/// A value that breaks exactly one rule, and one at that rule's limit: (what, broken,
/// description, at the limit).
type Break = (String, Value, String, Option<Value>);

/// The breaks of one value's rules (of a field, or of each item of a repeated one).
fn value_breaks(field: &FieldDescriptor, rules: &Rules) -> Vec<Break> {
    let kind = field.kind();
    let mut out = Vec::new();
    match kind {
        Kind::String => {
            if let Some(max) = rules.max_len {
                out.push((
                    format!("max_len {max}"),
                    Value::String("a".repeat(max as usize + 1)),
                    format!("must be at most {} characters", thousands(max)),
                    // Characters, not bytes: each of these takes two.
                    Some(Value::String("é".repeat(max as usize))),
                ));
            }
            if let Some(min) = rules.min_len {
                let description = if min == 1 {
                    "must not be empty".to_owned()
                } else {
                    format!("must be at least {} characters", thousands(min))
                };
                out.push((
                    format!("min_len {min}"),
                    Value::String("a".repeat(min as usize - 1)),
                    description,
                    Some(Value::String("é".repeat(min as usize))),
                ));
            }
            if rules.uuid {
                let id = uuid::Uuid::now_v7().to_string();
                out.push((
                    "uuid".to_owned(),
                    // One character short of an id.
                    Value::String(id[..35].to_owned()),
                    "must be an id (a UUID)".to_owned(),
                    Some(Value::String(id)),
                ));
            }
        }
        Kind::Bytes => {
            if let Some(max) = rules.max_len {
                out.push((
                    format!("max_len {max}"),
                    Value::Bytes(Bytes::from(vec![7u8; max as usize + 1])),
                    format!("must be at most {}", size(max)),
                    Some(Value::Bytes(Bytes::from(vec![7u8; max as usize]))),
                ));
            }
            if let Some(min) = rules.min_len {
                assert_eq!(min, 1, "{}", field.full_name());
                out.push((
                    "min_len 1".to_owned(),
                    Value::Bytes(Bytes::new()),
                    "must not be empty".to_owned(),
                    Some(Value::Bytes(Bytes::from_static(&[7]))),
                ));
            }
        }
        Kind::Int32 | Kind::Int64 | Kind::Double => {
            if let Some(min) = rules.min {
                out.push((
                    format!("gte {min}"),
                    number_value(&kind, min - 1.0),
                    range(rules, &kind),
                    Some(number_value(&kind, min)),
                ));
            }
            if let Some(max) = rules.max {
                out.push((
                    format!("lte {max}"),
                    number_value(&kind, max + 1.0),
                    range(rules, &kind),
                    Some(number_value(&kind, max)),
                ));
            }
        }
        Kind::Enum(descriptor) if rules.defined_only => {
            let highest = descriptor.values().map(|v| v.number()).max().unwrap_or(0);
            out.push((
                "defined_only".to_owned(),
                Value::EnumNumber(highest + 1),
                "must be one of the values the contract lists".to_owned(),
                Some(Value::EnumNumber(highest)),
            ));
        }
        _ => {}
    }
    out
}

/// Every case of a message's rules, nested messages included, each set in a valid `base`.
fn cases_of(
    pool: &DescriptorPool,
    method: &MethodDescriptor,
    base: &DynamicMessage,
    prefix: &str,
    wrap: &dyn Fn(DynamicMessage) -> DynamicMessage,
    broken: &mut Vec<Case>,
    at_limit: &mut Vec<Case>,
) {
    let message = base.descriptor();
    for field in message.fields() {
        let rules = rules_of(pool, &field);
        let path = format!("{prefix}{}", field.name());
        let case = |value: Option<Value>, what: &str, description: &str| {
            let mut changed = base.clone();
            match value {
                Some(value) => changed.set_field(&field, value),
                None => changed.clear_field(&field),
            }
            Case {
                method: method.clone(),
                what: format!("{path} {what}"),
                field: path.clone(),
                description: description.to_owned(),
                message: wrap(changed),
            }
        };
        if field.is_list() {
            let items = rules.items.as_deref().cloned().unwrap_or_default();
            let item = valid_value(pool, &field, &items)
                .unwrap_or_else(|| Value::default_value(&field.kind()));
            if let Some(max) = rules.max_items {
                let list = |n: u64| Value::List(vec![item.clone(); n as usize]);
                broken.push(case(
                    Some(list(max + 1)),
                    &format!("max_items {max}"),
                    &format!("must have at most {} items", thousands(max)),
                ));
                at_limit.push(case(
                    Some(list(max)),
                    &format!("max_items {max}"),
                    &format!("must have at most {} items", thousands(max)),
                ));
            }
            if let Some(min) = rules.min_items {
                assert_eq!(min, 1, "{path}");
                broken.push(case(
                    Some(Value::List(Vec::new())),
                    "min_items 1",
                    "must have at least one item",
                ));
            }
            for (what, wrong, description, fine) in value_breaks(&field, &items) {
                let with = |value: Value| {
                    let mut list = vec![item.clone(); rules.min_items.unwrap_or(1).max(1) as usize];
                    list[0] = value;
                    Some(Value::List(list))
                };
                broken.push(case(with(wrong), &format!("items {what}"), &description));
                if let Some(fine) = fine {
                    at_limit.push(case(with(fine), &format!("items {what}"), &description));
                }
            }
            continue;
        }
        if rules.required {
            broken.push(case(None, "required", "is required"));
        }
        for (what, wrong, description, fine) in value_breaks(&field, &rules) {
            broken.push(case(Some(wrong), &what, &description));
            if let Some(fine) = fine {
                at_limit.push(case(Some(fine), &what, &description));
            }
        }
        // A nested message of ours: each of its rules, inside an otherwise valid request.
        if let Kind::Message(inner) = field.kind()
            && ours(&inner)
        {
            let inner_base = baseline(pool, &inner);
            let field = field.clone();
            let outer = base.clone();
            let nested_wrap = move |nested: DynamicMessage| {
                let mut changed = outer.clone();
                changed.set_field(&field, Value::Message(nested));
                wrap(changed)
            };
            cases_of(
                pool,
                method,
                &inner_base,
                &format!("{path}."),
                &nested_wrap,
                broken,
                at_limit,
            );
        }
    }
}

/// Sends and receives encoded messages as they are.
#[derive(Clone, Default)]
struct Raw;

impl Codec for Raw {
    type Encode = Vec<u8>;
    type Decode = Vec<u8>;
    type Encoder = Raw;
    type Decoder = Raw;
    fn encoder(&mut self) -> Self::Encoder {
        Raw
    }
    fn decoder(&mut self) -> Self::Decoder {
        Raw
    }
}

impl Encoder for Raw {
    type Item = Vec<u8>;
    type Error = Status;
    fn encode(&mut self, item: Vec<u8>, dst: &mut EncodeBuf<'_>) -> Result<(), Status> {
        dst.put_slice(&item);
        Ok(())
    }
}

impl Decoder for Raw {
    type Item = Vec<u8>;
    type Error = Status;
    fn decode(&mut self, src: &mut DecodeBuf<'_>) -> Result<Option<Vec<u8>>, Status> {
        let bytes = src.copy_to_bytes(src.remaining());
        Ok(Some(bytes.to_vec()))
    }
}

/// Calls the case's RPC (with `token`, if any): its status, or OK (a stream that opened).
async fn call(channel: &Channel, case: &Case, token: Option<&str>) -> Status {
    let mut grpc = Grpc::new(channel.clone())
        .max_decoding_message_size(64 << 20)
        .max_encoding_message_size(64 << 20);
    grpc.ready().await.unwrap();
    let path = format!(
        "/{}/{}",
        case.method.parent_service().full_name(),
        case.method.name()
    );
    let path = http::uri::PathAndQuery::try_from(path).unwrap();
    let mut request = tonic::Request::new(prost::Message::encode_to_vec(&case.message));
    if let Some(token) = token {
        request
            .metadata_mut()
            .insert("authorization", format!("Bearer {token}").parse().unwrap());
    }
    let answer = if case.method.is_server_streaming() {
        match grpc.server_streaming(request, path, Raw).await {
            Ok(response) => {
                let mut stream = response.into_inner();
                match tokio::time::timeout(Duration::from_secs(5), stream.message()).await {
                    Ok(Err(status)) => Err(status),
                    _ => Ok(()),
                }
            }
            Err(status) => Err(status),
        }
    } else {
        grpc.unary(request, path, Raw).await.map(|_| ())
    };
    answer.err().unwrap_or_else(|| Status::ok(""))
}

fn violations(status: &Status) -> Vec<(String, String)> {
    status
        .get_details_bad_request()
        .map(|bad| {
            bad.field_violations
                .into_iter()
                .map(|v| (v.field, v.description))
                .collect()
        })
        .unwrap_or_default()
}

/// Rows of the tables handlers write when a request goes through.
async fn rows(db: &sqlx::PgPool) -> Vec<(String, i64)> {
    let mut counts = Vec::new();
    for table in [
        "customers",
        "professionals",
        "limit_counters",
        "repair_requests",
        "quotes",
        "conversation_messages",
        "outbox_messages",
        "contact_messages",
        "audit_events",
        "coupons",
        "services",
    ] {
        let count: i64 =
            sqlx::query_scalar(sqlx::AssertSqlSafe(format!("select count(*) from {table}")))
                .fetch_one(db)
                .await
                .unwrap_or_else(|e| panic!("{table}: {e}"));
        counts.push((table.to_owned(), count));
    }
    counts
}

fn request_methods(pool: &DescriptorPool) -> Vec<MethodDescriptor> {
    pool.services()
        .filter(|service| service.package_name().starts_with("repairs."))
        .flat_map(|service| service.methods().collect::<Vec<_>>())
        .collect()
}

#[tokio::test]
async fn every_annotated_limit_broken_by_one_is_refused_before_any_handler() {
    let pool = DescriptorPool::decode(repairs_proto::FILE_DESCRIPTOR_SET).unwrap();
    let methods = request_methods(&pool);
    assert_eq!(methods.len(), 145, "the five services' RPCs");
    let (mut broken, mut at_limit) = (Vec::new(), Vec::new());
    for method in &methods {
        let base = baseline(&pool, &method.input());
        cases_of(&pool, method, &base, "", &|m| m, &mut broken, &mut at_limit);
    }
    // Every request message with a field has at least one rule broken.
    for method in &methods {
        let input = method.input();
        if input.fields().len() > 0 && input.fields().any(|f| f.kind() != Kind::Bool) {
            assert!(
                broken.iter().any(|c| c.method.input() == input),
                "{} has no rule to break",
                input.full_name()
            );
        }
    }

    let server = TestServer::start().await;
    let channel = server.channel().await;
    let mut tokens = vec![None];
    for role in [Role::Customer, Role::Professional, Role::Admin] {
        tokens.push(Some(server.account_token(role).await.1));
    }
    let db = &server.server.state.db;
    let before = rows(db).await;

    // The first token (none first) the auth layer admits for each RPC.
    let mut admitted: HashMap<String, Option<String>> = HashMap::new();
    let mut failures = Vec::new();
    for case in &broken {
        let rpc = case.method.full_name().to_owned();
        let status = match admitted.get(&rpc) {
            Some(token) => call(&channel, case, token.as_deref()).await,
            None => {
                let mut last = None;
                for token in &tokens {
                    let status = call(&channel, case, token.as_deref()).await;
                    let refused_by_auth = matches!(
                        status.code(),
                        Code::Unauthenticated | Code::PermissionDenied
                    );
                    if !refused_by_auth {
                        admitted.insert(rpc.clone(), token.clone());
                        last = Some(status);
                        break;
                    }
                    last = Some(status);
                }
                last.unwrap()
            }
        };
        let found = violations(&status);
        let expected = vec![(case.field.clone(), case.description.clone())];
        if status.code() != Code::InvalidArgument
            || reason(&status) != "INVALID_ARGUMENT"
            || found != expected
        {
            failures.push(format!(
                "{} ({}): {:?} {} {found:?}",
                case.what,
                case.method.name(),
                status.code(),
                status.message()
            ));
        }
    }
    // Nothing a handler writes was written: no account, no counted try, no request placed,
    // no message, no audit event.
    assert_eq!(rows(db).await, before, "a refused request wrote rows");
    let public = admitted.values().filter(|token| token.is_none()).count();
    assert!(
        public >= 10,
        "public RPCs were called without a token: {public}"
    );

    for case in &at_limit {
        let token = admitted.get(case.method.full_name()).cloned().flatten();
        let status = call(&channel, case, token.as_deref()).await;
        let refused_by_limits = violations(&status)
            .into_iter()
            .any(|(field, description)| field == case.field && description == case.description);
        if refused_by_limits || matches!(status.code(), Code::Internal | Code::Unknown) {
            failures.push(format!(
                "at the limit, {} ({}): {:?} {} {:?}",
                case.what,
                case.method.name(),
                status.code(),
                status.message(),
                violations(&status)
            ));
        }
    }
    server.stop().await;
    assert!(
        failures.is_empty(),
        "{} of {} cases failed:\n{}",
        failures.len(),
        broken.len() + at_limit.len(),
        failures.join("\n")
    );
    eprintln!(
        "{} requests broke a limit by one and were refused; {} at a limit were not",
        broken.len(),
        at_limit.len()
    );
}
