//! Arrow builders for the projected columns of one table: the rows of a
//! partition go straight from the borrowed document into these.

use std::sync::Arc;

use arrow_array::builder::{
    Float32Builder, Float64Builder, Int8Builder, Int16Builder, Int32Builder, Int64Builder,
    StringBuilder, TimestampSecondBuilder,
};
use arrow_array::{ArrayRef, RecordBatch, RecordBatchOptions};
use arrow_schema::{DataType, SchemaRef, TimeUnit};

enum Col {
    I8(Int8Builder),
    I16(Int16Builder),
    I32(Int32Builder),
    I64(Int64Builder),
    F32(Float32Builder),
    F64(Float64Builder),
    Str(StringBuilder),
    Ts(TimestampSecondBuilder),
}

impl Col {
    fn new(data_type: &DataType) -> Col {
        match data_type {
            DataType::Int8 => Col::I8(Int8Builder::new()),
            DataType::Int16 => Col::I16(Int16Builder::new()),
            DataType::Int32 => Col::I32(Int32Builder::new()),
            DataType::Int64 => Col::I64(Int64Builder::new()),
            DataType::Float32 => Col::F32(Float32Builder::new()),
            DataType::Float64 => Col::F64(Float64Builder::new()),
            DataType::Timestamp(TimeUnit::Second, _) => Col::Ts(TimestampSecondBuilder::new()),
            // Every table column is one of these types; anything else is text.
            _ => Col::Str(StringBuilder::new()),
        }
    }

    fn null(&mut self) {
        match self {
            Col::I8(b) => b.append_null(),
            Col::I16(b) => b.append_null(),
            Col::I32(b) => b.append_null(),
            Col::I64(b) => b.append_null(),
            Col::F32(b) => b.append_null(),
            Col::F64(b) => b.append_null(),
            Col::Str(b) => b.append_null(),
            Col::Ts(b) => b.append_null(),
        }
    }

    fn finish(&mut self) -> ArrayRef {
        match self {
            Col::I8(b) => Arc::new(b.finish()),
            Col::I16(b) => Arc::new(b.finish()),
            Col::I32(b) => Arc::new(b.finish()),
            Col::I64(b) => Arc::new(b.finish()),
            Col::F32(b) => Arc::new(b.finish()),
            Col::F64(b) => Arc::new(b.finish()),
            Col::Str(b) => Arc::new(b.finish()),
            Col::Ts(b) => Arc::new(b.finish()),
        }
    }
}

/// The builders of a table's projected columns. Columns are named by their
/// index in the table's full schema; a column not projected takes nothing.
/// Every row must give each column exactly one value: [`Cols::end_row`]
/// pads the projected columns a row did not set with nulls, so rows can never
/// shift against each other.
pub(crate) struct Cols {
    /// Output position of each table column, if projected.
    slot: Vec<Option<usize>>,
    builders: Vec<Col>,
    /// Whether the current row has set each output column.
    set: Vec<bool>,
    rows: usize,
    schema: SchemaRef,
}

macro_rules! setter {
    ($name:ident, $variant:ident, $t:ty) => {
        #[inline]
        pub(crate) fn $name(&mut self, col: usize, value: Option<$t>) {
            let Some(at) = self.slot.get(col).copied().flatten() else {
                return;
            };
            if std::mem::replace(&mut self.set[at], true) {
                debug_assert!(false, "column {col} set twice in one row");
                return;
            }
            match &mut self.builders[at] {
                Col::$variant(b) => b.append_option(value),
                other => {
                    debug_assert!(false, "column {col} is not {}", stringify!($variant));
                    other.null()
                }
            }
        }
    };
}

impl Cols {
    /// Builders for `schema` (the table's projected schema), where output
    /// column `i` is table column `projection[i]` of a table with `width`
    /// columns.
    pub(crate) fn new(schema: SchemaRef, projection: &[usize], width: usize) -> Cols {
        let mut slot = vec![None; width];
        for (at, &col) in projection.iter().enumerate() {
            slot[col] = Some(at);
        }
        let builders = schema
            .fields()
            .iter()
            .map(|f| Col::new(f.data_type()))
            .collect();
        Cols {
            slot,
            builders,
            set: vec![false; projection.len()],
            rows: 0,
            schema,
        }
    }

    /// Whether table column `col` is projected (worth computing).
    #[inline]
    pub(crate) fn want(&self, col: usize) -> bool {
        matches!(self.slot.get(col), Some(Some(_)))
    }

    /// Whether any of `cols` is projected.
    pub(crate) fn want_any(&self, cols: &[usize]) -> bool {
        cols.iter().any(|&c| self.want(c))
    }

    setter!(i8, I8, i8);
    setter!(i16, I16, i16);
    setter!(i32, I32, i32);
    setter!(i64, I64, i64);
    setter!(f32, F32, f32);
    setter!(f64, F64, f64);
    setter!(ts, Ts, i64);

    /// Sets a text column.
    #[inline]
    pub(crate) fn str(&mut self, col: usize, value: Option<&str>) {
        let Some(at) = self.slot.get(col).copied().flatten() else {
            return;
        };
        if std::mem::replace(&mut self.set[at], true) {
            debug_assert!(false, "column {col} set twice in one row");
            return;
        }
        match &mut self.builders[at] {
            Col::Str(b) => b.append_option(value),
            other => {
                debug_assert!(false, "column {col} is not text");
                other.null()
            }
        }
    }

    /// Ends a row: the projected columns it did not set get a null.
    #[inline]
    pub(crate) fn end_row(&mut self) {
        for (set, builder) in self.set.iter_mut().zip(&mut self.builders) {
            if !std::mem::replace(set, false) {
                builder.null();
            }
        }
        self.rows += 1;
    }

    /// Rows since the last [`Cols::finish`].
    pub(crate) fn rows(&self) -> usize {
        self.rows
    }

    /// The rows so far as a batch; the builders start again empty.
    pub(crate) fn finish(&mut self) -> Result<RecordBatch, arrow_schema::ArrowError> {
        let columns: Vec<ArrayRef> = self.builders.iter_mut().map(Col::finish).collect();
        let options = RecordBatchOptions::new().with_row_count(Some(self.rows));
        self.rows = 0;
        RecordBatch::try_new_with_options(self.schema.clone(), columns, &options)
    }
}
