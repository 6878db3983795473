//! The floor walker (`compare::floor::walk`) accepts exactly what
//! `simdnbt::borrow::read` accepts and ends at the same offset, so that a
//! reader's time over the floor's is the cost of what it records, not of
//! checking less.
//!
//! The inputs: every corpus file and every chunk of every corpus region, each
//! cut short, with single bytes overwritten and with single bits flipped, the
//! §4 hostile cases, and nesting chains around the depth limit. Each change
//! costs a read of the whole input (slow in a debug build: about 20 MB/s on
//! small documents), so the test tries every position only of the small
//! files and a sample of the rest ([`Plan`]), and takes about 10 s of CPU.

use std::io::Cursor;

use compare::floor::{MAX_DEPTH, walk};
use testkit::bytes::{Kind, chain, chain_named};

/// The values each position is overwritten with: End, a number, a string,
/// list and compound ids, the first unknown id, and bytes that make lengths
/// and counts large or negative.
const OVERWRITES: [u8; 8] = [0, 1, 8, 9, 10, 13, 0x7f, 0xff];

/// Inputs up to this size are cut at every position...
const CUT_ALL: usize = 8 * 1024;
/// ...and up to this size changed at every position (the small upstream
/// files: complex_player, bigtest, simple_player, hello_world, stringtest).
const CHANGE_ALL: usize = 3584;
/// Larger ones are cut and changed at positions spread evenly, as many as
/// keep the bytes read per input near this: a cut reads half the input on
/// average, a change all of it once per value and bit (16 times).
const BUDGET: usize = 8 << 20;
/// Besides those, cut at every position of the first bytes, where the root
/// and its first tags are (cheap)...
const CUT_EDGE: usize = 256;
/// ...and changed in the root's id and name length (most such changes fail
/// at once).
const CHANGE_EDGE: usize = 3;

/// What `borrow::read` says: the end offset of an accepted input.
fn ours(input: &[u8]) -> Option<usize> {
    let mut cursor = Cursor::new(input);
    simdnbt::borrow::read(&mut cursor)
        .ok()
        .map(|_| cursor.position() as usize)
}

/// Counts of the inputs compared, by answer.
#[derive(Default, Debug)]
struct Tally {
    accepted: usize,
    rejected: usize,
}

impl Tally {
    #[track_caller]
    fn check(&mut self, input: &[u8], what: impl Fn() -> String) {
        let (floor, reader) = (walk(input), ours(input));
        assert_eq!(
            floor,
            reader,
            "{}: the floor says {floor:?}, borrow::read {reader:?} ({} bytes)",
            what(),
            input.len()
        );
        match floor {
            Some(_) => self.accepted += 1,
            None => self.rejected += 1,
        }
    }

    /// The input whole, cut short at the [`Plan`]'s cuts, and at each of
    /// its changes overwritten with each of [`OVERWRITES`] and with each bit
    /// flipped.
    fn mutations(&mut self, name: &str, input: &[u8], plan: Plan) {
        self.check(input, || name.to_string());
        for &at in &plan.cuts {
            self.check(&input[..at], || format!("{name} cut at {at}"));
        }
        let mut copy = input.to_vec();
        for &at in &plan.changes {
            let was = copy[at];
            for value in OVERWRITES.into_iter().filter(|&v| v != was) {
                copy[at] = value;
                self.check(&copy, || format!("{name} with {value:#04x} at {at}"));
            }
            for bit in 0..8 {
                copy[at] = was ^ (1 << bit);
                self.check(&copy, || format!("{name} with bit {bit} of {at} flipped"));
            }
            copy[at] = was;
        }
    }
}

/// Where an input of `len` bytes is cut and where it is changed.
struct Plan {
    cuts: Vec<usize>,
    changes: Vec<usize>,
}

impl Plan {
    /// The corpus files' plan: small ones whole, the rest within [`BUDGET`].
    fn new(len: usize) -> Plan {
        Plan::within(len, CUT_ALL, CHANGE_ALL, BUDGET)
    }

    /// Every position up to `cut_all` and `change_all` bytes, else positions
    /// spread to read about `budget` bytes for the cuts and as much for the
    /// changes.
    fn within(len: usize, cut_all: usize, change_all: usize, budget: usize) -> Plan {
        let len1 = len.max(1);
        Plan {
            cuts: positions(len, cut_all, CUT_EDGE, 2 * budget / len1),
            changes: positions(len, change_all, CHANGE_EDGE, budget / (16 * len1)),
        }
    }
}

/// Every position of an input of `len` bytes if `len <= all`; else the
/// first `edge` and `spread` more spread evenly over the rest.
fn positions(len: usize, all: usize, edge: usize, spread: usize) -> Vec<usize> {
    if len <= all {
        return (0..len).collect();
    }
    let mut at: Vec<usize> = (0..edge).collect();
    if let Some(step) = (len - edge).checked_div(spread) {
        let step = step.max(1);
        at.extend((edge..len).step_by(step));
        at.push(len - 1);
        at.dedup();
    }
    at
}

