//! Tables: the built-in ones and custom ones from NBT paths.

use std::sync::Arc;

use arrow_schema::{DataType, Field, Schema, SchemaRef};
use simdnbt::borrow::BaseNbt;
use simdnbt::path::NbtPath;

use crate::cols::Cols;
use crate::tables::custom::{ColumnType, Custom, CustomColumn};
use crate::tables::{
    self, Doc, SNBT_COLUMN, biomes, block_entities, blocks, chunks, custom, entities, field, items,
    nbt, players,
};
use crate::{Error, PartitionKind, Source};

/// A table: which rows a document gives and their columns. See the
/// [crate docs](crate) for the built-in tables' schemas.
#[derive(Debug, Clone)]
pub struct Table {
    name: String,
    pub(crate) kind: Kind,
    snbt: bool,
    schema: SchemaRef,
}

#[derive(Debug, Clone)]
pub(crate) enum Kind {
    Chunks,
    Entities,
    BlockEntities,
    Items,
    Players,
    Blocks,
    Biomes,
    Nbt,
    Custom(Arc<Custom>),
}

/// The built-in tables' names.
const BUILTIN: [&str; 8] = [
    "chunks",
    "entities",
    "block_entities",
    "items",
    "players",
    "blocks",
    "biomes",
    "nbt",
];

impl Table {
    fn new(name: &str, kind: Kind) -> Table {
        let mut table = Table {
            name: name.to_owned(),
            kind,
            snbt: false,
            schema: Arc::new(Schema::empty()),
        };
        table.schema = Arc::new(Schema::new(table.fields()));
        table
    }

    /// A built-in table by name: `chunks`, `entities`, `block_entities`,
    /// `items`, `players`, `blocks`, `biomes`, `nbt`.
    ///
    /// ```
    /// let t = simdnbt_arrow::Table::builtin("entities").unwrap();
    /// assert_eq!(t.schema().field(3).name(), "id");
    /// assert!(simdnbt_arrow::Table::builtin("nope").is_none());
    /// ```
    pub fn builtin(name: &str) -> Option<Table> {
        let kind = match name {
            "chunks" => Kind::Chunks,
            "entities" => Kind::Entities,
            "block_entities" => Kind::BlockEntities,
            "items" => Kind::Items,
            "players" => Kind::Players,
            "blocks" => Kind::Blocks,
            "biomes" => Kind::Biomes,
            "nbt" => Kind::Nbt,
            _ => return None,
        };
        Some(Table::new(name, kind))
    }

