//! The reference web client (`web/` at the repository's root), built into the binary so that
//! `mahjong serve` needs no files beside it, and served at `/` and each file's path.
//!
//! Every file is answered with its content type, `Cache-Control: no-cache` and an `ETag` (the
//! start of its SHA-256), so a browser revalidates and gets `304 Not Modified` until the binary
//! changes. `index.html` carries a Content-Security-Policy that allows nothing from another
//! origin: the client fetches nothing from the network beyond this server. A path that is not
//! one of the files is not routed here (404); the API's routes are untouched.

use axum::Router;
use axum::http::header::{
    CACHE_CONTROL, CONTENT_SECURITY_POLICY, CONTENT_TYPE, ETAG, IF_NONE_MATCH,
    X_CONTENT_TYPE_OPTIONS,
};
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use sha2::{Digest, Sha256};

/// One file of the client.
#[derive(Clone, Copy, Debug)]
pub struct Asset {
    /// The path it is served at.
    pub path: &'static str,
    /// Its `Content-Type`.
    pub content_type: &'static str,
    /// Its bytes.
    pub body: &'static [u8],
}

const HTML: &str = "text/html; charset=utf-8";
const CSS: &str = "text/css; charset=utf-8";
const JS: &str = "text/javascript; charset=utf-8";
const SVG: &str = "image/svg+xml";

macro_rules! asset {
    ($path:literal, $file:literal, $type:expr) => {
        Asset {
            path: $path,
            content_type: $type,
            body: include_bytes!(concat!("../../../web/", $file)),
        }
    };
}

/// Every file of the client, by the path it is served at (`/` is `index.html`).
pub const ASSETS: &[Asset] = &[
    asset!("/", "index.html", HTML),
    asset!("/index.html", "index.html", HTML),
    asset!("/style.css", "style.css", CSS),
    asset!("/favicon.svg", "favicon.svg", SVG),
    asset!("/js/api.js", "js/api.js", JS),
    asset!("/js/board.js", "js/board.js", JS),
    asset!("/js/dom.js", "js/dom.js", JS),
    asset!("/js/lobby.js", "js/lobby.js", JS),
    asset!("/js/main.js", "js/main.js", JS),
    asset!("/js/model.js", "js/model.js", JS),
    asset!("/js/replay.js", "js/replay.js", JS),
    asset!("/js/socket.js", "js/socket.js", JS),
    asset!("/js/table.js", "js/table.js", JS),
    asset!("/js/tiles.js", "js/tiles.js", JS),
];

/// What the page may load: its own scripts, styles and images, and connections (HTTP and
/// WebSocket) to this server; nothing from elsewhere, no plugins, no framing.
const POLICY: &str = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; \
     connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/// The client's routes, one per file.
pub fn routes<S: Clone + Send + Sync + 'static>() -> Router<S> {
    let mut router = Router::new();
    for asset in ASSETS {
        let etag = etag(asset.body);
        router = router.route(
            asset.path,
            get(move |headers: HeaderMap| async move { respond(asset, &etag, &headers) }),
        );
    }
    router
}

/// A strong validator: the first 16 hex digits of the body's SHA-256, quoted.
fn etag(body: &[u8]) -> HeaderValue {
    let digest = Sha256::digest(body);
    let hex = crate::auth::hex(&digest[..8]);
    HeaderValue::from_str(&format!("\"{hex}\"")).unwrap_or(HeaderValue::from_static("\"0\""))
}

fn respond(asset: &Asset, etag: &HeaderValue, request: &HeaderMap) -> Response {
    let mut headers = HeaderMap::new();
    headers.insert(CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    headers.insert(ETAG, etag.clone());
    headers.insert(X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    let fresh = request
        .get_all(IF_NONE_MATCH)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .any(|tag| {
            let tag = tag.trim();
            tag == "*" || tag.trim_start_matches("W/").as_bytes() == etag.as_bytes()
        });
    if fresh {
        return (StatusCode::NOT_MODIFIED, headers).into_response();
    }
    headers.insert(CONTENT_TYPE, HeaderValue::from_static(asset.content_type));
    if asset.content_type == HTML {
        headers.insert(CONTENT_SECURITY_POLICY, HeaderValue::from_static(POLICY));
    }
    (StatusCode::OK, headers, asset.body).into_response()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::{Path, PathBuf};

    fn files(dir: &Path, out: &mut Vec<PathBuf>) {
        let entries = std::fs::read_dir(dir).expect("read web/");
        for entry in entries {
            let path = entry.expect("a directory entry").path();
            if path.is_dir() {
                files(&path, out);
            } else {
                out.push(path);
            }
        }
    }

    /// Every file in `web/` (but its README) is built in, so adding one without listing it
    /// here fails.
    #[test]
    fn every_client_file_is_embedded() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../web");
        let mut found = Vec::new();
        files(&root, &mut found);
        for file in found {
            let rel = file
                .strip_prefix(&root)
                .expect("under web/")
                .to_string_lossy()
                .replace('\\', "/");
            if rel == "README.md" {
                continue;
            }
            let served = format!("/{rel}");
            let asset = ASSETS
                .iter()
                .find(|a| a.path == served)
                .unwrap_or_else(|| panic!("web/{rel} is not in web::ASSETS"));
            let on_disk = std::fs::read(&file).expect("read the file");
            assert_eq!(asset.body, on_disk.as_slice(), "web/{rel}");
        }
    }

    #[test]
    fn a_matching_etag_is_not_modified() {
        let asset = &ASSETS[0];
        let tag = etag(asset.body);
        let mut request = HeaderMap::new();
        request.insert(IF_NONE_MATCH, tag.clone());
        let answer = respond(asset, &tag, &request);
        assert_eq!(answer.status(), StatusCode::NOT_MODIFIED);
        let answer = respond(asset, &tag, &HeaderMap::new());
        assert_eq!(answer.status(), StatusCode::OK);
        assert_eq!(answer.headers()[CONTENT_TYPE], HTML);
        assert!(answer.headers().contains_key(CONTENT_SECURITY_POLICY));
    }
}
