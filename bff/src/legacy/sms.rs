//! Phone verification codes (`/api/sms`).
//!
//! The old phone screens switch on the HTTP status of these calls (200/202 on send, 200/400/201
//! on verify), so their refusals go through the named overrides of `error::phone_code`.

use axum::Json;
use axum::routing;
use repairs_proto::accounts as pb;
use serde::Deserialize;
use serde_json::json;

use super::body::{LegacyJson, text};
use super::error::{Reply, phone_code};
use super::rpc::Rpc;
use super::shapes::{e164, sms_from_text, split_phone};
use super::table::{Call, Translation, post};

const SEND: Call = post("/api/sms/send-otp", "AccountsService.SendPhoneCode");
const VERIFY: Call = post("/api/sms/verify-otp", "AccountsService.VerifyPhoneCode");
const RESEND: Call = post("/api/sms/resend-otp", "AccountsService.SendPhoneCode");

/// Every legacy call of this area, as in proto/README.md.
pub const CALLS: &[Call] = &[SEND, VERIFY, RESEND];

pub fn translations() -> Vec<Translation> {
    vec![
        (SEND, routing::post(send_otp)),
        (VERIFY, routing::post(verify_otp)),
        (RESEND, routing::post(resend_otp)),
    ]
}

/// The resend screen knows only the number; the old form's default country is Canada.
const DEFAULT_COUNTRY_CODE: &str = "+1";

#[derive(Deserialize)]
struct SendBody {
    #[serde(default, deserialize_with = "text")]
    id: String,
    #[serde(default, deserialize_with = "text", rename = "phoneNumber")]
    phone_number: String,
    #[serde(default, deserialize_with = "text", rename = "countryCode")]
    country_code: String,
    #[serde(default, deserialize_with = "text")]
    sms_updates: String,
}

async fn send(rpc: &Rpc, body: SendBody, country_code: String, number: String) -> Reply {
    let request = pb::SendPhoneCodeRequest {
        account_id: body.id.trim().to_owned(),
        country_code,
        phone_number: number,
        sms_updates: sms_from_text(&body.sms_updates) as i32,
    };
    match rpc.accounts().send_phone_code(rpc.request(request)).await {
        Ok(_) => Ok(Json(json!({
            "msg": "OTP sent",
            "id": body.id,
            "phoneNumber": body.phone_number,
        }))),
        Err(status) => Err(phone_code::send_refused(status)),
    }
}

/// `POST /api/sms/send-otp` {phoneNumber, countryCode, sms_updates, id} -> SendPhoneCode:
/// 200 `{msg, id, phoneNumber}`, or 202 `{msg, code}` when refused.
async fn send_otp(rpc: Rpc, LegacyJson(body): LegacyJson<SendBody>) -> Reply {
    let (country_code, number) = if body.country_code.trim().is_empty() {
        split_phone(&body.phone_number, DEFAULT_COUNTRY_CODE)
    } else {
        (
            body.country_code.trim().to_owned(),
            body.phone_number.clone(),
        )
    };
    send(&rpc, body, country_code, number).await
}

/// `POST /api/sms/resend-otp` {phoneNumber, id, countryCode?} -> SendPhoneCode again (the
/// server's cooldown applies): the same replies as send-otp. The number may carry its
/// "+country" prefix; without one it is Canadian.
async fn resend_otp(rpc: Rpc, LegacyJson(body): LegacyJson<SendBody>) -> Reply {
    send_otp(rpc, LegacyJson(body)).await
}

#[derive(Deserialize)]
struct VerifyBody {
    #[serde(default, deserialize_with = "text")]
    id: String,
    #[serde(default, deserialize_with = "text")]
    otp: String,
    #[serde(default, deserialize_with = "text", rename = "phoneNumber")]
    phone_number: String,
    #[serde(default, deserialize_with = "text", rename = "countryCode")]
    country_code: String,
}

/// `POST /api/sms/verify-otp` {otp, phoneNumber, id, ...} -> VerifyPhoneCode: 200
/// `{msg, otp_verified: "1"}`; a wrong code 400; an expired code or too many tries 201.
///
/// The phone is sent only when the call says which country it is in ("+..." or a
/// countryCode); a bare national number is left out and the server checks the code against
/// the phone it was sent to.
async fn verify_otp(rpc: Rpc, LegacyJson(body): LegacyJson<VerifyBody>) -> Reply {
    let number = body.phone_number.trim();
    let phone =
        if number.is_empty() || (!number.starts_with('+') && body.country_code.trim().is_empty()) {
            String::new()
        } else {
            e164(&body.country_code, number)
        };
    let request = pb::VerifyPhoneCodeRequest {
        account_id: body.id.trim().to_owned(),
        phone,
        code: body.otp.trim().to_owned(),
    };
    match rpc.accounts().verify_phone_code(rpc.request(request)).await {
        Ok(_) => Ok(Json(json!({ "msg": "OTP verified", "otp_verified": "1" }))),
        Err(status) => Err(phone_code::verify_refused(status)),
    }
}
