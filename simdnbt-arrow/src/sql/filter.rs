//! Which files a query's `WHERE` rules out before they are read: the
//! `dimension`, `chunk_x` and `chunk_z` of every row of a region file are
//! known from its folder and its name (`r.X.Z.mca`: chunks `32X..32X+31`),
//! so a condition on them can be judged per file. The judgement only ever
//! errs towards reading a file (DataFusion applies the condition to the rows
//! all the same: the pushdown is `Inexact`).

use datafusion::logical_expr::{Between, BinaryExpr, Expr, Operator};
use datafusion::scalar::ScalarValue;

use crate::table::Kind;
use crate::{Partition, Table};

/// The columns whose values a region file's place gives.
const PLACE_COLUMNS: [&str; 3] = ["dimension", "chunk_x", "chunk_z"];

/// Whether `filter` can rule files out for `table` (it names a column that
/// comes from a file's place).
pub(super) fn prunes(table: &Table, filter: &Expr) -> bool {
    if matches!(table.kind, Kind::Players) {
        // Its `dimension` is the player's, not a folder's.
        return false;
    }
    filter
        .column_refs()
        .iter()
        .any(|c| PLACE_COLUMNS.contains(&c.name.as_str()))
}

/// What the rows of one file are known to hold.
struct Place<'a> {
    dimension: &'a str,
    chunk_x: (i64, i64),
    chunk_z: (i64, i64),
}

impl<'a> Place<'a> {
    /// The place of a region file (`None` for other files: their rows'
    /// places are not known beforehand).
    fn of(table: &Table, part: &'a Partition) -> Option<Place<'a>> {
        if matches!(table.kind, Kind::Players) || !part.kind.is_region() {
            return None;
        }
        // A region file not named r.X.Z.mca gives its chunks' local positions.
        let (rx, rz) = part.region.unwrap_or((0, 0));
        let range = |r: i32| {
            let lo = i64::from(r) * 32;
            // Past i32, the scanner's coordinates wrap: nothing is known.
            (i32::try_from(lo).is_ok() && i32::try_from(lo + 31).is_ok()).then_some((lo, lo + 31))
        };
        Some(Place {
            dimension: &part.dimension,
            chunk_x: range(rx)?,
            chunk_z: range(rz)?,
        })
    }
}

/// Whether a row of `part` may satisfy every one of `filters` (false: the
/// file need not be read for `table`).
pub(super) fn may_match(table: &Table, part: &Partition, filters: &[Expr]) -> bool {
    let Some(place) = Place::of(table, part) else {
        return true;
    };
    filters.iter().all(|f| judge(f, &place).can_be_true)
}

/// What a condition can be on the rows of one file: true for some row,
/// false for some row (both when nothing is known). A null is neither.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Outcome {
    can_be_true: bool,
    can_be_false: bool,
}

const UNKNOWN: Outcome = Outcome {
    can_be_true: true,
    can_be_false: true,
};

impl Outcome {
    fn exactly(value: bool) -> Outcome {
        Outcome {
            can_be_true: value,
            can_be_false: !value,
        }
    }

    fn not(self) -> Outcome {
        Outcome {
            can_be_true: self.can_be_false,
            can_be_false: self.can_be_true,
        }
    }

    fn and(self, other: Outcome) -> Outcome {
        Outcome {
            can_be_true: self.can_be_true && other.can_be_true,
            can_be_false: self.can_be_false || other.can_be_false,
        }
    }

    fn or(self, other: Outcome) -> Outcome {
        Outcome {
            can_be_true: self.can_be_true || other.can_be_true,
            can_be_false: self.can_be_false && other.can_be_false,
        }
    }
}

fn judge(expr: &Expr, place: &Place<'_>) -> Outcome {
    match expr {
        Expr::BinaryExpr(BinaryExpr { left, op, right }) => match op {
            Operator::And => judge(left, place).and(judge(right, place)),
            Operator::Or => judge(left, place).or(judge(right, place)),
            _ => compare(left, *op, right, place),
        },
        Expr::Not(inner) => judge(inner, place).not(),
        Expr::Between(Between {
            expr,
            negated,
            low,
            high,
        }) => {
            let inside = compare(expr, Operator::GtEq, low, place).and(compare(
                expr,
                Operator::LtEq,
                high,
                place,
            ));
            if *negated { inside.not() } else { inside }
        }
        Expr::InList(list) => {
            let any = list
                .list
                .iter()
                .map(|item| compare(&list.expr, Operator::Eq, item, place))
                .reduce(Outcome::or)
                .unwrap_or(UNKNOWN);
            if list.negated { any.not() } else { any }
        }
        _ => UNKNOWN,
    }
}

/// A column of the place, through casts that keep its values.
fn place_column(expr: &Expr) -> Option<&str> {
    match expr {
        Expr::Column(c) => Some(c.name.as_str()),
        Expr::Cast(c) if c.field.data_type().is_integer() || is_text(c.field.data_type()) => {
            place_column(&c.expr)
        }
        Expr::TryCast(c) if c.field.data_type().is_integer() || is_text(c.field.data_type()) => {
            place_column(&c.expr)
        }
        _ => None,
    }
}

fn is_text(t: &arrow_schema::DataType) -> bool {
    use arrow_schema::DataType as D;
    matches!(t, D::Utf8 | D::LargeUtf8 | D::Utf8View)
}

enum Literal<'e> {
    Int(i64),
    Text(&'e str),
}

