//! Entry points for the fuzz targets (`fuzz-logic`'s arrow module): a
//! document's bytes through the tables, without files.

use crate::cols::Cols;
use crate::table::Kind;
use crate::tables::Doc;
use crate::{Partition, PartitionKind, Table};

/// The `blocks` rows of a chunk, as plain values, and the warnings.
pub(crate) fn block_rows(nbt: &[u8]) -> (Vec<crate::BlockRow>, Vec<String>) {
    use arrow_array::{Array, Int32Array, StringArray};
    let mut warn = Vec::new();
    let Ok(doc) = simdnbt::borrow::read(&mut std::io::Cursor::new(nbt)) else {
        return (Vec::new(), warn);
    };
    let table = Table::builtin("blocks").expect("a built-in table");
    let schema = table.schema();
    let width = schema.fields().len();
    let all: Vec<usize> = (0..width).collect();
    let mut cols = Cols::new(schema, &all, width);
    let part = Partition {
        dimension: String::new(),
        kind: PartitionKind::Region,
        path: "r.0.0.mca".into(),
        region: Some((0, 0)),
    };
    let d = Doc {
        part: &part,
        file: "",
        chunk: Some((0, 0)),
        info: None,
        stored_size: None,
    };
    table.extract(&d, doc.as_option(), &mut cols, &mut warn);
    let batch = cols.finish().expect("columns stay aligned");
    let ys = batch
        .column(3)
        .as_any()
        .downcast_ref::<Int32Array>()
        .expect("Int32");
    let states = batch
        .column(4)
        .as_any()
        .downcast_ref::<StringArray>()
        .expect("Utf8");
    let counts = batch
        .column(5)
        .as_any()
        .downcast_ref::<Int32Array>()
        .expect("Int32");
    let rows = (0..batch.num_rows())
        .map(|i| {
            let y = ys.is_valid(i).then(|| ys.value(i));
            (y, states.value(i).to_owned(), counts.value(i) as u32)
        })
        .collect();
    (rows, warn)
}

/// Every built-in table (all columns, with `snbt`) on `nbt` read as each
/// kind of document it reads (region chunk, entity chunk, player file,
/// `level.dat`); the rows made.
pub(crate) fn extract_all(nbt: &[u8]) -> usize {
    let Ok(doc) = simdnbt::borrow::read(&mut std::io::Cursor::new(nbt)) else {
        return 0;
    };
    let mut rows = 0;
    let names = Table::builtin_names();
    let custom = Table::custom(
        "..Items[]",
        &[
            ("id".into(), "id".into()),
            ("n:int".into(), "count".into()),
            ("c:byte".into(), "Count".into()),
            ("x:double".into(), "x".into()),
        ],
    );
    let tables = names
        .iter()
        .filter_map(|n| Table::builtin(n))
        .chain(custom.ok())
        // The `nbt` table's `snbt` column prints every subtree once per level
        // above it (depth × size): on the fuzzer's 1 MB chunks that made the
        // target run about 2 inputs a second. Its rows are still extracted.
        .map(|t| match t.kind {
            Kind::Nbt => t,
            _ => t.with_snbt_column(),
        });
    for table in tables {
        // Each table on the kinds it reads (the `nbt` and custom tables read
        // every kind alike: once).
        let kinds = [
            PartitionKind::Region,
            PartitionKind::Entities,
            PartitionKind::Player,
            PartitionKind::Level,
        ];
        let every = matches!(table.kind, Kind::Nbt | Kind::Custom(_));
        let kinds = kinds
            .into_iter()
            .filter(|&k| table.reads(k))
            .take(if every { 1 } else { 4 });
        for kind in kinds {
            let part = Partition {
                dimension: "overworld".into(),
                kind,
                path: "fuzz/r.0.0.mca".into(),
                region: Some((0, 0)),
            };
            let schema = table.schema();
            let width = schema.fields().len();
            let all: Vec<usize> = (0..width).collect();
            let mut cols = Cols::new(schema, &all, width);
            let d = Doc {
                part: &part,
                file: "fuzz",
                chunk: Some((1, 2)),
                info: None,
                stored_size: None,
            };
            let mut warn = Vec::new();
            table.extract(&d, doc.as_option(), &mut cols, &mut warn);
            rows += cols.rows();
            // The batch must be well formed: every column as long as the rows.
            let batch = cols.finish().expect("columns stay aligned");
            assert_eq!(batch.num_columns(), width);
        }
    }
    rows
}
