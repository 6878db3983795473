//! End-to-end tests of the `nbt` binary on corpus files (found through the
//! `corpus` crate; a missing file fails the test, nothing is skipped).

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use predicates::prelude::*;
use simdnbt::compression::{self, Compression};
use simdnbt::owned::BaseNbt;
use simdnbt::region::Region;
use tempfile::TempDir;

fn nbt() -> Command {
    Command::cargo_bin("nbt").expect("the nbt binary is built")
}

/// A corpus file as shipped (gzip files stay gzip), copied into `dir`.
fn shipped(dir: &TempDir, name: &str) -> PathBuf {
    let bytes = corpus::load_as_shipped(name).expect("corpus file");
    let path = dir.path().join(name);
    std::fs::write(&path, bytes).unwrap();
    path
}

/// `bytes` written to `dir/name`.
fn file(dir: &TempDir, name: &str, bytes: &[u8]) -> PathBuf {
    let path = dir.path().join(name);
    std::fs::write(&path, bytes).unwrap();
    path
}

/// The tree of a corpus file, through the library.
fn tree(name: &str) -> BaseNbt {
    let bytes = corpus::load(name).expect("corpus file");
    simdnbt::owned::read(&mut std::io::Cursor::new(bytes))
        .unwrap()
        .unwrap()
}

/// The tree of one chunk of a region.
fn chunk_tree(region: &Region, info: simdnbt::region::ChunkInfo) -> BaseNbt {
    let bytes = region
        .chunk(info.pos.x.into(), info.pos.z.into())
        .unwrap()
        .unwrap();
    simdnbt::owned::read(&mut std::io::Cursor::new(&bytes[..]))
        .unwrap()
        .unwrap()
}

/// The tree of a file the tool wrote (any compression).
fn read_back(path: &Path) -> BaseNbt {
    compression::read_owned_file(path).unwrap().unwrap()
}

fn pretty(nbt: &BaseNbt) -> String {
    simdnbt::snbt::to_string_pretty(nbt).unwrap() + "\n"
}

/// Runs `nbt BEFORE FILE AFTER`, which must fail with exit status 2 and a
/// message containing `message` on stderr.
fn fails(before: &[&str], file: &Path, after: &[&str], message: &str) {
    nbt()
        .args(before)
        .arg(file)
        .args(after)
        .assert()
        .code(2)
        .stderr(predicate::str::contains(message));
}

/// Runs `nbt BEFORE FILE AFTER`, which must succeed.
fn succeeds(before: &[&str], file: &Path, after: &[&str]) {
    nbt().args(before).arg(file).args(after).assert().success();
}

/// `nbt convert FLAGS INPUT --to TO -o OUTPUT`, which must succeed.
fn convert(flags: &[&str], input: &Path, to: &str, output: &Path) {
    nbt()
        .arg("convert")
        .args(flags)
        .arg(input)
        .args(["--to", to, "-o"])
        .arg(output)
        .assert()
        .success();
}

