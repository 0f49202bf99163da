//! Budgets on text messages, so that scripted sign-ups cannot send texts without end: per
//! hour, one for the whole service, one per client address, one per country calling code
//! (settings `SMS_BUDGET_*`). They are spent through `crate::budgets`, shared by every
//! replica and counted before they are checked, so concurrent calls cannot all slip under a
//! limit.

use crate::{
    budgets::Budget,
    domain::{ClientAddr, Phone},
    error::ErrorReason,
    state::AppState,
};

/// The budgets one text to `phone` asked from `client` spends.
pub fn budgets(state: &AppState, client: ClientAddr, phone: &Phone) -> [Budget; 3] {
    let config = &state.config;
    let code = phone.calling_code();
    [
        Budget::hourly(
            format!("sms-budget:address:{}", client.limit_key()),
            config.sms_budget_per_address_per_hour,
            ErrorReason::SmsAddressLimit,
            "too many text messages were asked from your network; try again in an hour",
        ),
        Budget::hourly(
            format!("sms-budget:country:{code}"),
            config.sms_country_budget(code),
            ErrorReason::SmsCountryLimit,
            "text messages to this country are paused for now; try again later",
        ),
        Budget::hourly(
            "sms-budget:global",
            config.sms_budget_per_hour,
            ErrorReason::SmsBudgetSpent,
            "we cannot send more text messages right now; try again later",
        ),
    ]
}
