//! Picks each outside provider from configuration: the production adapter when its settings
//! are given, the local stand-in otherwise. Settings given by halves are an error at start,
//! not a surprise at the first message.

use std::{sync::Arc, time::Duration};

use anyhow::{Context, bail};
use sqlx::PgPool;

use crate::{
    config::{Config, DistanceProviderKind, GeocoderKind, TranslationProviderKind},
    providers::{
        EmailSender, FacebookIdentity, FileStorage, Gazetteer, Geocoder, GoogleIdentity,
        PaymentGateway, SmsSender,
        distance::{DistanceProvider, GreatCircle},
        email::OutboxEmail,
        facebook_identity::{FacebookConfig, facebook_identity},
        geocoding::photon::{Photon, PhotonConfig},
        google_identity::{GoogleConfig, google_identity},
        osrm::{OsrmConfig, OsrmDistance},
        payments::{
            SystemClock,
            stripe::{StripeConfig, StripeGateway},
            test_gateway::TestGateway,
        },
        sms::OutboxSms,
        smtp::{SmtpConfig, SmtpEmail, SmtpTls},
        storage::{LocalFolderStorage, S3Config, S3Storage},
        translation::{
            Translator,
            deepl::{DeepL, DeepLConfig},
            libretranslate::{LibreTranslate, LibreTranslateConfig},
        },
        twilio::{TwilioConfig, TwilioSender, TwilioSms},
    },
};

pub struct Providers {
    pub sms: Arc<dyn SmsSender>,
    pub email: Arc<dyn EmailSender>,
    pub storage: Arc<dyn FileStorage>,
    /// The gazetteer, as the geocoder of the matching distance API.
    pub geocoder: Arc<dyn Geocoder>,
    pub gazetteer: Arc<Gazetteer>,
    /// Street addresses, with GEOCODER=photon.
    pub photon: Option<Photon>,
    pub google: Arc<dyn GoogleIdentity>,
    pub facebook: Arc<dyn FacebookIdentity>,
    pub payments: Arc<dyn PaymentGateway>,
    /// Stripe Connect for payouts: the Stripe gateway when Stripe is configured.
    pub connect: Option<Arc<StripeGateway>>,
    pub distance: Arc<dyn DistanceProvider>,
    /// `None` when no translation service is configured.
    pub translator: Option<Arc<dyn Translator>>,
}

pub async fn providers(config: &Config, db: &PgPool) -> anyhow::Result<Providers> {
    let (payments, connect) = payments(config, db)?;
    let gazetteer = Arc::new(Gazetteer::shipped().context("loading the gazetteer")?);
    Ok(Providers {
        sms: sms(config)?,
        email: email(config)?,
        storage: storage(config).await?,
        geocoder: gazetteer.clone(),
        gazetteer,
        photon: photon(config)?,
        google: google(config)?,
        facebook: facebook(config)?,
        payments,
        connect,
        distance: distance(config)?,
        translator: translator(config)?,
    })
}

/// The bucket of FILES_BUCKET, checked once, or the data directory's folder.
async fn storage(config: &Config) -> anyhow::Result<Arc<dyn FileStorage>> {
    let settings = &config.deployment;
    let Some(bucket) = &settings.files_bucket else {
        return Ok(Arc::new(LocalFolderStorage::new(&config.data_dir)));
    };
    let s3 = S3Storage::new(S3Config {
        bucket: bucket.clone(),
        endpoint: settings.aws_endpoint_url.clone(),
        region: settings.aws_region.clone(),
        access_key_id: settings.aws_access_key_id.clone(),
        secret_access_key: settings.aws_secret_access_key.clone(),
        allow_http: settings.aws_allow_http,
    })?;
    s3.check().await?;
    Ok(Arc::new(s3))
}

/// None unless TRANSLATION_PROVIDER names one, whose settings must then be given.
fn translator(config: &Config) -> anyhow::Result<Option<Arc<dyn Translator>>> {
    let timeout = Duration::from_millis(config.translation_timeout_ms.max(1));
    Ok(match config.translation_provider {
        TranslationProviderKind::None => None,
        TranslationProviderKind::Libretranslate => {
            let Some(url) = &config.libretranslate_url else {
                bail!("TRANSLATION_PROVIDER=libretranslate needs LIBRETRANSLATE_URL");
            };
            let mut libre = LibreTranslateConfig::new(url.clone());
            libre.api_key = config.libretranslate_api_key.clone().map(Into::into);
            libre.timeout = timeout;
            Some(Arc::new(
                LibreTranslate::new(libre).context("setting up LibreTranslate")?,
            ))
        }
        TranslationProviderKind::Deepl => {
            let Some(key) = &config.deepl_api_key else {
                bail!("TRANSLATION_PROVIDER=deepl needs DEEPL_API_KEY");
            };
            let mut deepl = DeepLConfig::new(key.clone());
            if let Some(url) = &config.deepl_api_url {
                deepl.base_url = url.clone();
            }
            deepl.timeout = timeout;
            Some(Arc::new(DeepL::new(deepl).context("setting up DeepL")?))
        }
    })
}

