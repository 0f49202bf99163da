//! The server's command line: its subcommands, over the settings of [`Config`].

use clap::{Parser, Subcommand};

use super::{Config, values::parse_language};
use crate::domain::Language;

/// The repair marketplace's gRPC server.
#[derive(Debug, Parser)]
#[command(name = "repairs-server", version, about)]
pub struct Cli {
    #[command(flatten)]
    pub config: Config,
    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Serve gRPC (the default).
    Serve,
    /// Apply the database migrations and exit.
    Migrate,
    /// Create an administrator account (password from ADMIN_PASSWORD or standard input).
    CreateAdmin {
        /// The admin's email.
        #[arg(long)]
        email: String,
        /// The admin's display name.
        #[arg(long, default_value = "Administrator")]
        name: String,
        /// The language the admin reads the product's emails in: en or fr.
        #[arg(long, default_value = "en", value_parser = parse_language)]
        language: Language,
    },
}
