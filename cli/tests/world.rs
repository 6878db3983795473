//! End-to-end tests of `nbt` over a whole world folder, assembled in a
//! temporary folder from the corpus: a gzip'd `level.dat`, two gzip'd player
//! files, two region files (copies of the corpus's 1.19.4 region, 676 zlib
//! chunks each), an SNBT file and one broken file (a cut gzip'd `level.dat`).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use assert_cmd::Command;
use predicates::prelude::*;
use simdnbt::region::Region;
use tempfile::TempDir;

fn nbt() -> Command {
    Command::cargo_bin("nbt").expect("the nbt binary is built")
}

/// Chunks in the corpus region file.
const CHUNKS: usize = 676;

/// A world in `dir/world`; returns its path. `broken`: with `broken.dat`.
fn world(dir: &TempDir, broken: bool) -> PathBuf {
    let w = dir.path().join("world");
    let put = |rel: &str, bytes: &[u8]| {
        let path = w.join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, bytes).unwrap();
    };
    let shipped = |name| corpus::load_as_shipped(name).expect("corpus file");
    let level = shipped("level.dat");
    put("level.dat", level);
    put("playerdata/a.dat", shipped("complex_player.dat"));
    put("playerdata/b.dat", shipped("complex_player.dat"));
    put("region/r.0.0.mca", shipped("1.19.4.mca"));
    put("region/r.1.0.mca", shipped("1.19.4.mca"));
    put("data/note.snbt", b"{Name: \"note\", xPos: 7}\n");
    if broken {
        put("broken.dat", &level[..level.len() / 2]);
    }
    w
}

/// Every file below `root` and its bytes, by path relative to it.
fn snapshot(root: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut files = BTreeMap::new();
    let mut dirs = vec![root.to_owned()];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
            } else {
                let rel = path.strip_prefix(root).unwrap().to_owned();
                files.insert(rel, std::fs::read(&path).unwrap());
            }
        }
    }
    files
}

fn stdout(cmd: &mut Command) -> String {
    String::from_utf8(cmd.output().unwrap().stdout).unwrap()
}

#[test]
fn find_over_a_world() {
    let dir = TempDir::new().unwrap();
    let w = world(&dir, true);
    let out = nbt().arg("find").arg(&w).arg("xPos").output().unwrap();
    // The broken file is reported and the others still searched: exit 2.
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        stderr.contains("broken.dat: gzip data ends early"),
        "{stderr}"
    );
    assert!(
        stderr.contains(&format!("{} chunks", 2 * CHUNKS)) && stderr.contains("; 1 failed"),
        "{stderr}"
    );
    assert!(
        stderr.contains(&format!("{} matches", 2 * CHUNKS + 1)),
        "{stderr}"
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2 * CHUNKS + 1);
    // Files first, in folder order, then region files chunk by chunk.
    assert_eq!(
        lines[0],
        format!("{} xPos = 7", w.join("data/note.snbt").display())
    );
    let r0 = w.join("region/r.0.0.mca");
    assert_eq!(lines[1], format!("{} chunk (0, 0) xPos = 0", r0.display()));
    let region = Region::open(&r0).unwrap();
    for (line, info) in lines[1..].iter().zip(region.chunks()) {
        let at = format!("{} chunk {} xPos = ", r0.display(), info.pos);
        assert!(line.starts_with(&at), "{line} / {at}");
    }
    // Concrete paths: the filter resolved to an index.
    let found = stdout(
        nbt()
            .arg("find")
            .arg(w.join("playerdata"))
            .arg("Inventory[{id:\"minecraft:diamond_pickaxe\"}].Slot"),
    );
    assert_eq!(found.lines().count(), 2);
    assert!(
        found.starts_with(&format!(
            "{} Inventory[1].Slot = ",
            w.join("playerdata/a.dat").display()
        )),
        "{found}"
    );

    // --count: one number.
    nbt()
        .arg("find")
        .arg(w.join("region"))
        .args(["xPos", "--count"])
        .assert()
        .success()
        .stdout(format!("{}\n", 2 * CHUNKS));
    // --json: one object per line, keys in order.
    let json = stdout(nbt().arg("find").arg(&r0).args(["xPos", "--json"]));
    let first = json.lines().next().unwrap();
    assert_eq!(
        first,
        format!(
            "{{\"file\":{:?},\"chunk\":[0,0],\"path\":\"xPos\",\"value\":0}}",
            r0.display().to_string()
        )
    );
    assert_eq!(json.lines().count(), CHUNKS);
    // Nothing matches: exit 1.
    nbt()
        .arg("find")
        .arg(w.join("region"))
        .arg("Nope")
        .assert()
        .code(1);
    // get over many: the same prefix, a tab, the value.
    let got = stdout(nbt().arg("get").arg(w.join("data")).arg("Name"));
    assert_eq!(
        got,
        format!("{}\t\"note\"\n", w.join("data/note.snbt").display())
    );
}

