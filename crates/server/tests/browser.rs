//! The web client in a real browser: headless Chromium (Debian's `chromium`, or `$CHROMIUM`)
//! driven over the DevTools protocol against a served page. Through the page only — DOM
//! clicks, no API calls — it signs in as a guest, creates a room with three bots, drops the
//! connection once (the page must reconnect and resume), reloads the page mid-hand (the hand,
//! the drawn tile apart and the newest discard must come back as they were), and plays hands
//! until a settlement shows an extra payment (刮风, 查叫 …), whose payer and payee it must name;
//! the payments shown must add up to the deltas shown. Then the player's history page and the
//! first hand's replay. Screenshots of the lobby, the table (desktop and phone sized), the
//! settlement, the history and the replay are saved under `target/artifacts/web/`.
//!
//! Without Chromium the browser test prints a notice and passes, unless
//! `MAHJONG_REQUIRE_BROWSER=1` (CI sets it).

#[path = "browser/cdp.rs"]
mod cdp;
mod common;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// The whole browser test's time limit.
const LIMIT: Duration = Duration::from_secs(420);

/// Hands in the room: the test plays until a settlement has an extra payment, at most these.
const HANDS: usize = 6;

/// Where the screenshots go: `artifacts/web` under the target folder (`common::artifacts`).
fn artifacts() -> PathBuf {
    common::artifacts().join("web")
}

fn browser_required() -> bool {
    std::env::var("MAHJONG_REQUIRE_BROWSER").is_ok_and(|v| v == "1")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_guest_plays_a_hand_in_the_browser() {
    let Some(chromium) = cdp::find_chromium() else {
        assert!(
            !browser_required(),
            "MAHJONG_REQUIRE_BROWSER=1 but no Chromium at $CHROMIUM or /usr/bin/chromium"
        );
        eprintln!(
            "NOTICE: browser test skipped: no Chromium at $CHROMIUM or /usr/bin/chromium \
             (install Debian's `chromium`; set MAHJONG_REQUIRE_BROWSER=1 to make this fail)"
        );
        return;
    };
    let server = common::sqlite_server_with(|c| {
        // Claims wait for the player's answer (no held window), hands follow quickly, and a
        // dropped connection has time to come back before the seat counts as escaped.
        c.claim_window_ms = 0;
        c.next_hand_ms = 300;
        c.grace_ms = 3000;
        c.reconnect_ms = 60_000;
    })
    .await;
    let browser = cdp::Browser::launch(&chromium)
        .await
        .expect("start chromium");
    let mut page = browser.new_page().await.expect("open a page");
    let started = Instant::now();
    let outcome = tokio::time::timeout(LIMIT, play(&mut page, server.addr)).await;
    match outcome {
        Ok(Ok(paths)) => {
            for p in paths {
                println!("artifact: {}", p.display());
            }
            println!("browser test took {:.1} s", started.elapsed().as_secs_f64());
        }
        Ok(Err(e)) => panic!(
            "the browser test failed: {e:#}\nchromium's stderr:\n{}",
            browser.stderr_tail()
        ),
        Err(_) => panic!(
            "the browser test did not finish within {} s; the page shows:\n{}",
            LIMIT.as_secs(),
            page_text(&mut page).await
        ),
    }
    server.finish().await;
}

/// Without a Chinese font (a fontconfig that knows only DejaVu or Liberation) the page says what it needs;
/// with one (the other test's browser) it says nothing.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_a_cjk_font_the_page_says_what_it_needs() {
    let Some(chromium) = cdp::find_chromium() else {
        assert!(
            !browser_required(),
            "MAHJONG_REQUIRE_BROWSER=1 but no Chromium"
        );
        eprintln!("NOTICE: font test skipped: no Chromium");
        return;
    };
    // A Latin-only font folder stands in for a system without CJK fonts (Chromium's Debian
    // package brings one of these).
    let Some(latin) = ["dejavu", "liberation"]
        .iter()
        .map(|d| std::path::Path::new("/usr/share/fonts/truetype").join(d))
        .find(|d| d.is_dir())
    else {
        assert!(
            !browser_required(),
            "MAHJONG_REQUIRE_BROWSER=1 but no DejaVu or Liberation fonts"
        );
        eprintln!("NOTICE: font test skipped: no Latin-only fonts to stand in for such a system");
        return;
    };
    let fonts = std::env::temp_dir().join(format!("mahjong-fonts-{}", std::process::id()));
    std::fs::create_dir_all(&fonts).expect("a temporary directory");
    let config = fonts.join("fonts.conf");
    std::fs::write(
        &config,
        format!(
            "<?xml version=\"1.0\"?>\n<!DOCTYPE fontconfig SYSTEM \"fonts.dtd\">\n<fontconfig>\
             <dir>{}</dir><cachedir>{}</cachedir></fontconfig>\n",
            latin.display(),
            fonts.join("cache").display()
        ),
    )
    .expect("write fonts.conf");
    let server = common::sqlite_server().await;
    let browser = cdp::Browser::launch_with(&chromium, &[("FONTCONFIG_FILE", config.as_path())])
        .await
        .expect("start chromium");
    let mut page = browser.new_page().await.expect("open a page");
    page.navigate(&format!("http://{}/", server.addr))
        .await
        .expect("load");
    wait_for(
        &mut page,
        "!!document.querySelector('[data-testid=\"signin-name\"]')",
        Duration::from_secs(10),
    )
    .await
    .expect("the sign-in form");
    let notice = page
        .eval("document.querySelector('[data-testid=\"font-notice\"]')?.textContent ?? null")
        .await
        .expect("eval");
    assert!(
        notice
            .as_str()
            .is_some_and(|n| n.contains("Chinese font") && n.contains("fonts-noto-cjk")),
        "no notice without a CJK font: {notice}"
    );
    let dir = artifacts();
    std::fs::create_dir_all(&dir).expect("artifacts");
    page.screenshot(&dir.join("no-cjk-font.png"))
        .await
        .expect("screenshot");
    server.finish().await;
    let _ = std::fs::remove_dir_all(&fonts);
}

