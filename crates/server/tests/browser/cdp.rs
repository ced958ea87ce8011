//! A minimal Chrome DevTools Protocol driver for the browser test: starts headless Chromium on
//! a fresh profile, opens a page and speaks CDP to it over a WebSocket (JSON commands with ids,
//! answers matched by id, events ignored).

use std::collections::VecDeque;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use anyhow::{Context, anyhow, bail};
use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::Message;

type Socket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// Where Chromium is: `$CHROMIUM`, else Debian's `/usr/bin/chromium`; None when neither exists.
pub fn find_chromium() -> Option<PathBuf> {
    let path = std::env::var_os("CHROMIUM")
        .filter(|p| !p.is_empty())
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("/usr/bin/chromium"));
    path.is_file().then_some(path)
}

/// A running headless Chromium; killed, and its profile removed, on drop.
pub struct Browser {
    child: Child,
    profile: PathBuf,
    /// `ws://127.0.0.1:PORT/devtools/browser/…`.
    endpoint: String,
    /// The last lines Chromium wrote to stderr, for failure messages.
    log: Arc<Mutex<VecDeque<String>>>,
}

impl Browser {
    /// Starts Chromium at `path` and waits for its DevTools endpoint.
    pub async fn launch(path: &Path) -> anyhow::Result<Browser> {
        Browser::launch_with(path, &[]).await
    }

    /// Starts Chromium at `path` with more environment variables (a fontconfig of its own,
    /// say) and waits for its DevTools endpoint.
    pub async fn launch_with(path: &Path, env: &[(&str, &Path)]) -> anyhow::Result<Browser> {
        let profile = std::env::temp_dir().join(format!(
            "mahjong-browser-test-{}-{}",
            std::process::id(),
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map(|d| d.as_nanos())
                .unwrap_or(0)
        ));
        std::fs::create_dir_all(&profile).context("create the profile directory")?;
        let mut child = Command::new(path)
            .args([
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--no-first-run",
                "--no-default-browser-check",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--disable-dev-shm-usage",
                "--hide-scrollbars",
                "--mute-audio",
                "--password-store=basic",
                "--remote-debugging-port=0",
            ])
            .arg(format!("--user-data-dir={}", profile.display()))
            .arg("about:blank")
            .envs(env.iter().copied())
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .with_context(|| format!("start {}", path.display()))?;
        let stderr = child.stderr.take().context("chromium's stderr")?;
        let log = Arc::new(Mutex::new(VecDeque::new()));
        let (found, endpoint) = tokio::sync::oneshot::channel();
        let lines = log.clone();
        // Chromium prints "DevTools listening on ws://…" once; the thread then keeps draining
        // stderr (a full pipe would stall the browser) and keeps the last lines.
        std::thread::spawn(move || {
            let mut found = Some(found);
            for line in BufReader::new(stderr).lines() {
                let Ok(line) = line else { break };
                if let Some(at) = line.find("ws://")
                    && line.contains("DevTools listening on")
                    && let Some(tx) = found.take()
                {
                    let _ = tx.send(line[at..].trim().to_string());
                }
                if let Ok(mut l) = lines.lock() {
                    l.push_back(line);
                    if l.len() > 40 {
                        l.pop_front();
                    }
                }
            }
        });
        let mut browser = Browser {
            child,
            profile,
            endpoint: String::new(),
            log,
        };
        match tokio::time::timeout(Duration::from_secs(30), endpoint).await {
            Ok(Ok(url)) => browser.endpoint = url,
            _ => bail!(
                "chromium printed no DevTools endpoint within 30 s; its stderr:\n{}",
                browser.stderr_tail()
            ),
        }
        Ok(browser)
    }

    /// The last lines of Chromium's stderr.
    pub fn stderr_tail(&self) -> String {
        self.log
            .lock()
            .map(|l| l.iter().cloned().collect::<Vec<_>>().join("\n"))
            .unwrap_or_default()
    }

