//! The local Postgres cluster of the embedded default: created with `initdb` in the data
//! directory on first start, started with `pg_ctl` listening only on a unix socket in that
//! directory, and stopped when the server stops.
//!
//! Postgres refuses to run as root, so when the server runs as root (as in CI) the cluster
//! belongs to the `postgres` system user and its tools are run through `runuser`.

use std::{
    path::{Path, PathBuf},
    process::Stdio,
};

use anyhow::{Context, bail};
use sqlx::postgres::PgConnectOptions;
use tokio::process::Command;

const DATABASE: &str = "repairs";
const SUPERUSER: &str = "repairs";

/// A running cluster owned by this process.
#[derive(Debug)]
pub struct EmbeddedPostgres {
    bin_dir: PathBuf,
    pgdata: PathBuf,
    socket_dir: PathBuf,
    run_as: Option<String>,
}

impl EmbeddedPostgres {
    /// Creates the cluster if needed and starts it.
    pub async fn start(data_dir: &Path, bin_dir: Option<&Path>) -> anyhow::Result<Self> {
        let bin_dir = match bin_dir {
            Some(dir) => dir.to_path_buf(),
            None => find_bin_dir()?,
        };
        let root = std::path::absolute(data_dir.join("postgres"))?;
        let cluster = Self {
            bin_dir,
            pgdata: root.join("data"),
            socket_dir: root.join("run"),
            run_as: running_as_root().then(|| "postgres".to_string()),
        };
        cluster.check_reachable(&root).await?;
        tokio::fs::create_dir_all(&cluster.socket_dir)
            .await
            .with_context(|| format!("creating {}", cluster.socket_dir.display()))?;
        cluster.hand_over(&root).await?;

        if !cluster.pgdata.join("PG_VERSION").exists() {
            tracing::info!(pgdata = %cluster.pgdata.display(), "creating the local Postgres cluster");
            cluster
                .run(
                    "initdb",
                    &[
                        "-D",
                        &path_str(&cluster.pgdata)?,
                        "-U",
                        SUPERUSER,
                        "--auth=trust",
                        "--encoding=UTF8",
                        "--locale=C",
                    ],
                )
                .await
                .context("initdb failed")?;
        }
        if cluster.is_running().await {
            tracing::warn!(
                "the local Postgres cluster was already running (left over from an earlier run); using it"
            );
        } else {
            let options = format!(
                "-c listen_addresses='' -k {} -c unix_socket_permissions=0700",
                path_str(&cluster.socket_dir)?
            );
            let log = path_str(&root.join("postgres.log"))?;
            cluster
                .run(
                    "pg_ctl",
                    &[
                        "start",
                        "-w",
                        "-t",
                        "60",
                        "-D",
                        &path_str(&cluster.pgdata)?,
                        "-l",
                        &log,
                        "-o",
                        &options,
                    ],
                )
                .await
                .with_context(|| format!("pg_ctl start failed; see {log}"))?;
        }
        cluster.ensure_database().await?;
        Ok(cluster)
    }

    /// Connection options for the product's database, over the unix socket.
    pub fn connect_options(&self) -> PgConnectOptions {
        PgConnectOptions::new()
            .socket(&self.socket_dir)
            .username(SUPERUSER)
            .database(DATABASE)
    }

    /// Stops the cluster (fast shutdown: open sessions are ended, data is safe).
    pub async fn stop(&self) -> anyhow::Result<()> {
        self.run(
            "pg_ctl",
            &["stop", "-w", "-m", "fast", "-D", &path_str(&self.pgdata)?],
        )
        .await
        .context("pg_ctl stop failed")
    }

    async fn is_running(&self) -> bool {
        match path_str(&self.pgdata) {
            Ok(pgdata) => self.run("pg_ctl", &["status", "-D", &pgdata]).await.is_ok(),
            Err(_) => false,
        }
    }

    async fn ensure_database(&self) -> anyhow::Result<()> {
        use sqlx::{Connection, Row};
        let mut conn =
            sqlx::PgConnection::connect_with(&self.connect_options().database("postgres"))
                .await
                .context("connecting to the local Postgres cluster")?;
        let exists = sqlx::query("select 1 from pg_database where datname = $1")
            .bind(DATABASE)
            .fetch_optional(&mut conn)
            .await?
            .map(|row| row.get::<i32, _>(0))
            .is_some();
        if !exists {
            sqlx::query("create database repairs")
                .execute(&mut conn)
                .await?;
        }
        Ok(())
    }