/// The page's visible text, shortened, and what it holds of the table's prompt, for failure
/// messages.
async fn page_text(page: &mut cdp::Page) -> String {
    match page
        .eval(
            r#"(document.body ? document.body.innerText.slice(-1500) : '') + '\n--- prompt: ' +
               JSON.stringify({ prompt: window.mahjong?.state()?.prompt ?? null, ui: window.mahjong?.app.table?.ui ?? null,
                                lastSeq: window.mahjong?.lastSeq() ?? null })"#,
        )
        .await
    {
        Ok(Value::String(s)) => s.chars().take(3000).collect(),
        Ok(v) => v.to_string(),
        Err(e) => format!("(unreadable: {e})"),
    }
}

/// Waits until `condition` (a JS expression) is true, within `wait`.
async fn wait_for(page: &mut cdp::Page, condition: &str, wait: Duration) -> anyhow::Result<()> {
    let until = Instant::now() + wait;
    loop {
        if page.eval(condition).await? == Value::Bool(true) {
            return Ok(());
        }
        if Instant::now() > until {
            bail!(
                "waited {} s for `{condition}`; the page shows:\n{}",
                wait.as_secs(),
                page_text(page).await
            );
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Whether the page asks for a decision (an action button or a legal discard).
const OWES: &str = r#"!!document.querySelector('[data-testid="actions"] button[data-action], [data-testid="hand-tile"][data-legal="true"]')"#;

/// One move of the loop: answers whatever the page asks, by clicking. Returns what it did.
const STEP: &str = r#"(() => {
  const q = (s) => document.querySelector(s);
  if (q('[data-testid="settlement"]')) return 'settlement';
  const win = q('button[data-action="self_draw_win"], button[data-action="win"]');
  if (win) { win.click(); return 'win'; }
  const voids = [...document.querySelectorAll('button[data-action="declare_void"]')];
  if (voids.length) { (voids.find((b) => b.classList.contains('suggested')) || voids[0]).click(); return 'void'; }
  const tiles = [...document.querySelectorAll('[data-testid="hand-tile"][data-legal="true"]')];
  if (tiles.length) { tiles[tiles.length - 1].click(); return 'discard'; }
  const pass = q('button[data-action="pass"]');
  if (pass) { pass.click(); return 'pass'; }
  return 'wait';
})()"#;

async fn play(page: &mut cdp::Page, addr: SocketAddr) -> anyhow::Result<Vec<PathBuf>> {
    let dir = artifacts();
    std::fs::create_dir_all(&dir).context("create the artifacts directory")?;
    let dir = dir.canonicalize().unwrap_or(dir);
    page.set_viewport(1280, 860, 1.0, false).await?;
    page.navigate(&format!("http://{addr}/")).await?;

    // Sign in as a guest.
    wait_for(
        page,
        "!!document.querySelector('[data-testid=\"signin-name\"]')",
        Duration::from_secs(10),
    )
    .await?;
    page.eval(
        "(() => { document.querySelector('[data-testid=\"signin-name\"]').value = '测试员';
                 document.querySelector('[data-testid=\"signin-submit\"]').click(); return true; })()",
    )
    .await?;

    // Create a room: 血战到底, three bots, two hands.
    wait_for(
        page,
        "!!document.querySelector('[data-testid=\"create-room\"]')",
        Duration::from_secs(10),
    )
    .await?;
    // The form comes from `GET /api/rulesets`: every preset the engine plays, and a preset's
    // options at their defaults and ranges.
    let offered = page
        .eval(
            r#"(() => {
              const set = (sel, v) => { const e = document.querySelector(sel); e.value = v; e.dispatchEvent(new Event('change')); };
              const ids = [...document.querySelectorAll('[data-testid="create-ruleset"] option')].map((o) => o.value);
              set('[data-testid="create-ruleset"]', 'two-player');
              const seats = [1, 2, 3].map((i) => !document.querySelector(`[data-testid="bot-${i}"]`).parentElement.hidden);
              const swap = document.querySelector('[data-testid="opt-swap"]');
              const swapOff = swap ? swap.type === 'checkbox' && !swap.checked : null;
              set('[data-testid="create-ruleset"]', 'sichuan-xuezhan-9');
              const cap = document.querySelector('[data-testid="opt-fan_cap"]');
              return { ids, seats, swapOff, cap: cap && [cap.value, cap.min, cap.max], hands: document.querySelector('[data-testid="hands"]').placeholder };
            })()"#,
        )
        .await?;
    let all: Vec<&str> = engine::RulesetId::ALL
        .iter()
        .map(|id| id.as_str())
        .collect();
    if offered["ids"] != serde_json::json!(all)
        || offered["cap"] != serde_json::json!(["9", "1", "13"])
    {
        bail!("the create-room form is not the server's rulesets: {offered}");
    }
    if offered["seats"] != serde_json::json!([true, false, false]) {
        bail!("a two-player room offers one other seat: {offered}");
    }
    if offered["swapOff"] != Value::Bool(true) {
        bail!("a two-player room offers 开始时换牌 as a switch, off: {offered}");
    }
    if !offered["hands"]
        .as_str()
        .is_some_and(|h| h.starts_with('8'))
    {
        bail!("the hands field shows the ruleset's default match: {offered}");
    }
    let lobby = dir.join("lobby.png");
    page.screenshot(&lobby).await?;
    // This browser has a CJK font (CI installs fonts-noto-cjk): no notice.
    if page
        .eval("!!document.querySelector('[data-testid=\"font-notice\"]')")
        .await?
        != Value::Bool(false)
    {
        bail!("the page says a CJK font is missing where one is installed");
    }
    // On a phone the create-room form fits the screen: nothing wider than the viewport.
    page.set_viewport(390, 844, 2.0, true).await?;
    tokio::time::sleep(Duration::from_millis(300)).await;
    let overflow = page
        .eval("document.documentElement.scrollWidth - window.innerWidth")
        .await?;
    if overflow.as_i64().is_none_or(|o| o > 0) {
        bail!("the lobby is wider than a phone's screen by {overflow} px");
    }
    let lobby_phone = dir.join("lobby-phone.png");
    page.screenshot(&lobby_phone).await?;
    page.set_viewport(1280, 860, 1.0, false).await?;
    page.eval(
        r#"(() => {
          const set = (sel, v) => { const e = document.querySelector(sel); e.value = v; e.dispatchEvent(new Event('change')); };
          set('[data-testid="create-ruleset"]', 'sichuan-xuezhan');
          for (const i of [1, 2, 3]) set(`[data-testid="bot-${i}"]`, 'basic');
          set('[data-testid="hands"]', '6');
          document.querySelector('[data-testid="create-room"]').click();
          return true;
        })()"#,
    )
    .await?;
    wait_for(
        page,
        "!!document.querySelector('[data-testid=\"table\"]')",
        Duration::from_secs(10),
    )
    .await?;

    // Play: answer every prompt until a settlement shows an extra payment. At the first
    // decision the connection is dropped: the page must reconnect, resume, and still offer
    // the decision; at a later discard the page is reloaded.
    let mut progress = Progress::default();
    let mut paths = vec![lobby, lobby_phone];
    let mut extra = None;
    for hand in 0..HANDS {
        play_hand(page, &mut progress).await?;
        if paths.len() == 2 {
            // A hand can end before six discards of ours (a bot wins early): shoot the table
            // behind the settlement then.
            let shots = match progress.table_shot.take() {
                Some(p) => p,
                None => table_screenshots(page, &dir).await?,
            };
            paths.extend(shots);
        }
        let summary = check_settlement(page).await?;
        if let Some(found) = summary {
            extra = Some((hand, found));
            break;
        }
        next_hand(page).await?;
    }
    if !progress.dropped {
        bail!("the page never asked for a decision before the settlement");
    }
    if !progress.reloaded {
        bail!("the page never offered a discard with a drawn tile to reload at");
    }
    let Some((hand, payment)) = extra else {
        bail!("no settlement of {HANDS} hands showed an extra payment");
    };
    println!("hand {}: {payment}", hand + 1);
    let settlement = dir.join("settlement.png");
    page.screenshot(&settlement).await?;
    paths.push(settlement);
    next_hand(page).await?;
    paths.extend(history_and_replay(page, &dir).await?);
    Ok(paths)
}

