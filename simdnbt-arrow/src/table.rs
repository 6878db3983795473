//! Tables: the built-in ones and custom ones from NBT paths.

use std::sync::Arc;

use arrow_schema::{DataType, Field, Schema, SchemaRef};
use simdnbt::path::NbtPath;

use crate::tables;
use crate::{Error, Source};

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

/// The type of a custom table's column.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ColumnType {
    /// Int8, from a Byte.
    Byte,
    /// Int16, from a Short (or a Byte).
    Short,
    /// Int32, from an Int (or a Short or Byte).
    Int,
    /// Int64, from a Long (or any smaller integer).
    Long,
    /// Float32, from a Float.
    Float,
    /// Float64, from a Double (or a Float).
    Double,
    /// Utf8: a String's text; any other value as SNBT.
    String,
    /// Utf8: any value as SNBT (strings quoted).
    Snbt,
}

impl ColumnType {
    /// The name used in column specs: `byte`, `short`, `int`, `long`,
    /// `float`, `double`, `string`, `snbt`.
    pub fn name(self) -> &'static str {
        match self {
            ColumnType::Byte => "byte",
            ColumnType::Short => "short",
            ColumnType::Int => "int",
            ColumnType::Long => "long",
            ColumnType::Float => "float",
            ColumnType::Double => "double",
            ColumnType::String => "string",
            ColumnType::Snbt => "snbt",
        }
    }

    /// The type with this [name](Self::name).
    pub fn from_name(name: &str) -> Option<ColumnType> {
        Some(match name {
            "byte" => ColumnType::Byte,
            "short" => ColumnType::Short,
            "int" => ColumnType::Int,
            "long" => ColumnType::Long,
            "float" => ColumnType::Float,
            "double" => ColumnType::Double,
            "string" => ColumnType::String,
            "snbt" => ColumnType::Snbt,
            _ => return None,
        })
    }

    /// The column type an NBT value of tag type `id` gives when a column is
    /// typed from the data: numbers their own type, strings `String`,
    /// anything else (compounds, lists, arrays) `Snbt`.
    pub fn of_tag(id: u8) -> ColumnType {
        use simdnbt::tag_id::*;
        match id {
            BYTE => ColumnType::Byte,
            SHORT => ColumnType::Short,
            INT => ColumnType::Int,
            LONG => ColumnType::Long,
            FLOAT => ColumnType::Float,
            DOUBLE => ColumnType::Double,
            STRING => ColumnType::String,
            _ => ColumnType::Snbt,
        }
    }

    pub(crate) fn data_type(self) -> DataType {
        match self {
            ColumnType::Byte => DataType::Int8,
            ColumnType::Short => DataType::Int16,
            ColumnType::Int => DataType::Int32,
            ColumnType::Long => DataType::Int64,
            ColumnType::Float => DataType::Float32,
            ColumnType::Double => DataType::Float64,
            ColumnType::String | ColumnType::Snbt => DataType::Utf8,
        }
    }
}

/// A custom table's definition.
#[derive(Debug, Clone)]
pub(crate) struct Custom {
    pub(crate) rows: NbtPath,
    pub(crate) columns: Vec<CustomColumn>,
}

#[derive(Debug, Clone)]
pub(crate) struct CustomColumn {
    pub(crate) name: String,
    pub(crate) path: NbtPath,
    pub(crate) ty: ColumnType,
    /// Whether the type was given ([`Table::with_types_from`] leaves it alone).
    pub(crate) declared: bool,
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
        table.schema = Arc::new(Schema::new(tables::fields(&table)));
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
        crate::scan::for_each_document(source, max_documents, |root| {
            for row in custom.rows.get_all_borrow(root) {
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
        self.schema = Arc::new(Schema::new(tables::fields(&self)));
        Ok(self)
    }

    /// The same table with one more column, `snbt`: the whole row value as
    /// SNBT (the chunk, the entity, the item stack, the player file, the
    /// palette entry of a `blocks` row, the value of an `nbt` row).
    pub fn with_snbt_column(mut self) -> Table {
        self.snbt = true;
        self.schema = Arc::new(Schema::new(tables::fields(&self)));
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
    pub fn reads(&self, kind: crate::PartitionKind) -> bool {
        crate::tables::reads(self, kind)
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
