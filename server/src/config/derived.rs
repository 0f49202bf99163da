//! What the server reads from its settings beyond their raw values (durations, worker counts,
//! folders), and the settings the tests run with.

use std::{
    net::{IpAddr, SocketAddr},
    path::PathBuf,
    time::Duration,
};

use super::{
    Config, Deployment, DistanceProviderKind, GeocoderKind, LogFormat, TranslationProviderKind,
};
use crate::{
    domain::{Cents, Currency, Language, Money, PushHosts, Role},
    tax::{Registrations, Seller},
};

impl Config {
    pub fn session_ttl(&self) -> Duration {
        Duration::from_secs(self.session_ttl_secs)
    }

    pub fn admin_session_ttl(&self) -> Duration {
        Duration::from_secs(self.admin_session_ttl_secs)
    }

    /// How long a sign-in of `role` lasts, renewals included: `SESSION_REFRESH_DAYS` for
    /// customers and professionals, the admin session's lifetime for admins.
    pub fn sign_in_lifetime(&self, role: Role) -> Duration {
        match role {
            Role::Admin => self.admin_session_ttl(),
            Role::Customer | Role::Professional => {
                Duration::from_secs(self.session_refresh_days * 24 * 3600)
            }
        }
    }

    /// One month of membership, in Canadian dollars (a Canadian business charges in CAD).
    pub fn membership_price(&self) -> Money {
        Money::new(
            Cents::new(self.membership_price_cents).unwrap_or(Cents::ZERO),
            Currency::Cad,
        )
    }

    /// The platform's sales tax registrations (GST_HST_NUMBER, QST_NUMBER): the taxes it
    /// charges on what it sells professionals.
    pub fn registrations(&self) -> Registrations {
        Registrations {
            gst_hst: self.gst_hst_number.clone(),
            qst: self.qst_number.clone(),
        }
    }

    /// The platform as the seller on its receipts: its name and registrations.
    pub fn seller(&self) -> Seller {
        Seller {
            name: self.platform_legal_name.trim().to_owned(),
            registrations: self.registrations(),
        }
    }

    /// How many password hashes run at once: as set, else one per core.
    pub fn hashing_workers(&self) -> usize {
        or_one_per_core(self.hashing_concurrency)
    }

    /// How many photos are decoded at once: as set, else one per core.
    pub fn photo_workers(&self) -> usize {
        or_one_per_core(self.photo_concurrency)
    }

    pub fn outbox_dir(&self) -> PathBuf {
        self.data_dir.join("outbox")
    }

    /// The hourly SMS budget of a country calling code.
    pub fn sms_country_budget(&self, calling_code: &str) -> u32 {
        self.sms_country_budgets
            .iter()
            .find(|b| b.calling_code == calling_code)
            .map_or(self.sms_budget_per_country_per_hour, |b| b.per_hour)
    }

    /// The push services subscriptions may name.
    pub fn push_hosts(&self) -> PushHosts {
        PushHosts::new(&self.push_endpoint_hosts)
    }

    /// The `sub` of VAPID tokens: as set, else `mailto:` the sender address of emails.
    pub fn push_contact(&self) -> String {
        if let Some(contact) = &self.vapid_contact {
            return contact.clone();
        }
        let from = self.email_from.trim();
        let address = match (from.rfind('<'), from.rfind('>')) {
            (Some(start), Some(end)) if start < end => &from[start + 1..end],
            _ => from,
        };
        format!("mailto:{address}")
    }

