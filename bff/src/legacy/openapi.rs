//! The OpenAPI 3.1 description of the legacy `/api` surface, served at `/api/openapi.json`.
//! It is made from the route table itself (`super::calls`), so the two cannot drift: every
//! call with its method, path parameters, the RPC it becomes, its token headers, a JSON body
//! for the writes, and the replies (JSON on success; on failure the legacy error object,
//! [`super::error::ApiError`], under 4XX). Each path also answers with its trailing slash
//! toggled, as the old server did; those twins are not listed again.

use serde_json::{Map, Value, json};

use super::table::{Call, Verb};

/// Where it is served.
pub const PATH: &str = "/api/openapi.json";

/// The names of a path pattern's parameters (`/api/users/get-user/{id}` -> `id`).
fn path_parameters(path: &str) -> impl Iterator<Item = &str> {
    path.split('/')
        .filter_map(|segment| segment.strip_prefix('{')?.strip_suffix('}'))
}

/// A stable operation id: the method and the path's words (`get_api_users_get_user_id`).
fn operation_id(call: &Call) -> String {
    let words: Vec<&str> = call
        .path
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|word| !word.is_empty())
        .collect();
    format!(
        "{}_{}",
        call.verb.as_str().to_ascii_lowercase(),
        words.join("_")
    )
}

/// The area of a call, as its tag: the first word after `/api` (`fr` is the French pages).
fn tag(call: &Call) -> &'static str {
    call.path
        .trim_start_matches("/api/")
        .split('/')
        .next()
        .unwrap_or("api")
}

/// The JSON fields each RPC's legacy calls read (the legacy clients send scalars, usually as
/// text; `any` fields take a JSON value of any kind). Calls of other RPCs (forms, page texts)
/// are described as any JSON object.
const BODIES: &[(&str, &[&str])] = &[
    ("AccountsService.LogIn", &["email", "password"]),
    (
        "AccountsService.SignUp",
        &["name", "email", "password", "lang"],
    ),
    ("AccountsService.RequestPasswordReset", &["email"]),
    (
        "AccountsService.ResetPassword",
        &["id", "password", "token"],
    ),
    (
        "AccountsService.UpdateSmsPreference",
        &["id", "sms_updates"],
    ),
    (
        "AccountsService.SendPhoneCode",
        &["id", "phoneNumber", "countryCode", "sms_updates"],
    ),
    (
        "AccountsService.VerifyPhoneCode",
        &["id", "otp", "phoneNumber", "countryCode"],
    ),
    (
        "AccountsService.UpdateCustomer",
        &["id", "name", "email", "language", "sms_updates"],
    ),
    (
        "AccountsService.SignInWithGoogle",
        &["token", "lang", "password"],
    ),
    (
        "AccountsService.SignInWithFacebook",
        &["access_token", "lang", "password"],
    ),
    ("AccountsService.DenyProfessional", &["id", "reason"]),
    (
        "ContentService.SendContactMessage",
        &["name", "email", "message"],
    ),
    ("ContentService.TranslateText", &["content"]),
    ("MarketplaceService.CreateRepairRequest", REQUEST_FIELDS),
    ("MarketplaceService.UpdateRepairRequest", REQUEST_FIELDS),
    (
        "MarketplaceService.CreateQuote",
        &[
            "request_applied",
            "time_of_service",
            "fees",
            "surge_cost:any",
        ],
    ),
    (
        "MarketplaceService.CreateReview",
        &["request_id", "review", "rating"],
    ),
    ("MarketplaceService.GetCustomerDashboard", &["id"]),
    ("MarketplaceService.GetProfessionalDashboard", &["id"]),
    (
        "MatchingService.GetDistance",
        &["origin:any", "destination:any"],
    ),
    ("MatchingService.NotifyProfessional", &["email", "req_id"]),
    ("BillingService.CreateCoupon", &["code", "discountPercent"]),
    ("BillingService.QuoteMembership", &["code"]),
    ("BillingService.PurchaseMembership", &["token", "coupon"]),
    (
        "BillingService.HireProfessional",
        &["token", "application_id"],
    ),
    ("BillingService.CreateTestCharge", &["token", "coupon"]),
    ("BillingService.CapturePayment", &["charge_id"]),
];

const REQUEST_FIELDS: &[&str] = &[
    "specialisation",
    "repair_explanation",
    "repair_immediately",
    "address_1",
    "address_2",
    "country",
    "state_or_province",
    "city",
    "zipcode",
];

