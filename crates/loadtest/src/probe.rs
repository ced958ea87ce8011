//! The server's own figures: its `/metrics` page (Prometheus text) and, for a process given by
//! id, `/proc/<pid>/status` where the page lacks memory and `/proc/<pid>/stat` for CPU.

use std::collections::BTreeMap;
use std::net::SocketAddr;

use serde::Serialize;

use crate::http::HttpClient;
use crate::net;

/// The server at one moment. Every field is absent when neither source had it.
#[derive(Clone, Debug, Default, Serialize)]
pub struct ServerSample {
    /// Resident memory, in bytes.
    pub rss_bytes: Option<f64>,
    /// User and system CPU time used so far, in seconds.
    pub cpu_seconds: Option<f64>,
    /// Open file descriptors.
    pub open_fds: Option<f64>,
    /// WebSocket connections open (`mahjong_ws_connections_open`, `mahjong_ws_connections`
    /// before it was renamed, or `baseline_ws_connections`).
    pub connections: Option<f64>,
    /// Actions accepted into room logs (`mahjong_actions_total`).
    pub actions_total: Option<f64>,
    /// Decisions the bot made for a player's seat (`mahjong_takeover_actions_total`).
    pub takeover_actions_total: Option<f64>,
    /// Hands finished and stored (`mahjong_hands_total`).
    pub hands_total: Option<f64>,
    /// Finished hands that could not be stored (`mahjong_hand_store_failures_total`).
    pub hand_store_failures_total: Option<f64>,
    /// Client messages refused (`mahjong_ws_messages_refused_total`).
    pub messages_refused_total: Option<f64>,
    /// CPU seconds used so far by the process's threads, added up by thread name (`/proc`,
    /// the first node only): where a server's CPU goes (its runtime's workers, the SQLite
    /// connections' threads …) without a profiler.
    pub cpu_seconds_by_thread: BTreeMap<String, f64>,
}

/// Reads `/metrics` at `addr`, and `/proc` for `pid` where the page lacks a process figure.
pub async fn sample(addr: SocketAddr, pid: Option<u32>) -> ServerSample {
    let mut client = HttpClient::new(addr, net::source(0, 1));
    let page = match client.request("GET", "/metrics", None, None).await {
        Ok(r) if r.status == 200 => String::from_utf8_lossy(&r.body).into_owned(),
        _ => String::new(),
    };
    let values = parse(&page);
    let get = |name: &str| values.get(name).copied();
    let mut s = ServerSample {
        rss_bytes: get("process_resident_memory_bytes"),
        cpu_seconds: get("process_cpu_seconds_total"),
        open_fds: get("process_open_fds"),
        connections: get("mahjong_ws_connections_open")
            .or_else(|| get("mahjong_ws_connections"))
            .or_else(|| get("baseline_ws_connections")),
        actions_total: get("mahjong_actions_total"),
        takeover_actions_total: get("mahjong_takeover_actions_total"),
        hands_total: get("mahjong_hands_total"),
        hand_store_failures_total: get("mahjong_hand_store_failures_total"),
        messages_refused_total: get("mahjong_ws_messages_refused_total"),
        cpu_seconds_by_thread: BTreeMap::new(),
    };
    if let Some(p) = pid.and_then(process) {
        s.rss_bytes = s.rss_bytes.or(Some(p.rss_bytes));
        // `/proc` first for CPU: it counts in 10 ms ticks, where the game server's page
        // (`metrics-process`) counts whole seconds, ±7 % of a 30 s run at half a core.
        s.cpu_seconds = Some(p.cpu_seconds);
        s.open_fds = s.open_fds.or(Some(p.open_fds));
    }
    if let Some(pid) = pid {
        s.cpu_seconds_by_thread = threads(pid);
    }
    s
}

/// CPU seconds of each thread of process `pid`, added up by thread name.
pub fn threads(pid: u32) -> BTreeMap<String, f64> {
    let mut by_name = BTreeMap::new();
    let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else {
        return by_name;
    };
    for task in tasks.flatten() {
        let Ok(stat) = std::fs::read_to_string(task.path().join("stat")) else {
            continue;
        };
        if let Some((name, seconds)) = thread_cpu(&stat) {
            *by_name.entry(name).or_insert(0.0) += seconds;
        }
    }
    by_name
}

/// A thread's name and CPU seconds from its `stat` line: `tid (name) state … utime stime …`.
fn thread_cpu(stat: &str) -> Option<(String, f64)> {
    let (head, rest) = stat.rsplit_once(')')?;
    let name = head.split_once('(')?.1.to_string();
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let utime: f64 = fields.get(11)?.parse().ok()?;
    let stime: f64 = fields.get(12)?.parse().ok()?;
    Some((name, (utime + stime) / 100.0))
}

