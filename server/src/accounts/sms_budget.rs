//! Budgets on text messages, so that scripted sign-ups cannot send texts without end: per
//! hour, one for the whole service, one per client address, one per country calling code
//! (settings `SMS_BUDGET_*`). Counters live in the shared cache and are counted before they
//! are checked, so concurrent calls cannot all slip under a limit.

use std::time::Duration;

use crate::{
    domain::{ClientAddr, Phone},
    error::{ApiError, ApiResult},
    state::AppState,
};

const HOUR: Duration = Duration::from_secs(3600);

/// Counts one text to `phone` asked from `client`, or refuses it when a budget is spent.
pub async fn spend(state: &AppState, client: ClientAddr, phone: &Phone) -> ApiResult<()> {
    let config = &state.config;
    let code = phone.calling_code();
    let budgets = [
        (
            format!("sms-budget:address:{}", client.limit_key()),
            config.sms_budget_per_address_per_hour,
            "SMS_ADDRESS_LIMIT",
            "too many text messages were asked from your network; try again in an hour",
        ),
        (
            format!("sms-budget:country:{code}"),
            config.sms_country_budget(code),
            "SMS_COUNTRY_LIMIT",
            "text messages to this country are paused for now; try again later",
        ),
        (
            "sms-budget:global".to_owned(),
            config.sms_budget_per_hour,
            "SMS_BUDGET_SPENT",
            "we cannot send more text messages right now; try again later",
        ),
    ];
    for (key, limit, reason, message) in budgets {
        if state.cache.increment(&key, HOUR).await? > i64::from(limit) {
            tracing::warn!(%key, limit, "SMS budget spent");
            return Err(ApiError::ResourceExhausted {
                reason,
                message: message.to_owned(),
            });
        }
    }
    Ok(())
}