#[test]
fn show_a_folder() {
    let dir = TempDir::new().unwrap();
    let w = world(&dir, true);
    let out = nbt().arg("show").arg(&w).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let text = String::from_utf8(out.stdout).unwrap();
    let headers: Vec<&str> = text.lines().filter(|l| l.starts_with("# ")).collect();
    let name = |rel: &str| format!("# {}", w.join(rel).display());
    assert_eq!(
        headers,
        // A folder's files, then its folders, each in name order; region
        // files after all others.
        [
            "level.dat",
            "data/note.snbt",
            "playerdata/a.dat",
            "playerdata/b.dat",
            "region/r.0.0.mca",
            "region/r.1.0.mca",
        ]
        .iter()
        .map(|r| name(r))
        .collect::<Vec<_>>()
    );
    assert!(
        String::from_utf8(out.stderr)
            .unwrap()
            .contains("broken.dat")
    );
    let pos = stdout(nbt().arg("show").arg(w.join("data")).arg("xPos"));
    assert_eq!(pos, format!("{}\n7\n", name("data/note.snbt")));
}

#[test]
fn set_over_a_world_writes_only_what_changes() {
    let dir = TempDir::new().unwrap();
    let w = world(&dir, false);
    let before = snapshot(&w);
    let args = ["{xPos: 3}.Status", "\"edited\""];
    // --dry-run: says what would change, changes nothing.
    nbt()
        .arg("set")
        .arg(&w)
        .args(args)
        .arg("--dry-run")
        .assert()
        .success()
        .stderr(predicate::str::contains(
            "would have set 26 values in 26 chunks",
        ))
        .stderr(predicate::str::contains("would change 2 files (52 chunks)"));
    assert_eq!(snapshot(&w), before);

    nbt()
        .arg("set")
        .arg(&w)
        .args(args)
        .arg("--backup")
        .assert()
        .success()
        .stderr(predicate::str::contains(
            "changed 2 files (52 chunks); 0 failed",
        ));
    let after = snapshot(&w);
    // Two new files (the backups); the documents without the value untouched.
    assert_eq!(after.len(), before.len() + 2);
    for (rel, bytes) in &before {
        let name = rel.to_string_lossy();
        if name.ends_with(".mca") {
            let mut bak = rel.clone().into_os_string();
            bak.push(".bak");
            assert_eq!(&after[&PathBuf::from(bak)], bytes, "{name}.bak");
            assert_chunks(bytes, &after[rel], |x, _| x == 3);
        } else {
            assert_eq!(&after[rel], bytes, "{name} changed");
        }
    }
    // A second --backup refuses the files whose backup exists, and goes on.
    nbt()
        .arg("set")
        .arg(w.join("region"))
        .args(["{xPos: 4}.Status", "\"x\"", "--backup"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("r.0.0.mca.bak exists"))
        .stderr(predicate::str::contains(format!(
            "2 region files, {} chunks",
            2 * CHUNKS
        )))
        .stderr(predicate::str::contains(format!(
            "; {} failed (all the chunks of 2 region files)",
            2 * CHUNKS
        )));
    assert_eq!(snapshot(&w), after);
    // Setting what is already there changes nothing.
    nbt()
        .arg("set")
        .arg(&w)
        .args(args)
        .assert()
        .success()
        .stderr(predicate::str::contains("52 matches; changed 0 files"));
    assert_eq!(snapshot(&w), after);
}

/// Region files `old` and `new` hold the same chunks; those `changed` says
/// (by local position) differ only in `Status`, all others are
/// byte-identical, sectors and all.
fn assert_chunks(old: &[u8], new: &[u8], changed: impl Fn(u8, u8) -> bool) {
    let old = Region::from_bytes(old.to_vec()).unwrap();
    let new = Region::from_bytes(new.to_vec()).unwrap();
    assert_eq!(old.chunks().count(), new.chunks().count());
    for info in old.chunks() {
        let (x, z) = (i32::from(info.pos.x), i32::from(info.pos.z));
        let now = new.info(x, z).unwrap();
        if changed(info.pos.x, info.pos.z) {
            let doc = |r: &Region| {
                let bytes = r.chunk(x, z).unwrap().unwrap();
                simdnbt::owned::read(&mut std::io::Cursor::new(&bytes[..]))
                    .unwrap()
                    .unwrap()
            };
            let (mut a, b) = (doc(&old), doc(&new));
            a.insert("Status", "edited");
            assert_eq!(a, b, "chunk {}", info.pos);
        } else {
            let record = |r: &Region, i: simdnbt::region::ChunkInfo| {
                let start = i.sector as usize * 4096;
                r.as_bytes()[start..start + i.sectors as usize * 4096].to_vec()
            };
            assert_eq!(now, info, "chunk {} header", info.pos);
            assert_eq!(record(&old, info), record(&new, now), "chunk {}", info.pos);
        }
    }
}

/// Nothing lost: a world-wide `set` ended part way, by a failed write and by
/// an abort (as a kill would), leaves every file old or new, and every
/// chunk that was not to change byte-identical to the original. The failure
/// is injected with `NBT_TEST_FAIL_BEFORE_RENAME` (see `cli/src/store.rs`),
/// which acts just before the rename of the file it names.
#[test]
fn an_interrupted_set_loses_nothing() {
    let args = ["{xPos: 3}.Status", "\"edited\""];
    // The new form of every file, from a run that completes.
    let done = TempDir::new().unwrap();
    let w = world(&done, false);
    let old = snapshot(&w);
    nbt().arg("set").arg(&w).args(args).assert().success();
    let new = snapshot(&w);

    for (rule, code) in [("error:r.1.0.mca", Some(2)), ("abort:r.1.0.mca", None)] {
        let dir = TempDir::new().unwrap();
        let w = world(&dir, false);
        let out = nbt()
            .arg("set")
            .arg(&w)
            .args(args)
            .env("NBT_TEST_FAIL_BEFORE_RENAME", rule)
            .output()
            .unwrap();
        match code {
            Some(code) => {
                assert_eq!(out.status.code(), Some(code), "{rule}");
                let stderr = String::from_utf8_lossy(&out.stderr);
                assert!(stderr.contains("failure injected"), "{stderr}");
                // The region that failed as a whole counts its chunks: read,
                // and failed (left as they were).
                assert!(
                    stderr.contains(&format!("2 region files, {} chunks", 2 * CHUNKS))
                        && stderr.contains(&format!(
                            "changed 1 file (26 chunks); {CHUNKS} failed (all the chunks of \
                             1 region file)"
                        )),
                    "{stderr}"
                );
            }
            // Killed by a signal (SIGABRT): no exit status.
            None => assert_eq!(out.status.code(), None, "{rule}"),
        }
        let now = snapshot(&w);
        assert_eq!(
            now.get(Path::new("region/r.1.0.mca")),
            old.get(Path::new("region/r.1.0.mca"))
        );
        for (rel, bytes) in &now {
            let name = rel.to_string_lossy();
            if name.ends_with(".tmp") {
                assert!(rule.starts_with("abort"), "{name}");
                // The abort's temporary file: a whole, valid new region.
                // Another file's, cut where the abort found it writing (the
                // files are written in parallel), was never renamed: it is
                // left over, and no file's old or new form.
                if name.contains(".r.1.0.mca.") {
                    assert_chunks(&old[Path::new("region/r.1.0.mca")], bytes, |x, _| x == 3);
                }
                continue;
            }
            if *bytes == old[rel] {
                continue;
            }
            if name.ends_with(".mca") {
                // New: the completed run's bytes but for the chunk timestamps
                // (the header's second sector), stamped when written.
                let strip = |b: &[u8]| [&b[..4096], &b[8192..]].concat();
                assert_eq!(strip(bytes), strip(&new[rel]), "{name}");
                assert_chunks(&old[rel], bytes, |x, _| x == 3);
            } else {
                assert_eq!(*bytes, new[rel], "{name}");
            }
        }
    }
}

#[test]
fn replace_and_rm_over_a_world() {
    let dir = TempDir::new().unwrap();
    let w = world(&dir, false);
    let r0 = w.join("region/r.0.0.mca");
    let palette = "sections[].block_states.palette[].Name";
    let count = |name: &str| {
        let path = format!("sections[].block_states.palette[{{Name:\"{name}\"}}]");
        stdout(nbt().arg("find").arg(&r0).args([path.as_str(), "--count"]))
    };
    let stone = count("minecraft:stone");
    assert_ne!(stone, "0\n");
    // Literal text.
    nbt()
        .arg("replace")
        .arg(&r0)
        .args([palette, "minecraft:stone", "minecraft:granite"])
        .assert()
        .success();
    assert_eq!(count("minecraft:stone"), "0\n");
    // A regular expression with a group.
    nbt()
        .arg("replace")
        .arg(&w)
        .args([
            palette,
            "^minecraft:(gran)ite$",
            "minecraft:${1}olith",
            "--regex",
        ])
        .assert()
        .success();
    assert_eq!(count("minecraft:granolith").trim(), {
        let before: usize = stone.trim().parse().unwrap();
        let granite: usize = count("minecraft:granolith").trim().parse().unwrap();
        assert!(granite >= before);
        granite.to_string()
    });
    // An invalid expression is a usage error.
    nbt()
        .arg("replace")
        .arg(&w)
        .args([palette, "(", "x", "--regex"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("invalid regular expression"));

    // rm over many: the path in every document that has it.
    nbt()
        .arg("rm")
        .arg(w.join("playerdata"))
        .arg("Inventory")
        .assert()
        .success()
        .stderr(predicate::str::contains("changed 2 files (0 chunks)"));
    nbt()
        .arg("find")
        .arg(w.join("playerdata"))
        .arg("Inventory")
        .assert()
        .code(1);
    // A whole chunk.
    let before = std::fs::read(&r0).unwrap();
    nbt()
        .arg("rm")
        .arg(&r0)
        .args(["--chunk", "3,0"])
        .assert()
        .success()
        .stderr(predicate::str::contains("removed chunk 3,0"));
    let region = Region::open(&r0).unwrap();
    assert_eq!(region.chunks().count(), CHUNKS - 1);
    assert!(region.info(3, 0).is_none());
    nbt()
        .arg("rm")
        .arg(&r0)
        .args(["--chunk", "3,0"])
        .assert()
        .code(1);
    nbt()
        .arg("rm")
        .arg(&r0)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("say what to remove"));
    let _ = before;
}

#[test]
fn diff_and_convert_whole_regions_and_folders() {
    let dir = TempDir::new().unwrap();
    let a = world(&dir, false);
    let b = dir.path().join("copy");
    std::fs::create_dir_all(b.join("region")).unwrap();
    std::fs::create_dir_all(b.join("playerdata")).unwrap();
    for rel in [
        "level.dat",
        "playerdata/a.dat",
        "region/r.0.0.mca",
        "region/r.1.0.mca",
    ] {
        std::fs::copy(a.join(rel), b.join(rel)).unwrap();
    }
    std::fs::write(b.join("extra.snbt"), "{}").unwrap();
    nbt()
        .arg("set")
        .arg(b.join("region/r.0.0.mca"))
        .args(["{xPos: 5, zPos: 1}.Status", "\"x\""])
        .assert()
        .success();
    nbt()
        .arg("rm")
        .arg(b.join("region/r.1.0.mca"))
        .args(["--chunk", "0,0"])
        .assert()
        .success();
    // Two regions: chunk by chunk.
    nbt()
        .arg("diff")
        .arg(a.join("region/r.0.0.mca"))
        .arg(b.join("region/r.0.0.mca"))
        .assert()
        .code(1)
        .stdout("chunk (5, 1): ~ Status: \"full\" -> \"x\"\n");
    nbt()
        .arg("diff")
        .arg(a.join("region/r.0.0.mca"))
        .arg(a.join("region/r.1.0.mca"))
        .assert()
        .success()
        .stdout("");
    // Two folders: file by file, by relative path.
    nbt().arg("diff").arg(&a).arg(&b).assert().code(1).stdout(
        "- data/note.snbt\n\
             + extra.snbt\n\
             - playerdata/b.dat\n\
             region/r.0.0.mca chunk (5, 1): ~ Status: \"full\" -> \"x\"\n\
             - region/r.1.0.mca chunk (0, 0)\n",
    );

    // convert a whole region: every chunk under a header, or a file each.
    let r0 = a.join("region/r.0.0.mca");
    let text = stdout(
        nbt()
            .arg("convert")
            .arg(&r0)
            .args(["--to", "snbt", "--compact"]),
    );
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2 * CHUNKS);
    assert_eq!(lines[0], format!("# {} chunk (0, 0)", r0.display()));
    assert!(lines[1].starts_with("{Status:\"full\""), "{}", lines[1]);
    let out = dir.path().join("chunks");
    nbt()
        .arg("convert")
        .arg(&r0)
        .args(["--to", "gzip", "-o"])
        .arg(&out)
        .assert()
        .success();
    assert_eq!(std::fs::read_dir(&out).unwrap().count(), CHUNKS);
    nbt()
        .arg("diff")
        .arg(out.join("chunk.3.7.nbt"))
        .arg(&r0)
        .args(["--chunk", "3,7"])
        .assert()
        .code(2);
    let one = stdout(nbt().arg("get").arg(out.join("chunk.3.7.nbt")).arg("xPos"));
    assert_eq!(one, "3\n");
}