    /// A configuration for tests: everything explicit, nothing read from the environment.
    pub fn for_tests(data_dir: PathBuf, database_url: String, redis_url: Option<String>) -> Self {
        // A test that runs without Redis runs one server process on its database.
        let single_replica = redis_url.is_none();
        Self {
            grpc_addr: SocketAddr::from(([127, 0, 0, 1], 0)),
            http_addr: SocketAddr::from(([127, 0, 0, 1], 0)),
            data_dir,
            database_url: Some(database_url),
            rpc_timeout_ms: 60_000,
            database_acquire_timeout_ms: 3000,
            database_min_connections: 1,
            // Small, so a call that holds two connections at once shows under the tests' load.
            database_max_connections: 6,
            database_read_connections: 2,
            pg_bin_dir: None,
            redis_url,
            cache_prefix: format!("test:{}:", uuid::Uuid::now_v7()),
            jwt_secret: Some(format!("test-secret-{}", uuid::Uuid::now_v7())),
            session_ttl_secs: 3600,
            admin_session_ttl_secs: 8 * 3600,
            session_refresh_days: 30,
            admin_email: None,
            admin_password: None,
            admin_language: Language::English,
            public_url: "http://127.0.0.1:8080".to_owned(),
            google_client_ids: Vec::new(),
            google_jwks_url: String::new(),
            facebook_app_id: None,
            facebook_app_secret: None,
            facebook_graph_url: String::new(),
            twilio_account_sid: None,
            twilio_auth_token: None,
            twilio_from: None,
            twilio_base_url: String::new(),
            smtp_host: None,
            smtp_port: None,
            smtp_username: None,
            smtp_password: None,
            smtp_tls: "none".to_owned(),
            email_from: "Repairs <no-reply@localhost>".to_owned(),
            hashing_concurrency: 0,
            hashing_queue: 16,
            photo_concurrency: 0,
            photo_queue: 16,
            photo_max_megapixels: 40,
            membership_price_cents: 2999,
            stripe_secret_key: None,
            stripe_publishable_key: None,
            stripe_webhook_secret: None,
            stripe_api_base: String::new(),
            gst_hst_number: None,
            qst_number: None,
            platform_legal_name: "Repairs".to_owned(),
            platform_mailing_address: String::new(),
            account_deletion_grace_days: 14,
            platform_fee_percent: 0,
            log_format: LogFormat::Text,
            trusted_proxies: vec![IpAddr::from([127, 0, 0, 1]).into()],
            outbox_poll_ms: 200,
            outbox_max_attempts: 8,
            outbox_lease_secs: 120,
            outbox_retry_base_ms: 5000,
            retention_request_months: 24,
            retention_outbox_days: 30,
            purge_interval_secs: 3600,
            password_reset_per_email_per_hour: 3,
            password_reset_per_address_per_hour: 20,
            contact_email: None,
            contact_messages_per_address_per_hour: 5,
            contact_messages_per_account_per_hour: 10,
            repair_requests_per_customer_per_hour: 20,
            repair_request_max_notified: 200,
            emergency_escalate_after: Duration::from_secs(600),
            request_photos_wait: Duration::from_secs(120),
            trip_position_every: Duration::from_secs(10),
            sms_notifications_per_hour: 2000,
            sms_budget_per_hour: 500,
            sms_budget_per_address_per_hour: 10,
            sms_budget_per_country_per_hour: 100,
            sms_country_budgets: Vec::new(),
            service_key_grace: std::time::Duration::from_secs(24 * 3600),
            service_account_calls_per_minute: 600,
            distance_provider: DistanceProviderKind::GreatCircle,
            osrm_url: None,
            osrm_timeout_ms: 2000,
            distance_concurrency: 8,
            watch_streams_per_professional: 4,
            watch_streams_total: 1000,
            watch_conversations_per_account: 16,
            messages_per_account_per_10_minutes: 30,
            messages_per_account_per_day: 300,
            message_email_after: Duration::from_secs(120),
            message_email_every: Duration::from_secs(15 * 60),
            translation_provider: TranslationProviderKind::None,
            libretranslate_url: None,
            libretranslate_api_key: None,
            deepl_api_key: None,
            deepl_api_url: None,
            translation_timeout_ms: 2000,
            translation_concurrency: 4,
            translation_chars_per_caller_per_hour: 20_000,
            translation_chars_per_hour: 200_000,
            geocoder: GeocoderKind::Gazetteer,
            photon_url: None,
            photon_suggest_timeout_ms: 800,
            photon_timeout_ms: 5000,
            address_suggestions_per_client_per_hour: 600,
            deployment: Deployment {
                single_replica,
                ..Deployment::for_tests()
            },
            vapid_private_key: None,
            vapid_contact: Some("mailto:push@example.ca".to_owned()),
            push_endpoint_hosts: vec!["127.0.0.1".to_owned()],
            push_concurrency: 8,
            apns_url: String::new(),
            apns_key_file: None,
            apns_key_id: None,
            apns_team_id: None,
            apns_topic: None,
            fcm_url: String::new(),
            fcm_service_account_file: None,
        }
    }
}

