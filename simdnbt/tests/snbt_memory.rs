//! Peak memory of the SNBT parser on inputs built to amplify: the tree costs
//! a bounded multiple of the text (the bound is in the `snbt` module docs).
#![cfg(feature = "snbt")]

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

struct Counting;

static CURRENT: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

// SAFETY: forwards to the system allocator unchanged; only counts bytes.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let now = CURRENT.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
        PEAK.fetch_max(now, Ordering::Relaxed);
        // SAFETY: same layout contract as the caller's.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        CURRENT.fetch_sub(layout.size(), Ordering::Relaxed);
        // SAFETY: `ptr` came from `alloc` with this layout.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Tests share the counters: one at a time.
static SERIAL: Mutex<()> = Mutex::new(());

/// Peak bytes allocated while parsing `text`, over its length.
fn ratio(text: &str) -> f64 {
    let _guard = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let base = CURRENT.load(Ordering::Relaxed);
    PEAK.store(base, Ordering::Relaxed);
    let tag = simdnbt::snbt::from_str(text);
    assert!(tag.is_ok());
    let peak = PEAK.load(Ordering::Relaxed) - base;
    drop(tag);
    peak as f64 / text.len() as f64
}

#[test]
fn amplification_is_bounded() {
    let n = 200_000;
    let cases = [
        (
            "mixed list of 1-digit ints and empty strings",
            format!("[{}1]", "1,'',".repeat(n)),
        ),
        ("list of empty lists", format!("[{}[]]", "[],".repeat(n))),
        (
            "list of empty compounds",
            format!("[{}{{}}]", "{},".repeat(n)),
        ),
        (
            "mixed list of empty compounds and lists",
            format!("[{}[]]", "{},[],".repeat(n)),
        ),
        (
            "compound of one-letter keys",
            format!(
                "{{{}}}",
                (0..n).map(|i| format!("k{i}:{{}},")).collect::<String>()
            ),
        ),
        ("list of 1-digit ints", format!("[{}1]", "1,".repeat(n))),
        ("byte array", format!("[B;{}1]", "1,".repeat(n))),
    ];
    let mut worst = 0.0f64;
    for (what, text) in &cases {
        let r = ratio(text);
        eprintln!("{what}: peak {r:.1}× the text");
        worst = worst.max(r);
    }
    // The bound the module docs state.
    assert!(worst <= 64.0, "worst case {worst:.1}×");
}