/// What the play loop has done so far, across hands.
#[derive(Default)]
struct Progress {
    discards: usize,
    dropped: bool,
    reloaded: bool,
    table_shot: Option<Vec<PathBuf>>,
}

/// Answers every prompt of one hand until its settlement shows.
async fn play_hand(page: &mut cdp::Page, progress: &mut Progress) -> anyhow::Result<()> {
    let dir = artifacts();
    loop {
        if !progress.dropped && page.eval(OWES).await? == Value::Bool(true) {
            reconnect(page).await?;
            progress.dropped = true;
            wait_for(page, OWES, Duration::from_secs(5)).await?;
        }
        if !progress.reloaded
            && progress.discards >= 3
            && page.eval(HOLDS_DRAWN).await? == Value::Bool(true)
        {
            reload(page).await?;
            progress.reloaded = true;
        }
        let did = page.eval(STEP).await?;
        match did.as_str() {
            Some("settlement") => return Ok(()),
            Some("discard") => {
                progress.discards += 1;
                if progress.discards == 5 && progress.table_shot.is_none() {
                    progress.table_shot = Some(table_screenshots(page, &dir).await?);
                }
            }
            Some(_) => {}
            None => bail!("the step gave {did}"),
        }
        tokio::time::sleep(Duration::from_millis(120)).await;
    }
}

