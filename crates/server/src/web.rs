//! The reference web client (`web/` at the repository's root), built into the binary so that
//! `mahjong serve` needs no files beside it, and served at `/` and each file's path; and the
//! client SDK's build (`clients/typescript/dist/`, committed, so no node runs at build or run
//! time) at `/sdk/`, for the web client and any page that imports it.
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

/// The client's files, built into the binary (in every profile, so tests serve exactly what
/// a release serves). The folder's README is for its developers, not served.
#[derive(rust_embed::Embed)]
#[folder = "../../web/"]
#[exclude = "README.md"]
struct Client;

/// The SDK's JavaScript modules (its type declarations are for compilers, not browsers).
#[derive(rust_embed::Embed)]
#[folder = "../../clients/typescript/dist/"]
#[exclude = "*.d.ts"]
struct Sdk;

const HTML: &str = "text/html; charset=utf-8";

/// What the page may load: its own scripts, styles, images and app manifest (it installs as
/// an app on a phone), and connections (HTTP and WebSocket) to this server; nothing from
/// elsewhere, no plugins, no framing.
const POLICY: &str = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; \
     manifest-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/// The client's routes, one per file (`/` is `index.html`): only the client's own paths are
/// routed here, so an unknown path still finds the API's 404.
pub fn routes<S: Clone + Send + Sync + 'static>() -> Router<S> {
    let router = files::<Client, S>(Router::new(), "");
    files::<Sdk, S>(router, "/sdk")
}

/// Routes every file of `E` at `prefix/name`; the root's `index.html` at `/` too.
fn files<E: rust_embed::RustEmbed, S: Clone + Send + Sync + 'static>(
    mut router: Router<S>,
    prefix: &str,
) -> Router<S> {
    for name in E::iter() {
        let Some(file) = E::get(&name) else {
            continue;
        };
        let served = Served::of(&file);
        let path = format!("{prefix}/{name}");
        if prefix.is_empty() && name == "index.html" {
            let index = served.clone();
            router = router.route(
                "/",
                get(move |headers: HeaderMap| async move { index.respond(&headers) }),
            );
        }
        router = router.route(
            &path,
            get(move |headers: HeaderMap| async move { served.respond(&headers) }),
        );
    }
    router
}

/// A file as it is answered.
#[derive(Clone)]
struct Served {
    body: axum::body::Bytes,
    content_type: HeaderValue,
    etag: HeaderValue,
    html: bool,
}

impl Served {
    fn of(file: &rust_embed::EmbeddedFile) -> Served {
        let mime = file.metadata.mimetype();
        let content_type = if mime.starts_with("text/") && !mime.contains("charset") {
            format!("{mime}; charset=utf-8")
        } else {
            mime.to_string()
        };
        Served {
            body: axum::body::Bytes::from(file.data.to_vec()),
            html: content_type == HTML,
            content_type: HeaderValue::from_str(&content_type)
                .unwrap_or(HeaderValue::from_static("application/octet-stream")),
            etag: etag(&file.metadata.sha256_hash()),
        }
    }

    fn respond(&self, request: &HeaderMap) -> Response {
        let mut headers = HeaderMap::new();
        headers.insert(CACHE_CONTROL, HeaderValue::from_static("no-cache"));
        headers.insert(ETAG, self.etag.clone());
        headers.insert(X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
        let fresh = request
            .get_all(IF_NONE_MATCH)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(','))
            .any(|tag| {
                let tag = tag.trim();
                tag == "*" || tag.trim_start_matches("W/").as_bytes() == self.etag.as_bytes()
            });
        if fresh {
            return (StatusCode::NOT_MODIFIED, headers).into_response();
        }
        headers.insert(CONTENT_TYPE, self.content_type.clone());
        if self.html {
            headers.insert(CONTENT_SECURITY_POLICY, HeaderValue::from_static(POLICY));
        }
        (StatusCode::OK, headers, self.body.clone()).into_response()
    }
}

/// A strong validator: the first 16 hex digits of the body's SHA-256, quoted.
fn etag(sha256: &[u8; 32]) -> HeaderValue {
    let hex = crate::auth::hex(&sha256[..8]);
    HeaderValue::from_str(&format!("\"{hex}\"")).unwrap_or(HeaderValue::from_static("\"0\""))
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

    /// Every file in `web/` (but its README) is built in, byte for byte, with the content
    /// type a browser needs to run it.
    #[test]
    fn every_client_file_is_embedded() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../web");
        let mut found = Vec::new();
        files(&root, &mut found);
        assert!(found.len() >= 5, "the client's files");
        for file in found {
            let rel = file
                .strip_prefix(&root)
                .expect("under web/")
                .to_string_lossy()
                .replace('\\', "/");
            if rel == "README.md" {
                assert!(Client::get(&rel).is_none(), "the README is not served");
                continue;
            }
            let embedded = Client::get(&rel).unwrap_or_else(|| panic!("web/{rel} is not built in"));
            let on_disk = std::fs::read(&file).expect("read the file");
            assert_eq!(embedded.data.as_ref(), on_disk.as_slice(), "web/{rel}");
            let served = Served::of(&embedded);
            let expected = match rel.rsplit('.').next() {
                Some("html") => HTML,
                Some("css") => "text/css; charset=utf-8",
                Some("js") => "text/javascript; charset=utf-8",
                Some("svg") => "image/svg+xml",
                Some("png") => "image/png",
                Some("webmanifest") => "application/manifest+json",
                other => panic!("web/{rel}: no content type expected for {other:?}"),
            };
            assert_eq!(served.content_type, expected, "web/{rel}");
        }
    }

    /// The SDK's modules are served, every one its importers name, as JavaScript; its type
    /// declarations are not.
    #[test]
    fn the_sdk_modules_are_embedded() {
        let names: Vec<String> = Sdk::iter().map(|n| n.to_string()).collect();
        for needed in [
            "index.js",
            "reducer.js",
            "connection.js",
            "http.js",
            "generated/protocol.js",
        ] {
            assert!(
                names.iter().any(|n| n == needed),
                "sdk/{needed} is not built in"
            );
        }
        for name in &names {
            assert!(name.ends_with(".js"), "sdk/{name} is served");
            let served = Served::of(&Sdk::get(name).expect("embedded"));
            assert_eq!(
                served.content_type, "text/javascript; charset=utf-8",
                "sdk/{name}"
            );
        }
    }

    #[test]
    fn a_matching_etag_is_not_modified() {
        let index = Served::of(&Client::get("index.html").expect("index.html"));
        let mut request = HeaderMap::new();
        request.insert(IF_NONE_MATCH, index.etag.clone());
        let answer = index.respond(&request);
        assert_eq!(answer.status(), StatusCode::NOT_MODIFIED);
        let answer = index.respond(&HeaderMap::new());
        assert_eq!(answer.status(), StatusCode::OK);
        assert_eq!(answer.headers()[CONTENT_TYPE], HTML);
        assert!(answer.headers().contains_key(CONTENT_SECURITY_POLICY));
    }
}