/// `--le` over a folder says how its binary NBT is stored: the SNBT files
/// beside it are read (and written back) as text.
#[test]
fn le_over_a_folder_reads_snbt_as_text() {
    let dir = TempDir::new().unwrap();
    let w = dir.path().join("bedrock");
    std::fs::create_dir_all(&w).unwrap();
    let snbt = b"{Name: \"note\", xPos: 7}\n";
    std::fs::write(w.join("note.snbt"), snbt).unwrap();
    let java = simdnbt::snbt::compound_from_str("{Name: \"le\", xPos: 7}").unwrap();
    let mut big = Vec::new();
    simdnbt::owned::BaseNbt::new("", java)
        .write(&mut big)
        .unwrap();
    let le = simdnbt::bedrock::to_little_endian(&big).unwrap();
    std::fs::write(w.join("le.dat"), &le).unwrap();

    let out = nbt()
        .args(["find", "--le"])
        .arg(&w)
        .arg("xPos")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(
        stderr.contains("2 matches") && stderr.contains("; 0 failed"),
        "{stderr}"
    );
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(stdout.contains("le.dat xPos = 7"), "{stdout}");
    assert!(stdout.contains("note.snbt xPos = 7"), "{stdout}");

    nbt()
        .args(["set", "--le"])
        .arg(&w)
        .args(["xPos", "8"])
        .assert()
        .success()
        .stderr(predicate::str::contains("changed 2 files"));
    let text = std::fs::read_to_string(w.join("note.snbt")).unwrap();
    assert!(text.contains("xPos: 8"), "{text}");
    let back = simdnbt::bedrock::to_big_endian(&std::fs::read(w.join("le.dat")).unwrap()).unwrap();
    let back = simdnbt::owned::read(&mut std::io::Cursor::new(&back[..]))
        .unwrap()
        .unwrap();
    assert_eq!(back.int("xPos"), Some(8));
}

