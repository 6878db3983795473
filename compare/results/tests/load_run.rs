//! What a bench's run record takes from criterion's directory: only the
//! benchmarks the run registered, only results written during the run.

use std::fs;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use compare_results::criterion::{ProblemKind, load_run};

/// A copy of the committed fixture (fresh mtimes), in a new temp dir.
fn copy_of_fixture(tag: &str) -> PathBuf {
    fn copy(from: &Path, to: &Path) {
        fs::create_dir_all(to).unwrap();
        for e in fs::read_dir(from).unwrap() {
            let e = e.unwrap();
            if e.file_type().unwrap().is_dir() {
                copy(&e.path(), &to.join(e.file_name()));
            } else {
                fs::copy(e.path(), to.join(e.file_name())).unwrap();
            }
        }
    }
    let dir = std::env::temp_dir().join(format!("compare-results-{tag}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    copy(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/criterion"),
        &dir,
    );
    dir
}

#[test]
fn a_run_takes_only_its_own_results() {
    let dir = copy_of_fixture("since");
    let all = |_: &str| true;
    let known = |_: &str| true;

    // Results written before the run started are another run's: none used,
    // each one named.
    let later = SystemTime::now() + Duration::from_secs(3600);
    let old = load_run(&dir, &known, Some(later), &all).unwrap();
    assert!(old.measurements.is_empty());
    assert!(!old.problems.is_empty());
    assert!(
        old.problems.iter().all(|p| p.kind == ProblemKind::OtherRun),
        "{:#?}",
        old.problems
    );

    // Written during the run: used, and only the registered ids.
    let earlier = SystemTime::now() - Duration::from_secs(3600);
    let wanted = |id: &str| id.starts_with("compare/complex_player.dat/simdnbt_borrow_");
    let mine = load_run(&dir, &known, Some(earlier), &wanted).unwrap();
    let ids: Vec<String> = mine.measurements.iter().map(|m| m.id()).collect();
    assert_eq!(
        ids,
        [
            "compare/complex_player.dat/simdnbt_borrow_read",
            "compare/complex_player.dat/simdnbt_borrow_write"
        ]
    );
    let _ = fs::remove_dir_all(&dir);
}