    /// Opens a new page (a target) and connects to it.
    pub async fn new_page(&self) -> anyhow::Result<Page> {
        let (socket, _) = tokio_tungstenite::connect_async(self.endpoint.as_str())
            .await
            .context("connect to the browser's DevTools endpoint")?;
        let mut browser = Connection { socket, next_id: 1 };
        let target = browser
            .call("Target.createTarget", json!({"url": "about:blank"}))
            .await?;
        let id = target["targetId"]
            .as_str()
            .context("Target.createTarget gave no targetId")?;
        // ws://HOST:PORT/devtools/browser/ID → ws://HOST:PORT/devtools/page/TARGET
        let base = self
            .endpoint
            .split("/devtools/")
            .next()
            .context("a DevTools endpoint")?;
        let (socket, _) = tokio_tungstenite::connect_async(format!("{base}/devtools/page/{id}"))
            .await
            .context("connect to the page")?;
        let _ = browser.socket.close(None).await;
        Ok(Page {
            connection: Connection { socket, next_id: 1 },
        })
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        // A graceful end first (SIGTERM, by the child's id): Chromium then stops and reaps its
        // helper processes itself. SIGKILL if it has not ended within five seconds.
        let _ = Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status();
        for _ in 0..100 {
            if matches!(self.child.try_wait(), Ok(Some(_))) {
                break;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
        // Chromium's helper processes notice their parent's end a moment later and may still
        // write to the profile: try again until it is gone.
        for _ in 0..40 {
            let _ = std::fs::remove_dir_all(&self.profile);
            if !self.profile.exists() {
                break;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

struct Connection {
    socket: Socket,
    next_id: u64,
}

impl Connection {
    /// Sends one command and waits for its answer (30 s at most).
    async fn call(&mut self, method: &str, params: Value) -> anyhow::Result<Value> {
        let id = self.next_id;
        self.next_id += 1;
        let command = json!({"id": id, "method": method, "params": params});
        self.socket
            .send(Message::Text(command.to_string().into()))
            .await
            .with_context(|| format!("send {method}"))?;
        let answer = tokio::time::timeout(Duration::from_secs(30), async {
            while let Some(frame) = self.socket.next().await {
                let Message::Text(text) = frame? else {
                    continue;
                };
                let v: Value = serde_json::from_str(&text)?;
                if v["id"].as_u64() == Some(id) {
                    return Ok(v);
                }
            }
            Err(anyhow!("the DevTools connection closed"))
        })
        .await
        .with_context(|| format!("{method}: no answer within 30 s"))??;
        if let Some(error) = answer.get("error") {
            bail!("{method}: {error}");
        }
        Ok(answer["result"].clone())
    }
}

/// One page of the browser.
pub struct Page {
    connection: Connection,
}

impl Page {
    /// Sends a CDP command to the page.
    pub async fn call(&mut self, method: &str, params: Value) -> anyhow::Result<Value> {
        self.connection.call(method, params).await
    }

    /// Loads `url` and waits until the document has loaded.
    pub async fn navigate(&mut self, url: &str) -> anyhow::Result<()> {
        let answer = self.call("Page.navigate", json!({"url": url})).await?;
        if let Some(error) = answer.get("errorText").and_then(Value::as_str) {
            bail!("navigate to {url}: {error}");
        }
        for _ in 0..100 {
            if self.eval("document.readyState").await? == json!("complete") {
                return Ok(());
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        bail!("{url} did not finish loading")
    }

    /// Evaluates `expression` in the page (awaiting a promise) and returns its value as JSON.
    pub async fn eval(&mut self, expression: &str) -> anyhow::Result<Value> {
        let answer = self
            .call(
                "Runtime.evaluate",
                json!({"expression": expression, "awaitPromise": true, "returnByValue": true}),
            )
            .await?;
        if let Some(details) = answer.get("exceptionDetails") {
            let text = details["exception"]["description"]
                .as_str()
                .or_else(|| details["text"].as_str())
                .unwrap_or("an exception");
            bail!("the page threw: {text}");
        }
        Ok(answer["result"]["value"].clone())
    }

    /// Sets the viewport (CSS pixels); `mobile` also honours the page's viewport meta tag.
    pub async fn set_viewport(
        &mut self,
        width: u32,
        height: u32,
        scale: f64,
        mobile: bool,
    ) -> anyhow::Result<()> {
        self.call(
            "Emulation.setDeviceMetricsOverride",
            json!({"width": width, "height": height, "deviceScaleFactor": scale, "mobile": mobile}),
        )
        .await?;
        Ok(())
    }

    /// Saves a PNG of the viewport at `path`.
    pub async fn screenshot(&mut self, path: &Path) -> anyhow::Result<()> {
        let answer = self
            .call("Page.captureScreenshot", json!({"format": "png"}))
            .await?;
        let data = answer["data"]
            .as_str()
            .context("Page.captureScreenshot gave no data")?;
        let png = base64_decode(data).context("decode the screenshot")?;
        std::fs::write(path, png).with_context(|| format!("write {}", path.display()))?;
        Ok(())
    }
}

/// Decodes standard base64 (with or without padding).
pub fn base64_decode(text: &str) -> anyhow::Result<Vec<u8>> {
    fn value(c: u8) -> Option<u32> {
        match c {
            b'A'..=b'Z' => Some(u32::from(c - b'A')),
            b'a'..=b'z' => Some(u32::from(c - b'a') + 26),
            b'0'..=b'9' => Some(u32::from(c - b'0') + 52),
            b'+' => Some(62),
            b'/' => Some(63),
            _ => None,
        }
    }
    let mut out = Vec::with_capacity(text.len() / 4 * 3);
    let (mut acc, mut bits) = (0u32, 0u32);
    for &c in text.as_bytes() {
        if c == b'=' || c.is_ascii_whitespace() {
            continue;
        }
        let v = value(c).with_context(|| format!("not base64: {:?}", char::from(c)))?;
        acc = (acc << 6) | v;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    Ok(out)
}

#[test]
fn base64_decodes() {
    assert_eq!(
        base64_decode("TWFu").expect("valid"),
        b"Man".to_vec(),
        "no padding"
    );
    assert_eq!(base64_decode("TWE=").expect("valid"), b"Ma".to_vec());
    assert_eq!(base64_decode("TQ==").expect("valid"), b"M".to_vec());
    assert!(base64_decode("T*==").is_err());
}