    /// The built-in tables' names.
    pub fn builtin_names() -> &'static [&'static str] {
        &BUILTIN
    }

    /// A custom table: one row per value that the NBT path `rows` selects in
    /// each document (a chunk, an entity chunk, a player file, ...), e.g.
    /// `Inventory[]` or `..Items[]`; one column per `(name, path)`, the
    /// first value `path` selects below the row's value (the empty path is
    /// the value itself).
    ///
    /// A column's type is declared with a suffix on its name, `count:int`
    /// ([`ColumnType::from_name`]); a column without one is
    /// [`ColumnType::String`] unless [`Table::with_types_from`] types it
    /// from the data. Every custom table starts with the columns `dimension`,
    /// `file`, `chunk_x`, `chunk_z` (null outside region files).
    ///
    /// ```
    /// use simdnbt_arrow::Table;
    /// let t = Table::custom(
    ///     "Inventory[]",
    ///     &[("id".into(), "id".into()), ("count:int".into(), "count".into())],
    /// )?;
    /// let names: Vec<_> = t.schema().fields().iter().map(|f| f.name().clone()).collect();
    /// assert_eq!(names, ["dimension", "file", "chunk_x", "chunk_z", "id", "count"]);
    /// assert!(Table::custom("Inventory[", &[]).is_err());
    /// # Ok::<(), simdnbt_arrow::Error>(())
    /// ```
    pub fn custom(rows: &str, columns: &[(String, String)]) -> Result<Table, Error> {
        let parse = |column: &str, text: &str| {
            NbtPath::parse(text).map_err(|error| Error::Path {
                column: column.to_owned(),
                text: text.to_owned(),
                error,
            })
        };
        let rows_path = parse("rows", rows)?;
        let mut cols: Vec<CustomColumn> = Vec::new();
        for (spec, path) in columns {
            let (name, ty) = match spec.rsplit_once(':') {
                Some((name, ty)) => {
                    let ty = ColumnType::from_name(ty).ok_or_else(|| Error::UnknownType {
                        column: name.to_owned(),
                        text: ty.to_owned(),
                    })?;
                    (name, Some(ty))
                }
                None => (spec.as_str(), None),
            };
            let taken = tables::CUSTOM_CONTEXT.contains(&name) || name == tables::SNBT_COLUMN;
            if taken || cols.iter().any(|c| c.name == name) {
                return Err(Error::DuplicateColumn {
                    column: name.to_owned(),
                });
            }
            cols.push(CustomColumn {
                name: name.to_owned(),
                path: parse(name, path)?,
                ty: ty.unwrap_or(ColumnType::String),
                declared: ty.is_some(),
            });
        }
        let custom = Custom {
            rows: rows_path,
            columns: cols,
        };
        Ok(Table::new("custom", Kind::Custom(Arc::new(custom))))
    }

    /// The same custom table with its columns declared without a type typed
    /// from the data: the documents of `source` are read in partition order
    /// (region chunks in header order, then files), at most `max_documents`
    /// of them, and each such column takes the type of the first value its
    /// path selects ([`ColumnType::of_tag`]: numbers their own type, strings
    /// `string`, anything else `snbt`). When values of two different types
    /// are seen, the column is `snbt` (text, every value as SNBT). A column
    /// that selects nothing stays `string`. Built-in tables are returned
    /// as they are.
    ///
    /// ```
    /// # let dir = std::env::temp_dir().join(format!("simdnbt-arrow-doc-types-{}", std::process::id()));
    /// # std::fs::create_dir_all(&dir).unwrap();
    /// # let player = simdnbt::snbt::compound_from_str("{Inventory: [{id: 'minecraft:stone', Count: 3b, Slot: 0b}]}").unwrap();
    /// # let mut nbt = Vec::new();
    /// # simdnbt::owned::BaseNbt::new("", player).write(&mut nbt).unwrap();
    /// # std::fs::write(dir.join("player.dat"), nbt).unwrap();
    /// use arrow_schema::DataType;
    /// use simdnbt_arrow::{Source, Table};
    ///
    /// let source = Source::open(dir.join("player.dat"))?;
    /// let table = Table::custom("Inventory[]", &[("id".into(), "id".into()), ("n".into(), "Count".into())])?
    ///     .with_types_from(&source, 100)?;
    /// assert_eq!(table.schema().field_with_name("n").unwrap().data_type(), &DataType::Int8);
    /// assert_eq!(table.schema().field_with_name("id").unwrap().data_type(), &DataType::Utf8);
    /// # std::fs::remove_dir_all(&dir).unwrap();
    /// # Ok::<(), simdnbt_arrow::Error>(())
    /// ```
    pub fn with_types_from(
        mut self,
        source: &Source,
        max_documents: usize,
    ) -> Result<Table, Error> {
        let Kind::Custom(custom) = &self.kind else {
            return Ok(self);
        };
        let mut custom = Custom::clone(custom);
        let mut seen: Vec<Option<ColumnType>> = vec![None; custom.columns.len()];
        source.for_each_document(max_documents, |root| {
            for row in custom.rows.get_all(root) {
                for (i, column) in custom.columns.iter().enumerate() {
                    if column.declared {
                        continue;
                    }
                    let Some(value) = tables::custom::select(&column.path, row) else {
                        continue;
                    };
                    let ty = ColumnType::of_tag(value.id());
                    seen[i] = match seen[i] {
                        None => Some(ty),
                        Some(old) if old == ty => Some(ty),
                        Some(_) => Some(ColumnType::Snbt),
                    };
                }
            }
        })?;
        for (column, ty) in custom.columns.iter_mut().zip(seen) {
            if let Some(ty) = ty {
                column.ty = ty;
            }
        }
        self.kind = Kind::Custom(Arc::new(custom));
        self.schema = Arc::new(Schema::new(self.fields()));
        Ok(self)
    }

    /// The same table with one more column, `snbt`: the whole row value as
    /// SNBT (the chunk, the entity, the item stack, the player file, the
    /// palette entry of a `blocks` row, the value of an `nbt` row).
    pub fn with_snbt_column(mut self) -> Table {
        self.snbt = true;
        self.schema = Arc::new(Schema::new(self.fields()));
        self
    }

    /// Whether [`Table::with_snbt_column`] was applied.
    pub fn has_snbt_column(&self) -> bool {
        self.snbt
    }

    /// The same table with another name (for a custom table, which is
    /// called `custom`).
    pub fn with_name(mut self, name: &str) -> Table {
        self.name = name.to_owned();
        self
    }

    /// The table's columns.
    pub fn schema(&self) -> SchemaRef {
        self.schema.clone()
    }

    /// The table's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Whether the table takes rows from files of this kind (see the
    /// [crate docs](crate) for which).
    pub fn reads(&self, kind: PartitionKind) -> bool {
        use PartitionKind as P;
        match &self.kind {
            Kind::Chunks | Kind::BlockEntities | Kind::Blocks | Kind::Biomes => kind == P::Region,
            Kind::Entities => matches!(kind, P::Region | P::Entities),
            Kind::Items => matches!(kind, P::Region | P::Entities | P::Player | P::Level),
            Kind::Players => matches!(kind, P::Player | P::Level),
            Kind::Nbt | Kind::Custom(_) => true,
        }
    }

    pub(crate) fn custom_columns(&self) -> &[CustomColumn] {
        match &self.kind {
            Kind::Custom(c) => &c.columns,
            _ => &[],
        }
    }

    pub(crate) fn custom_fields(&self) -> Vec<Field> {
        self.custom_columns()
            .iter()
            .map(|c| Field::new(&c.name, c.ty.data_type(), true))
            .collect()
    }
}

