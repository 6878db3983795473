//! The built-in tables' values on the test world's known contents, custom
//! tables, the `snbt` column, and hostile chunks.

mod common;

use common::*;
use simdnbt_arrow::{PartitionKind, ScanOptions, Source, Table, scan_partition};

fn entities_of(dir: &str) -> Vec<arrow_array::RecordBatch> {
    let source = Source::open(world().dir.join(dir)).unwrap();
    let table = Table::builtin("entities").unwrap();
    let mut out = Vec::new();
    for part in source.partitions() {
        for b in scan_partition(&table, part, &ScanOptions::default()).unwrap() {
            out.push(b.unwrap());
        }
    }
    out
}

#[test]
fn entities_have_ids_positions_uuids_in_both_forms_and_names() {
    let batches = entities_of("entities");
    let ids = strings(&batches, "id");
    // Seven entities and one rider, in chunk order, riders after their mount.
    let want = [
        "minecraft:item",
        "minecraft:zombie",
        "minecraft:chicken",
        "minecraft:item_frame",
        "minecraft:chest_minecart",
        "minecraft:villager",
        "minecraft:item",
        "minecraft:item",
    ];
    assert_eq!(ids, want.map(|s| Some(s.to_owned())));
    let uuids = strings(&batches, "uuid");
    assert_eq!(
        uuids[0].as_deref(),
        Some("00000001-0000-0002-0000-000300000004")
    );
    // UUIDMost / UUIDLeast.
    assert_eq!(
        uuids[1].as_deref(),
        Some("01234567-89ab-cdef-fedc-ba9876543210")
    );
    assert_eq!(
        uuids[5].as_deref(),
        Some("ffffffff-ffff-fffe-ffff-fffdfffffffc")
    );
    let names = strings(&batches, "custom_name");
    assert_eq!(names[1].as_deref(), Some(r#"{"text":"Bob"}"#));
    assert_eq!(names[5].as_deref(), Some(r#"{text:"Vil"}"#));
    assert_eq!(floats(&batches, "y")[0], Some(64.0));
    assert_eq!(ints(&batches, "chunk_x")[5], Some(1));
    let dims = strings(&entities_of("DIM-1/entities"), "dimension");
    assert_eq!(dims, [Some("the_nether".to_owned())]);
}

#[test]
fn items_say_where_they_are() {
    let source = Source::open(&world().dir).unwrap();
    let table = Table::builtin("items").unwrap();
    let part = source
        .partitions()
        .iter()
        .find(|p| p.kind == PartitionKind::Entities && p.dimension == "overworld")
        .unwrap();
    let batches: Vec<_> = scan_partition(&table, part, &ScanOptions::default())
        .unwrap()
        .map(|b| b.unwrap())
        .collect();
    let row = |i: usize| {
        (
            strings(&batches, "container")[i].clone().unwrap(),
            strings(&batches, "field")[i].clone().unwrap(),
            ints(&batches, "slot")[i],
            strings(&batches, "id")[i].clone().unwrap(),
            ints(&batches, "count")[i].unwrap(),
        )
    };
    let all: Vec<_> = (0..rows(&batches)).map(row).collect();
    #[rustfmt::skip]
    let want = [
        ("minecraft:item", "Item", None, "minecraft:diamond", 3),
        ("minecraft:zombie", "ArmorItems", Some(3), "minecraft:iron_helmet", 1),
        ("minecraft:zombie", "HandItems", Some(0), "minecraft:iron_sword", 1),
        ("minecraft:item_frame", "Item", None, "minecraft:filled_map", 1),
        ("minecraft:chest_minecart", "Items", Some(0), "minecraft:torch", 64),
        ("minecraft:chest_minecart", "Items", Some(5), "minecraft:coal", 12),
        ("minecraft:chest_minecart", "Items", Some(7), "minecraft:shulker_box", 1),
        ("minecraft:chest_minecart", "tag.BlockEntityTag.Items", Some(1), "minecraft:gold_ingot", 9),
        ("minecraft:villager", "Inventory", Some(0), "minecraft:wheat", 4),
        ("minecraft:villager", "equipment.head", None, "minecraft:leather_helmet", 1),
        ("minecraft:item", "Item", None, "minecraft:diamond", 2),
        ("minecraft:item", "Item", None, "minecraft:shulker_box", 1),
        ("minecraft:item", "components.minecraft:container", Some(0), "minecraft:diamond", 64),
        ("minecraft:item", "components.minecraft:container", Some(3), "minecraft:bundle", 1),
        ("minecraft:item", "components.minecraft:bundle_contents", Some(0), "minecraft:emerald", 5),
    ];
    let want: Vec<_> = want
        .iter()
        .map(|&(c, f, slot, id, n)| (c.to_owned(), f.to_owned(), slot, id.to_owned(), n))
        .collect();
    assert_eq!(all, want);
    let inside = strings(&batches, "inside");
    assert_eq!(inside[0], None);
    assert_eq!(inside[7].as_deref(), Some("minecraft:shulker_box"));
    assert_eq!(inside[14].as_deref(), Some("minecraft:bundle"));
    let tags = strings(&batches, "tag");
    assert_eq!(tags[1].as_deref(), Some("{Damage:5}"));
    assert_eq!(tags[9].as_deref(), Some(r#"{"minecraft:damage":2}"#));
    assert_eq!(tags[0], None);
    let holders = strings(&batches, "holder_uuid");
    assert_eq!(
        holders[0].as_deref(),
        Some("00000001-0000-0002-0000-000300000004")
    );

    // Players: the file name is the holder, the container `player`.
    let (batches, _) = scan_all(&table, &ScanOptions::default());
    let containers = tally(&strings(&batches, "container"));
    assert!(
        containers[&Some("player".to_owned())] > 10,
        "{containers:?}"
    );
    let holders = tally(&strings(&batches, "holder_uuid"));
    assert!(holders.contains_key(&Some(testkit::world::PLAYERS[0].0.to_owned())));
}

#[test]
fn players_come_from_playerdata_and_level_dat() {
    let (batches, warnings) =
        scan_all(&Table::builtin("players").unwrap(), &ScanOptions::default());
    assert!(warnings.is_empty(), "{warnings:?}");
    let uuids = strings(&batches, "uuid");
    for (uuid, _) in testkit::world::PLAYERS {
        assert!(uuids.contains(&Some(uuid.to_owned())), "{uuids:?}");
    }
    // Two player files and level.dat's Data.Player.
    assert_eq!(rows(&batches), 3);
    assert!(floats(&batches, "x").iter().all(Option::is_some));
}

#[test]
fn every_full_section_holds_4096_blocks() {
    let (batches, warnings) = scan_all(&Table::builtin("blocks").unwrap(), &ScanOptions::default());
    // The broken chunk only.
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    let mut per_section = std::collections::BTreeMap::new();
    let (dims, xs, zs, ys, ns) = (
        strings(&batches, "dimension"),
        ints(&batches, "chunk_x"),
        ints(&batches, "chunk_z"),
        ints(&batches, "section_y"),
        ints(&batches, "count"),
    );
    for i in 0..ns.len() {
        *per_section
            .entry((dims[i].clone(), xs[i], zs[i], ys[i]))
            .or_insert(0) += ns[i].unwrap();
    }
    assert!(per_section.len() > 676 * 20, "{}", per_section.len());
    assert!(per_section.values().all(|&n| n == 4096));
    let states = strings(&batches, "block_state");
    assert!(states.contains(&Some("minecraft:stone".to_owned())));
    assert!(
        states
            .iter()
            .any(|s| s.as_deref().is_some_and(|s| s.starts_with("legacy:")))
    );
    assert!(
        states
            .iter()
            .any(|s| s.as_deref().is_some_and(|s| s.contains("[axis=y]")))
    );
}

#[test]
fn the_nbt_table_has_a_row_per_tag_with_its_path() {
    let source = Source::open(world().dir.join("level.dat")).unwrap();
    let table = Table::builtin("nbt").unwrap().with_snbt_column();
    let batches: Vec<_> = scan_partition(&table, &source.partitions()[0], &ScanOptions::default())
        .unwrap()
        .map(|b| b.unwrap())
        .collect();
    let paths = strings(&batches, "path");
    let types = strings(&batches, "type");
    let values = strings(&batches, "value");
    let at = paths
        .iter()
        .position(|p| p.as_deref() == Some("Data.Player.Pos[1]"))
        .unwrap();
    assert_eq!(types[at].as_deref(), Some("Double"));
    assert!(values[at].as_deref().unwrap().ends_with('d'));
    let data = paths
        .iter()
        .position(|p| p.as_deref() == Some("Data"))
        .unwrap();
    assert_eq!(types[data].as_deref(), Some("Compound"));
    assert_eq!(values[data], None);
    assert!(
        strings(&batches, "snbt")[data]
            .as_deref()
            .unwrap()
            .starts_with('{')
    );
    assert!(ints(&batches, "chunk_x").iter().all(Option::is_none));
}

#[test]
fn custom_tables_take_rows_and_typed_columns_from_paths() {
    let table = Table::custom(
        "Inventory[]",
        &[
            ("id".into(), "id".into()),
            ("count:int".into(), "Count".into()),
            ("slot:byte".into(), "Slot".into()),
            ("whole".into(), "".into()),
            ("bad:double".into(), "id".into()),
        ],
    )
    .unwrap()
    .with_snbt_column();
    let source = Source::open(world().dir.join("playerdata")).unwrap();
    let mut n = 0;
    for part in source.partitions() {
        let mut scan = scan_partition(&table, part, &ScanOptions::default()).unwrap();
        for b in scan.by_ref() {
            let b = b.unwrap();
            n += b.num_rows();
            let counts = ints(std::slice::from_ref(&b), "count");
            assert!(counts.iter().all(|c| c.is_some_and(|c| c > 0)));
            assert!(
                strings(std::slice::from_ref(&b), "whole")
                    .iter()
                    .all(|w| w.as_deref().unwrap().starts_with('{'))
            );
        }
        // `bad` asks a String for a double: one warning per document, naming the column.
        let w = scan.warnings();
        if !w.is_empty() {
            assert!(w[0].message.contains("`bad`"), "{}", w[0]);
        }
    }
    assert!(n > 10);
    assert!(Table::custom("a", &[("x:complex".into(), "b".into())]).is_err());
    assert!(Table::custom("a", &[("file".into(), "b".into())]).is_err());
}

#[test]
fn hostile_chunks_give_rows_or_warnings_never_panics() {
    use simdnbt::owned::BaseNbt;
    let cases = [
        // Wrong types at every path the tables read.
        "{DataVersion: 'x', Status: 1, Level: 5, sections: 7, Entities: 3, block_entities: 'a'}",
        "{Level: {Sections: [{Y: 'a', Palette: 3, BlockStates: 'x'}], Entities: [1, 2], TileEntities: [[]]}}",
        "{sections: [{Y: 0b, block_states: {palette: [{Name: 1}, {Name: 'a'}], data: [L; 0]}}]}",
        // Huge palettes, data too short and too long, no data.
        "{DataVersion: 3700, sections: [{Y: 0b, block_states: {palette: [{Name:'a'},{Name:'b'},{Name:'c'}], data: [L; 1, 2]}}]}",
        "{DataVersion: 1000, Level: {Sections: [{Y: 0b, Palette: [{Name:'a'},{Name:'b'}], BlockStates: [L; 1, 2, 3]}]}}",
        "{sections: [{Y: 0b, block_states: {palette: [{Name:'a'},{Name:'b'}]}}]}",
        "{sections: [{Y: 0b, block_states: {palette: []}}]}",
        "{Sections: [{Y: 0b, Blocks: [B; 1, 2], Data: [B; 1]}]}",
        // Negative counts, UUIDs of the wrong length, Pos too short.
        "{Entities: [{id: 'a', Pos: [1.0d], UUID: [I; 1, 2], Item: {id: 'b', Count: -5b}, ArmorItems: [{id: 'c', count: -2147483648}]}]}",
        // Deep riders.
        "{Entities: [{id:'a', Passengers: [{id:'b', Passengers: [{id:'c', Passengers: [{id: 'd'}]}]}]}]}",
    ];
    for case in cases {
        let compound = simdnbt::snbt::compound_from_str(case).unwrap();
        let mut nbt = Vec::new();
        BaseNbt::new("", compound).write(&mut nbt).unwrap();
        let _ = simdnbt_arrow_extract(&nbt);
    }
    // A palette far larger than a section and indices past it.
    let mut palette = String::from("{sections: [{Y: 0b, block_states: {palette: [");
    for i in 0..5000 {
        palette.push_str(&format!("{{Name: 'b{i}'}},"));
    }
    palette.push_str("], data: [L; 1]}}]}");
    let compound = simdnbt::snbt::compound_from_str(&palette).unwrap();
    let mut nbt = Vec::new();
    BaseNbt::new("", compound).write(&mut nbt).unwrap();
    simdnbt_arrow_extract(&nbt);
    // Deep nesting (the reader's limit) for the nbt table's walk.
    let mut deep = vec![0x0a, 0, 0];
    for _ in 0..500 {
        deep.extend_from_slice(&[0x0a, 0, 1, b'a']);
    }
    deep.extend(std::iter::repeat_n(0, 501));
    simdnbt_arrow_extract(&deep);
    // Garbage.
    simdnbt_arrow_extract(&[0x0a, 0, 0, 9, 0, 1]);
}

fn simdnbt_arrow_extract(nbt: &[u8]) -> usize {
    simdnbt_arrow::extract_all(nbt)
}

#[test]
fn custom_columns_are_typed_from_the_first_value_or_become_snbt() {
    use arrow_schema::DataType;
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("typed");
    std::fs::create_dir_all(&dir).unwrap();
    for (name, snbt) in [
        ("a.dat", "{rows: [{n: 1b, x: 5, s: 'a'}, {n: 2b}]}"),
        ("b.dat", "{rows: [{x: 'five', l: [1, 2]}]}"),
    ] {
        let c = simdnbt::snbt::compound_from_str(snbt).unwrap();
        let mut nbt = Vec::new();
        simdnbt::owned::BaseNbt::new("", c).write(&mut nbt).unwrap();
        std::fs::write(dir.join(name), nbt).unwrap();
    }
    let source = Source::open(&dir).unwrap();
    let cols = |v: &[&str]| {
        v.iter()
            .map(|c| (c.to_string(), c.to_string()))
            .collect::<Vec<_>>()
    };
    let table = Table::custom("rows[]", &cols(&["n", "x", "s", "l", "none"]))
        .unwrap()
        .with_types_from(&source, 100)
        .unwrap();
    let ty = |c: &str| {
        table
            .schema()
            .field_with_name(c)
            .unwrap()
            .data_type()
            .clone()
    };
    assert_eq!(ty("n"), DataType::Int8);
    assert_eq!(ty("s"), DataType::Utf8);
    // An Int, then a String: SNBT text.
    assert_eq!(ty("x"), DataType::Utf8);
    let mut xs = Vec::new();
    for part in source.partitions() {
        for b in scan_partition(&table, part, &ScanOptions::default()).unwrap() {
            xs.extend(strings(&[b.unwrap()], "x"));
        }
    }
    assert_eq!(
        xs,
        [Some("5".to_owned()), None, Some(r#""five""#.to_owned())]
    );
    // Only one document read: `x` is an Int there.
    let first = Table::custom("rows[]", &cols(&["x"]))
        .unwrap()
        .with_types_from(&source, 1)
        .unwrap();
    assert_eq!(
        first.schema().field_with_name("x").unwrap().data_type(),
        &DataType::Int32
    );
    // A declared type is kept.
    let declared = Table::custom("rows[]", &[("x:long".into(), "x".into())])
        .unwrap()
        .with_types_from(&source, 100)
        .unwrap();
    assert_eq!(
        declared.schema().field_with_name("x").unwrap().data_type(),
        &DataType::Int64
    );
}

#[test]
fn biomes_agree_with_the_library_chunk_helpers() {
    use simdnbt::region::Region;
    use simdnbt::region::chunk::Chunk;
    use std::collections::BTreeMap;

    let (batches, warnings) = scan_all(&Table::builtin("biomes").unwrap(), &ScanOptions::default());
    // The broken chunk only.
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    let (dims, xs, zs, ys, biomes, ns) = (
        strings(&batches, "dimension"),
        ints(&batches, "chunk_x"),
        ints(&batches, "chunk_z"),
        ints(&batches, "section_y"),
        strings(&batches, "biome"),
        ints(&batches, "count"),
    );
    let mut table = BTreeMap::new();
    let mut old = BTreeMap::new();
    for i in 0..ns.len() {
        let (key, n) = (
            (dims[i].clone().unwrap(), xs[i].unwrap(), zs[i].unwrap()),
            ns[i].unwrap(),
        );
        match ys[i] {
            Some(y) => {
                *table
                    .entry((key, y, biomes[i].clone().unwrap()))
                    .or_insert(0) += n
            }
            None => {
                assert!(
                    biomes[i].as_ref().unwrap().parse::<i64>().is_ok(),
                    "{:?}",
                    biomes[i]
                );
                *old.entry(key).or_insert(0) += n;
            }
        }
    }
    // Pre-1.18 chunks: the whole array, 256 columns or 4×4×4 cells of 64 sections' heights.
    assert!(!old.is_empty());
    assert!(old.values().all(|&n| n == 256 || n % 64 == 0), "{old:?}");

    // 1.18+ sections, cell by cell through the library.
    let mut library = BTreeMap::new();
    let source = Source::open(&world().dir).unwrap();
    for part in source.partitions() {
        if part.kind != PartitionKind::Region {
            continue;
        }
        let region = Region::open(&part.path).unwrap();
        let (rx, rz) = part.region.unwrap();
        for info in region.chunks() {
            let (lx, lz) = (i32::from(info.pos.x), i32::from(info.pos.z));
            let Ok(Some(bytes)) = region.chunk(lx, lz) else {
                continue;
            };
            let nbt = simdnbt::borrow::read(&mut std::io::Cursor::new(&bytes[..])).unwrap();
            let Ok(chunk) = Chunk::from_nbt(&nbt.unwrap().as_compound()) else {
                continue;
            };
            let key = (part.dimension.clone(), rx * 32 + lx, rz * 32 + lz);
            for section in chunk.sections() {
                if section.biomes().is_none() {
                    continue;
                }
                for (x, y, z) in
                    (0..4).flat_map(|x| (0..4).flat_map(move |y| (0..4).map(move |z| (x, y, z))))
                {
                    let biome = section.biome(x, y, z).unwrap().to_owned();
                    *library
                        .entry((key.clone(), section.y(), biome))
                        .or_insert(0) += 1;
                }
            }
        }
    }
    assert!(library.len() > 676, "{}", library.len());
    assert_eq!(table, library);
}
