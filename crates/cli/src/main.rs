//! `mahjong`: the command-line face of the engine.
//!
//! - `mahjong settle` scores finished hands in the JSON Lines format of
//!   `conformance/README.md`.
//! - `mahjong score --ruleset guobiao` scores single Guobiao hands in the JSON Lines format of
//!   `conformance/mcr/README.md`.
//! - `mahjong simulate` plays whole hands with the built-in greedy policy and reports speed and
//!   outcome statistics.
//! - `mahjong replay` replays a hand record and prints its settlement.
//! - `mahjong serve` runs the game server.
//! - `mahjong db` migrates the database and reports its schema version.
//! - `mahjong health` asks a running server whether it is ready (a container's health check).
//! - `mahjong loadtest` loads a running server with WebSocket clients playing whole hands, and
//!   `mahjong loadtest-baseline` serves the bare broadcast baseline it compares with.

mod arena;
mod db;
mod health;
mod lines;
mod loadtest;
mod parallel;
mod play;
mod replay;
mod score;
mod serve;
mod settle;
mod simulate;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// The allocator of a server that runs for months: jemalloc, for the whole process (SQLite's
/// own allocations included). Rooms come and go by the thousand, each leaving freed blocks of
/// every size; under glibc's malloc the resident size kept climbing with the rooms ever made
/// (1.28× from 2,000 to 10,000 rooms at a steady 2,000 alive), under jemalloc it stays flat
/// (1.06×) and falls back when the rooms close (docs/PERFORMANCE.md, the soak).
#[cfg(feature = "jemalloc")]
#[global_allocator]
static ALLOCATOR: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

/// Authoritative Chinese mahjong: rules engine tools.
#[derive(Parser, Debug)]
#[command(name = "mahjong", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Settle finished hands: JSON Lines in, one result line per input line out.
    Settle(settle::Args),
    /// Score single Guobiao winning hands: JSON Lines in, fans and total out.
    Score(score::Args),
    /// Play whole hands with the built-in policy and report statistics.
    Simulate(simulate::Args),
    /// Replay a hand record (JSON) and print its settlement.
    Replay(replay::Args),
    /// Play bot policies against each other, seats rotating, and compare them.
    Arena(arena::Args),
    /// Bring the database's schema up to date and report it.
    Db(db::Args),
    /// Run the game server (HTTP API and WebSockets).
    Serve(server::Config),
    /// Ask a running server whether it is ready (exit 0) or not (exit 1).
    Health(health::Args),
    /// Load a running server with clients playing whole hands, and measure it.
    Loadtest(loadtest::Args),
    /// Serve the bare WebSocket broadcast baseline that `loadtest` compares with.
    LoadtestBaseline(loadtest::BaselineArgs),
    /// Play many short rooms through a running server, one after another, and report its
    /// memory and the cost of its lists at checkpoints (a server that runs for months).
    LoadtestSoak(loadtest::SoakArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Settle(args) => settle::run(&args),
        Command::Score(args) => score::run(&args),
        Command::Simulate(args) => simulate::run(&args),
        Command::Replay(args) => replay::run(&args),
        Command::Arena(args) => arena::run(&args),
        Command::Db(args) => db::run(&args),
        Command::Serve(config) => serve::run(config),
        Command::Health(args) => health::run(&args),
        Command::Loadtest(args) => loadtest::run(&args),
        Command::LoadtestBaseline(args) => loadtest::baseline(&args),
        Command::LoadtestSoak(args) => loadtest::soak(&args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("mahjong: {e:#}");
            ExitCode::FAILURE
        }
    }
}