/// What a table does with a document: its columns, which files it reads,
/// its rows (by the extractors of `tables/`).
impl Table {
    /// The table's columns, `snbt` last when asked for.
    pub(crate) fn fields(&self) -> Vec<Field> {
        let mut fields = match &self.kind {
            Kind::Chunks => chunks::fields(),
            Kind::Entities => entities::fields(),
            Kind::BlockEntities => block_entities::fields(),
            Kind::Items => items::fields(),
            Kind::Players => players::fields(),
            Kind::Blocks => blocks::fields(),
            Kind::Biomes => biomes::fields(),
            Kind::Nbt => nbt::fields(),
            Kind::Custom(_) => {
                let mut f = vec![
                    field("dimension", DataType::Utf8),
                    field("file", DataType::Utf8),
                    field("chunk_x", DataType::Int32),
                    field("chunk_z", DataType::Int32),
                ];
                f.extend(self.custom_fields());
                f
            }
        };
        if self.has_snbt_column() {
            fields.push(field(SNBT_COLUMN, DataType::Utf8));
        }
        fields
    }

    /// The index of the `snbt` column, if the table has it.
    fn snbt_index(&self) -> Option<usize> {
        self.has_snbt_column()
            .then(|| self.schema().fields().len() - 1)
    }

    /// Whether the projected columns need the chunk's NBT (else only its header).
    pub(crate) fn needs_nbt(&self, cols: &Cols) -> bool {
        match &self.kind {
            Kind::Chunks => chunks::needs_nbt(cols, self.snbt_index()),
            _ => true,
        }
    }

    /// Appends the rows of one document (`None`: an End root, or a chunk whose
    /// NBT the projection does not need). Problems go to `warn`.
    pub(crate) fn extract(
        &self,
        doc: &Doc<'_>,
        nbt: Option<&BaseNbt<'_>>,
        cols: &mut Cols,
        warn: &mut Vec<String>,
    ) {
        let snbt = self.snbt_index();
        let Some(nbt) = nbt else {
            if let Kind::Chunks = self.kind {
                chunks::row(doc, None, cols, snbt);
            }
            return;
        };
        let root = nbt.as_compound();
        match &self.kind {
            Kind::Chunks => chunks::row(doc, Some(root), cols, snbt),
            Kind::Entities => entities::rows(doc, root, cols, snbt),
            Kind::BlockEntities => block_entities::rows(doc, root, cols, snbt),
            Kind::Items => items::rows(doc, root, cols, snbt),
            Kind::Players => players::rows(doc, root, cols, snbt),
            Kind::Blocks => blocks::rows(doc, root, cols, snbt, warn),
            Kind::Biomes => biomes::rows(doc, root, cols, snbt, warn),
            Kind::Nbt => nbt::rows(doc, root, cols, snbt),
            Kind::Custom(c) => custom::rows(c, doc, root, cols, snbt, warn),
        }
    }

    /// The rows of a chunk that does not inflate or parse: a `chunks` row from
    /// its header (its NBT columns null), nothing for the other tables.
    pub(crate) fn extract_unreadable(&self, doc: &Doc<'_>, cols: &mut Cols) {
        if let Kind::Chunks = self.kind {
            chunks::row(doc, None, cols, None);
        }
    }
}