    /// Gives the cluster's folder to the user Postgres runs as.
    async fn hand_over(&self, root: &Path) -> anyhow::Result<()> {
        let Some(user) = &self.run_as else {
            return Ok(());
        };
        let status = Command::new("chown")
            .args(["-R", &format!("{user}:{user}"), &path_str(root)?])
            .status()
            .await?;
        if !status.success() {
            bail!("could not give {} to the {user} user", root.display());
        }
        Ok(())
    }

    /// Fails with what to do when the user Postgres runs as cannot enter every folder down
    /// to `root` (a 0700 home or temporary folder above the data dir, say): initdb would
    /// otherwise stop with a bare "Permission denied".
    async fn check_reachable(&self, root: &Path) -> anyhow::Result<()> {
        let mut folders: Vec<&Path> = root.ancestors().filter(|dir| dir.is_dir()).collect();
        folders.reverse();
        for folder in folders {
            let entered = self
                .command("test")
                .arg("-x")
                .arg(folder)
                .stdin(Stdio::null())
                .status()
                .await
                .is_ok_and(|status| status.success());
            if !entered {
                let user = match &self.run_as {
                    Some(user) => {
                        format!("the `{user}` user it runs as (Postgres refuses to run as root)")
                    }
                    None => "this user".to_owned(),
                };
                bail!(
                    "the local Postgres cluster cannot use {}: {user} cannot enter {}. Choose a \
                     DATA_DIR that {} can reach (for example under /var/lib), open the folder \
                     with `chmod o+x {}`, or set DATABASE_URL to use a Postgres server of your \
                     own",
                    root.display(),
                    folder.display(),
                    self.run_as.as_deref().unwrap_or("this user"),
                    folder.display(),
                );
            }
        }
        Ok(())
    }

    /// A command run as the user Postgres runs as.
    fn command(&self, program: impl AsRef<std::ffi::OsStr>) -> Command {
        match &self.run_as {
            Some(user) => {
                let mut c = Command::new("runuser");
                c.args(["-u", user, "--"]).arg(program);
                c
            }
            None => Command::new(program),
        }
    }

    async fn run(&self, tool: &str, args: &[&str]) -> anyhow::Result<()> {
        let program = self.bin_dir.join(tool);
        let output = self
            .command(&program)
            .args(args)
            .stdin(Stdio::null())
            .output()
            .await
            .with_context(|| format!("running {}", program.display()))?;
        if !output.status.success() {
            bail!(
                "{tool} exited with {}: {}",
                output.status,
                String::from_utf8_lossy(&output.stderr).trim()
            );
        }
        Ok(())
    }
}

fn running_as_root() -> bool {
    std::process::Command::new("id")
        .arg("-u")
        .output()
        .map(|out| String::from_utf8_lossy(&out.stdout).trim() == "0")
        .unwrap_or(false)
}

/// The newest `/usr/lib/postgresql/<version>/bin`, else the folder of `pg_ctl` on PATH.
fn find_bin_dir() -> anyhow::Result<PathBuf> {
    let mut versions: Vec<(u32, PathBuf)> = std::fs::read_dir("/usr/lib/postgresql")
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|entry| {
            let version = entry.file_name().to_string_lossy().parse::<u32>().ok()?;
            let bin = entry.path().join("bin");
            bin.join("initdb").exists().then_some((version, bin))
        })
        .collect();
    versions.sort();
    if let Some((_, bin)) = versions.pop() {
        return Ok(bin);
    }
    std::env::var_os("PATH")
        .iter()
        .flat_map(std::env::split_paths)
        .find(|dir| dir.join("initdb").exists() && dir.join("pg_ctl").exists())
        .context(
            "no Postgres binaries found: install Postgres, set PG_BIN_DIR, or set DATABASE_URL",
        )
}

fn path_str(path: &Path) -> anyhow::Result<String> {
    path.to_str()
        .map(str::to_owned)
        .with_context(|| format!("path is not UTF-8: {}", path.display()))
}
