//! SQL over a world, on [DataFusion](https://datafusion.apache.org) (feature
//! `sql`): every table of this crate as a DataFusion [`TableProvider`].
//!
//! ```no_run
//! # async fn run() -> Result<(), Box<dyn std::error::Error>> {
//! use datafusion::prelude::SessionContext;
//! use simdnbt_arrow::Source;
//!
//! let ctx = SessionContext::new();
//! let world = simdnbt_arrow::sql::register_world(&ctx, Source::open("world")?)?;
//! let df = ctx.sql("SELECT id, count(*) AS n FROM entities GROUP BY id ORDER BY n DESC").await?;
//! df.show().await?;
//! // Chunks or files that could not be read were skipped; they are listed here.
//! for problem in world.problems() {
//!     eprintln!("{problem}");
//! }
//! # Ok(()) }
//! ```
//!
//! # How a table is scanned
//!
//! Only the columns a query uses are decoded: DataFusion's projection is
//! handed to the scanner ([`ScanOptions::projection`]). The region and
//! player files are spread over DataFusion's partitions (as many as its
//! `target_partitions`, at most one per file, the largest files first, so
//! that the partitions end together); each partition scans its files one
//! after the other on a thread of its own and hands its batches to DataFusion
//! through a channel of [`CHANNEL_BATCHES`] batches. So a query holds at most
//! `target_partitions` files and their batches at a time, whatever the size
//! of the world. (One DataFusion partition per file would not: DataFusion
//! starts every partition of a scan at once, so a world of 1 000 regions
//! would hold 1 000 open scans.)
//!
//! A `WHERE` condition on `dimension`, `chunk_x` or `chunk_z` (`=`, `<>`,
//! `<`, `<=`, `>`, `>=` with a literal, `BETWEEN`, `IN`, combined with
//! `AND`, `OR`, `NOT`) skips the region files whose rows cannot match it,
//! unread: a region file `r.X.Z.mca` holds chunks `32X` to `32X + 31` of
//! its folder's dimension.
//!
//! A chunk or a file that cannot be read is skipped and recorded, not
//! fatal: [`WorldTables::problems`] lists them, each naming the file and
//! the chunk, so that a query over a world with one broken chunk still
//! answers, and says what it left out.

mod exec;
mod filter;

use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use arrow_schema::SchemaRef;
use async_trait::async_trait;
use datafusion::catalog::{Session, TableProvider};
use datafusion::error::{DataFusionError, Result};
use datafusion::logical_expr::{Expr, TableProviderFilterPushDown, TableType};
use datafusion::physical_plan::ExecutionPlan;
use datafusion::prelude::SessionContext;

use crate::{Partition, ScanOptions, Source, Table};

pub use exec::WorldScanExec;

/// Batches a partition's scanner may have ready before DataFusion takes
/// them: the scanner waits beyond that, so memory stays bounded.
pub const CHANNEL_BATCHES: usize = 2;

/// What the scans of one world report while they run: bytes of files done
/// (for a progress line) and the chunks and files they had to skip.
#[derive(Default)]
pub struct Events {
    progress: Option<Box<dyn Fn(u64) + Send + Sync>>,
    problems: Mutex<Vec<String>>,
    /// Problems past [`MAX_PROBLEMS`], counted only.
    more: AtomicU64,
}

/// Problems [`Events`] keeps (the rest are counted): a world of broken
/// chunks cannot fill memory with messages.
pub const MAX_PROBLEMS: usize = 1000;

impl Events {
    /// Events that call `progress` with the size in bytes of each file once
    /// a scan has read it.
    pub fn with_progress(progress: impl Fn(u64) + Send + Sync + 'static) -> Self {
        Events {
            progress: Some(Box::new(progress)),
            ..Events::default()
        }
    }

    pub(crate) fn file_done(&self, bytes: u64) {
        if let Some(progress) = &self.progress {
            progress(bytes);
        }
    }

    pub(crate) fn problem(&self, problem: String) {
        let mut problems = self.problems.lock().unwrap_or_else(|e| e.into_inner());
        if problems.len() < MAX_PROBLEMS {
            problems.push(problem);
        } else {
            self.more_problems(1);
        }
    }

    pub(crate) fn more_problems(&self, n: u64) {
        self.more.fetch_add(n, Ordering::Relaxed);
    }

    /// The chunks and files skipped so far, each naming where it is (the
    /// first [`MAX_PROBLEMS`]).
    pub fn problems(&self) -> Vec<String> {
        self.problems
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    /// How many chunks and files were skipped so far, with those not
    /// listed by [`Events::problems`].
    pub fn problem_count(&self) -> u64 {
        let listed = self
            .problems
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .len();
        listed as u64 + self.more.load(Ordering::Relaxed)
    }
}

impl fmt::Debug for Events {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Events")
            .field("problems", &self.problems())
            .finish_non_exhaustive()
    }
}