/// A value binary NBT cannot hold (a string of 70,000 bytes) is refused for
/// every file of a world before anything is written: it used to be refused
/// for the binary files and chunks (exit 2) but written into the `.snbt`
/// files, which then no longer converted to NBT. An edit that makes such a
/// value inside a text file is refused for that file too.
#[test]
fn a_value_binary_nbt_refuses_is_refused_for_text_files_too() {
    let dir = TempDir::new().unwrap();
    let w = world(&dir, false);
    std::fs::write(w.join("data/version.snbt"), "{DataVersion: 3337}\n").unwrap();
    std::fs::write(
        w.join("data/version.json"),
        r#"{"name":"","compound":[{"name":"DataVersion","int":3337}]}"#,
    )
    .unwrap();
    let before = snapshot(&w);
    let long = format!("\"{}\"", "x".repeat(70_000));
    nbt()
        .arg("set")
        .arg(&w)
        .args(["DataVersion", &long])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("binary NBT cannot hold it"));
    assert!(snapshot(&w) == before, "a file changed");
    // The same value made by an edit, in a text file.
    std::fs::write(
        w.join("data/name.snbt"),
        format!("{{Name: \"{}\"}}\n", "y".repeat(40_000)),
    )
    .unwrap();
    let before = snapshot(&w);
    nbt()
        .arg("replace")
        .arg(w.join("data"))
        .args(["Name", "y", "yy"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "could not be stored as binary NBT",
        ));
    assert!(snapshot(&w) == before, "a file changed");
}

