//! `mahjong loadtest`: loads the game server, the bare baseline server, or both in turn; and
//! `mahjong loadtest-baseline`, the baseline server in a process of its own (so that the load
//! generator's sockets and the server's each stay under the open-files limit of a process).

use std::io::{BufRead, BufReader, Write};
use std::net::SocketAddr;
use std::process::{Child, Command, Stdio};

use anyhow::{Context, bail};
use loadtest::{Comparison, Options, Report, Target};

/// What `mahjong loadtest` takes.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// How to load the server.
    #[command(flatten)]
    pub options: Options,
    /// What to load: `game` (the server at --addr), `baseline` (a bare broadcast server started
    /// for the run), or `both` (the baseline under the same load, then the game server, and
    /// their ratios).
    #[arg(long, env = "MAHJONG_LOADTEST_TARGET", default_value = "game",
          value_parser = ["game", "baseline", "both"])]
    pub target: String,
    /// Shorthand for `--target baseline`.
    #[arg(long)]
    pub baseline: bool,
    /// A baseline server already running (`mahjong loadtest-baseline`) instead of one started
    /// for the run.
    #[arg(long, env = "MAHJONG_LOADTEST_BASELINE_ADDR")]
    pub baseline_addr: Option<String>,
    /// Print the result as one JSON object, the last line of stdout (the summary goes to
    /// stderr).
    #[arg(long, env = "MAHJONG_LOADTEST_JSON", value_parser = clap::builder::BoolishValueParser::new())]
    pub json: bool,
}

/// What `mahjong loadtest-baseline` takes.
#[derive(clap::Args, Debug)]
pub struct BaselineArgs {
    /// Address to listen on (port 0 picks a free one); the first line of stdout names it.
    #[arg(long, env = "MAHJONG_BASELINE_LISTEN", default_value = "127.0.0.1:0")]
    pub listen: String,
    /// Exit when standard input closes (how `mahjong loadtest` stops the one it started).
    #[arg(long, hide = true)]
    pub exit_with_stdin: bool,
}

/// Runs the load test and prints its result.
pub fn run(args: &Args) -> anyhow::Result<()> {
    let rt = runtime()?;
    let target = if args.baseline {
        "baseline"
    } else {
        args.target.as_str()
    };
    match target {
        "game" => {
            let report = rt.block_on(loadtest::run(&args.options, Target::Game))?;
            print(&report, args.json)
        }
        "baseline" => {
            let report = baseline_run(&rt, args)?;
            print(&report, args.json)
        }
        "both" => {
            // The baseline first: once its clients have gone, the game server's tables play
            // on with the bot (托管) for as long as their matches last, and would compete
            // with a baseline measured after them (which is what made the baseline's p99
            // the worse of the two). The baseline's process is gone before the game's run.
            let baseline = baseline_run(&rt, args)?;
            let game = rt.block_on(loadtest::run(&args.options, Target::Game))?;
            let both = Comparison::of(game, baseline);
            print(&both, args.json)
        }
        other => bail!("unknown target `{other}` (game, baseline or both)"),
    }
}

/// What `mahjong loadtest-soak` takes.
#[derive(clap::Args, Debug)]
pub struct SoakArgs {
    /// What to run.
    #[command(flatten)]
    pub options: loadtest::soak::SoakOptions,
    /// Print the report as one JSON object, the last line of stdout.
    #[arg(long, env = "MAHJONG_SOAK_JSON", value_parser = clap::builder::BoolishValueParser::new())]
    pub json: bool,
}

/// Runs the soak and prints its report; fails when a room failed.
pub fn soak(args: &SoakArgs) -> anyhow::Result<()> {
    let rt = runtime()?;
    let report = rt.block_on(loadtest::soak::soak(&args.options))?;
    let text = serde_json::to_string(&report)?;
    if args.json {
        println!("{text}");
    } else {
        println!("{}", serde_json::to_string_pretty(&report)?);
    }
    if report.rooms_failed > 0 {
        bail!(
            "{} rooms failed, e.g.: {}",
            report.rooms_failed,
            report.last_error.as_deref().unwrap_or("?")
        );
    }
    Ok(())
}

/// Serves the baseline until killed (or until stdin closes, with `--exit-with-stdin`).
pub fn baseline(args: &BaselineArgs) -> anyhow::Result<()> {
    let rt = runtime()?;
    rt.block_on(async {
        let server = loadtest::baseline::start(&args.listen).await?;
        let mut out = std::io::stdout();
        writeln!(out, "listening on {}", server.addr)?;
        out.flush()?;
        if args.exit_with_stdin {
            std::thread::spawn(|| {
                let mut sink = String::new();
                while std::io::stdin().read_line(&mut sink).is_ok_and(|n| n > 0) {
                    sink.clear();
                }
                std::process::exit(0);
            });
        }
        server.task.await??;
        anyhow::Ok(())
    })
}

fn runtime() -> anyhow::Result<tokio::runtime::Runtime> {
    Ok(tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?)
}

fn print<T: serde::Serialize + std::fmt::Display>(value: &T, json: bool) -> anyhow::Result<()> {
    if json {
        eprintln!("{value}");
        println!("{}", serde_json::to_string(value)?);
    } else {
        println!("{value}");
    }
    Ok(())
}

/// The baseline under the same load: the one at `--baseline-addr`, or one started now in a
/// process of its own and stopped afterwards.
fn baseline_run(rt: &tokio::runtime::Runtime, args: &Args) -> anyhow::Result<Report> {
    let mut options = args.options.clone();
    let _child = match &args.baseline_addr {
        Some(addr) => {
            options.addr = addr.clone();
            None
        }
        None => {
            let child = BaselineProcess::start()?;
            options.addr = child.addr.to_string();
            options.server_pid = Some(child.child.id());
            Some(child)
        }
    };
    Ok(rt.block_on(loadtest::run(&options, Target::Baseline))?)
}

/// `mahjong loadtest-baseline` started by this process; stopped when dropped.
struct BaselineProcess {
    child: Child,
    addr: SocketAddr,
}

impl BaselineProcess {
    fn start() -> anyhow::Result<BaselineProcess> {
        let exe = std::env::current_exe().context("finding this program to start the baseline")?;
        let mut child = Command::new(exe)
            .args([
                "loadtest-baseline",
                "--listen",
                "127.0.0.1:0",
                "--exit-with-stdin",
            ])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .context("starting the baseline server")?;
        let mut line = String::new();
        if let Some(out) = child.stdout.take() {
            BufReader::new(out).read_line(&mut line)?;
        }
        let addr = line
            .trim()
            .strip_prefix("listening on ")
            .and_then(|a| a.parse().ok());
        match addr {
            Some(addr) => Ok(BaselineProcess { child, addr }),
            None => {
                let _ = child.kill();
                let _ = child.wait();
                bail!(
                    "the baseline server did not say where it listens (got `{}`)",
                    line.trim()
                )
            }
        }
    }
}

impl Drop for BaselineProcess {
    fn drop(&mut self) {
        // Closing its stdin stops it; killing it makes sure.
        drop(self.child.stdin.take());
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