#[test]
fn the_floor_accepts_what_borrow_read_accepts_on_the_corpus() {
    let mut tally = Tally::default();
    let mut documents = 0;
    for name in corpus::all_names() {
        let input = corpus::load(name).unwrap_or_else(|e| panic!("{name}: {e}"));
        // Both reject stringtest.nbt: its root is a list.
        documents += usize::from(walk(input).is_some());
        tally.mutations(name, input, Plan::new(input.len()));
    }
    assert!(documents >= 30, "only {documents} corpus files read");
    assert!(
        tally.accepted > 1000 && tally.rejected > 10_000,
        "{tally:?}"
    );
}

#[test]
fn the_floor_accepts_what_borrow_read_accepts_on_region_chunks() {
    let mut tally = Tally::default();
    let mut chunks = 0;
    for region in corpus::REGIONS {
        let file = corpus::load_as_shipped(region.name).unwrap();
        for (i, chunk) in compare::region::inflated_chunks(file).iter().enumerate() {
            let name = format!("{} chunk {i}", region.name);
            tally.check(chunk, || name.clone());
            // Every chunk whole; one in 16 also cut and changed, at sampled
            // positions (the corpus test has files like them in full).
            if i % 16 == 0 {
                tally.mutations(&name, chunk, Plan::within(chunk.len(), 0, 0, BUDGET / 8));
            }
            chunks += 1;
        }
    }
    assert!(chunks >= 676, "only {chunks} chunks");
    assert!(
        tally.accepted > 1000 && tally.rejected > 10_000,
        "{tally:?}"
    );
}

#[test]
fn the_floor_answers_the_hostile_cases_as_borrow_read_does() {
    let mut tally = Tally::default();
    for case in testkit::hostile::cases_with_depth(600) {
        tally.check(&case.bytes, || case.name.to_string());
    }
    assert!(tally.accepted > 5 && tally.rejected > 5, "{tally:?}");
}

/// Nesting 509 to 514 deep (the limit is 512, counting the root), of
/// compounds, of lists, and of both in turn, each also cut short; a list of
/// numbers counts as a level, and so does a list of compounds only once an
/// element opens.
#[test]
fn the_floor_stops_at_the_same_depth() {
    let mut tally = Tally::default();
    let patterns: [&[Kind]; 4] = [
        &[Kind::C],
        &[Kind::C, Kind::L],
        &[Kind::C, Kind::L, Kind::L],
        &[Kind::C, Kind::C, Kind::L],
    ];
    for pattern in patterns {
        for depth in MAX_DEPTH - 3..=MAX_DEPTH + 2 {
            let doc = chain_named(&chain(pattern, depth));
            let what = format!("{pattern:?} {depth} deep");
            tally.check(&doc, || what.clone());
            assert_eq!(walk(&doc).is_some(), depth <= MAX_DEPTH, "{what}");
            // Cut at the first and last 64 positions, where the chain
            // starts and where it closes, and at every 7th between (the
            // chain repeats; each cut costs a read of a deep document).
            let len = doc.len();
            let cuts = (0..64)
                .chain((64..len - 64).step_by(7))
                .chain(len - 64..len);
            for at in cuts {
                tally.check(&doc[..at], || format!("{what} cut at {at}"));
            }
            // The innermost container's contents replaced by an empty list
            // of compounds: one level less than a compound in it would be.
            if let Some(doc) = empty_list_innermost(pattern, depth) {
                tally.check(&doc, || format!("{what}, empty list innermost"));
            }
        }
    }
    assert!(tally.accepted > 10 && tally.rejected > 10_000, "{tally:?}");
}

/// A chain of `depth - 1` containers of `pattern` whose innermost holds an
/// empty list of compounds (in a compound: named "e"; in a list: as its one
/// element): `depth` levels, no deeper, though a list of compounds.
fn empty_list_innermost(pattern: &[Kind], depth: usize) -> Option<Vec<u8>> {
    let kinds = chain(pattern, depth - 1);
    let mut doc = chain_named(&kinds);
    // chain_named ends the innermost container with a fixed payload: an Int
    // "x" then End in a compound, a list of two Bytes in a list. Replace it.
    let (old, new): (&[u8], &[u8]) = match kinds.last()? {
        Kind::C => (
            &[3, 0, 1, b'x', 0, 0, 0, 42, 0],
            &[9, 0, 1, b'e', 10, 0, 0, 0, 0, 0],
        ),
        Kind::L => (&[1, 0, 0, 0, 2, 7, 8], &[9, 0, 0, 0, 1, 10, 0, 0, 0, 0]),
    };
    let at = doc.windows(old.len()).rposition(|w| w == old)?;
    doc.splice(at..at + old.len(), new.iter().copied());
    Some(doc)
}