/// Whether it is the page's turn to discard with a drawn tile held apart.
const HOLDS_DRAWN: &str = r#"!!document.querySelector('[data-testid="hand-tile"][data-drawn="true"][data-legal="true"]')"#;

/// What the page shows of the hand: the own tiles in order, the drawn tile, the newest
/// discard (its seat and tile) and every river.
const HAND_VIEW: &str = r#"(() => {
  const tiles = [...document.querySelectorAll('[data-testid="hand-tile"][data-drawn="false"]')].map((t) => t.dataset.tile);
  const drawn = document.querySelector('[data-testid="hand-tile"][data-drawn="true"]')?.dataset.tile ?? null;
  const latest = document.querySelector('[data-testid="latest-discard"]');
  const rivers = [...document.querySelectorAll('[data-testid="river"]')]
    .map((r) => r.dataset.seat + ':' + [...r.querySelectorAll('.tile')].map((t) => t.dataset.tile + (t.classList.contains('claimed') ? '*' : '')).join(','));
  return JSON.stringify({ tiles, drawn, latest: latest ? [latest.closest('[data-testid="river"]').dataset.seat, latest.dataset.tile] : null, rivers });
})()"#;

/// Reloads the page at the player's discard: it must come back to the same table with the
/// same tiles, the drawn tile still apart and the newest discard still marked.
async fn reload(page: &mut cdp::Page) -> anyhow::Result<()> {
    let before = page.eval(HAND_VIEW).await?;
    // A mark on the old document: the new one has none.
    page.eval("window.beforeReload = true").await?;
    page.call("Page.reload", serde_json::json!({})).await?;
    let until = Instant::now() + Duration::from_secs(15);
    let back = format!("!window.beforeReload && {HOLDS_DRAWN}");
    // While the page loads, an evaluation may find no document to run in: asked again.
    while page.eval(&back).await.ok() != Some(Value::Bool(true)) {
        if Instant::now() > until {
            bail!(
                "the page did not come back to its discard after a reload:\n{}",
                page_text(page).await
            );
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let after = page.eval(HAND_VIEW).await?;
    if before != after {
        bail!("the table came back otherwise after a reload:\nbefore {before}\nafter  {after}");
    }
    let view: Value = serde_json::from_str(after.as_str().unwrap_or("null"))?;
    if view["drawn"].is_null() {
        bail!("no drawn tile apart after the reload: {view}");
    }
    Ok(())
}

/// Reads the settlement: four rows whose deltas sum to zero, fan lines for the winners, and
/// payments that add up, seat by seat, to the deltas shown. Returns the first extra payment's
/// text when there is one (after checking that it names its payer and payee).
async fn check_settlement(page: &mut cdp::Page) -> anyhow::Result<Option<String>> {
    let summary = page
        .eval(
            r#"(() => {
              const rows = [...document.querySelectorAll('[data-testid="settle-row"]')];
              const num = (t) => Number(t.replace('−', '-').replace('+', ''));
              return {
                rows: rows.length,
                deltas: rows.map((r) => num(r.querySelector('[data-testid="settle-delta"]').textContent)),
                labels: rows.map((r) => r.querySelector('.wind').textContent + ' ' + r.querySelector('.name').textContent),
                fanLines: rows.map((r) => r.querySelectorAll('[data-testid="fan-line"]').length),
                noWin: rows.map((r) => !!r.querySelector('[data-testid="no-win"]')),
                winHow: rows.map((r) => r.querySelector('[data-testid="win-how"]')?.textContent ?? null),
                payments: [...document.querySelectorAll('[data-testid="payment"]')].map((p) => ({
                  payer: Number(p.dataset.payer), payee: Number(p.dataset.payee), for: p.dataset.for,
                  line: p.dataset.line, amount: Number(p.querySelector('.pay-amount').textContent), text: p.innerText,
                })),
                text: document.querySelector('[data-testid="settlement"]').innerText,
              };
            })()"#,
        )
        .await?;
    let rows = summary["rows"].as_u64().unwrap_or(0);
    if rows != 4 {
        bail!("the settlement shows {rows} seats, not 4:\n{summary}");
    }
    let deltas: Vec<i64> = summary["deltas"]
        .as_array()
        .map(|a| a.iter().filter_map(Value::as_i64).collect())
        .unwrap_or_default();
    if deltas.len() != 4 || deltas.iter().sum::<i64>() != 0 {
        bail!("the settlement's deltas do not sum to zero: {summary}");
    }
    let fan_lines = summary["fanLines"].as_array().cloned().unwrap_or_default();
    let no_win = summary["noWin"].as_array().cloned().unwrap_or_default();
    let win_how = summary["winHow"].as_array().cloned().unwrap_or_default();
    for (seat, ((lines, none), how)) in fan_lines.iter().zip(&no_win).zip(&win_how).enumerate() {
        if lines.as_u64() == Some(0) && none != &Value::Bool(true) {
            bail!("seat {seat} shows neither fan lines nor `no win`: {summary}");
        }
        // A winner's row says how the win came, in words.
        if lines.as_u64() != Some(0)
            && !how.as_str().is_some_and(|h| {
                h.contains("self-drawn") || h.contains("discard") || h.contains("kong")
            })
        {
            bail!("seat {seat} won without saying how: {summary}");
        }
    }
    let text = summary["text"].as_str().unwrap_or_default();
    if !text.contains("荒庄") && fan_lines.iter().all(|l| l.as_u64() == Some(0)) {
        bail!("a hand that was won shows no fan lines: {summary}");
    }
    // The payments account for every point that moved.
    let payments = summary["payments"].as_array().cloned().unwrap_or_default();
    let mut paid = [0i64; 4];
    for p in &payments {
        let (payer, payee, amount) = (
            p["payer"].as_u64().unwrap_or(9) as usize,
            p["payee"].as_u64().unwrap_or(9) as usize,
            p["amount"].as_i64().unwrap_or(0),
        );
        if payer >= 4 || payee >= 4 || payer == payee || amount <= 0 {
            bail!("a payment that is not one: {p}");
        }
        paid[payer] -= amount;
        paid[payee] += amount;
    }
    if paid.as_slice() != deltas.as_slice() {
        bail!("the payments shown ({paid:?}) do not make the deltas shown ({deltas:?}): {summary}");
    }
    let labels = summary["labels"].as_array().cloned().unwrap_or_default();
    let Some(extra) = payments.iter().find(|p| p["for"] == "extra") else {
        return Ok(None);
    };
    let label = |key: &str| {
        labels
            .get(extra[key].as_u64().unwrap_or(9) as usize)
            .and_then(Value::as_str)
            .unwrap_or("?")
            .to_string()
    };
    let line = extra["text"].as_str().unwrap_or_default();
    let (payer, payee) = (label("payer"), label("payee"));
    let named = line.contains(&format!("{payer} → {payee}"))
        && extra["line"]
            .as_str()
            .is_some_and(|l| !l.is_empty() && line.contains(l));
    if !named {
        bail!(
            "the extra payment does not name its payer {payer:?}, payee {payee:?} and line: {extra}"
        );
    }
    Ok(Some(line.to_string()))
}