/// CPU seconds the whole machine has spent busy so far (`/proc/stat`: every state but idle
/// and I/O wait, over all cores); `None` off Linux.
pub fn machine_busy_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/stat").ok()?;
    let cpu = stat.lines().find(|l| l.starts_with("cpu "))?;
    let ticks: Vec<f64> = cpu
        .split_whitespace()
        .skip(1)
        .take(8)
        .filter_map(|v| v.parse().ok())
        .collect();
    let idle = ticks.get(3)? + ticks.get(4)?;
    Some((ticks.iter().sum::<f64>() - idle) / 100.0)
}

/// The figures of every node at `nodes` added up (the first node's process is `pid`): the
/// cost of a cluster is the sum of its nodes'.
pub async fn sample_nodes(nodes: &[SocketAddr], pid: Option<u32>) -> ServerSample {
    let mut total = ServerSample::default();
    for (i, addr) in nodes.iter().enumerate() {
        let one = sample(*addr, if i == 0 { pid } else { None }).await;
        total.add(&one);
    }
    total
}

impl ServerSample {
    fn add(&mut self, other: &ServerSample) {
        let sum = |a: &mut Option<f64>, b: Option<f64>| {
            if let Some(b) = b {
                *a = Some(a.unwrap_or(0.0) + b);
            }
        };
        sum(&mut self.rss_bytes, other.rss_bytes);
        sum(&mut self.cpu_seconds, other.cpu_seconds);
        sum(&mut self.open_fds, other.open_fds);
        sum(&mut self.connections, other.connections);
        sum(&mut self.actions_total, other.actions_total);
        sum(
            &mut self.takeover_actions_total,
            other.takeover_actions_total,
        );
        sum(&mut self.hands_total, other.hands_total);
        sum(
            &mut self.hand_store_failures_total,
            other.hand_store_failures_total,
        );
        sum(
            &mut self.messages_refused_total,
            other.messages_refused_total,
        );
        for (name, seconds) in &other.cpu_seconds_by_thread {
            *self
                .cpu_seconds_by_thread
                .entry(name.clone())
                .or_insert(0.0) += seconds;
        }
    }
}

/// Each sample line `name value` of a Prometheus text page (labels are not used here).
fn parse(page: &str) -> BTreeMap<String, f64> {
    page.lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| {
            let mut parts = l.split_whitespace();
            let name = parts.next()?;
            let value = parts.next()?.parse().ok()?;
            Some((name.to_string(), value))
        })
        .collect()
}

/// A process's memory, CPU time and open files.
#[derive(Clone, Copy, Debug)]
pub struct Process {
    /// Resident memory, in bytes.
    pub rss_bytes: f64,
    /// User and system CPU time, in seconds.
    pub cpu_seconds: f64,
    /// Open file descriptors.
    pub open_fds: f64,
}

/// The figures of process `pid` from /proc (Linux; `None` elsewhere or for an unknown pid).
pub fn process(pid: u32) -> Option<Process> {
    proc_figures(&format!("/proc/{pid}"))
}

/// The figures of this process.
pub fn own_process() -> Option<Process> {
    proc_figures("/proc/self")
}

fn proc_figures(dir: &str) -> Option<Process> {
    let status = std::fs::read_to_string(format!("{dir}/status")).ok()?;
    let rss_kib: f64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))?
        .split_whitespace()
        .next()?
        .parse()
        .ok()?;
    let stat = std::fs::read_to_string(format!("{dir}/stat")).ok()?;
    // Fields after the command name (which may hold spaces) start after the last ')'.
    let rest = stat.rsplit_once(')')?.1;
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let utime: f64 = fields.get(11)?.parse().ok()?;
    let stime: f64 = fields.get(12)?.parse().ok()?;
    let open_fds = std::fs::read_dir(format!("{dir}/fd")).map_or(0, |d| d.count()) as f64;
    // 100 clock ticks a second: the value on every Linux this runs on.
    Some(Process {
        rss_bytes: rss_kib * 1024.0,
        cpu_seconds: (utime + stime) / 100.0,
        open_fds,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_sample_lines() {
        let page = "# HELP a x\n# TYPE a gauge\nmahjong_rooms 3\nprocess_cpu_seconds_total 1.5\n";
        let v = parse(page);
        assert_eq!(v.get("mahjong_rooms"), Some(&3.0));
        assert_eq!(v.get("process_cpu_seconds_total"), Some(&1.5));
    }

    #[test]
    fn reads_a_thread_name_with_spaces_and_parentheses() {
        let stat = "4242 (tokio (rt) w) S 1 2 3 4 5 6 7 8 9 10 250 50 0 0 20 0 1";
        assert_eq!(thread_cpu(stat), Some(("tokio (rt) w".to_string(), 3.0)));
    }

    #[test]
    fn reads_own_threads_and_the_machine() {
        let mine = threads(std::process::id());
        assert!(!mine.is_empty());
        assert!(machine_busy_seconds().is_some_and(|s| s > 0.0));
    }

    #[test]
    fn reads_own_process() {
        let p = own_process().expect("/proc/self on Linux");
        assert!(p.rss_bytes > 0.0 && p.open_fds > 0.0);
    }
}
