use clap::Parser;
use repairs_bff::config::Config;

fn main() -> anyhow::Result<()> {
    // `.env` first, so its values feed the flags' environment fallbacks; no file is fine.
    if let Err(error) = dotenvy::dotenv()
        && !error.not_found()
    {
        anyhow::bail!(".env: {error}");
    }
    let config = Config::parse();
    // One thread runs a current-thread runtime: a task woken by another waits its turn there,
    // so the replies that come back together leave together, in fewer writes than a
    // multi-thread runtime's next-task slot allows.
    let mut runtime = match config.worker_threads {
        1 => tokio::runtime::Builder::new_current_thread(),
        threads => {
            let mut builder = tokio::runtime::Builder::new_multi_thread();
            builder.worker_threads(threads.into());
            builder
        }
    };
    let runtime = runtime.enable_all().build()?;
    runtime.block_on(async {
        repairs_bff::telemetry::init(&config)?;
        repairs_bff::run(config).await
    })
}