/// `setting` workers, or one per CPU core for 0.
fn or_one_per_core(setting: usize) -> usize {
    match setting {
        0 => std::thread::available_parallelism().map_or(1, usize::from),
        n => n,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    use crate::config::{Cli, CountryBudget};

    #[test]
    fn country_budgets_parse() {
        assert_eq!(
            "+91=20".parse(),
            Ok(CountryBudget {
                calling_code: "91".into(),
                per_hour: 20
            })
        );
        assert!("1".parse::<CountryBudget>().is_err());
        assert!("x=3".parse::<CountryBudget>().is_err());
        assert!("1=-3".parse::<CountryBudget>().is_err());
    }

    #[test]
    fn push_defaults_to_the_big_browsers_and_the_email_sender() {
        let config = Cli::try_parse_from(["repairs-server"]).unwrap().config;
        assert_eq!(config.push_endpoint_hosts.len(), 4);
        assert!(
            config
                .push_endpoint_hosts
                .contains(&"*.notify.windows.com".to_owned())
        );
        assert_eq!(config.push_contact(), "mailto:no-reply@localhost");
    }

    #[test]
    fn the_admin_language_is_en_or_fr() {
        let config = |args: &[&str]| {
            Cli::try_parse_from([&["repairs-server"], args].concat()).map(|cli| cli.config)
        };
        assert_eq!(config(&[]).unwrap().admin_language, Language::English);
        assert_eq!(
            config(&["--admin-language", "fr"]).unwrap().admin_language,
            Language::French
        );
        assert!(config(&["--admin-language", "de"]).is_err());
    }

    #[test]
    fn the_membership_is_priced_in_canadian_dollars() {
        let config = |args: &[&str]| {
            Cli::try_parse_from([&["repairs-server"], args].concat()).map(|cli| cli.config)
        };
        assert_eq!(
            config(&[]).unwrap().membership_price().to_string(),
            "29.99 CAD"
        );
        let dearer = config(&["--membership-price-cents", "3499"]).unwrap();
        assert_eq!(dearer.membership_price().to_string(), "34.99 CAD");
        assert!(config(&["--membership-price-cents", "49"]).is_err());
        assert!(config(&["--membership-price-cents", "100001"]).is_err());
    }

    #[test]
    fn the_platform_is_registered_only_by_well_formed_numbers() {
        let config = |args: &[&str]| {
            Cli::try_parse_from([&["repairs-server"], args].concat()).map(|cli| cli.config)
        };
        let unset = config(&[]).unwrap();
        assert_eq!(unset.registrations(), Registrations::default());
        assert_eq!(unset.seller().name, "Repairs");
        let both = config(&[
            "--gst-hst-number",
            "123456789 rt 0001",
            "--qst-number",
            "1234567890TQ0001",
            "--platform-legal-name",
            " Réparations Inc. ",
        ])
        .unwrap()
        .seller();
        assert_eq!(both.name, "Réparations Inc.");
        assert_eq!(
            both.registrations.gst_hst.map(|n| n.to_string()),
            Some("123456789RT0001".to_owned())
        );
        assert_eq!(
            both.registrations.qst.map(|n| n.to_string()),
            Some("1234567890TQ0001".to_owned())
        );
        for (flag, value, says) in [
            (
                "--gst-hst-number",
                "123456789",
                "add RT and the 4-digit account",
            ),
            ("--gst-hst-number", "1234567890TQ0001", "9 digits, then RT"),
            ("--qst-number", "123456789RT0001", "10 digits, then TQ"),
            (
                "--qst-number",
                " ",
                "unset it when the platform is not registered",
            ),
        ] {
            let error = config(&[flag, value]).unwrap_err().to_string();
            assert!(error.contains(says), "{flag} {value:?}: {error}");
        }
    }
}