/// None unless GEOCODER=photon, which needs PHOTON_URL.
fn photon(config: &Config) -> anyhow::Result<Option<Photon>> {
    match (config.geocoder, &config.photon_url) {
        (GeocoderKind::Gazetteer, _) => Ok(None),
        (GeocoderKind::Photon, Some(url)) => {
            let mut photon = PhotonConfig::new(url.clone());
            photon.suggest_timeout = Duration::from_millis(config.photon_suggest_timeout_ms.max(1));
            photon.save_timeout = Duration::from_millis(config.photon_timeout_ms.max(1));
            Ok(Some(Photon::new(photon).context("setting up Photon")?))
        }
        (GeocoderKind::Photon, None) => bail!("GEOCODER=photon needs PHOTON_URL"),
    }
}

/// Great-circle unless DISTANCE_PROVIDER=osrm, which needs OSRM_URL.
fn distance(config: &Config) -> anyhow::Result<Arc<dyn DistanceProvider>> {
    match (config.distance_provider, &config.osrm_url) {
        (DistanceProviderKind::GreatCircle, _) => Ok(Arc::new(GreatCircle)),
        (DistanceProviderKind::Osrm, Some(url)) => {
            let mut osrm = OsrmConfig::new(url.clone());
            osrm.timeout = Duration::from_millis(config.osrm_timeout_ms.max(1));
            Ok(Arc::new(
                OsrmDistance::new(osrm).context("setting up OSRM")?,
            ))
        }
        (DistanceProviderKind::Osrm, None) => bail!("DISTANCE_PROVIDER=osrm needs OSRM_URL"),
    }
}

/// Stripe when its keys are set (the secret and the publishable key together); the
/// offline test gateway otherwise. Stripe also serves Connect (payouts).
type Gateways = (Arc<dyn PaymentGateway>, Option<Arc<StripeGateway>>);

fn payments(config: &Config, db: &PgPool) -> anyhow::Result<Gateways> {
    match (
        &config.stripe_secret_key,
        &config.stripe_publishable_key,
        &config.stripe_webhook_secret,
    ) {
        (None, None, None) => Ok((
            Arc::new(TestGateway::new(db.clone(), Arc::new(SystemClock))),
            None,
        )),
        (Some(secret), Some(_), _) => {
            let mut stripe = StripeConfig::new(secret.clone());
            stripe.api_base = config.stripe_api_base.clone();
            let stripe = Arc::new(StripeGateway::new(stripe).context("setting up Stripe")?);
            Ok((stripe.clone(), Some(stripe)))
        }
        _ => bail!(
            "set both STRIPE_SECRET_KEY and STRIPE_PUBLISHABLE_KEY (and STRIPE_WEBHOOK_SECRET \
             for webhooks), or none of them"
        ),
    }
}

fn sms(config: &Config) -> anyhow::Result<Arc<dyn SmsSender>> {
    match (
        &config.twilio_account_sid,
        &config.twilio_auth_token,
        &config.twilio_from,
    ) {
        (None, None, None) => Ok(Arc::new(OutboxSms::new(&config.outbox_dir()))),
        (Some(sid), Some(token), Some(from)) => {
            let mut twilio =
                TwilioConfig::new(sid.clone(), token.clone(), TwilioSender::from_setting(from));
            twilio.base_url = config.twilio_base_url.clone();
            Ok(Arc::new(
                TwilioSms::new(twilio).context("setting up Twilio")?,
            ))
        }
        _ => bail!("set all of TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN and TWILIO_FROM, or none"),
    }
}

fn email(config: &Config) -> anyhow::Result<Arc<dyn EmailSender>> {
    let Some(host) = &config.smtp_host else {
        return Ok(Arc::new(OutboxEmail::new(&config.outbox_dir())));
    };
    let tls: SmtpTls = config
        .smtp_tls
        .parse()
        .map_err(anyhow::Error::msg)
        .context("SMTP_TLS")?;
    let mut smtp = SmtpConfig::new(host.clone(), tls, config.email_from.clone());
    smtp.port = config.smtp_port;
    smtp.username = config.smtp_username.clone();
    smtp.password = config.smtp_password.clone().map(Into::into);
    Ok(Arc::new(SmtpEmail::new(smtp).context("setting up SMTP")?))
}

fn google(config: &Config) -> anyhow::Result<Arc<dyn GoogleIdentity>> {
    let ids: Vec<String> = config
        .google_client_ids
        .iter()
        .map(|id| id.trim().to_owned())
        .filter(|id| !id.is_empty())
        .collect();
    let settings = (!ids.is_empty()).then(|| {
        let mut google = GoogleConfig::new(ids);
        google.jwks_url = config.google_jwks_url.clone();
        google
    });
    google_identity(settings).context("setting up Google sign-in")
}

fn facebook(config: &Config) -> anyhow::Result<Arc<dyn FacebookIdentity>> {
    let settings = match (&config.facebook_app_id, &config.facebook_app_secret) {
        (None, None) => None,
        (Some(id), Some(secret)) => {
            let mut facebook = FacebookConfig::new(id.clone(), secret.clone());
            facebook.graph_url = config.facebook_graph_url.clone();
            Some(facebook)
        }
        _ => bail!("set both FACEBOOK_APP_ID and FACEBOOK_APP_SECRET, or neither"),
    };
    facebook_identity(settings).context("setting up Facebook login")
}