/// One bad header entry in a region file costs only its own chunk, for
/// every world command: each of the four kinds (sectors past the end,
/// sectors another chunk uses, a length of 0x7fffffff, an offset inside
/// the header) used to make `set WORLD` skip all 676 chunks of the file.
#[test]
fn a_bad_header_entry_costs_only_its_chunk() {
    let victim = (5usize, 5usize);
    let index = victim.0 + 32 * victim.1;
    let be32 = |b: &[u8], at: usize| u32::from_be_bytes(b[at..at + 4].try_into().unwrap());
    type Corrupt = fn(&mut Vec<u8>, usize);
    let kinds: [(&str, Corrupt, &str); 4] = [
        (
            "past the end",
            |f, i| {
                let past = (f.len() / 4096 + 10) as u32;
                f[i * 4..i * 4 + 4].copy_from_slice(&(past << 8 | 1).to_be_bytes());
            },
            "run past the end of the file",
        ),
        (
            "shared",
            |f, i| {
                let other = f[0..4].to_vec(); // chunk (0, 0)'s sectors
                f[i * 4..i * 4 + 4].copy_from_slice(&other);
            },
            "is also used by chunk (0, 0)",
        ),
        (
            "length",
            |f, i| {
                let sector =
                    (u32::from_be_bytes(f[i * 4..i * 4 + 4].try_into().unwrap()) >> 8) as usize;
                f[sector * 4096..sector * 4096 + 4].copy_from_slice(&0x7fff_ffffu32.to_be_bytes());
            },
            "length field 2147483647",
        ),
        (
            "in the header",
            |f, i| f[i * 4..i * 4 + 4].copy_from_slice(&(1u32 << 8 | 1).to_be_bytes()),
            "inside the header",
        ),
    ];
    for (kind, corrupt, why) in kinds {
        let dir = TempDir::new().unwrap();
        let w = world(&dir, false);
        let r0 = w.join("region/r.0.0.mca");
        // One region file is enough (and halves the time of a debug run).
        std::fs::remove_file(w.join("region/r.1.0.mca")).unwrap();
        let mut bytes = std::fs::read(&r0).unwrap();
        assert!(be32(&bytes, index * 4) != 0, "the victim chunk is present");
        corrupt(&mut bytes, index);
        std::fs::write(&r0, &bytes).unwrap();
        let backup = dir.path().join("r.0.0.mca");
        std::fs::write(&backup, &bytes).unwrap();
        let named = "chunk (5, 5): ";
        let stderr = |cmd: &mut Command| {
            let out = cmd.output().unwrap();
            (
                out.status.code(),
                String::from_utf8(out.stderr).unwrap(),
                String::from_utf8(out.stdout).unwrap(),
            )
        };

        // find, get and check read the other chunks.
        let (code, err, out) = stderr(nbt().arg("find").arg(&w).args(["DataVersion", "--count"]));
        assert_eq!(code, Some(2), "{kind}: {err}");
        assert_eq!(out.trim(), (CHUNKS - 1).to_string(), "{kind}: {err}");
        assert!(err.contains(named) && err.contains(why), "{kind}: {err}");
        assert!(
            err.contains("skipped for a bad header entry"),
            "{kind}: {err}"
        );
        // find and set for every kind; the other commands go through the
        // same opening, and a debug build is slow: two kinds are enough.
        let every_command = matches!(kind, "past the end" | "length");
        if every_command {
            let (code, _, out) = stderr(nbt().arg("get").arg(&r0).arg("DataVersion"));
            assert_eq!((code, out.lines().count()), (Some(2), CHUNKS - 1), "{kind}");
            let (code, err, out) = stderr(nbt().arg("check").arg(&w));
            assert_eq!(code, Some(1), "{kind}: {err}");
            assert!(
                out.contains(why) && out.lines().count() == 1,
                "{kind}: {out}"
            );
        }

        // set edits every other chunk, and leaves the bad entry as it was.
        let (code, err, _) = stderr(nbt().arg("set").arg(&w).args(["DataVersion", "3700"]));
        assert_eq!(code, Some(2), "{kind}: {err}");
        assert!(err.contains(named) && err.contains(why), "{kind}: {err}");
        assert!(
            err.contains(&format!("changed 1 file ({} chunks)", CHUNKS - 1)),
            "{kind}: {err}"
        );
        assert!(
            err.contains("skipped for a bad header entry"),
            "{kind}: {err}"
        );
        let after = std::fs::read(&r0).unwrap();
        assert_eq!(be32(&after, index * 4), be32(&bytes, index * 4), "{kind}");
        // The entry that shared (0, 0)'s sectors has them to itself once
        // (0, 0) moved: it reads as what it pointed at, as it did before.
        let resurrected = kind == "shared";
        let (region, bad) = Region::from_bytes_lenient(after.clone()).unwrap();
        assert_eq!(bad.len(), usize::from(!resurrected), "{kind}");
        let others: Vec<_> = region
            .chunks()
            .filter(|i| (i.pos.x, i.pos.z) != (5, 5))
            .collect();
        assert_eq!(others.len(), CHUNKS - 1, "{kind}");
        for info in others {
            let raw = region
                .chunk(info.pos.x.into(), info.pos.z.into())
                .unwrap()
                .unwrap();
            let nbt = simdnbt::owned::read(&mut std::io::Cursor::new(&raw[..]))
                .unwrap()
                .unwrap();
            assert_eq!(nbt.int("DataVersion"), Some(3700), "{kind} {}", info.pos);
        }
        // What the bad entry claims inside the file is kept byte for byte.
        let location = be32(&bytes, index * 4);
        let (start, count) = ((location >> 8) as usize, (location & 0xff) as usize);
        if kind == "length" {
            let span = start * 4096..(start + count) * 4096;
            assert!(after[span.clone()] == bytes[span], "{kind}");
        }

        // diff names the chunk and compares the others; rm edits them.
        let (code, err, out) = stderr(nbt().arg("diff").arg(&backup).arg(&r0));
        assert_eq!(code, Some(2), "{kind}: {err}");
        assert!(
            err.contains("chunk (5, 5)") && err.contains(why),
            "{kind}: {err}"
        );
        assert!(!out.contains("chunk (5, 5)"), "{kind}: {out}");
        assert_eq!(out.lines().count(), CHUNKS - 1, "{kind}");
        if !every_command {
            continue;
        }
        let (code, err, _) = stderr(nbt().arg("rm").arg(&r0).arg("DataVersion"));
        let edited = CHUNKS - usize::from(!resurrected);
        assert_eq!(code, Some(if resurrected { 0 } else { 2 }), "{kind}: {err}");
        assert!(
            err.contains(&format!("removed {edited} values")),
            "{kind}: {err}"
        );
        // One chunk by --chunk: the others are fine, the bad one says why.
        nbt()
            .arg("set")
            .arg(&r0)
            .args(["Status", "\"x\"", "--chunk", "1,0"])
            .assert()
            .success();
        if !resurrected {
            nbt()
                .arg("get")
                .arg(&r0)
                .args(["Status", "--chunk", "5,5"])
                .assert()
                .code(2)
                .stderr(predicate::str::contains(why));
            // The way to drop it: its entry goes, nothing else changes.
            let before = Region::from_bytes_lenient(std::fs::read(&r0).unwrap())
                .unwrap()
                .0;
            nbt()
                .arg("rm")
                .arg(&r0)
                .args(["--chunk", "5,5"])
                .assert()
                .success();
            let (after, bad) = Region::from_bytes_lenient(std::fs::read(&r0).unwrap()).unwrap();
            assert!(bad.is_empty(), "{kind}: {bad:?}");
            assert!(after.chunks().eq(before.chunks()), "{kind}");
        }
    }
}