fn literal(expr: &Expr) -> Option<Literal<'_>> {
    let Expr::Literal(value, _) = expr else {
        return None;
    };
    Some(match value {
        ScalarValue::Int8(Some(v)) => Literal::Int(i64::from(*v)),
        ScalarValue::Int16(Some(v)) => Literal::Int(i64::from(*v)),
        ScalarValue::Int32(Some(v)) => Literal::Int(i64::from(*v)),
        ScalarValue::Int64(Some(v)) => Literal::Int(*v),
        ScalarValue::UInt8(Some(v)) => Literal::Int(i64::from(*v)),
        ScalarValue::UInt16(Some(v)) => Literal::Int(i64::from(*v)),
        ScalarValue::UInt32(Some(v)) => Literal::Int(i64::from(*v)),
        ScalarValue::UInt64(Some(v)) => Literal::Int(i64::try_from(*v).ok()?),
        ScalarValue::Utf8(Some(s))
        | ScalarValue::LargeUtf8(Some(s))
        | ScalarValue::Utf8View(Some(s)) => Literal::Text(s),
        _ => return None,
    })
}

/// `left op right`, one side a place column and the other a literal.
fn compare(left: &Expr, op: Operator, right: &Expr, place: &Place<'_>) -> Outcome {
    let (column, op, value) = match (place_column(left), literal(right)) {
        (Some(c), Some(v)) => (c, op, v),
        _ => match (literal(left), place_column(right), op.swap()) {
            (Some(v), Some(c), Some(swapped)) => (c, swapped, v),
            _ => return UNKNOWN,
        },
    };
    match (column, value) {
        ("dimension", Literal::Text(v)) => {
            let d = place.dimension;
            Outcome::exactly(match op {
                Operator::Eq => d == v,
                Operator::NotEq => d != v,
                Operator::Lt => d < v,
                Operator::LtEq => d <= v,
                Operator::Gt => d > v,
                Operator::GtEq => d >= v,
                _ => return UNKNOWN,
            })
        }
        ("chunk_x", Literal::Int(v)) => range(place.chunk_x, op, v),
        ("chunk_z", Literal::Int(v)) => range(place.chunk_z, op, v),
        _ => UNKNOWN,
    }
}

/// `x op v` for the values `x` of `lo..=hi`.
fn range((lo, hi): (i64, i64), op: Operator, v: i64) -> Outcome {
    let (can_be_true, can_be_false) = match op {
        Operator::Eq => (lo <= v && v <= hi, !(lo == v && hi == v)),
        Operator::NotEq => (!(lo == v && hi == v), lo <= v && v <= hi),
        Operator::Lt => (lo < v, hi >= v),
        Operator::LtEq => (lo <= v, hi > v),
        Operator::Gt => (hi > v, lo <= v),
        Operator::GtEq => (hi >= v, lo < v),
        _ => return UNKNOWN,
    };
    Outcome {
        can_be_true,
        can_be_false,
    }
}

#[cfg(test)]
mod tests {
    use std::ops::Not;

    use datafusion::prelude::{col, lit};

    use super::*;
    use crate::PartitionKind;

    fn part(dimension: &str, region: (i32, i32)) -> Partition {
        Partition {
            dimension: dimension.into(),
            kind: PartitionKind::Region,
            path: format!("r.{}.{}.mca", region.0, region.1).into(),
            region: Some(region),
        }
    }

    #[test]
    fn files_are_ruled_out_only_when_no_row_can_match() {
        let chunks = Table::builtin("chunks").unwrap();
        let end = part("the_end", (-1, 2));
        let can = |f: Expr| may_match(&chunks, &end, &[f]);
        assert!(can(col("dimension").eq(lit("the_end"))));
        assert!(!can(col("dimension").eq(lit("overworld"))));
        assert!(!can(lit("overworld").eq(col("dimension"))));
        // Chunks -32..=-1 and 64..=95.
        assert!(can(col("chunk_x").eq(lit(-32))));
        assert!(!can(col("chunk_x").eq(lit(0))));
        assert!(!can(col("chunk_x").gt_eq(lit(0))));
        assert!(can(lit(0).gt(col("chunk_x"))));
        assert!(!can(col("chunk_z").lt(lit(64))));
        assert!(can(col("chunk_z").between(lit(90), lit(200))));
        assert!(!can(col("chunk_z").not_between(lit(0), lit(100))));
        assert!(!can(col("chunk_x").in_list(vec![lit(0), lit(5)], false)));
        assert!(can(col("chunk_x").in_list(vec![lit(0), lit(-5)], false)));
        assert!(!can(col("dimension")
            .eq(lit("overworld"))
            .or(col("chunk_x").gt(lit(10)))));
        assert!(can(col("dimension")
            .eq(lit("overworld"))
            .or(col("chunk_x").lt(lit(10)))));
        assert!(!can(col("dimension").eq(lit("the_end")).not()));
        // Not a column of the place, or not a literal: read the file.
        assert!(can(col("status").eq(lit("x"))));
        assert!(can(col("chunk_x").eq(col("chunk_z"))));
        assert!(can(col("dimension").like(lit("over%"))));
        // A player's dimension is not the folder's.
        let players = Table::builtin("players").unwrap();
        assert!(!prunes(&players, &col("dimension").eq(lit("x"))));
        assert!(prunes(&chunks, &col("chunk_x").eq(lit(1))));
        assert!(!prunes(&chunks, &col("status").eq(lit("x"))));
    }
}
