//! How much memory a search table may take: the caller's request, checked and capped at a
//! share of the machine's memory, so that no request (a manager's `INFO max_memory`, a
//! `--tt-bits` option) can make the process spin on a size computation or abort on an
//! allocation it can never get.

use std::path::Path;

/// The share of the machine's memory (1/`TABLE_SHARE`) one search table may use.
pub const TABLE_SHARE: u64 = 2;

/// The cap where the machine's memory cannot be read (not Linux, or no /proc).
pub const FALLBACK_CAP: u64 = 1 << 30;

/// The machine's memory in bytes as this process may use it: `MemTotal` of /proc/meminfo,
/// lowered to the cgroup's limit where one is set. `None` where neither can be read.
pub fn physical_bytes() -> Option<u64> {
    let total = read_small(Path::new("/proc/meminfo")).and_then(|t| mem_total(&t));
    let cgroup = read_small(Path::new("/sys/fs/cgroup/memory.max"))
        .and_then(|t| t.trim().parse::<u64>().ok());
    match (total, cgroup) {
        (Some(t), Some(c)) => Some(t.min(c)),
        (t, c) => t.or(c),
    }
}

/// The most memory one search table may use on this machine.
pub fn table_cap() -> u64 {
    physical_bytes().map_or(FALLBACK_CAP, |b| b / TABLE_SHARE)
}

/// A table budget: `requested` bytes (`None`: no limit given, use `default`), never more
/// than [`table_cap`].
pub fn table_budget(requested: Option<u64>, default: u64) -> usize {
    let bytes = requested.unwrap_or(default).min(table_cap());
    usize::try_from(bytes).unwrap_or(usize::MAX)
}

/// A /proc or /sys file's text (those report a size of 0, so the read is bounded here).
fn read_small(path: &Path) -> Option<String> {
    crate::io::read_text_bounded(path, 64 * 1024).ok()
}

/// `MemTotal` of /proc/meminfo's text, in bytes.
fn mem_total(meminfo: &str) -> Option<u64> {
    let line = meminfo.lines().find(|l| l.starts_with("MemTotal:"))?;
    let mut fields = line["MemTotal:".len()..].split_whitespace();
    let value: u64 = fields.next()?.parse().ok()?;
    let scale = match fields.next() {
        Some("kB") | Some("KB") => 1024,
        None => 1,
        Some(_) => return None,
    };
    value.checked_mul(scale)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_mem_total() {
        let text = "MemTotal:       24683656 kB\nMemFree:  100 kB\n";
        assert_eq!(mem_total(text), Some(24_683_656 * 1024));
        assert_eq!(mem_total("MemFree: 1 kB\n"), None);
        assert_eq!(mem_total("MemTotal: x kB\n"), None);
        assert_eq!(mem_total("MemTotal: 18446744073709551615 kB\n"), None);
    }

    #[test]
    fn budgets_are_capped_and_never_wrap() {
        let cap = table_cap();
        assert!(cap >= 1 << 20);
        assert_eq!(table_budget(None, 64 << 20), (64u64 << 20).min(cap) as usize);
        assert_eq!(table_budget(Some(u64::MAX), 64 << 20), cap as usize);
        assert_eq!(table_budget(Some(1 << 40), 64 << 20), cap.min(1 << 40) as usize);
        if cfg!(target_os = "linux") {
            assert!(physical_bytes().is_some());
        }
    }
}
