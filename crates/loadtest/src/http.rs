//! A minimal HTTP/1.1 client over one kept-alive TCP connection: enough for the JSON API
//! (sign-up, rooms) and `/metrics`. Sign-ups for thousands of players go over a few connections
//! instead of one each, so setting up a large run leaves no ports in TIME_WAIT.

use std::net::{IpAddr, SocketAddr};

use serde::de::DeserializeOwned;
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpStream;

use crate::error::LoadError;
use crate::net;

/// The largest response body read, in bytes (a `/metrics` page is a few KiB).
const MAX_BODY: usize = 4 << 20;

/// One connection to the server, reopened when the server closes it.
pub(crate) struct HttpClient {
    addr: SocketAddr,
    source: IpAddr,
    conn: Option<BufReader<TcpStream>>,
}

/// A response: its status and body.
pub(crate) struct Response {
    pub(crate) status: u16,
    pub(crate) body: Vec<u8>,
}

impl HttpClient {
    /// A client of `addr` whose connections leave from `source`; connects on first use.
    pub(crate) fn new(addr: SocketAddr, source: IpAddr) -> HttpClient {
        HttpClient {
            addr,
            source,
            conn: None,
        }
    }

    /// `method path` with an optional bearer token and JSON body; the answer's JSON, when the
    /// status is `expect`.
    pub(crate) async fn json<T: DeserializeOwned>(
        &mut self,
        method: &'static str,
        path: &str,
        token: Option<&str>,
        body: Option<&serde_json::Value>,
        expect: u16,
    ) -> Result<T, LoadError> {
        let fail = |message: String| LoadError::Http {
            method,
            path: path.to_string(),
            message,
        };
        let response = self.request(method, path, token, body).await?;
        if response.status != expect {
            return Err(fail(format!(
                "status {} (expected {expect}): {}",
                response.status,
                String::from_utf8_lossy(&response.body)
            )));
        }
        serde_json::from_slice(&response.body).map_err(|e| fail(format!("bad JSON answer: {e}")))
    }

    /// One exchange; a connection the server closed in between is reopened once.
    pub(crate) async fn request(
        &mut self,
        method: &'static str,
        path: &str,
        token: Option<&str>,
        body: Option<&serde_json::Value>,
    ) -> Result<Response, LoadError> {
        let payload = body.map(|b| b.to_string()).unwrap_or_default();
        let mut head = format!(
            "{method} {path} HTTP/1.1\r\nHost: {}\r\nConnection: keep-alive\r\n",
            self.addr
        );
        if let Some(t) = token {
            head.push_str(&format!("Authorization: Bearer {t}\r\n"));
        }
        if body.is_some() {
            head.push_str("Content-Type: application/json\r\n");
        }
        head.push_str(&format!("Content-Length: {}\r\n\r\n", payload.len()));
        head.push_str(&payload);
        let reused = self.conn.is_some();
        match self.exchange(head.as_bytes()).await {
            Ok(r) => Ok(r),
            // A kept-alive connection may have been closed by the server meanwhile: retry once on
            // a fresh one. (Only idempotent in effect for the reads; a sign-up retried after the
            // server saw it makes one more guest, which changes no figure.)
            Err(_) if reused => {
                self.conn = None;
                self.exchange(head.as_bytes()).await
            }
            Err(e) => Err(e),
        }
        .map_err(|e| LoadError::Http {
            method,
            path: path.to_string(),
            message: e.to_string(),
        })
    }

    async fn exchange(&mut self, request: &[u8]) -> std::io::Result<Response> {
        if self.conn.is_none() {
            let stream = net::connect_from(self.addr, self.source).await?;
            self.conn = Some(BufReader::new(stream));
        }
        let Some(conn) = self.conn.as_mut() else {
            return Err(std::io::Error::other("no connection"));
        };
        conn.get_mut().write_all(request).await?;
        let result = read_response(conn).await;
        match &result {
            Ok((_, keep)) if *keep => {}
            _ => self.conn = None,
        }
        result.map(|(r, _)| r)
    }
}

/// Reads one response; also says whether the connection stays open.
async fn read_response(conn: &mut BufReader<TcpStream>) -> std::io::Result<(Response, bool)> {
    let bad = |m: &str| std::io::Error::new(std::io::ErrorKind::InvalidData, m.to_string());
    let mut line = String::new();
    if conn.read_line(&mut line).await? == 0 {
        return Err(std::io::Error::new(
            std::io::ErrorKind::UnexpectedEof,
            "connection closed before the response",
        ));
    }
    let status: u16 = line
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| bad("bad status line"))?;
    let mut length: Option<usize> = None;
    let mut chunked = false;
    let mut keep = true;
    loop {
        line.clear();
        if conn.read_line(&mut line).await? == 0 {
            return Err(bad("connection closed in the headers"));
        }
        let header = line.trim_end();
        if header.is_empty() {
            break;
        }
        let Some((name, value)) = header.split_once(':') else {
            continue;
        };
        let value = value.trim();
        match name.trim().to_ascii_lowercase().as_str() {
            "content-length" => length = value.parse().ok(),
            "transfer-encoding" => chunked = value.eq_ignore_ascii_case("chunked"),
            "connection" => keep = !value.eq_ignore_ascii_case("close"),
            _ => {}
        }
    }
    let body = if chunked {
        read_chunked(conn).await?
    } else if let Some(n) = length {
        if n > MAX_BODY {
            return Err(bad("response body too large"));
        }
        let mut body = vec![0u8; n];
        conn.read_exact(&mut body).await?;
        body
    } else {
        // No length: the body runs to the end of the connection.
        keep = false;
        let mut body = Vec::new();
        conn.take(MAX_BODY as u64).read_to_end(&mut body).await?;
        body
    };
    Ok((Response { status, body }, keep))
}

async fn read_chunked(conn: &mut BufReader<TcpStream>) -> std::io::Result<Vec<u8>> {
    let bad = |m: &str| std::io::Error::new(std::io::ErrorKind::InvalidData, m.to_string());
    let mut body = Vec::new();
    let mut line = String::new();
    loop {
        line.clear();
        conn.read_line(&mut line).await?;
        let size_text = line.trim().split(';').next().unwrap_or("");
        let size = usize::from_str_radix(size_text, 16).map_err(|_| bad("bad chunk size"))?;
        if body.len() + size > MAX_BODY {
            return Err(bad("response body too large"));
        }
        if size == 0 {
            // Trailers, then the blank line.
            loop {
                line.clear();
                if conn.read_line(&mut line).await? == 0 || line.trim().is_empty() {
                    return Ok(body);
                }
            }
        }
        let start = body.len();
        body.resize(start + size, 0);
        conn.read_exact(&mut body[start..]).await?;
        line.clear();
        conn.read_line(&mut line).await?;
    }
}
