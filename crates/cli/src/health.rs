//! `mahjong health`: asks a running server whether it is ready, for a container's
//! `HEALTHCHECK` (the image carries no curl) or a script. Exits 0 when the probe answers 200,
//! 1 otherwise, saying why.

use std::time::Duration;

use anyhow::{Context, bail};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// Arguments of `mahjong health`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The server's address.
    #[arg(long, env = "MAHJONG_HEALTH_ADDR", default_value = "127.0.0.1:8080")]
    addr: String,
    /// The probe: `/readyz` (the database takes a write) or `/healthz` (the process lives).
    #[arg(long, default_value = "/readyz")]
    path: String,
    /// Seconds to wait for the answer.
    #[arg(long, default_value_t = 3)]
    timeout_seconds: u64,
}

/// Runs the command.
pub fn run(args: &Args) -> anyhow::Result<()> {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    let within = Duration::from_secs(args.timeout_seconds.max(1));
    let (status, body) = rt
        .block_on(async { tokio::time::timeout(within, get(&args.addr, &args.path)).await })
        .with_context(|| format!("{} gave no answer within {within:?}", args.addr))??;
    if status != 200 {
        bail!(
            "{}{} answered {status}: {}",
            args.addr,
            args.path,
            body.trim()
        );
    }
    println!("{}", body.trim());
    Ok(())
}

/// One HTTP/1.1 GET; the status and the body.
async fn get(addr: &str, path: &str) -> anyhow::Result<(u16, String)> {
    let mut stream = tokio::net::TcpStream::connect(addr)
        .await
        .with_context(|| format!("cannot reach {addr}"))?;
    let request = format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n");
    stream.write_all(request.as_bytes()).await?;
    let mut raw = Vec::new();
    stream.read_to_end(&mut raw).await?;
    let text = String::from_utf8_lossy(&raw);
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .with_context(|| format!("{addr} did not answer HTTP"))?;
    Ok((status, body.to_string()))
}