/// Every chunk of the world's regions, as trees.
fn region_trees(w: &Path) -> Vec<simdnbt::owned::BaseNbt> {
    let mut trees = Vec::new();
    for name in ["r.0.0.mca", "r.1.0.mca"] {
        let region = Region::open(w.join("region").join(name)).unwrap();
        for info in region.chunks() {
            let raw = region
                .chunk(info.pos.x.into(), info.pos.z.into())
                .unwrap()
                .unwrap();
            let tree = simdnbt::owned::read(&mut std::io::Cursor::new(&raw[..]));
            trees.push(tree.unwrap().unwrap());
        }
    }
    trees
}

/// Two writing runs on one world at once: each either makes its whole edit
/// or is refused, saying the world is locked, and changes nothing; with
/// `--wait` both edits are made. Never a lost update (two `set`s at once
/// used to leave each region with only one run's edit). Outside a world,
/// every file is locked while it is edited.
#[test]
fn two_runs_at_once_never_lose_an_update() {
    let run = |w: &Path, args: &[&str]| {
        std::process::Command::new(assert_cmd::cargo::cargo_bin("nbt"))
            .arg("set")
            .arg(w)
            .args(args)
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap()
    };
    let edits = [["DataVersion", "3700"], ["Status", "\"minecraft:edited\""]];
    let made = |tree: &simdnbt::owned::BaseNbt, i: usize| match i {
        0 => tree.int("DataVersion") == Some(3700),
        _ => tree
            .string("Status")
            .is_some_and(|s| s.to_str() == "minecraft:edited"),
    };
    for wait in [false, true] {
        let dir = TempDir::new().unwrap();
        let w = world(&dir, false);
        // As in a world the game wrote (whose bytes are a snowman).
        std::fs::write(w.join("session.lock"), "\u{2603}").unwrap();
        let extra: &[&str] = if wait { &["--wait"] } else { &[] };
        let children: Vec<_> = edits
            .iter()
            .map(|e| {
                run(
                    &w,
                    &[e[0], e[1]]
                        .iter()
                        .chain(extra)
                        .copied()
                        .collect::<Vec<_>>(),
                )
            })
            .collect();
        let outputs: Vec<_> = children
            .into_iter()
            .map(|c| c.wait_with_output().unwrap())
            .collect();
        let trees = region_trees(&w);
        assert_eq!(trees.len(), 2 * CHUNKS);
        for (i, out) in outputs.iter().enumerate() {
            let err = String::from_utf8_lossy(&out.stderr);
            let everywhere = trees.iter().all(|t| made(t, i));
            let nowhere = trees.iter().all(|t| !made(t, i));
            if out.status.success() {
                assert!(
                    everywhere,
                    "wait {wait}: run {i} succeeded, its edit was lost: {err}"
                );
            } else {
                assert!(!wait, "run {i} failed with --wait: {err}");
                assert_eq!(out.status.code(), Some(2), "{err}");
                assert!(
                    err.contains("session.lock is locked") && err.contains("--wait"),
                    "{err}"
                );
                assert!(nowhere, "run {i} was refused but changed something");
            }
        }
    }
    // Outside a world: the files, each locked while it is edited.
    let dir = TempDir::new().unwrap();
    let folder = dir.path().join("players");
    std::fs::create_dir(&folder).unwrap();
    for name in ["a.dat", "b.dat", "c.dat"] {
        let bytes = corpus::load_as_shipped("complex_player.dat").unwrap();
        std::fs::write(folder.join(name), bytes).unwrap();
    }
    let children: Vec<_> = [["XpLevel", "77"], ["Score", "12345"]]
        .iter()
        .map(|e| run(&folder, &[e[0], e[1], "--wait"]))
        .collect();
    for child in children {
        let out = child.wait_with_output().unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    for name in ["a.dat", "b.dat", "c.dat"] {
        let tree = simdnbt::compression::read_owned_file(folder.join(name))
            .unwrap()
            .unwrap();
        assert_eq!(tree.int("XpLevel"), Some(77), "{name}");
        assert_eq!(tree.int("Score"), Some(12345), "{name}");
    }
}