/// Closes the settlement: the table goes on.
async fn next_hand(page: &mut cdp::Page) -> anyhow::Result<()> {
    page.eval("document.querySelector('[data-action=\"next-hand\"]').click(), true")
        .await?;
    wait_for(
        page,
        "!document.querySelector('[data-testid=\"settlement\"]') && !!document.querySelector('[data-testid=\"table\"]')",
        Duration::from_secs(10),
    )
    .await
}

/// The player's history names them and says how each hand ended; the first hand's replay opens
/// at its first step with the players named, and shows every seat's concealed tiles once dealt.
async fn history_and_replay(
    page: &mut cdp::Page,
    dir: &std::path::Path,
) -> anyhow::Result<Vec<PathBuf>> {
    let me = page.eval("window.mahjong.app.session.player").await?;
    let table = page.eval("window.mahjong.app.table.id").await?;
    let (Some(me), Some(table)) = (me.as_str(), table.as_str()) else {
        bail!("no session or table: {me} {table}");
    };
    page.eval(&format!("location.hash = '#/player/{me}', true"))
        .await?;
    wait_for(
        page,
        "!!document.querySelector('[data-testid=\"history-row\"]')",
        Duration::from_secs(10),
    )
    .await?;
    let history = page
        .eval(
            r#"(() => ({
              title: document.querySelector('[data-testid="history-title"]').textContent,
              endings: [...document.querySelectorAll('[data-testid="history-ending"]')].map((e) => e.textContent),
            }))()"#,
        )
        .await?;
    let words = ["self-draw", "discard", "several winners", "drawn"];
    let endings = history["endings"].as_array().cloned().unwrap_or_default();
    if !history["title"]
        .as_str()
        .is_some_and(|t| t.contains("测试员"))
        || endings.is_empty()
        || !endings.iter().all(|e| {
            e.as_str()
                .is_some_and(|e| words.iter().any(|w| e.contains(w)))
        })
    {
        bail!("the history does not name the player or say how hands ended: {history}");
    }
    let history_shot = dir.join("history.png");
    page.screenshot(&history_shot).await?;

    page.eval(&format!("location.hash = '#/replay/{table}/0', true"))
        .await?;
    wait_for(
        page,
        "!!document.querySelector('[data-testid=\"replay-step\"]')",
        Duration::from_secs(10),
    )
    .await?;
    let start = page
        .eval(r#"document.querySelector('[data-testid="replay-step"]').textContent + '|' + document.querySelector('.replay').innerText.includes('测试员')"#)
        .await?;
    if !start
        .as_str()
        .is_some_and(|s| s.starts_with("Start") && s.ends_with("|true"))
    {
        bail!("the replay does not open at its first step with the players named: {start}");
    }
    // Forward until every seat holds its dealt tiles.
    let dealt = r#"[...document.querySelectorAll('[data-testid="replay-hand"]')].every((h) => h.querySelectorAll('.tile').length >= 13)"#;
    for _ in 0..40 {
        if page.eval(dealt).await? == Value::Bool(true) {
            break;
        }
        page.eval(r#"document.querySelector('[data-action="replay-next"]').click(), true"#)
            .await?;
    }
    if page.eval(dealt).await? != Value::Bool(true) {
        bail!(
            "the replay never shows every seat's dealt hand:\n{}",
            page_text(page).await
        );
    }
    let replay_shot = dir.join("replay.png");
    page.screenshot(&replay_shot).await?;
    Ok(vec![history_shot, replay_shot])
}

/// Drops the page's WebSocket as a network failure would; the page must reconnect by itself,
/// at once (its first retry goes within 250 ms), and resume from its last `seq` (no snapshot
/// needed).
async fn reconnect(page: &mut cdp::Page) -> anyhow::Result<()> {
    let before = page.eval("window.mahjong.lastSeq()").await?;
    let opened = page.eval("window.mahjong.connections()").await?;
    page.eval("window.mahjong.dropConnection(), true").await?;
    wait_for(
        page,
        &format!(
            "window.mahjong.connections() > {opened} && \
             document.querySelector('[data-testid=\"conn-status\"]')?.dataset.status === 'open'"
        ),
        Duration::from_secs(15),
    )
    .await?;
    let after = page.eval("window.mahjong.lastSeq()").await?;
    if after.as_u64() < before.as_u64() {
        bail!("the stream went back after reconnecting: {before} → {after}");
    }
    let waited = page.eval("window.mahjong.lastRetryDelay()").await?;
    if waited.as_u64().is_none_or(|ms| ms > 250) {
        bail!("the first retry after a drop waited {waited} ms");
    }
    Ok(())
}

/// The table mid-hand at desktop size, then at a phone's (390 × 844).
async fn table_screenshots(
    page: &mut cdp::Page,
    dir: &std::path::Path,
) -> anyhow::Result<Vec<PathBuf>> {
    let table = dir.join("table.png");
    page.screenshot(&table).await?;
    page.set_viewport(390, 844, 2.0, true).await?;
    tokio::time::sleep(Duration::from_millis(400)).await;
    let phone = dir.join("table-phone.png");
    page.screenshot(&phone).await?;
    page.set_viewport(1280, 860, 1.0, false).await?;
    tokio::time::sleep(Duration::from_millis(200)).await;
    Ok(vec![table, phone])
}

/// A GET on a fresh connection: status, headers (names in lower case) and body.
async fn get(
    addr: SocketAddr,
    path: &str,
    extra: &str,
) -> anyhow::Result<(u16, Vec<(String, String)>, Vec<u8>)> {
    let mut stream = tokio::net::TcpStream::connect(addr).await?;
    let request = format!("GET {path} HTTP/1.1\r\nHost: test\r\nConnection: close\r\n{extra}\r\n");
    stream.write_all(request.as_bytes()).await?;
    let mut raw = Vec::new();
    stream.read_to_end(&mut raw).await?;
    let end = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .context("no header end")?;
    let head = String::from_utf8_lossy(&raw[..end]).to_string();
    let mut lines = head.lines();
    let status = lines
        .next()
        .and_then(|l| l.split_whitespace().nth(1))
        .context("no status")?
        .parse()?;
    let headers = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    Ok((status, headers, raw[end + 4..].to_vec()))
}

fn header<'a>(headers: &'a [(String, String)], name: &str) -> Option<&'a str> {
    headers
        .iter()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v.as_str())
}