fn stdout_of(cmd: &mut Command) -> String {
    let out = cmd.output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn show_gzip_file_prints_pretty_snbt() {
    let dir = TempDir::new().unwrap();
    let path = shipped(&dir, "level.dat");
    assert_eq!(
        &corpus::load_as_shipped("level.dat").unwrap()[..2],
        [0x1f, 0x8b]
    );
    let out = stdout_of(nbt().arg("show").arg(&path));
    assert_eq!(out, pretty(&tree("level.dat")));
}

#[test]
fn show_zlib_and_raw_files() {
    let dir = TempDir::new().unwrap();
    let raw = corpus::load("bigtest.nbt").unwrap();
    let zlib = file(
        &dir,
        "big.zlib",
        &compression::compress(raw, Compression::Zlib),
    );
    let plain = file(&dir, "big.nbt", raw);
    let expected = pretty(&tree("bigtest.nbt"));
    assert_eq!(stdout_of(nbt().arg("show").arg(&zlib)), expected);
    assert_eq!(stdout_of(nbt().arg("show").arg(&plain)), expected);
    // stdin
    assert_eq!(
        stdout_of(nbt().args(["show", "-"]).write_stdin(raw.to_vec())),
        expected
    );
}

#[test]
fn show_colours_only_when_asked() {
    let dir = TempDir::new().unwrap();
    let path = shipped(&dir, "hello_world.nbt");
    let plain = stdout_of(nbt().arg("show").arg(&path));
    assert!(
        !plain.contains('\x1b'),
        "not a terminal: no colour by default"
    );
    let coloured = stdout_of(nbt().args(["--color", "always", "show"]).arg(&path));
    assert!(coloured.contains("\x1b[36mname\x1b[0m"), "{coloured:?}");
    assert!(
        coloured.contains("\x1b[32m\"Bananrama\"\x1b[0m"),
        "{coloured:?}"
    );
}

#[test]
fn show_region_table_and_one_chunk() {
    let dir = TempDir::new().unwrap();
    let path = shipped(&dir, "1.19.4.mca");
    let table = stdout_of(nbt().arg("show").arg(&path));
    let lines: Vec<&str> = table.lines().collect();
    assert!(lines[0].contains("sectors") && lines[0].contains("compression"));
    assert_eq!(lines.len(), 1 + 676 + 1, "header, 676 chunks, summary");
    assert!(lines[1].contains("zlib"), "{}", lines[1]);
    assert!(table.ends_with("676 chunks; show one with --chunk X,Z\n"));

    let region = Region::open(&path).unwrap();
    let chunk = region.chunk(3, 0).unwrap().unwrap();
    let expected = simdnbt::owned::read(&mut std::io::Cursor::new(&chunk[..]))
        .unwrap()
        .unwrap();
    let out = stdout_of(nbt().arg("show").arg(&path).args(["--chunk", "3,0"]));
    assert_eq!(out, pretty(&expected));
    // Absolute chunk coordinates pick the same chunk.
    let abs = stdout_of(nbt().arg("show").arg(&path).args(["--chunk", "35,-32"]));
    assert_eq!(abs, out);
}

#[test]
fn convert_between_every_form() {
    let dir = TempDir::new().unwrap();
    let path = shipped(&dir, "complex_player.dat");
    let original = tree("complex_player.dat");

    let snbt = dir.path().join("p.snbt");
    convert(&[], &path, "snbt", &snbt);
    assert_eq!(std::fs::read_to_string(&snbt).unwrap(), pretty(&original));

    // SNBT (detected by extension) to each binary form, each read back equal.
    for (to, magic) in [
        ("gzip", Some(0x1f)),
        ("zlib", Some(0x78)),
        ("nbt", Some(0x0a)),
    ] {
        let out = dir.path().join(format!("p.{to}"));
        convert(&[], &snbt, to, &out);
        let bytes = std::fs::read(&out).unwrap();
        assert_eq!(bytes.first().copied(), magic, "{to}");
        // SNBT does not keep the root name.
        assert_eq!(*read_back(&out), *original, "{to}");
    }

    // JSON: the serde form of the tree.
    let json = stdout_of(nbt().arg("convert").arg(&path).args(["--to", "json"]));
    assert_eq!(
        json,
        serde_json::to_string_pretty(&original).unwrap() + "\n"
    );
    let compact = stdout_of(
        nbt()
            .args(["convert", "-", "--to", "json", "--compact"])
            .write_stdin(
                corpus::load_as_shipped("complex_player.dat")
                    .unwrap()
                    .to_vec(),
            ),
    );
    assert_eq!(compact, serde_json::to_string(&original).unwrap() + "\n");
    // and back from JSON (`--from`, stdin to stdout)
    let back = nbt()
        .args(["convert", "-", "--from", "json", "--to", "nbt"])
        .write_stdin(json)
        .output()
        .unwrap();
    assert!(back.status.success());
    let back = simdnbt::owned::read(&mut std::io::Cursor::new(&back.stdout[..]))
        .unwrap()
        .unwrap();
    let expected: BaseNbt =
        serde_json::from_str(&serde_json::to_string(&original).unwrap()).unwrap();
    assert_eq!(back, expected);
}

#[test]
fn check_a_world_folder() {
    let dir = TempDir::new().unwrap();
    let world = dir.path().join("world");
    let region_dir = world.join("region");
    std::fs::create_dir_all(&region_dir).unwrap();
    std::fs::write(
        world.join("level.dat"),
        corpus::load_as_shipped("level.dat").unwrap(),
    )
    .unwrap();
    std::fs::write(
        region_dir.join("r.0.0.mca"),
        corpus::load_as_shipped("1.19.4.mca").unwrap(),
    )
    .unwrap();
    std::fs::write(world.join("session.lock"), b"not nbt, not checked").unwrap();
    nbt()
        .arg("check")
        .arg(&world)
        .assert()
        .code(0)
        .stdout("")
        .stderr(predicate::str::contains(
            "checked 2 files (1 region file, 676 chunks; 1 NBT file)",
        ))
        .stderr(predicate::str::contains("0 invalid"));

    // A truncated player file: named, with the byte offset; exit status 1.
    let player = corpus::load("simple_player.dat").unwrap();
    let cut = &player[..player.len() / 2];
    std::fs::create_dir_all(world.join("playerdata")).unwrap();
    let bad = world.join("playerdata").join("p.dat");
    std::fs::write(&bad, compression::compress(cut, Compression::Gzip)).unwrap();
    let out = nbt().arg("check").arg(&world).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert_eq!(stdout.lines().count(), 1, "{stdout}");
    assert!(stdout.starts_with(&format!("{}: invalid NBT: ", bad.display())));
    assert!(
        stdout.contains(&format!(
            "at byte {} (of the data inflated from gzip)",
            cut.len()
        )),
        "{stdout}"
    );
}

#[test]
fn check_a_broken_region_names_the_chunk() {
    let dir = TempDir::new().unwrap();
    let mut bytes = corpus::load_as_shipped("1.19.4.mca").unwrap().to_vec();
    let region = Region::from_bytes(bytes.clone()).unwrap();
    let info = region.info(0, 0).unwrap();
    // Spoil the zlib data of chunk (0, 0): keep the 5-byte prefix and the
    // zlib header, overwrite the deflate stream.
    let start = info.sector as usize * 4096 + 5 + 2;
    bytes[start..start + 64].fill(0xff);
    let path = file(&dir, "r.0.0.mca", &bytes);
    let out = nbt().arg("check").arg(&path).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(
        stdout.starts_with(&format!("{}: chunk (0, 0): ", path.display())),
        "{stdout}"
    );
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(stderr.contains("675 chunks"), "{stderr}");
}

#[test]
fn check_exit_status_two_for_a_missing_file() {
    let dir = TempDir::new().unwrap();
    let good = shipped(&dir, "bigtest.nbt");
    nbt()
        .arg("check")
        .arg(&good)
        .arg(dir.path().join("missing.dat"))
        .assert()
        .code(2)
        .stdout(predicate::str::contains("missing.dat: cannot read"));
}

#[test]
fn diff_by_path() {
    let dir = TempDir::new().unwrap();
    let a = file(
        &dir,
        "a.snbt",
        b"{Health: 20.0f, Inventory: [{id: 'stone', Count: 1b}], xp: 3}",
    );
    let b = file(
        &dir,
        "b.snbt",
        b"{Health: 18.5f, Inventory: [{id: 'stone', Count: 2b}, {id: 'dirt', Count: 1b}], xp: 3L, new: 'x'}",
    );
    nbt().arg("diff").arg(&a).arg(&b).assert().code(1).stdout(
        "~ Health: 20.0f -> 18.5f\n\
             ~ Inventory[0].Count: 1b -> 2b\n\
             + Inventory[1]: {id:\"dirt\",Count:1b}\n\
             ~ xp: 3 -> 3L (Int -> Long)\n\
             + new: \"x\"\n",
    );
    nbt()
        .arg("diff")
        .arg(&a)
        .arg(&a)
        .assert()
        .code(0)
        .stdout("");
    // A gzip file and its SNBT form are the same document.
    let level = shipped(&dir, "level.dat");
    let snbt = file(&dir, "level.snbt", pretty(&tree("level.dat")).as_bytes());
    nbt().arg("diff").arg(&level).arg(&snbt).assert().code(0);
}

#[test]
fn clear_errors_for_bad_input() {
    let dir = TempDir::new().unwrap();
    let missing = dir.path().join("nope.dat");
    nbt()
        .arg("show")
        .arg(&missing)
        .assert()
        .code(2)
        .stderr(predicate::str::starts_with(format!(
            "nbt: cannot read {}: ",
            missing.display()
        )));

    let raw = corpus::load("bigtest.nbt").unwrap();
    let truncated = file(&dir, "cut.nbt", &raw[..100]);
    nbt().arg("show").arg(&truncated).assert().code(2).stderr(
        predicate::str::contains("invalid NBT: ").and(predicate::str::contains("at byte 100")),
    );

    // Cut inside the third item's id: the error names that value's path.
    let player = corpus::load("complex_player.dat").unwrap();
    let beef = player
        .windows(21)
        .position(|w| w == b"minecraft:cooked_beef")
        .unwrap();
    let in_item = file(&dir, "item.nbt", &player[..beef + 5]);
    fails(
        &["show"],
        &in_item,
        &[],
        &format!("at byte {}, in Inventory[2].id\n", beef + 5),
    );

    let gz = compression::compress(raw, Compression::Gzip);
    let cut_gz = file(&dir, "cut.dat", &gz[..gz.len() / 2]);
    fails(&["show"], &cut_gz, &[], "gzip data ends early");

    let bad_snbt = file(&dir, "bad.snbt", b"{a: 1,\n b: 128b}");
    nbt().arg("show").arg(&bad_snbt).assert().code(2).stderr(
        "nbt: ".to_owned()
            + &bad_snbt.display().to_string()
            + ": invalid SNBT: line 2, column 5: number out of range for its type\n",
    );

    let region = shipped(&dir, "1.19.4.mca");
    fails(
        &["convert"],
        &region,
        &["--to", "gzip"],
        "give -o DIR for binary output",
    );
    let chunk = |pos| ["--chunk", pos];
    fails(
        &["show"],
        &region,
        &chunk("31,31"),
        "chunk 31,31 is not in the region",
    );
    fails(
        &["show"],
        &region,
        &chunk("x"),
        "is not a chunk position X,Z",
    );

    // Usage errors: clap's message, exit status 2, never a panic.
    nbt().assert().code(2);
    nbt().args(["frobnicate"]).assert().code(2);
    nbt()
        .args(["convert", "x", "--to", "yaml"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("invalid value 'yaml'"));
}

#[test]
fn binary_output_is_not_sent_to_a_terminal_but_is_to_a_pipe() {
    let dir = TempDir::new().unwrap();
    let path = shipped(&dir, "hello_world.nbt");
    let out = nbt()
        .arg("convert")
        .arg(&path)
        .args(["--to", "gzip"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let back = compression::decompress(&out.stdout).unwrap();
    assert_eq!(&*back, corpus::load("hello_world.nbt").unwrap());
}

#[test]
fn help_has_examples() {
    nbt()
        .arg("--help")
        .assert()
        .success()
        .stdout(predicate::str::contains("Examples:"))
        .stdout(predicate::str::contains("nbt check world/"));
    for command in ["show", "convert", "check", "diff"] {
        nbt()
            .args([command, "--help"])
            .assert()
            .success()
            .stdout(predicate::str::contains("Examples:"));
    }
}

#[test]
fn end_root_documents() {
    let dir = TempDir::new().unwrap();
    let end = file(&dir, "end.nbt", &[0]);
    nbt()
        .arg("convert")
        .arg(&end)
        .args(["--to", "snbt"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("holds no document"));
    // `show` prints an End root as the empty compound.
    nbt()
        .arg("show")
        .arg(&end)
        .assert()
        .success()
        .stdout("{}\n");
}

/// Every command reads a document into the library's document model, which
/// holds binary NBT: a text file holding what binary NBT cannot (a string of
/// 70,000 bytes) is refused by each, saying why, and never half-read.
#[test]
fn a_text_file_binary_nbt_cannot_hold_is_refused_by_every_reader() {
    let dir = TempDir::new().unwrap();
    let long = file(
        &dir,
        "long.snbt",
        format!("{{Name: \"{}\", n: 1}}\n", "y".repeat(70_000)).as_bytes(),
    );
    let small = file(&dir, "small.snbt", b"{n: 1}\n");
    for args in [
        vec!["show"],
        vec!["get", "n"],
        vec!["find", "n"],
        vec!["convert", "--to", "json"],
    ] {
        nbt()
            .args(&args[..1])
            .arg(&long)
            .args(&args[1..])
            .assert()
            .code(2)
            .stdout("")
            .stderr(predicate::str::contains("binary NBT cannot hold it"));
    }
    nbt()
        .arg("diff")
        .arg(&small)
        .arg(&long)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("binary NBT cannot hold it"));
}

#[test]
fn get_values_by_path() {
    let dir = TempDir::new().unwrap();
    let path = shipped(&dir, "bigtest.nbt");
    let get = |args: &[&str]| stdout_of(nbt().arg("get").arg(&path).args(args));
    assert_eq!(get(&["'nested compound test'.egg.name"]), "\"Eggbert\"\n");
    assert_eq!(
        get(&["'nested compound test'.egg.name", "--raw"]),
        "Eggbert\n"
    );
    assert_eq!(get(&["'listTest (long)'"]), "[11L,12L,13L,14L,15L]\n");
    assert_eq!(get(&["'listTest (long)'[]"]), "11L\n12L\n13L\n14L\n15L\n");
    assert_eq!(get(&["'listTest (long)'[-1]", "--json"]), "15\n");
    assert_eq!(
        get(&["'listTest (compound)'[{name:\"Compound tag #1\"}].created-on"]),
        "1264099775885L\n"
    );
    // Nothing matches: exit status 1, nothing on stdout.
    nbt()
        .arg("get")
        .arg(&path)
        .arg("nope")
        .assert()
        .code(1)
        .stdout("")
        .stderr(predicate::str::contains("nothing matches `nope`"));
    // A bad path: exit status 2, with the column.
    nbt()
        .arg("get")
        .arg(&path)
        .arg("a[")
        .assert()
        .code(2)
        .stderr(predicate::str::starts_with(
            "nbt: invalid path `a[`: column 3: ",
        ));
}

#[test]
fn get_on_region_chunks() {
    let dir = TempDir::new().unwrap();
    let path = shipped(&dir, "1.19.4.mca");
    let all = stdout_of(nbt().arg("get").arg(&path).arg("xPos"));
    let lines: Vec<&str> = all.lines().collect();
    assert_eq!(lines.len(), 676);
    let region = Region::open(&path).unwrap();
    for (line, info) in lines.iter().zip(region.chunks()) {
        let x = chunk_tree(&region, info).int("xPos").unwrap();
        let at = format!("{} chunk ({}, {})", path.display(), info.pos.x, info.pos.z);
        assert_eq!(*line, format!("{at}\t{x}"));
    }
    let one = stdout_of(
        nbt()
            .arg("get")
            .arg(&path)
            .args(["Status", "--chunk", "1,0", "--raw"]),
    );
    assert_eq!(one, "full\n");
}

/// Copies `name` (as shipped) to a temp file and sets/removes in it: the
/// file keeps its compression and holds the edited tree.
#[test]
fn set_and_rm_keep_the_compression() {
    let dir = TempDir::new().unwrap();
    let raw = corpus::load("complex_player.dat").unwrap();
    for (suffix, compression, magic) in [
        ("gz", Compression::Gzip, 0x1f),
        ("zlib", Compression::Zlib, 0x78),
        ("raw", Compression::Raw, 0x0a),
    ] {
        let bytes = match compression {
            Compression::Raw => raw.to_vec(),
            c => compression::compress(raw, c),
        };
        let path = file(&dir, &format!("p.{suffix}"), &bytes);
        nbt()
            .arg("set")
            .arg(&path)
            .args(["Health", "7.5f"])
            .assert()
            .success()
            .stderr(predicate::str::ends_with("set 1 value\n"));
        succeeds(&["set"], &path, &["NewKey", "{a: [I; 1, 2]}"]);
        nbt()
            .arg("rm")
            .arg(&path)
            .arg("Inventory[]")
            .assert()
            .success();
        let written = std::fs::read(&path).unwrap();
        assert_eq!(written[0], magic, "{suffix}");
        assert_eq!(compression::detect(&written), compression, "{suffix}");
        let mut expected = tree("complex_player.dat");
        *expected.get_mut("Health").unwrap() = simdnbt::owned::NbtTag::Float(7.5);
        // A new key goes at the end.
        expected.insert("NewKey", simdnbt::snbt::from_str("{a: [I; 1, 2]}").unwrap());
        assert!(!expected.list("Inventory").unwrap().is_empty());
        *expected.get_mut("Inventory").unwrap() =
            simdnbt::owned::NbtTag::List(simdnbt::owned::NbtList::Compound(vec![]));
        assert_eq!(read_back(&path), expected, "{suffix}");
        let leftovers: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .filter_map(|e| e.ok())
            .filter(|e| e.file_name().to_string_lossy().ends_with(".tmp"))
            .collect();
        assert!(leftovers.is_empty(), "temporary files left: {leftovers:?}");
    }
}

/// The bytes `set` (`value` given) or `rm` at `path` should leave in a file
/// holding `before` (uncompressed NBT) stored as `compression`: the owned
/// tree edited, written and compressed at the default level.
fn edited_bytes(before: &[u8], path: &str, value: Option<&str>) -> Vec<u8> {
    let mut tree = simdnbt::owned::read(&mut std::io::Cursor::new(before))
        .unwrap()
        .unwrap();
    let path = simdnbt::path::NbtPath::parse(path).unwrap();
    match value {
        Some(v) => {
            path.set(&mut tree, simdnbt::snbt::from_str(v).unwrap())
                .unwrap();
        }
        None => assert!(path.remove(&mut tree) > 0),
    }
    let mut raw = Vec::new();
    tree.write(&mut raw).unwrap();
    raw
}

#[test]
fn set_and_rm_write_the_bytes_of_the_edited_tree() {
    let dir = TempDir::new().unwrap();
    let edits: &[(&str, Option<&str>)] = &[
        ("Health", Some("7.5f")),
        ("Health", Some("7.5d")),
        ("NewKey", Some("{a: [I; 1, 2]}")),
        ("Inventory[].Count", Some("2b")),
        ("Inventory[{Slot:0b}].id", Some("\"minecraft:stone\"")),
        ("Pos[0]", Some("1.0d")),
        ("Inventory[].tag.display.Name", Some("\"x\"")),
        ("Inventory[0]", None),
        ("Inventory[].tag", None),
        ("Pos[-1]", None),
        ("..id", None),
    ];
    for compression in [Compression::Gzip, Compression::Zlib, Compression::Raw] {
        let raw = corpus::load("complex_player.dat").unwrap();
        let path = file(
            &dir,
            "p.dat",
            &compression::compress_with_level(raw, compression, 6),
        );
        let mut now = raw.to_vec();
        for &(at, value) in edits {
            let want = edited_bytes(&now, at, value);
            let mut cmd = nbt();
            match value {
                Some(v) => cmd.arg("set").arg(&path).args([at, v]),
                None => cmd.arg("rm").arg(&path).arg(at),
            };
            cmd.assert().success();
            let written = std::fs::read(&path).unwrap();
            assert!(
                written == compression::compress_with_level(&want, compression, 6),
                "{compression:?}: {at} {value:?}"
            );
            now = want;
        }
    }
    // One chunk of a region: the chunk as the edited tree writes it.
    let path = shipped(&dir, "1.19.4.mca");
    let mut region = Region::open(&path).unwrap();
    let info = region.info(2, 0).unwrap();
    let mut now = region.chunk(2, 0).unwrap().unwrap();
    for (at, value) in [("Status", Some("\"edited\"")), ("sections[0]", None)] {
        let want = edited_bytes(&now, at, value);
        let chunk =
            simdnbt::region::EncodedChunk::with_level(&want, info.compression.unwrap(), 6).unwrap();
        region.write_encoded(2, 0, &chunk).unwrap();
        let mut cmd = nbt();
        match value {
            Some(v) => cmd.arg("set").arg(&path).args([at, v]),
            None => cmd.arg("rm").arg(&path).arg(at),
        };
        cmd.args(["--chunk", "2,0"]).assert().success();
        // The chunk's timestamp is the second each side wrote it in.
        let stamp = 4096 + 2 * 4..4096 + 2 * 4 + 4;
        let unstamped = |bytes: &[u8]| {
            let mut bytes = bytes.to_vec();
            bytes[stamp.clone()].fill(0);
            bytes
        };
        assert!(
            unstamped(&std::fs::read(&path).unwrap()) == unstamped(region.as_bytes()),
            "chunk: {at}"
        );
        now = want;
    }
}

#[test]
fn set_in_a_region_chunk_keeps_the_other_chunks() {
    let dir = TempDir::new().unwrap();
    let path = shipped(&dir, "1.19.4.mca");
    let before = Region::open(&path).unwrap();
    succeeds(&["set"], &path, &["Status", "\"edited\"", "--chunk", "2,0"]);
    let after = Region::open(&path).unwrap();
    assert_eq!(after.len(), 676);
    for info in before.chunks() {
        let (x, z) = (info.pos.x.into(), info.pos.z.into());
        let old = before.chunk(x, z).unwrap().unwrap();
        let new = after.chunk(x, z).unwrap().unwrap();
        let new_info = after.info(x, z).unwrap();
        assert_eq!(new_info.compression, info.compression);
        if (x, z) == (2, 0) {
            let doc = simdnbt::owned::read(&mut std::io::Cursor::new(&new[..]))
                .unwrap()
                .unwrap();
            assert_eq!(doc.string("Status").unwrap().to_str(), "edited");
        } else {
            assert_eq!(old, new, "chunk {x},{z} changed");
        }
    }
    // set on a region without --chunk sets every chunk
    nbt()
        .arg("set")
        .arg(&path)
        .args(["Status", "1b"])
        .assert()
        .success()
        .stderr(predicate::str::contains(": set 676 values in 676 chunks"));
    let after = Region::open(&path).unwrap();
    assert_eq!(after.chunks().count(), 676);
    for info in after.chunks() {
        assert_eq!(chunk_tree(&after, info).byte("Status"), Some(1));
    }
}

#[test]
fn edits_that_would_not_read_back_are_refused() {
    let dir = TempDir::new().unwrap();
    let path = shipped(&dir, "level.dat");
    let original = std::fs::read(&path).unwrap();
    let refused = |args: &[&str], why: &str| {
        nbt()
            .arg("set")
            .arg(&path)
            .args(args)
            .assert()
            .code(2)
            .stderr(predicate::str::contains(why));
        assert_eq!(std::fs::read(&path).unwrap(), original, "{args:?}");
    };
    // A string longer than NBT allows.
    let long = format!("\"{}\"", "a".repeat(70_000));
    refused(&["Data.LevelName", &long], "refusing to write");
    // A value nested so deep that the document would pass 512 levels.
    let deep = format!("{}{}", "[".repeat(511), "]".repeat(511));
    refused(&["Data.deep", &deep], "refusing to write");
    // Bad SNBT, a bad path, a path that selects nothing to set.
    refused(&["Data.LevelName", "{a:"], "invalid SNBT value");
    refused(&["Data...x", "1b"], "invalid path `Data...x`: column 7");
    refused(&["Nope.x", "1b"], "cannot set");
    // rm of nothing: exit status 1, file untouched.
    nbt().arg("rm").arg(&path).arg("Data.Nope").assert().code(1);
    assert_eq!(std::fs::read(&path).unwrap(), original);
    // A missing file.
    nbt()
        .arg("set")
        .arg(dir.path().join("missing.dat"))
        .args(["a", "1b"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("cannot read"));
}

#[test]
fn set_on_text_files_and_stdin() {
    let dir = TempDir::new().unwrap();
    let snbt = file(&dir, "a.snbt", b"{a: 1b, b: [1, 2]}\n");
    succeeds(&["set"], &snbt, &["b[0]", "5"]);
    assert_eq!(
        std::fs::read_to_string(&snbt).unwrap(),
        "{\n    a: 1b,\n    b: [5, 2]\n}\n"
    );
    let json = file(&dir, "a.json", b"{\"a\": 1, \"s\": \"x\"}");
    succeeds(&["set"], &json, &["s", "\"y\""]);
    assert_eq!(
        std::fs::read_to_string(&json).unwrap(),
        "{\n  \"a\": 1,\n  \"s\": \"y\"\n}\n"
    );
    // stdin to stdout, same compression
    let gz = compression::compress(corpus::load("hello_world.nbt").unwrap(), Compression::Gzip);
    let out = nbt()
        .args(["set", "-", "name", "\"Steve\""])
        .write_stdin(gz)
        .output()
        .unwrap();
    assert!(out.status.success());
    assert_eq!(compression::detect(&out.stdout), Compression::Gzip);
    let back = compression::Decompressed::from_bytes(&out.stdout)
        .unwrap()
        .to_owned_nbt()
        .unwrap();
    assert_eq!(back.string("name").unwrap().to_str(), "Steve");
}

/// A Bedrock form of a corpus file: little-endian, with a level.dat header.
fn bedrock_level_dat(name: &str) -> Vec<u8> {
    let le = simdnbt::bedrock::to_little_endian(corpus::load(name).unwrap()).unwrap();
    let mut out = Vec::new();
    simdnbt::bedrock::write_level_header(10, &le, &mut out);
    out
}

#[test]
fn little_endian_round_trip() {
    let dir = TempDir::new().unwrap();
    let level = file(&dir, "level.dat", &bedrock_level_dat("bigtest.nbt"));
    let original = tree("bigtest.nbt");
    assert_eq!(
        stdout_of(nbt().args(["show", "--le"]).arg(&level)),
        pretty(&original)
    );
    // Read as Java, the header's `0a 00 00 00` would be an empty compound
    // with bytes after it: with no flag, the tool reads it as Bedrock and
    // says so on stderr.
    nbt()
        .arg("show")
        .arg(&level)
        .assert()
        .success()
        .stdout(pretty(&original))
        .stderr(predicate::str::contains(
            "reads as Bedrock little-endian NBT after a level.dat header",
        ));
    // LE to Java and back: the same bytes.
    let java = dir.path().join("java.nbt");
    convert(&["--bedrock"], &level, "nbt", &java);
    assert_eq!(
        std::fs::read(&java).unwrap(),
        corpus::load("bigtest.nbt").unwrap()
    );
    let back = dir.path().join("back.dat");
    convert(&[], &java, "nbt-le", &back);
    let le_body = simdnbt::bedrock::to_little_endian(corpus::load("bigtest.nbt").unwrap()).unwrap();
    assert_eq!(
        std::fs::read(&back).unwrap(),
        le_body,
        "no header: the Java input had none"
    );
    // The header is kept when the input had one.
    let again = dir.path().join("again.dat");
    convert(&["--le"], &level, "nbt-le", &again);
    assert_eq!(
        std::fs::read(&again).unwrap(),
        std::fs::read(&level).unwrap()
    );

    // set keeps the little-endian form and the header (with the new length).
    succeeds(&["set", "--le"], &level, &["intTest", "7"]);
    let bytes = std::fs::read(&level).unwrap();
    let (header, body) = simdnbt::bedrock::split_level_header(&bytes).expect("header kept");
    assert_eq!(header.version, 10);
    let java = simdnbt::bedrock::to_big_endian(body).unwrap();
    let doc = simdnbt::owned::read(&mut std::io::Cursor::new(&java[..]))
        .unwrap()
        .unwrap();
    assert_eq!(doc.int("intTest"), Some(7));

    // check --le, and a truncated Bedrock file with its offset.
    nbt().args(["check", "--le"]).arg(&level).assert().code(0);
    let cut = file(&dir, "cut.dat", &bytes[..bytes.len() - 10]);
    nbt()
        .args(["check", "--le"])
        .arg(&cut)
        .assert()
        .code(1)
        .stdout(predicate::str::contains("invalid little-endian NBT"));
    nbt()
        .args(["show", "--le", "--from", "snbt"])
        .arg(&level)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--le is for binary NBT"));
}

#[test]
fn network_form_round_trip_and_detection() {
    let dir = TempDir::new().unwrap();
    let java = corpus::load("bigtest.nbt").unwrap();
    let original = tree("bigtest.nbt");
    let net = file(
        &dir,
        "packet.nbt",
        &simdnbt::bedrock::to_network(java).unwrap(),
    );
    let le = file(
        &dir,
        "plain-le.nbt",
        &simdnbt::bedrock::to_little_endian(java).unwrap(),
    );
    assert_eq!(
        stdout_of(nbt().args(["show", "--varint"]).arg(&net)),
        pretty(&original)
    );
    // No flag: each Bedrock form is recognised, with a notice.
    for (path, says) in [
        (&net, "reads as Bedrock network-form (VarInt) NBT"),
        (&le, "reads as Bedrock little-endian NBT"),
    ] {
        nbt()
            .arg("show")
            .arg(path)
            .assert()
            .success()
            .stdout(pretty(&original))
            .stderr(predicate::str::contains(says));
    }
    // Java -> network -> Java, byte-exact; and LE -> network.
    let back = dir.path().join("back.nbt");
    let out = dir.path().join("out.nbt");
    convert(&[], &net, "nbt", &back);
    assert_eq!(std::fs::read(&back).unwrap(), java);
    convert(&["--le"], &le, "nbt-varint", &out);
    assert_eq!(std::fs::read(&out).unwrap(), std::fs::read(&net).unwrap());
    // A broken network file says where.
    let bytes = std::fs::read(&net).unwrap();
    let cut = file(&dir, "cut.nbt", &bytes[..bytes.len() - 3]);
    fails(
        &["show", "--varint"],
        &cut,
        &[],
        "invalid network-form (VarInt) NBT",
    );
    fails(
        &["show", "--varint", "--le"],
        &net,
        &[],
        "cannot be used with",
    );
    // check --varint: the file alone, then a folder of one good and one cut
    // file, which names the cut one with its problem.
    nbt().args(["check", "--varint"]).arg(&net).assert().code(0);
    nbt()
        .arg("check")
        .arg(&net)
        .assert()
        .code(1)
        .stdout(predicate::str::contains("check it with --varint"));
    nbt()
        .arg("check")
        .arg(&le)
        .assert()
        .code(1)
        .stdout(predicate::str::contains("check it with --le"));
    let folder = dir.path().join("packets");
    std::fs::create_dir(&folder).unwrap();
    std::fs::copy(&net, folder.join("good.nbt")).unwrap();
    std::fs::copy(&cut, folder.join("cut.nbt")).unwrap();
    nbt()
        .args(["check", "--network"])
        .arg(&folder)
        .assert()
        .code(1)
        .stdout(predicate::str::contains("cut.nbt"))
        .stdout(predicate::str::contains(
            "invalid network-form (VarInt) NBT",
        ))
        .stdout(predicate::str::contains("good.nbt").not());
}

/// The hostile-input table (docs/format.md §4) through `check` and `show`:
/// each answer is the library's, with its byte offset; nothing panics.
#[test]
fn hostile_inputs_get_clear_answers() {
    let dir = TempDir::new().unwrap();
    let cases = testkit::hostile::cases_with_depth(2000);
    for case in &cases {
        file(&dir, &format!("{}.nbt", case.name), &case.bytes);
    }
    let out = nbt().arg("check").arg(dir.path()).output().unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(!stderr.contains("panicked"), "{stderr}");
    let mut any_bad = false;
    for case in &cases {
        let path = dir.path().join(format!("{}.nbt", case.name));
        let prefix = format!("{}: ", path.display());
        let line = stdout.lines().find(|l| l.starts_with(&prefix));
        match case.expect {
            testkit::hostile::Expect::Error(_, offset) => {
                any_bad = true;
                let line = line.unwrap_or_else(|| panic!("{}: not reported\n{stdout}", case.name));
                let at = format!(" at byte {offset}");
                assert!(
                    line.ends_with(&at) || line.contains(&format!("{at}, in ")),
                    "{}: {line}",
                    case.name
                );
            }
            _ => assert!(line.is_none(), "{}: {line:?}", case.name),
        }
    }
    assert_eq!(out.status.code(), Some(if any_bad { 1 } else { 0 }));

    for case in &cases {
        let path = dir.path().join(format!("{}.nbt", case.name));
        for le in [false, true] {
            let mut cmd = nbt();
            cmd.arg("show").arg(&path);
            if le {
                cmd.arg("--le");
            }
            let out = cmd.output().unwrap();
            let stderr = String::from_utf8_lossy(&out.stderr);
            match out.status.code() {
                Some(0) => assert!(stderr.is_empty(), "{}: {stderr}", case.name),
                Some(2) => assert!(stderr.starts_with("nbt: "), "{}: {stderr}", case.name),
                other => panic!("{} (le: {le}): exit {other:?}: {stderr}", case.name),
            }
        }
    }
}

/// Every cut of a gzip file and of a region file is answered, never a crash.
#[test]
fn truncated_files_at_every_length() {
    let dir = TempDir::new().unwrap();
    let gz = corpus::load_as_shipped("complex_player.dat").unwrap();
    let cuts = dir.path().join("cuts");
    std::fs::create_dir(&cuts).unwrap();
    for len in (0..gz.len()).step_by(7) {
        std::fs::write(cuts.join(format!("{len}.dat")), &gz[..len]).unwrap();
    }
    let region = corpus::load_as_shipped("1.19.4.mca").unwrap();
    for len in [0, 100, 4096, 8191, 8192, 9000, 200_000, region.len() - 1] {
        std::fs::write(cuts.join(format!("r.{len}.0.mca")), &region[..len]).unwrap();
    }
    let out = nbt().arg("check").arg(&cuts).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8(out.stdout).unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(!stderr.contains("panicked"), "{stderr}");
    // Every cut NBT file is invalid. Of the regions, the empty file is a valid
    // empty region and the last byte of the full one is sector padding.
    let n_dat = (0..gz.len()).step_by(7).count();
    assert_eq!(stdout.lines().count(), n_dat + 6, "{stdout}");
    assert!(!stdout.contains("r.0.0.mca"));
    assert!(!stdout.contains(&format!("r.{}.0.mca", region.len() - 1)));
    assert!(
        stdout.contains("r.100.0.mca: file is 100 bytes, shorter than the 8192-byte region header")
    );
}

/// Files ending `.tmp` left in `dir` (there must be none after an edit).
fn leftovers(dir: &Path) -> Vec<PathBuf> {
    std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.to_string_lossy().ends_with(".tmp"))
        .collect()
}

/// `set` and `rm` through a symlink edit the file it points to (the one the
/// game reads) and leave the link a link; the temporary file goes beside the
/// target, in the target's folder. (They used to replace the link with a
/// regular file holding the edit, leaving the target unedited.)
#[cfg(unix)]
#[test]
fn set_through_a_symlink_edits_the_target() {
    let dir = TempDir::new().unwrap();
    let world = dir.path().join("world");
    let links = dir.path().join("links");
    std::fs::create_dir_all(&world).unwrap();
    std::fs::create_dir_all(&links).unwrap();
    let bytes = corpus::load_as_shipped("complex_player.dat").unwrap();
    let target = world.join("player.dat");
    std::fs::write(&target, bytes).unwrap();
    let link = links.join("player.dat");
    std::os::unix::fs::symlink(&target, &link).unwrap();
    succeeds(&["set"], &link, &["Health", "7.5f"]);
    succeeds(&["rm"], &link, &["Inventory[]"]);
    let meta = std::fs::symlink_metadata(&link).unwrap();
    assert!(meta.file_type().is_symlink(), "the link was replaced");
    assert_eq!(std::fs::read_link(&link).unwrap(), target);
    let edited = read_back(&target);
    assert_eq!(edited.float("Health"), Some(7.5));
    assert!(edited.list("Inventory").unwrap().is_empty());
    assert_eq!(
        compression::detect(&std::fs::read(&target).unwrap()),
        Compression::Gzip
    );
    assert!(leftovers(&world).is_empty() && leftovers(&links).is_empty());
    // A relative link, and a link to a link, end at the same file.
    let relative = world.join("again.dat");
    std::os::unix::fs::symlink("player.dat", &relative).unwrap();
    let chained = links.join("chained.dat");
    std::os::unix::fs::symlink(&relative, &chained).unwrap();
    succeeds(&["set"], &chained, &["Health", "3.0f"]);
    assert!(
        std::fs::symlink_metadata(&chained)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert!(
        std::fs::symlink_metadata(&relative)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert_eq!(read_back(&target).float("Health"), Some(3.0));
}

/// `--chunk X,Z` with absolute coordinates of another region is refused for
/// a file named `r.X.Z.mca` (the library would use the low five bits: chunk
/// 40,40 of r.1.1.mca would quietly be chunk 8,8 of r.0.0.mca); local
/// coordinates and this region's absolute ones are accepted.
#[test]
fn a_chunk_of_another_region_is_refused() {
    let dir = TempDir::new().unwrap();
    let bytes = corpus::load_as_shipped("1.19.4.mca").unwrap();
    let r00 = file(&dir, "r.0.0.mca", bytes);
    let r11 = file(&dir, "r.1.1.mca", bytes);
    let rm1 = file(&dir, "r.-1.0.mca", bytes);
    let x_pos = |path: &Path, chunk: &str| {
        stdout_of(nbt().arg("get").arg(path).args(["xPos", "--chunk", chunk]))
    };
    let local = x_pos(&r00, "8,0");
    assert_eq!(
        x_pos(&r11, "40,32"),
        local,
        "this region's absolute coordinates"
    );
    assert_eq!(x_pos(&rm1, "-24,0"), local, "negative region");
    assert_eq!(x_pos(&r11, "8,0"), local, "local coordinates");
    assert_eq!(x_pos(&r00, "25,0"), x_pos(&r11, "57,32"));
    for (path, chunk, region) in [
        (&r00, "40,40", "r.1.1.mca"),
        (&r00, "-1,0", "r.-1.0.mca"),
        (&r11, "8,40", "r.0.1.mca"),
        (&rm1, "-33,0", "r.-2.0.mca"),
        (&r00, "32,0", "r.1.0.mca"),
    ] {
        fails(
            &["get"],
            path,
            &["xPos", "--chunk", chunk],
            &format!("is in region file {region}, not in this one"),
        );
    }
    let before = std::fs::read(&r00).unwrap();
    fails(
        &["set"],
        &r00,
        &["Status", "\"x\"", "--chunk", "40,40"],
        "not in this one",
    );
    assert_eq!(
        std::fs::read(&r00).unwrap(),
        before,
        "a refused set changed the file"
    );
    // A file not named r.X.Z.mca says no region: any coordinates, low five bits.
    let other = file(&dir, "chunks.mca", bytes);
    assert_eq!(x_pos(&other, "40,32"), local);
}

/// A region whose chunk uses a compression the library cannot decode (127,
/// a server's custom one) opens: `show` lists it, `check` reports it by
/// name, `get` answers for the other chunks and names it on stderr (exit 2),
/// and `--chunk` on it is an error naming it. (Opening used to refuse the
/// whole file.)
#[test]
fn a_chunk_with_custom_compression_costs_only_itself() {
    let dir = TempDir::new().unwrap();
    let doc = |x: i32| {
        let mut c = simdnbt::owned::NbtCompound::new();
        c.insert("xPos", x);
        let mut out = Vec::new();
        BaseNbt::new("", c).write(&mut out).unwrap();
        out
    };
    let mut region = Region::new();
    region
        .write_chunk_at(3, 7, &doc(3), simdnbt::region::ChunkCompression::Zlib, 1)
        .unwrap();
    region
        .write_chunk_at(4, 7, &doc(4), simdnbt::region::ChunkCompression::Zlib, 1)
        .unwrap();
    let mut bytes = region.into_bytes();
    let sector = Region::from_bytes(bytes.clone())
        .unwrap()
        .info(3, 7)
        .unwrap()
        .sector;
    bytes[sector as usize * 4096 + 4] = 127;
    let path = file(&dir, "r.0.0.mca", &bytes);
    let table = stdout_of(nbt().arg("show").arg(&path));
    assert!(table.contains("custom (127)"), "{table}");
    assert!(
        table.ends_with("2 chunks; show one with --chunk X,Z\n"),
        "{table}"
    );
    let problem = "chunk (3, 7): custom compression (127) is not supported";
    nbt()
        .arg("check")
        .arg(&path)
        .assert()
        .code(1)
        .stdout(predicate::str::contains(format!(
            "{}: {problem}",
            path.display()
        )));
    nbt()
        .arg("get")
        .arg(&path)
        .arg("xPos")
        .assert()
        .code(2)
        .stdout(format!("{} chunk (4, 7)\t4\n", path.display()))
        .stderr(predicate::str::contains(problem).and(predicate::str::contains("; 1 failed")));
    fails(&["show"], &path, &["--chunk", "3,7"], problem);
    assert_eq!(
        stdout_of(nbt().arg("get").arg(&path).args(["xPos", "--chunk", "4,7"])),
        "4\n"
    );
}

/// Converting to SNBT or JSON, which hold no root name, never drops one
/// silently: a notice on stderr names it and how to get it back, and
/// `--root-name` names the root on the way back to binary. Binary to binary
/// keeps it. (bigtest.nbt's root is "Level".)
#[test]
fn convert_never_drops_the_root_name_silently() {
    let dir = TempDir::new().unwrap();
    let original = shipped(&dir, "bigtest.nbt");
    assert_eq!(read_back(&original).name().to_str(), "Level");
    for (to, ext) in [("snbt", "snbt"), ("json", "json")] {
        let text = dir.path().join(format!("bigtest.{ext}"));
        nbt()
            .arg("convert")
            .arg(&original)
            .args(["--to", to, "-o"])
            .arg(&text)
            .assert()
            .success()
            .stderr(
                predicate::str::contains("the root's name \"Level\" is not kept").and(
                    predicate::str::contains("convert back with --root-name Level"),
                ),
            );
        let back = dir.path().join(format!("back-{ext}.nbt"));
        let out = nbt()
            .arg("convert")
            .arg(&text)
            .args(["--to", "nbt", "--root-name", "Level", "-o"])
            .arg(&back)
            .output()
            .unwrap();
        assert!(out.status.success());
        // Nothing said but, for plain JSON, that it was read as such.
        let said = String::from_utf8(out.stderr).unwrap();
        match to {
            "json" => assert!(
                said.contains("read as plain JSON") && said.lines().count() == 1,
                "{said}"
            ),
            _ => assert_eq!(said, ""),
        }
        assert_eq!(read_back(&back).name().to_str(), "Level");
        if to == "snbt" {
            nbt()
                .arg("diff")
                .arg(&original)
                .arg(&back)
                .assert()
                .code(0)
                .stdout("");
        }
        // Without it, the difference is there to see.
        let nameless = dir.path().join(format!("nameless-{ext}.nbt"));
        convert(&[], &text, "nbt", &nameless);
        nbt()
            .arg("diff")
            .arg(&original)
            .arg(&nameless)
            .assert()
            .code(1)
            .stdout(predicate::str::contains("~ (root name): \"Level\" -> \"\""));
    }
    // Binary forms keep the name, with nothing to say.
    let gz = dir.path().join("bigtest.dat");
    nbt()
        .arg("convert")
        .arg(&original)
        .args(["--to", "gzip", "-o"])
        .arg(&gz)
        .assert()
        .success()
        .stderr("");
    assert_eq!(read_back(&gz).name().to_str(), "Level");
    // --root-name renames binary output, and is refused where no name fits.
    let renamed = dir.path().join("renamed.nbt");
    convert(&["--root-name", "it's odd"], &original, "nbt", &renamed);
    assert_eq!(read_back(&renamed).name().to_str(), "it's odd");
    nbt()
        .arg("convert")
        .arg(&renamed)
        .args(["--to", "snbt"])
        .assert()
        .success()
        .stderr(predicate::str::contains("--root-name 'it'\\''s odd'"));
    fails(
        &["convert"],
        &original,
        &["--to", "snbt", "--root-name", "Level"],
        "--root-name is for binary output",
    );
    // An empty root name has nothing to lose.
    let hello = shipped(&dir, "hello_world.nbt");
    let named = read_back(&hello).name().to_str().into_owned();
    let out = nbt()
        .arg("convert")
        .arg(&hello)
        .args(["--to", "snbt"])
        .output()
        .unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(stderr.is_empty(), named.is_empty(), "{named:?}: {stderr}");
}

/// `replace --regex`: `$1_axe` is group 1 then `_axe` (sed, Perl, JavaScript
/// and Python read it so; the regex crate read a group named `1_axe` and
/// wrote `"minecraft:"`); a reference to a group that does not exist is
/// refused before the file is touched; `--dry-run` shows each new value.
#[test]
fn replace_regex_groups_are_read_as_sed_reads_them() {
    let dir = TempDir::new().unwrap();
    let p = shipped(&dir, "complex_player.dat");
    let ids = |p: &Path| {
        stdout_of(nbt().arg("get").arg(p).args(["..id", "--raw"]))
            .lines()
            .filter(|l| l.ends_with("_sword") || l.ends_with("_axe") || l.starts_with('$'))
            .map(str::to_owned)
            .collect::<Vec<_>>()
    };
    assert_eq!(ids(&p), ["minecraft:diamond_sword"; 2]);
    let original = std::fs::read(&p).unwrap();
    let replace = |to: &str, extra: &[&str]| {
        let mut cmd = nbt();
        cmd.arg("replace")
            .arg(&p)
            .args(["..id", "minecraft:(.*)_sword", to, "--regex"])
            .args(extra);
        cmd.assert()
    };
    for (to, message) in [
        ("minecraft:$2_axe", "group $2"),
        ("minecraft:${kind}_axe", "no group named `kind`"),
        ("minecraft:$kind", "`${kind}`"),
        ("5$", "`$$`"),
    ] {
        replace(to, &[])
            .code(2)
            .stderr(predicate::str::contains(message));
        assert_eq!(
            std::fs::read(&p).unwrap(),
            original,
            "{to} changed the file"
        );
    }
    replace("minecraft:$1_axe", &["--dry-run"])
        .success()
        .stderr(predicate::str::contains(
            "\"minecraft:diamond_sword\" -> \"minecraft:diamond_axe\"",
        ))
        .stderr(predicate::str::contains("would have replaced 2 values"));
    assert_eq!(std::fs::read(&p).unwrap(), original);
    replace("minecraft:$1_axe", &[])
        .success()
        .stderr(predicate::str::contains("replaced 2 values"));
    assert_eq!(ids(&p), ["minecraft:diamond_axe"; 2]);
    // `$$` is a `$`, `${1}` ends a number early.
    nbt()
        .arg("replace")
        .arg(&p)
        .args(["..id", "^minecraft:diamond_(axe)$", "$$${1}0", "--regex"])
        .assert()
        .success();
    assert_eq!(ids(&p), ["$axe0"; 2]);
}

/// Typed JSON that is broken is an error naming the value (it used to be
/// read as plain JSON: `byte: 300` became `300L`); plain JSON is read only
/// for a file without typed JSON's shape, with a notice; an edited typed
/// JSON file stays typed JSON.
#[test]
fn broken_typed_json_is_an_error_not_plain_json() {
    let dir = TempDir::new().unwrap();
    let entry = |e: &str| format!(r#"{{"name":"","compound":[{{"name":"a",{e}}}]}}"#);
    for (payload, pointer) in [
        (r#""byte":300"#, "/compound/0/byte"),
        (r#""bite":1"#, "/compound/0/bite"),
        (r#""int":1.5"#, "/compound/0/int"),
        (r#""float":1e39"#, "/compound/0/float"),
        (r#""list":["int",1,"two"]"#, "/compound/0/list/2"),
    ] {
        let t = file(&dir, "t.json", entry(payload).as_bytes());
        let out = dir.path().join("t.nbt");
        nbt()
            .arg("convert")
            .arg(&t)
            .args(["--to", "nbt", "-o"])
            .arg(&out)
            .assert()
            .code(2)
            .stderr(predicate::str::contains("invalid typed JSON"))
            .stderr(predicate::str::contains(format!("at {pointer}:")));
        assert!(!out.exists(), "{payload}: something was written");
        nbt()
            .arg("set")
            .arg(&t)
            .args(["b", "1b"])
            .assert()
            .code(2)
            .stderr(predicate::str::contains(pointer));
        assert_eq!(std::fs::read(&t).unwrap(), entry(payload).as_bytes());
    }
    // Plain JSON: read, with a notice.
    let plain = file(&dir, "p.json", br#"{"name":"Steve","health":20}"#);
    let text = stdout_of(
        nbt()
            .arg("convert")
            .arg(&plain)
            .args(["--to", "snbt", "--compact"]),
    );
    assert_eq!(text.trim(), r#"{name:"Steve",health:20L}"#);
    nbt()
        .arg("get")
        .arg(&plain)
        .arg("health")
        .assert()
        .success()
        .stderr(predicate::str::contains("read as plain JSON"));
    // Typed JSON read quietly, and edited in its own form.
    let typed = file(&dir, "ok.json", entry(r#""byte":3"#).as_bytes());
    nbt()
        .arg("set")
        .arg(&typed)
        .args(["b", "2s"])
        .assert()
        .success()
        .stderr(predicate::str::contains("plain").not());
    let back = simdnbt::json::from_slice(&std::fs::read(&typed).unwrap()).unwrap();
    assert_eq!(back.byte("a"), Some(3));
    assert_eq!(back.short("b"), Some(2));
}

/// `replace` edits the document it reads, in every binary form: a Bedrock
/// level.dat keeps its header (with the new length) and its little-endian
/// form, a network-form file stays in that form, each holding the tree with
/// the strings replaced; a replacement binary NBT cannot hold (a string over
/// 65535 bytes) is refused with the file unchanged, as `set` refuses one.
#[test]
fn replace_keeps_each_bedrock_form_and_refuses_what_nbt_cannot_hold() {
    let dir = TempDir::new().unwrap();
    let java = corpus::load("bigtest.nbt").unwrap();
    let mut want = tree("bigtest.nbt");
    let name = "\"nested compound test\".egg.name";
    let path = simdnbt::path::NbtPath::parse(name).unwrap();
    path.set(&mut want, "Eggbert!".into()).unwrap();

    let level = file(&dir, "level.dat", &bedrock_level_dat("bigtest.nbt"));
    succeeds(&["replace", "--le"], &level, &[name, "Eggbert", "Eggbert!"]);
    let bytes = std::fs::read(&level).unwrap();
    let (header, body) = simdnbt::bedrock::split_level_header(&bytes).expect("header kept");
    assert_eq!((header.version, header.length as usize), (10, body.len()));
    let back = simdnbt::bedrock::owned::read_le(&mut std::io::Cursor::new(body)).unwrap();
    assert_eq!(back, simdnbt::owned::Nbt::Some(want.clone()));

    let net = file(&dir, "p.nbt", &simdnbt::bedrock::to_network(java).unwrap());
    // No flag: read as the network form with a notice, and written back so.
    nbt()
        .arg("replace")
        .arg(&net)
        .args([name, "Eggbert", "Eggbert!"])
        .assert()
        .success()
        .stderr(predicate::str::contains("reads as Bedrock network-form"));
    let bytes = std::fs::read(&net).unwrap();
    let back = simdnbt::bedrock::owned::read_network(&mut std::io::Cursor::new(&bytes[..]));
    assert_eq!(back.unwrap(), simdnbt::owned::Nbt::Some(want));

    let long = "x".repeat(70_000);
    for (place, at, chunk) in [
        (shipped(&dir, "complex_player.dat"), "..id", None),
        (shipped(&dir, "1.19.4.mca"), "..Name", Some("2,0")),
    ] {
        let before = std::fs::read(&place).unwrap();
        let mut cmd = nbt();
        cmd.arg("replace")
            .arg(&place)
            .args([at, "minecraft:", &long]);
        if let Some(at) = chunk {
            cmd.args(["--chunk", at]);
        }
        cmd.assert()
            .code(2)
            .stderr(predicate::str::contains("refusing to write"))
            .stderr(predicate::str::contains(
                "could not be stored as binary NBT",
            ));
        assert_eq!(
            std::fs::read(&place).unwrap(),
            before,
            "{}",
            place.display()
        );
    }
}

/// `replace` in a string that is not Unicode text (here a lone surrogate,
/// MUTF-8 `ED A0 80`) is refused when the match would rewrite it: the text
/// it is read as has U+FFFD there, and writing that back would change more
/// than the match. A string the pattern leaves alone keeps its bytes while
/// another the path selects is replaced.
#[test]
fn replace_refuses_to_rewrite_a_string_that_is_not_unicode_text() {
    let dir = TempDir::new().unwrap();
    let nbt_file = |strings: &[&[u8]]| {
        // {list: [..strings]}
        let mut b = vec![10, 0, 0, 9, 0, 4];
        b.extend_from_slice(b"list");
        b.push(8);
        b.extend_from_slice(&(strings.len() as i32).to_be_bytes());
        for s in strings {
            b.extend_from_slice(&(s.len() as u16).to_be_bytes());
            b.extend_from_slice(s);
        }
        b.push(0);
        b
    };
    let odd: &[u8] = b"stone\xED\xA0\x80stone";
    let bytes = nbt_file(&[odd, b"stone"]);
    let p = file(&dir, "odd.nbt", &bytes);
    nbt()
        .arg("replace")
        .arg(&p)
        .args(["list[]", "stone", "dirt"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("refusing to replace in list[0]"))
        .stderr(predicate::str::contains("not Unicode text"));
    assert_eq!(std::fs::read(&p).unwrap(), bytes, "the file changed");
    // The second is replaced; the first does not match and keeps its bytes.
    nbt()
        .arg("replace")
        .arg(&p)
        .args(["list[]", "^stone$", "dirt", "--regex"])
        .assert()
        .success()
        .stderr(predicate::str::contains("replaced 1 value"));
    assert_eq!(std::fs::read(&p).unwrap(), nbt_file(&[odd, b"dirt"]));
}
