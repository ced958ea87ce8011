//! `mahjong db`: open the database the server would use and bring its schema up to date
//! (`migrate`), or say where it stands without changing anything (`status`). Operators run them
//! before a deployment.

use std::path::PathBuf;

use serde::Serialize;

/// Arguments of `mahjong db`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(subcommand)]
    action: Action,
    /// The database: `postgres://…` or `sqlite:…` (default: an SQLite file in the data directory).
    #[arg(long, env = "DATABASE_URL", hide_env_values = true, global = true)]
    database_url: Option<String>,
    /// Where the default SQLite file lives.
    #[arg(long, env = "MAHJONG_DATA_DIR", default_value = "data", global = true)]
    data_dir: PathBuf,
}

#[derive(clap::Subcommand, Debug)]
enum Action {
    /// Apply every migration this binary carries (also done by the server at start-up).
    Migrate,
    /// Print the backend and schema versions as JSON; reads only (nothing is created or
    /// migrated).
    Status,
}

#[derive(Serialize)]
struct Status {
    backend: &'static str,
    schema_version: i64,
    binary_schema_version: i64,
}

/// Runs the command.
pub fn run(args: &Args) -> anyhow::Result<()> {
    let url = args
        .database_url
        .clone()
        .unwrap_or_else(|| store::default_url(&args.data_dir));
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    let access = match args.action {
        Action::Migrate => store::Access::ReadWrite,
        Action::Status => store::Access::ReadOnly,
    };
    rt.block_on(async {
        let options = store::StoreOptions {
            access,
            ..store::StoreOptions::default()
        };
        let store = store::Store::connect_with(&url, options).await?;
        let status = Status {
            backend: store.backend_name(),
            schema_version: store.schema_version().await?,
            binary_schema_version: store.binary_schema_version(),
        };
        store.close().await;
        match args.action {
            Action::Migrate => println!(
                "{}: schema at version {}",
                status.backend, status.schema_version
            ),
            Action::Status => println!("{}", serde_json::to_string(&status)?),
        }
        Ok(())
    })
}
