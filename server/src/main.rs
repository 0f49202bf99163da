use std::io::Read;

use anyhow::Context;
use clap::Parser;
use repairs_server::{
    bootstrap,
    config::{Cli, Command},
    store::Database,
    telemetry,
};

#[tokio::main]
async fn main() -> std::process::ExitCode {
    match run().await {
        Ok(()) => std::process::ExitCode::SUCCESS,
        // What went wrong and why, for the person who started the server; no backtrace
        // (RUST_BACKTRACE would add one to a plain `Result` from `main`).
        Err(error) => {
            eprintln!("Error: {error:#}");
            std::process::ExitCode::FAILURE
        }
    }
}

async fn run() -> anyhow::Result<()> {
    // A missing .env is normal; a broken one is worth knowing about.
    if let Err(error) = dotenvy::dotenv()
        && !error.not_found()
    {
        eprintln!("ignoring .env: {error}");
    }
    let cli = Cli::parse();
    telemetry::init(cli.config.log_format);
    match cli.command.unwrap_or(Command::Serve) {
        Command::Serve => serve(cli.config).await,
        Command::Migrate => {
            let database = Database::open(&cli.config).await?;
            let result = database.migrate().await;
            database.close().await;
            result?;
            println!("migrations applied");
            Ok(())
        }
        Command::CreateAdmin {
            email,
            name,
            language,
        } => {
            let password = match &cli.config.admin_password {
                Some(password) => password.clone(),
                None => {
                    let mut line = String::new();
                    std::io::stdin()
                        .read_to_string(&mut line)
                        .context("reading the password")?;
                    line.trim_end_matches(['\r', '\n']).to_owned()
                }
            };
            let database = Database::open(&cli.config).await?;
            let result = async {
                database.migrate().await?;
                bootstrap::create_admin_in(&database.pool, &email, &name, &password, language).await
            }
            .await;
            database.close().await;
            if result? {
                println!("admin {email} created");
            } else {
                println!("an admin with email {email} already exists; nothing changed");
            }
            Ok(())
        }
    }
}

async fn serve(config: repairs_server::config::Config) -> anyhow::Result<()> {
    let mut server = repairs_server::start(config).await?;
    println!(
        "gRPC server listening on http://{} (files on http://{})",
        server.grpc_addr, server.http_addr
    );
    tokio::select! {
        result = server.wait() => return result,
        () = shutdown_signal() => {}
    }
    tracing::info!("shutting down");
    server.stop().await
}

async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    tokio::select! {
        () = ctrl_c => {}
        () = terminate => {}
    }
}
