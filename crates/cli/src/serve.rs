//! `mahjong serve`: the game server.

/// Runs the server until Ctrl-C or SIGTERM.
pub fn run(config: server::Config) -> anyhow::Result<()> {
    server::init_logging(config.log_json);
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    rt.block_on(server::serve(config))?;
    Ok(())
}
