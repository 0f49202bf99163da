use clap::Parser;
use repairs_bff::config::Config;

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    // `.env` first, so its values feed the flags' environment fallbacks; no file is fine.
    if let Err(error) = dotenvy::dotenv()
        && !error.not_found()
    {
        anyhow::bail!(".env: {error}");
    }
    let config = Config::parse();
    repairs_bff::telemetry::init(&config)?;
    repairs_bff::run(config).await
}