/// Every file under `dir`, as (the path it is served at, its bytes).
fn client_files(root: &std::path::Path, dir: &std::path::Path) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).expect("read web/") {
        let path = entry.expect("an entry").path();
        if path.is_dir() {
            out.extend(client_files(root, &path));
        } else {
            let rel = path
                .strip_prefix(root)
                .expect("under web/")
                .to_string_lossy()
                .replace('\\', "/");
            out.push((
                format!("/{rel}"),
                std::fs::read(&path).expect("read a client file"),
            ));
        }
    }
    out
}

/// `/` and every file of the client are served with their content type and caching headers;
/// other paths are 404 and the API is unchanged. (No browser needed.)
#[tokio::test]
async fn the_client_is_served() {
    let server = common::sqlite_server().await;
    let addr = server.addr;
    // The client's files as they are on disk, each expected at its path.
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../web");
    let mut served = 0;
    for (path, on_disk) in client_files(&root, &root) {
        if path == "/README.md" {
            continue;
        }
        served += 1;
        let content_type = match path.rsplit('.').next() {
            Some("html") => "text/html; charset=utf-8",
            Some("css") => "text/css; charset=utf-8",
            Some("js") => "text/javascript; charset=utf-8",
            Some("svg") => "image/svg+xml",
            Some("png") => "image/png",
            Some("webmanifest") => "application/manifest+json",
            other => panic!("{path}: no content type expected for {other:?}"),
        };
        let (status, headers, body) = get(addr, &path, "").await.expect("get");
        assert_eq!(status, 200, "{path}");
        assert_eq!(
            header(&headers, "content-type"),
            Some(content_type),
            "{path}"
        );
        assert_eq!(
            header(&headers, "cache-control"),
            Some("no-cache"),
            "{path}"
        );
        assert_eq!(body, on_disk, "{path}");
        let etag = header(&headers, "etag").expect("an ETag").to_string();
        let (status, _, body) = get(addr, &path, &format!("If-None-Match: {etag}\r\n"))
            .await
            .expect("get");
        assert_eq!(status, 304, "{path} revalidated");
        assert!(body.is_empty());
    }
    assert!(served >= 5, "the client's files were found");
    let (_, headers, body) = get(addr, "/", "").await.expect("get");
    assert_eq!(
        header(&headers, "content-type"),
        Some("text/html; charset=utf-8")
    );
    assert!(header(&headers, "content-security-policy").is_some());
    assert!(String::from_utf8_lossy(&body).contains("/js/main.js"));
    let (_, headers, _) = get(addr, "/js/main.js", "").await.expect("get");
    assert_eq!(
        header(&headers, "content-type"),
        Some("text/javascript; charset=utf-8")
    );
    // The SDK's modules, for the page and any other client page: JavaScript, not its types.
    let (status, headers, body) = get(addr, "/sdk/index.js", "").await.expect("get");
    assert_eq!(status, 200);
    assert_eq!(
        header(&headers, "content-type"),
        Some("text/javascript; charset=utf-8")
    );
    assert!(String::from_utf8_lossy(&body).contains("./reducer.js"));
    for missing in [
        "/js/nope.js",
        "/nope.html",
        "/web/index.html",
        "/README.md",
        "/sdk/index.d.ts",
        "/sdk/nope.js",
    ] {
        let (status, _, _) = get(addr, missing, "").await.expect("get");
        assert_eq!(status, 404, "{missing}");
    }
    let (status, headers, _) = get(addr, "/api/rooms", "").await.expect("get");
    assert_eq!(status, 200);
    assert!(header(&headers, "content-type").is_some_and(|t| t.starts_with("application/json")));
    server.finish().await;
}

