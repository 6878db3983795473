//! Custom tables: rows from an NBT path, columns from paths below each row.

use arrow_schema::DataType;
use simdnbt::Number;
use simdnbt::borrow::NbtCompound;
use simdnbt::path::{BorrowValue, NbtPath};
use simdnbt::tag_id;

use super::Doc;
use crate::cols::Cols;

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
    /// Whether the type was given (`Table::with_types_from` leaves it alone).
    pub(crate) declared: bool,
}

/// The first column after the context columns.
const FIRST: usize = super::CUSTOM_CONTEXT.len();

/// A selected value as a number, if it is one.
pub(crate) fn number(v: &BorrowValue<'_, '_>) -> Option<Number> {
    match v {
        BorrowValue::Number(n) => Some(*n),
        BorrowValue::Tag(t) => match t.id() {
            tag_id::BYTE => t.byte().map(Number::Byte),
            tag_id::SHORT => t.short().map(Number::Short),
            tag_id::INT => t.int().map(Number::Int),
            tag_id::LONG => t.long().map(Number::Long),
            tag_id::FLOAT => t.float().map(Number::Float),
            tag_id::DOUBLE => t.double().map(Number::Double),
            _ => None,
        },
        _ => None,
    }
}

/// The integer value of an integer number.
fn integer(n: Number) -> Option<i64> {
    match n {
        Number::Byte(v) => Some(v.into()),
        Number::Short(v) => Some(v.into()),
        Number::Int(v) => Some(v.into()),
        Number::Long(v) => Some(v),
        _ => None,
    }
}

/// The first value `column`'s path selects below `row`.
pub(crate) fn select<'a, 't>(
    path: &simdnbt::path::NbtPath,
    row: BorrowValue<'a, 't>,
) -> Option<BorrowValue<'a, 't>> {
    if path.is_empty() {
        return Some(row);
    }
    let compound = match row {
        BorrowValue::Compound(c) => c,
        BorrowValue::Tag(t) => t.compound()?,
        _ => return None,
    };
    path.get_all(compound).into_iter().next()
}

/// Appends `value` to custom column `col` of type `ty`. `Err` when the value
/// does not fit the type (the column gets a null).
fn put(
    cols: &mut Cols,
    col: usize,
    ty: ColumnType,
    value: Option<BorrowValue<'_, '_>>,
) -> Result<(), ()> {
    let Some(value) = value else {
        return Ok(());
    };
    let n = number(&value);
    let int = n.and_then(integer);
    let fits = match ty {
        ColumnType::Byte => {
            let v = int
                .and_then(|v| i8::try_from(v).ok())
                .filter(|_| value.id() == tag_id::BYTE);
            cols.i8(col, v);
            v.is_some()
        }
        ColumnType::Short => {
            let v = int
                .and_then(|v| i16::try_from(v).ok())
                .filter(|_| value.id() <= tag_id::SHORT);
            cols.i16(col, v);
            v.is_some()
        }
        ColumnType::Int => {
            let v = int
                .and_then(|v| i32::try_from(v).ok())
                .filter(|_| value.id() <= tag_id::INT);
            cols.i32(col, v);
            v.is_some()
        }
        ColumnType::Long => {
            cols.i64(col, int);
            int.is_some()
        }
        ColumnType::Float => {
            let v = match n {
                Some(Number::Float(f)) => Some(f),
                _ => None,
            };
            cols.f32(col, v);
            v.is_some()
        }
        ColumnType::Double => {
            let v = match n {
                Some(Number::Float(f)) => Some(f64::from(f)),
                Some(Number::Double(d)) => Some(d),
                _ => None,
            };
            cols.f64(col, v);
            v.is_some()
        }
        ColumnType::String | ColumnType::Snbt => {
            let string = match value {
                BorrowValue::String(s) => Some(s),
                BorrowValue::Tag(t) => t.string(),
                _ => None,
            };
            let text = match string {
                Some(s) if ty == ColumnType::String => Some(s.to_str().into_owned()),
                _ => simdnbt::snbt::to_string(&value.to_owned()).ok(),
            };
            cols.str(col, text.as_deref());
            true
        }
    };
    if fits { Ok(()) } else { Err(()) }
}

pub(crate) fn rows(
    custom: &Custom,
    doc: &Doc<'_>,
    root: NbtCompound<'_, '_>,
    cols: &mut Cols,
    snbt: Option<usize>,
    warn: &mut Vec<String>,
) {
    let mut mismatched = vec![false; custom.columns.len()];
    for row in custom.rows.get_all(root) {
        cols.str(0, Some(&doc.part.dimension));
        cols.str(1, Some(doc.file));
        cols.i32(2, doc.chunk_x());
        cols.i32(3, doc.chunk_z());
        for (i, column) in custom.columns.iter().enumerate() {
            if !cols.want(FIRST + i) {
                continue;
            }
            let value = select(&column.path, row);
            if put(cols, FIRST + i, column.ty, value).is_err() && !mismatched[i] {
                mismatched[i] = true;
                let found = value.map_or("nothing", |v| tag_id::name(v.id()));
                warn.push(format!(
                    "column `{}`: a {found} does not fit type {} (null)",
                    column.name,
                    column.ty.name()
                ));
            }
        }
        if let Some(s) = snbt.filter(|&s| cols.want(s)) {
            cols.str(s, simdnbt::snbt::to_string(&row.to_owned()).ok().as_deref());
        }
        cols.end_row();
    }
}
