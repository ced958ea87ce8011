//! Client sockets: spread over several loopback source addresses (each has its own ~28,000
//! ephemeral ports, so tens of thousands of connections and their TIME_WAIT leftovers never run
//! out), with TCP_NODELAY, and WebSocket handshakes with the protocol's subprotocol and a small
//! read buffer.

use std::net::{IpAddr, Ipv4Addr, SocketAddr};

use tokio::net::{TcpSocket, TcpStream};
use tokio_tungstenite::WebSocketStream;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::http::HeaderValue;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;

use crate::error::LoadError;

/// A client WebSocket over plain TCP.
pub(crate) type Socket = WebSocketStream<TcpStream>;

/// The `k`-th of `count` source addresses: 127.0.0.1, 127.0.0.2, … 127.0.0.`count`.
pub(crate) fn source(k: usize, count: u8) -> IpAddr {
    let n = (k % usize::from(count.max(1))) as u8;
    IpAddr::V4(Ipv4Addr::new(127, 0, 0, n.saturating_add(1)))
}

/// A TCP connection to `addr` from `source` (any free port), with TCP_NODELAY: without it small
/// frames wait for acknowledgements (STACK.md).
pub(crate) async fn connect_from(addr: SocketAddr, source: IpAddr) -> std::io::Result<TcpStream> {
    let socket = TcpSocket::new_v4()?;
    socket.bind(SocketAddr::new(source, 0))?;
    let stream = socket.connect(addr).await?;
    stream.set_nodelay(true)?;
    Ok(stream)
}

/// Opens `ws://addr{path}` from `source` with the `mahjong.v1` subprotocol.
pub(crate) async fn websocket(
    addr: SocketAddr,
    source: IpAddr,
    path: &str,
) -> Result<Socket, LoadError> {
    let stream = connect_from(addr, source)
        .await
        .map_err(|e| LoadError::Io {
            what: "connect to",
            addr,
            source: e,
        })?;
    let handshake = |message: String| LoadError::Io {
        what: "WebSocket handshake with",
        addr,
        source: std::io::Error::other(message),
    };
    let mut request = format!("ws://{addr}{path}")
        .into_client_request()
        .map_err(|e| handshake(e.to_string()))?;
    request.headers_mut().insert(
        "Sec-WebSocket-Protocol",
        HeaderValue::from_static(protocol::SUBPROTOCOL),
    );
    // Server frames are small; 4 KiB instead of the default 128 KiB keeps thousands of client
    // sockets in this process cheap, as on the server (STACK.md).
    let config = WebSocketConfig::default()
        .read_buffer_size(4096)
        .max_message_size(Some(1 << 20))
        .max_frame_size(Some(1 << 20));
    let (socket, response) =
        tokio_tungstenite::client_async_with_config(request, stream, Some(config))
            .await
            .map_err(|e| handshake(e.to_string()))?;
    let agreed = response
        .headers()
        .get("Sec-WebSocket-Protocol")
        .and_then(|v| v.to_str().ok());
    if agreed != Some(protocol::SUBPROTOCOL) {
        return Err(handshake(format!(
            "the server did not agree to the `{}` subprotocol",
            protocol::SUBPROTOCOL
        )));
    }
    Ok(socket)
}