/// One table of a world as a DataFusion table: rows from every file of
/// `source` the table reads. See the [module docs](self) for how it is
/// scanned.
#[derive(Debug, Clone)]
pub struct WorldTable {
    source: Arc<Source>,
    table: Table,
    events: Arc<Events>,
    batch_rows: Option<usize>,
}

impl WorldTable {
    /// `table` over `source`, reporting to `events`.
    pub fn new(source: Arc<Source>, table: Table, events: Arc<Events>) -> Self {
        WorldTable {
            source,
            table,
            events,
            batch_rows: None,
        }
    }

    /// The table this provider scans.
    pub fn table(&self) -> &Table {
        &self.table
    }

    /// The files of the world this table reads rows from.
    fn partitions(&self) -> Vec<Partition> {
        self.source
            .partitions()
            .iter()
            .filter(|p| self.table.reads(p.kind))
            .cloned()
            .collect()
    }
}

#[async_trait]
impl TableProvider for WorldTable {
    fn schema(&self) -> SchemaRef {
        self.table.schema()
    }

    fn table_type(&self) -> TableType {
        TableType::Base
    }

    /// Conditions on `dimension`, `chunk_x` and `chunk_z` skip the region
    /// files none of whose rows can match, unread; DataFusion still
    /// applies them to the rows of the others.
    fn supports_filters_pushdown(
        &self,
        filters: &[&Expr],
    ) -> Result<Vec<TableProviderFilterPushDown>> {
        Ok(filters
            .iter()
            .map(|f| {
                if filter::prunes(&self.table, f) {
                    TableProviderFilterPushDown::Inexact
                } else {
                    TableProviderFilterPushDown::Unsupported
                }
            })
            .collect())
    }

    async fn scan(
        &self,
        state: &dyn Session,
        projection: Option<&Vec<usize>>,
        filters: &[Expr],
        _limit: Option<usize>,
    ) -> Result<Arc<dyn ExecutionPlan>> {
        let mut opts = ScanOptions {
            projection: projection.cloned(),
            ..ScanOptions::default()
        };
        if let Some(rows) = self.batch_rows {
            opts.batch_rows = rows;
        }
        let mut parts = self.partitions();
        parts.retain(|p| filter::may_match(&self.table, p, filters));
        let groups = exec::spread(parts, state.config().target_partitions());
        let exec =
            WorldScanExec::new(self.table.clone(), opts, groups, Arc::clone(&self.events))
                .map_err(|e| DataFusionError::Plan(format!("table {}: {e}", self.table.name())))?;
        Ok(Arc::new(exec))
    }
}

/// The tables of one world registered in a [`SessionContext`], and what
/// their scans report.
#[derive(Debug, Clone)]
pub struct WorldTables {
    source: Arc<Source>,
    events: Arc<Events>,
}

impl WorldTables {
    /// Tables over `source` (none registered yet), reporting to `events`.
    pub fn new(source: impl Into<Arc<Source>>, events: Events) -> Self {
        WorldTables {
            source: source.into(),
            events: Arc::new(events),
        }
    }

    /// The world the tables read.
    pub fn source(&self) -> &Arc<Source> {
        &self.source
    }

    /// What the scans report (progress, chunks and files skipped).
    pub fn events(&self) -> &Arc<Events> {
        &self.events
    }

    /// The chunks and files the queries so far skipped, each naming where
    /// it is.
    pub fn problems(&self) -> Vec<String> {
        self.events.problems()
    }

    /// Registers `table` under `name` (a custom table, or a built-in one
    /// under another name or with its SNBT column). A name already taken
    /// is an error.
    pub fn register(&self, ctx: &SessionContext, name: &str, table: Table) -> Result<()> {
        if ctx.table_exist(name)? {
            return Err(DataFusionError::Plan(format!(
                "a table named {name} is already registered"
            )));
        }
        let provider = WorldTable::new(Arc::clone(&self.source), table, Arc::clone(&self.events));
        ctx.register_table(name, Arc::new(provider))?;
        Ok(())
    }

    /// Registers every built-in table ([`Table::builtin_names`]: `chunks`,
    /// `entities`, ...) under its name; with `snbt`, each with its SNBT
    /// column ([`Table::with_snbt_column`]).
    pub fn register_builtins(&self, ctx: &SessionContext, snbt: bool) -> Result<()> {
        for name in Table::builtin_names() {
            let table = Table::builtin(name).ok_or_else(|| {
                DataFusionError::Internal(format!("built-in table {name} is not defined"))
            })?;
            let table = if snbt {
                table.with_snbt_column()
            } else {
                table
            };
            self.register(ctx, name, table)?;
        }
        Ok(())
    }
}

/// Registers every built-in table of `source` in `ctx` under its name
/// ([`WorldTables::register_builtins`]); custom tables can be added with
/// [`WorldTables::register`].
pub fn register_world(ctx: &SessionContext, source: impl Into<Arc<Source>>) -> Result<WorldTables> {
    let tables = WorldTables::new(source, Events::default());
    tables.register_builtins(ctx, false)?;
    Ok(tables)
}