/// The body schema of `call`'s RPC (see [`BODIES`]).
fn body_schema(call: &Call) -> Value {
    let Some((_, fields)) = BODIES.iter().find(|(rpc, _)| *rpc == call.rpc) else {
        return json!({"type": "object"});
    };
    let properties: Map<String, Value> = fields
        .iter()
        .map(|field| match field.strip_suffix(":any") {
            Some(name) => (name.to_owned(), json!({})),
            None => (
                (*field).to_owned(),
                json!({"type": ["string", "number", "boolean", "null"]}),
            ),
        })
        .collect();
    json!({"type": "object", "properties": properties})
}

fn error_reply(description: &str) -> Value {
    json!({
        "description": description,
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}
    })
}

fn operation(call: &Call) -> Value {
    let parameters: Vec<Value> = path_parameters(call.path)
        .map(|name| {
            json!({
                "name": name,
                "in": "path",
                "required": true,
                "schema": {"type": "string", "minLength": 1}
            })
        })
        .collect();
    let mut operation = json!({
        "operationId": operation_id(call),
        "summary": format!("{} {}", call.verb, call.path),
        "description": format!("Becomes the gRPC call `{}`.", call.rpc),
        "tags": [tag(call)],
        "parameters": parameters,
        "responses": {
            "2XX": {
                "description": "The legacy reply (see proto/README.md for each call's fields). \
                    The phone-code calls answer a refusal with 201 or 202 and the error object.",
                "content": {"application/json": {"schema": {}}}
            },
            "4XX": error_reply("Refused: the input, the token, the caller's rights or the state"),
            "503": error_reply("The server cannot be reached; try again"),
            "504": error_reply("The call took too long; try again")
        }
    });
    if call.verb == Verb::Post {
        operation["requestBody"] = json!({
            "required": false,
            "content": {"application/json": {"schema": body_schema(call)}}
        });
    }
    operation
}

/// The whole description of `calls` (the route table, [`super::calls`]).
pub fn document<'a>(calls: impl Iterator<Item = &'a Call>) -> Value {
    let mut paths = Map::new();
    for call in calls {
        let entry = paths
            .entry(call.path.to_owned())
            .or_insert_with(|| json!({}));
        entry[call.verb.as_str().to_ascii_lowercase()] = operation(call);
    }
    json!({
        "openapi": "3.1.0",
        "info": {
            "title": "Repairs marketplace: legacy REST API",
            "version": "1",
            "description": "The old product's `/api` calls, each translated by the BFF into one \
                gRPC call to the server. New integrations should use the gRPC contracts \
                (proto/). A token goes in `Authorization: Bearer <token>` or `x-auth-token`."
        },
        "servers": [{"url": "/"}],
        "security": [{}, {"bearer": []}, {"xAuthToken": []}],
        "paths": paths,
        "components": {
            "securitySchemes": {
                "bearer": {"type": "http", "scheme": "bearer", "bearerFormat": "JWT"},
                "xAuthToken": {"type": "apiKey", "in": "header", "name": "x-auth-token"}
            },
            "schemas": {
                "Error": {
                    "type": "object",
                    "required": ["msg"],
                    "properties": {
                        "msg": {"type": "string", "description": "For a person to read"},
                        "code": {
                            "type": "string",
                            "description": "The stable reason (an ErrorReason name without its prefix)"
                        },
                        "ok": {"type": "boolean", "const": false},
                        "errors": {
                            "type": "array",
                            "items": {
                                "type": "object",
                                "required": ["field", "description"],
                                "properties": {
                                    "field": {"type": "string"},
                                    "description": {"type": "string"}
                                }
                            }
                        }
                    }
                }
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_and_parameters_come_from_the_pattern() {
        let call = super::super::table::get("/api/users/get-user1/{id}/{token}", "X.Y");
        assert_eq!(operation_id(&call), "get_api_users_get_user1_id_token");
        assert_eq!(
            path_parameters(call.path).collect::<Vec<_>>(),
            ["id", "token"]
        );
        assert_eq!(tag(&call), "users");
    }

    #[test]
    fn every_described_body_is_read_by_a_legacy_write() {
        for (rpc, _) in BODIES {
            assert!(
                super::super::calls().any(|call| call.rpc == *rpc && call.verb == Verb::Post),
                "no POST call becomes {rpc}"
            );
        }
    }

    #[test]
    fn operation_ids_are_unique() {
        let ids: std::collections::HashSet<String> =
            super::super::calls().map(operation_id).collect();
        assert_eq!(ids.len(), super::super::calls().count());
    }
}
