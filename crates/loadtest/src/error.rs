//! The crate's one error type: every way a load run or the baseline server can fail before it
//! has a result to report. Failures during the run (an `error` message, a dropped socket) are
//! not errors of the run: they are counted in the [`Report`](crate::Report).

use std::net::SocketAddr;

/// Why a load run or the baseline server could not go on.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// An option is out of range or malformed.
    #[error("invalid option: {0}")]
    Option(String),
    /// The target address does not resolve to an IPv4 loopback address.
    #[error("target `{addr}` must be an IPv4 loopback address and port (e.g. 127.0.0.1:8080)")]
    Target {
        /// The address as given.
        addr: String,
    },
    /// A TCP connection or its IO failed.
    #[error("{what} {addr}: {source}")]
    Io {
        /// What was being done.
        what: &'static str,
        /// The peer.
        addr: SocketAddr,
        /// The failure.
        source: std::io::Error,
    },
    /// An HTTP exchange failed or answered with an unexpected status.
    #[error("HTTP {method} {path}: {message}")]
    Http {
        /// The request's method.
        method: &'static str,
        /// The request's path.
        path: String,
        /// What went wrong (the status and body, or the transport failure).
        message: String,
    },
    /// Setting up the tables failed for too many of them to go on.
    #[error("setup failed: {0}")]
    Setup(String),
    /// The hard deadline passed before the run could report.
    #[error("the hard deadline of {seconds} s passed")]
    Deadline {
        /// The deadline, in seconds from the start of the run.
        seconds: f64,
    },
    /// The baseline server could not listen.
    #[error("baseline server cannot listen on {addr}: {source}")]
    Listen {
        /// The address asked for.
        addr: String,
        /// Why.
        source: std::io::Error,
    },
}