/// A tournament in the page: its organiser creates it through the form, registers with the
/// code, sees four more players register (the page refreshes by itself), starts the round, and
/// watches the round's two tables (three seats marked as bots) play and the standings fill in,
/// live; the standings shown are the API's.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tournament_page_shows_registration_tables_and_live_standings() {
    let Some(chromium) = cdp::find_chromium() else {
        assert!(
            !browser_required(),
            "MAHJONG_REQUIRE_BROWSER=1 but no Chromium"
        );
        eprintln!("NOTICE: tournament browser test skipped: no Chromium");
        return;
    };
    let server = common::sqlite_server_with(|c| {
        // The organiser's own seat is played by the bot (托管) while the page watches.
        c.grace_ms = 200;
        c.reconnect_ms = 600_000;
    })
    .await;
    let browser = cdp::Browser::launch(&chromium)
        .await
        .expect("start chromium");
    let mut page = browser.new_page().await.expect("open a page");
    let outcome = tokio::time::timeout(LIMIT, tournament_page(&mut page, server.addr)).await;
    match outcome {
        Ok(Ok(shot)) => println!("artifact: {}", shot.display()),
        Ok(Err(e)) => panic!(
            "the tournament page failed: {e:#}\n{}",
            browser.stderr_tail()
        ),
        Err(_) => panic!(
            "the tournament page did not finish: {}",
            page_text(&mut page).await
        ),
    }
    server.finish().await;
}

