//! Command line and environment configuration (every flag also reads an environment variable).

use std::net::SocketAddr;
use std::path::PathBuf;

use clap::{Parser, ValueEnum};
use http::{HeaderValue, Uri};

/// The BFF's settings. `.env` is loaded before parsing, so it can hold any of these.
#[derive(Debug, Clone, Parser)]
#[command(
    name = "repairs-bff",
    version,
    about = "HTTP front of the repairs marketplace: gRPC-web passthrough, legacy /api translation and the web app"
)]
pub struct Config {
    /// Address the BFF listens on.
    #[arg(long, env = "BFF_ADDR", default_value = "127.0.0.1:8080")]
    pub addr: SocketAddr,

    /// Base URL of the gRPC server (plain HTTP; the BFF speaks HTTP/2 to it), or of several,
    /// comma-separated; a host name that resolves to several addresses counts as several.
    /// Calls are spread over the servers that answer SERVING.
    #[arg(long, env = "SERVER_URL", default_value = "http://127.0.0.1:50051", value_parser = parse_server_urls)]
    pub server_url: Urls,

    /// How often each server address is resolved again and asked whether it is serving, in
    /// milliseconds.
    #[arg(long, env = "SERVER_CHECK_MS", default_value_t = 2000, value_parser = clap::value_parser!(u64).range(50..=60_000))]
    pub server_check_ms: u64,

    /// Base URL of the server's plain HTTP listener, where `/files/...` downloads (photos,
    /// licences, icons; signed links) are passed through to; or of several, comma-separated
    /// (replicas sharing a FILES_BUCKET): each download tries them in turn from the next one,
    /// until one can be reached.
    #[arg(long, env = "FILES_URL", default_value = "http://127.0.0.1:50052", value_parser = parse_files_urls)]
    pub files_url: Urls,

    /// How long the BFF keeps the service catalogue that legacy `/api` calls list and name
    /// services from, in milliseconds (0: asked of the server on every call). Its own legacy
    /// edits of the catalogue show at once; edits through gRPC or another BFF within this time.
    #[arg(long, env = "LEGACY_CATALOGUE_TTL_MS", default_value_t = 1000, value_parser = clap::value_parser!(u64).range(0..=60_000))]
    pub legacy_catalogue_ttl_ms: u64,

    /// Folder of the built web app (`index.html`, `assets/`), relative to the working directory.
    #[arg(long, env = "WEB_DIST", default_value = "web/dist")]
    pub web_dist: PathBuf,

    /// Browser origins allowed to call the BFF cross-origin, comma-separated (empty: same-origin only).
    /// Setting it replaces the default, which allows the Vite dev server.
    #[arg(
        long,
        env = "CORS_ORIGINS",
        default_value = "http://localhost:5173,http://127.0.0.1:5173",
        value_parser = parse_origins
    )]
    pub cors_origins: Origins,

    /// Stripe's publishable key when the server takes cards through Stripe (the server's own
    /// `STRIPE_PUBLISHABLE_KEY`): only then may pages load Stripe.js and its frames
    /// (Content-Security-Policy). Unset with the offline test gateway.
    #[arg(long, env = "STRIPE_PUBLISHABLE_KEY", value_parser = parse_publishable_key)]
    pub stripe_publishable_key: Option<String>,

    /// Threads that serve calls. One by default: the BFF waits on the network and does little
    /// work per call, and one thread does it with the least CPU per call (docs/figures.md);
    /// more help only where the BFF has several cores to itself. Scale out with replicas.
    #[arg(long, env = "BFF_WORKER_THREADS", default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=256))]
    pub worker_threads: u16,

    /// Log line format.
    #[arg(long, env = "LOG_FORMAT", value_enum, default_value_t = LogFormat::Text)]
    pub log_format: LogFormat,

    /// Log filter (tracing-subscriber `EnvFilter` syntax, e.g. `info,repairs_bff=debug`).
    #[arg(long = "log", env = "RUST_LOG", default_value = "info")]
    pub log_filter: String,
}

/// How log lines are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum LogFormat {
    /// Human-readable lines.
    Text,
    /// One JSON object per line, for log collectors.
    Json,
}

/// The allowed CORS origins, each already a valid header value.
#[derive(Debug, Clone, Default)]
pub struct Origins(pub Vec<HeaderValue>);

/// The URLs of SERVER_URL or FILES_URL, at least one.
#[derive(Debug, Clone)]
pub struct Urls(pub Vec<Uri>);

impl std::fmt::Display for Urls {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let urls: Vec<String> = self.0.iter().map(ToString::to_string).collect();
        f.write_str(&urls.join(","))
    }
}

/// Comma-separated URLs, each checked by `parse_one`.
fn parse_urls(raw: &str, parse_one: fn(&str) -> Result<Uri, String>) -> Result<Urls, String> {
    let urls = raw
        .split(',')
        .map(str::trim)
        .filter(|url| !url.is_empty())
        .map(|url| parse_one(url).map_err(|error| format!("{url}: {error}")))
        .collect::<Result<Vec<_>, _>>()?;
    if urls.is_empty() {
        return Err("name at least one URL, e.g. http://127.0.0.1:50051".into());
    }
    Ok(Urls(urls))
}

fn parse_server_urls(raw: &str) -> Result<Urls, String> {
    parse_urls(raw, parse_server_url)
}

