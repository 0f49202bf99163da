//! Stripe Connect Express for payouts: `POST /v1/accounts` (one per professional),
//! `POST /v1/account_links` (the onboarding page), `GET /v1/accounts/{id}` (whether
//! transfers are enabled) and `POST /v1/transfers` (a captured hire's net amount). Writes
//! carry idempotency keys derived from what they are for, so a retry never makes a second
//! account or a second transfer.

use chrono::{DateTime, Utc};
use serde::Deserialize;
use uuid::Uuid;

use super::{Call, StripeGateway, path_segment};
use crate::{domain::Cents, providers::payments::PaymentError};

#[derive(Debug, Deserialize)]
struct Account {
    id: String,
    payouts_enabled: Option<bool>,
    capabilities: Option<Capabilities>,
}

#[derive(Debug, Deserialize)]
struct Capabilities {
    transfers: Option<String>,
}

#[derive(Debug, Deserialize)]
struct AccountLink {
    url: String,
    expires_at: i64,
}

#[derive(Debug, Deserialize)]
struct Transfer {
    id: String,
}

/// Where the onboarding page sends the professional back.
#[derive(Debug, Clone)]
pub struct OnboardingUrls {
    /// When they finish.
    pub return_url: String,
    /// When the link expired or was used: the page that asks for a new one.
    pub refresh_url: String,
}

/// An onboarding link and when it stops working.
#[derive(Debug, Clone)]
pub struct Onboarding {
    pub url: String,
    pub expires_at: DateTime<Utc>,
}

impl StripeGateway {
    /// The professional's Express account (Canada, transfers requested); the key makes a
    /// retried first onboarding answer the same account.
    pub async fn create_connect_account(
        &self,
        professional: Uuid,
        email: &str,
    ) -> Result<String, PaymentError> {
        let professional = professional.to_string();
        let form = [
            ("type", "express"),
            ("country", "CA"),
            ("email", email),
            ("capabilities[transfers][requested]", "true"),
            ("metadata[professional_id]", professional.as_str()),
        ];
        let key = format!("connect-account-{professional}");
        let account: Account = self.post("v1/accounts", &form, &key, Call::Read).await?;
        Ok(account.id)
    }

    /// A fresh onboarding link for `account` (links are single-use, so no idempotency key
    /// is shared between calls).
    pub async fn onboarding_link(
        &self,
        account: &str,
        urls: &OnboardingUrls,
    ) -> Result<Onboarding, PaymentError> {
        let form = [
            ("account", path_segment(account)?),
            ("type", "account_onboarding"),
            ("return_url", urls.return_url.as_str()),
            ("refresh_url", urls.refresh_url.as_str()),
        ];
        let key = Uuid::now_v7().to_string();
        let link: AccountLink = self
            .post("v1/account_links", &form, &key, Call::Read)
            .await?;
        let expires_at = DateTime::from_timestamp(link.expires_at, 0).ok_or(
            PaymentError::Unavailable(anyhow::anyhow!("Stripe's account link has no valid expiry")),
        )?;
        Ok(Onboarding {
            url: link.url,
            expires_at,
        })
    }

    /// Whether Stripe lets `account` receive transfers now.
    pub async fn transfers_enabled(&self, account: &str) -> Result<bool, PaymentError> {
        let path = format!("v1/accounts/{}", path_segment(account)?);
        let account: Account = self.get(&path).await?;
        let transfers = account.capabilities.and_then(|c| c.transfers);
        Ok(transfers.as_deref() == Some("active") || account.payouts_enabled == Some(true))
    }

    /// Sends `net` CAD of order `order` to `account`, once: the key is the order's, so a
    /// retry answers the first transfer.
    pub async fn transfer(
        &self,
        account: &str,
        net: Cents,
        order: Uuid,
    ) -> Result<String, PaymentError> {
        let amount = net.get().to_string();
        let order = order.to_string();
        let form = [
            ("amount", amount.as_str()),
            ("currency", "cad"),
            ("destination", path_segment(account)?),
            ("transfer_group", order.as_str()),
            ("metadata[order_id]", order.as_str()),
        ];
        let key = format!("payout-{order}");
        let transfer: Transfer = self.post("v1/transfers", &form, &key, Call::Read).await?;
        Ok(transfer.id)
    }
}