async fn tournament_page(page: &mut cdp::Page, addr: SocketAddr) -> anyhow::Result<PathBuf> {
    let dir = artifacts();
    std::fs::create_dir_all(&dir).context("create the artifacts directory")?;
    page.set_viewport(1280, 900, 1.0, false).await?;
    page.navigate(&format!("http://{addr}/")).await?;
    let ten = Duration::from_secs(10);
    wait_for(
        page,
        "!!document.querySelector('[data-testid=\"signin-name\"]')",
        ten,
    )
    .await?;
    page.eval(
        "(() => { document.querySelector('[data-testid=\"signin-name\"]').value = '主办人';
                 document.querySelector('[data-testid=\"signin-submit\"]').click(); return true; })()",
    )
    .await?;
    // Signed in, the page shows the lobby; the header leads to the tournaments.
    wait_for(
        page,
        "!!document.querySelector('[data-testid=\"create-room\"]')",
        ten,
    )
    .await?;
    page.eval(
        "(() => { document.querySelector('[data-testid=\"nav-tournaments\"]').click(); return true; })()",
    )
    .await?;
    wait_for(
        page,
        "!!document.querySelector('[data-testid=\"tournament-create\"]')",
        ten,
    )
    .await?;
    page.eval(
        r#"(() => {
          const set = (t, v) => { const e = document.querySelector(`[data-testid="${t}"]`); e.value = v; e.dispatchEvent(new Event('change')); };
          set('tournament-name', '浏览器杯 Browser cup');
          set('tournament-ruleset', 'sichuan');
          set('tournament-rounds', '1');
          set('tournament-hands', '1');
          document.querySelector('[data-testid="tournament-create"]').click();
          return true;
        })()"#,
    )
    .await?;
    wait_for(
        page,
        "!!document.querySelector('[data-testid=\"tournament-code\"]')",
        ten,
    )
    .await?;
    let code = page
        .eval("document.querySelector('[data-testid=\"tournament-code\"]').textContent")
        .await?;
    let id = page
        .eval("location.hash.split('/')[2]")
        .await?
        .as_str()
        .unwrap_or_default()
        .to_string();
    // Registration by code, in the page.
    page.eval(
        "(() => { document.querySelector('[data-testid=\"register\"]').click(); return true; })()",
    )
    .await?;
    wait_for(
        page,
        "!!document.querySelector('[data-testid=\"registered\"]')",
        ten,
    )
    .await?;
    // Four more register over the API; the page shows them without a reload.
    let mut players = Vec::new();
    for i in 0..4 {
        let (player, token) = common::guest(addr, &format!("选手{i}")).await;
        let (status, body) = common::http(
            addr,
            "POST",
            &format!("/api/tournaments/{id}/entrants"),
            Some(&token),
            Some(serde_json::json!({"code": code})),
        )
        .await?;
        anyhow::ensure!(status == 200, "register: {body}");
        players.push((player, token));
    }
    wait_for(
        page,
        "document.querySelectorAll('[data-testid=\"entrants\"] li').length === 5",
        ten,
    )
    .await?;
    // The round: two tables, the three empty seats marked as bots.
    page.eval("(() => { document.querySelector('[data-testid=\"start-round\"]').click(); return true; })()")
        .await?;
    wait_for(
        page,
        "document.querySelectorAll('[data-testid=\"round-table\"]').length === 2",
        ten,
    )
    .await?;
    let bots = page
        .eval("document.querySelectorAll('[data-testid=\"round-seat\"][data-bot=\"true\"]').length")
        .await?;
    anyhow::ensure!(bots == 3, "bot seats shown: {bots}");
    // The other players play their seats; the standings fill in as the tables finish.
    let (status, detail) =
        common::http(addr, "GET", &format!("/api/tournaments/{id}"), None, None).await?;
    anyhow::ensure!(status == 200, "{detail}");
    let mut tasks = tokio::task::JoinSet::new();
    for table in detail["round_list"][0]["tables"]
        .as_array()
        .into_iter()
        .flatten()
    {
        for seat in table["seats"].as_array().into_iter().flatten() {
            let Some((_, token)) = players
                .iter()
                .find(|(p, _)| seat["player"].as_str() == Some(p))
            else {
                continue;
            };
            let (table, token) = (
                table["table"].as_str().unwrap_or_default().to_string(),
                token.clone(),
            );
            tasks.spawn(async move {
                let mut client = common::Client::connect(addr, &table, &token, None).await?;
                while let Some(m) = client.next(Duration::from_secs(60)).await? {
                    if m["type"] == "table_closed" {
                        break;
                    }
                    if let Some(legal) = common::prompt_of(&m) {
                        client.act(common::choose(&legal)).await?;
                    }
                }
                anyhow::Ok(())
            });
        }
    }
    while let Some(done) = tasks.join_next().await {
        done??;
    }
    wait_for(
        page,
        "document.querySelectorAll('[data-testid=\"round-table\"][data-status=\"finished\"]').length === 2",
        Duration::from_secs(30),
    )
    .await?;
    wait_for(
        page,
        "[...document.querySelectorAll('[data-testid=\"standing\"]')].length === 5 && [...document.querySelectorAll('[data-testid=\"standing\"] td:nth-child(6)')].every((td) => td.textContent === '1')",
        Duration::from_secs(15),
    )
    .await?;
    let shown = page
        .eval(
            r#"JSON.stringify([...document.querySelectorAll('[data-testid="standing"]')].map((tr) => [Number(tr.dataset.entrant), tr.children[2].textContent]))"#,
        )
        .await?;
    let shown: Vec<(u64, String)> = serde_json::from_str(shown.as_str().unwrap_or("[]"))?;
    let (_, standings) = common::http(
        addr,
        "GET",
        &format!("/api/tournaments/{id}/standings"),
        None,
        None,
    )
    .await?;
    let api: Vec<(u64, String)> = standings
        .as_array()
        .into_iter()
        .flatten()
        .map(|s| {
            let p = s["points"].as_f64().unwrap_or(f64::NAN);
            let text = if p.fract() == 0.0 {
                format!("{p}")
            } else {
                format!("{p:.2}")
            };
            (s["entrant"].as_u64().unwrap_or(99), text)
        })
        .collect();
    anyhow::ensure!(
        shown == api,
        "the page's standings {shown:?} are not the API's {api:?}"
    );
    let shot = dir.join("tournament.png");
    page.screenshot(&shot).await?;
    Ok(shot)
}