fn parse_files_urls(raw: &str) -> Result<Urls, String> {
    parse_urls(raw, parse_files_url)
}

fn parse_server_url(raw: &str) -> Result<Uri, String> {
    let uri: Uri = raw.parse().map_err(|e| format!("not a URL: {e}"))?;
    if uri.scheme_str() != Some("http") {
        return Err("must start with http:// (the BFF speaks plain HTTP/2 to the server)".into());
    }
    if uri.authority().is_none() {
        return Err("must name a host, e.g. http://127.0.0.1:50051".into());
    }
    if !matches!(uri.path(), "" | "/") || uri.query().is_some() {
        return Err("must not have a path or query: gRPC paths are appended to it".into());
    }
    Ok(uri)
}

fn parse_files_url(raw: &str) -> Result<Uri, String> {
    let uri: Uri = raw.parse().map_err(|e| format!("not a URL: {e}"))?;
    if uri.scheme_str() != Some("http") {
        return Err(
            "must start with http:// (the server's file listener speaks plain HTTP)".into(),
        );
    }
    if uri.authority().is_none() {
        return Err("must name a host, e.g. http://127.0.0.1:50052".into());
    }
    if !matches!(uri.path(), "" | "/") || uri.query().is_some() {
        return Err("must not have a path or query: /files/... is appended to it".into());
    }
    Ok(uri)
}

fn parse_publishable_key(raw: &str) -> Result<String, String> {
    let key = raw.trim();
    if key.starts_with("pk_")
        && key.len() <= 255
        && key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
    {
        Ok(key.to_owned())
    } else {
        Err("expected Stripe's publishable key (pk_...)".to_owned())
    }
}

fn parse_origins(raw: &str) -> Result<Origins, String> {
    raw.split(',')
        .map(str::trim)
        .filter(|origin| !origin.is_empty())
        .map(|origin| {
            // An origin is scheme://host[:port]; a trailing slash or a path never matches a browser's Origin.
            let uri: Uri = origin.parse().map_err(|e| format!("{origin}: {e}"))?;
            let well_formed = matches!(uri.scheme_str(), Some("http" | "https"))
                && uri.authority().is_some()
                && uri.path() == "/"
                && uri.query().is_none();
            if !well_formed || origin.ends_with('/') {
                return Err(format!("{origin}: expected scheme://host[:port]"));
            }
            HeaderValue::from_str(origin).map_err(|e| format!("{origin}: {e}"))
        })
        .collect::<Result<_, _>>()
        .map(Origins)
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn defaults() {
        let config = Config::try_parse_from(["repairs-bff"]).unwrap();
        assert_eq!(config.server_url.to_string(), "http://127.0.0.1:50051/");
        assert_eq!(config.server_check_ms, 2000);
        assert_eq!(config.legacy_catalogue_ttl_ms, 1000);
        assert_eq!(config.worker_threads, 1);
        assert_eq!(config.files_url.to_string(), "http://127.0.0.1:50052/");
        assert_eq!(config.cors_origins.0.len(), 2);
        assert_eq!(config.log_format, LogFormat::Text);
    }

    #[test]
    fn help_lists_every_variable() {
        let help = Config::command().render_long_help().to_string();
        for var in [
            "BFF_ADDR",
            "SERVER_URL",
            "SERVER_CHECK_MS",
            "FILES_URL",
            "LEGACY_CATALOGUE_TTL_MS",
            "BFF_WORKER_THREADS",
            "WEB_DIST",
            "CORS_ORIGINS",
            "LOG_FORMAT",
            "RUST_LOG",
        ] {
            assert!(help.contains(var), "{var} missing from --help");
        }
    }

    #[test]
    fn worker_threads_are_one_or_more() {
        let config = Config::try_parse_from(["repairs-bff", "--worker-threads", "4"]).unwrap();
        assert_eq!(config.worker_threads, 4);
        assert!(Config::try_parse_from(["repairs-bff", "--worker-threads", "0"]).is_err());
    }

    #[test]
    fn origins_are_checked() {
        assert_eq!(parse_origins("").unwrap().0.len(), 0);
        assert_eq!(
            parse_origins(" https://a.example , http://b:3000")
                .unwrap()
                .0
                .len(),
            2
        );
        assert!(parse_origins("https://a.example/").is_err());
        assert!(parse_origins("a.example").is_err());
    }

    #[test]
    fn server_url_is_checked() {
        assert!(parse_server_url("http://server:50051").is_ok());
        let several = parse_server_urls(" http://a:50051, http://b:50051 ,").unwrap();
        assert_eq!(several.to_string(), "http://a:50051/,http://b:50051/");
        assert!(parse_server_urls(",").is_err());
        let wrong = parse_server_urls("http://a:50051,https://b:50051").unwrap_err();
        assert!(
            wrong.starts_with("https://b:50051: must start with http://"),
            "{wrong}"
        );
        assert!(parse_server_url("https://server:50051").is_err());
        assert!(parse_server_url("http://server:50051/x").is_err());
        assert!(parse_files_url("http://server:50052").is_ok());
        assert!(parse_files_url("https://server:50052").is_err());
        assert!(parse_files_url("http://server:50052/files").is_err());
        assert_eq!(
            parse_files_urls("http://a:1,http://b:2").unwrap().0.len(),
            2
        );
        assert!(parse_files_urls("http://a:1,http://b:2/files").is_err());
    }
}
