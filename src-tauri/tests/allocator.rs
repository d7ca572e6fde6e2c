//! Engine tables dropped go back to the system: with `tune_allocator` (called first in the
//! app's `main`) a block of a few MiB freed after a larger one is unmapped, where glibc's own
//! moving threshold would keep it in the heap (the 16 MiB engine memory's tables stayed with
//! the app after a game; docs/BENCHMARKS.md). One test in its own process: the heap is its own.

#[cfg(all(target_os = "linux", target_env = "gnu"))]
#[test]
fn a_table_freed_after_a_larger_one_goes_back_to_the_system() {
    /// Resident bytes of this process (/proc/self/statm, pages of 4 KiB).
    fn resident() -> usize {
        let statm = std::fs::read_to_string("/proc/self/statm").unwrap();
        statm.split_whitespace().nth(1).unwrap().parse::<usize>().unwrap() * 4096
    }
    /// A zeroed block with every page written (as a search fills its table).
    fn touched(bytes: usize) -> Vec<u8> {
        let mut v = vec![0u8; bytes];
        for i in (0..bytes).step_by(4096) {
            v[i] = 1;
        }
        v
    }
    tengen_app::tune_allocator();
    // A larger table freed first: glibc would raise its threshold to its size.
    drop(std::hint::black_box(touched(24 << 20)));
    let before = resident();
    let table = std::hint::black_box(touched(8 << 20));
    assert!(resident() >= before + (7 << 20), "the table is resident");
    drop(table);
    let after = resident();
    assert!(after < before + (2 << 20), "given back: {before} -> {after} bytes resident");
}
