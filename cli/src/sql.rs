//! `nbt sql`: SQL over a world's tables (the `simdnbt-arrow` crate's, on
//! DataFusion), and the session `export` and `prune` share: the world's
//! tables registered, a custom table from `--table NAME=ROWS --col ...`, a
//! progress line on a terminal.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use datafusion::arrow::array::RecordBatch;
use datafusion::physical_plan::ExecutionPlan;
use datafusion::prelude::{SessionConfig, SessionContext};
use futures::StreamExt;
use indicatif::ProgressBar;
use simdnbt_arrow::sql::{Events, WorldScanExec, WorldTables};
use simdnbt_arrow::{Source, Table};

use crate::batches::{Format, Writer};
use crate::failure::{Failure, Result};
use crate::report::count;

/// `nbt sql`'s arguments.
#[derive(clap::Args, Debug)]
#[command(after_help = "\
Examples:
  nbt sql world 'SELECT id, count(*) AS n FROM entities GROUP BY id ORDER BY n DESC'
  nbt sql world \"SELECT x, z, inhabited_time FROM chunks WHERE inhabited_time < 1200\" --format csv
  nbt sql world \"SELECT * FROM items WHERE id = 'minecraft:diamond'\" --format json -o diamonds.json
  nbt sql world 'SELECT dimension, count(*) FROM chunks GROUP BY dimension' --format parquet -o c.parquet
  nbt sql world 'SELECT id, sum(n) FROM inv GROUP BY id' \\
      --table inv=Inventory[] --col id=id --col n:int=count

Tables: chunks, entities, block_entities, items, players, blocks, biomes, nbt (their
columns: `nbt sql WORLD 'DESCRIBE chunks'` and the simdnbt-arrow docs), and
the one --table defines. Only the columns a query uses are read. The query is
DataFusion's SQL (PostgreSQL-like). A chunk or file that cannot be read is
named on stderr and left out, and the exit status is 2; else 0.")]
pub struct SqlArgs {
    /// The world folder, region file or NBT file
    pub world: PathBuf,
    /// The query (one SQL statement)
    pub query: String,
    /// How to print the result (table: aligned columns; json: one object per line)
    #[arg(long, value_enum, default_value_t = Format::Table)]
    pub format: Format,
    /// Write the result to FILE (written whole to a temporary file beside
    /// it, then renamed)
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    #[command(flatten)]
    pub tables: TableArgs,
}

/// Options that add tables: a custom one, and the SNBT column.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct TableArgs {
    /// A custom table NAME whose rows are the values at the NBT path ROWS
    /// in every chunk and file (`inv=Inventory[]`); its columns from --col
    #[arg(long = "table", value_name = "NAME=ROWS")]
    pub custom: Option<String>,
    /// A column of the custom table: NAME=PATH, PATH relative to a row
    /// (`--col id=id --col count=count`); repeat for more
    #[arg(long = "col", value_name = "NAME=PATH", requires = "custom")]
    pub cols: Vec<String>,
    /// Give every table an `snbt` column: the whole row's value as SNBT
    #[arg(long)]
    pub snbt: bool,
}

/// A world opened for SQL: DataFusion's context with its tables registered,
/// and the runtime its queries run on.
pub struct Session {
    pub runtime: tokio::runtime::Runtime,
    pub ctx: SessionContext,
    pub world: WorldTables,
    bar: ProgressBar,
}

/// Opens `world` and registers its tables (and the custom one `tables`
/// defines); scans report their progress to a progress line on stderr when
/// it is a terminal.
pub fn open(world: &Path, tables: &TableArgs) -> Result<Session> {
    let source =
        Source::open(world).map_err(|e| Failure::new(format!("{}: {e}", world.display())))?;
    let bar = crate::report::progress_bar(0);
    let progress = bar.clone();
    let events = Events::with_progress(move |bytes| progress.inc(bytes));
    let threads = std::thread::available_parallelism().map_or(2, usize::from);
    let config = SessionConfig::new()
        .with_target_partitions(threads)
        .with_information_schema(true);
    let ctx = SessionContext::new_with_config(config);
    // One thread for DataFusion's operators: the work is in the scans,
    // which run on threads of their own (one per partition).
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .map_err(|e| Failure::new(format!("cannot start the query engine: {e}")))?;
    let snbt = tables.snbt;
    let world_tables = WorldTables::new(source, events);
    world_tables
        .register_builtins(&ctx, snbt)
        .map_err(|e| Failure::new(e.to_string()))?;
    if let Some(spec) = &tables.custom {
        {
            let (name, rows) = spec.split_once('=').ok_or_else(|| {
                Failure::new(format!("--table {spec}: give NAME=ROWS (inv=Inventory[])"))
            })?;
            let cols = tables
                .cols
                .iter()
                .map(|c| {
                    c.split_once('=')
                        .map(|(n, p)| (n.to_owned(), p.to_owned()))
                        .ok_or_else(|| Failure::new(format!("--col {c}: give NAME=PATH (id=id)")))
                })
                .collect::<Result<Vec<_>>>()?;
            let mut table = Table::custom(rows, &cols)
                .map_err(|e| Failure::new(format!("--table {spec}: {e}")))?
                .with_name(name);
            if snbt {
                table = table.with_snbt_column();
            }
            world_tables
                .register(&ctx, name, table)
                .map_err(|e| Failure::new(format!("--table {spec}: {e}")))?;
        }
    }
    Ok(Session {
        runtime,
        ctx,
        world: world_tables,
        bar,
    })
}

impl Session {
    /// Plans `query`: the physical plan, with the progress line's total set
    /// to the bytes of every file its scans read.
    pub fn plan(&self, query: &str) -> Result<Arc<dyn ExecutionPlan>> {
        let plan = self.runtime.block_on(async {
            let df = self.ctx.sql(query).await?;
            df.create_physical_plan().await
        });
        let plan = plan.map_err(|e| Failure::new(format!("{e}")))?;
        self.bar.set_length(scanned_bytes(plan.as_ref()));
        Ok(plan)
    }

    /// Runs `plan`, handing each batch to `each` as it comes.
    pub fn run(
        &self,
        plan: Arc<dyn ExecutionPlan>,
        each: &mut dyn FnMut(RecordBatch) -> Result<()>,
    ) -> Result<()> {
        let task = self.ctx.task_ctx();
        self.runtime.block_on(async {
            let mut stream = datafusion::physical_plan::execute_stream(plan, task)
                .map_err(|e| Failure::new(e.to_string()))?;
            while let Some(batch) = stream.next().await {
                let batch = batch.map_err(|e| Failure::new(e.to_string()))?;
                self.bar.suspend(|| each(batch))?;
            }
            Ok(())
        })
    }

    /// Clears the progress line and prints on stderr every chunk or file
    /// that was skipped; returns how many.
    pub fn finish(&self) -> usize {
        self.bar.finish_and_clear();
        let problems = self.world.problems();
        for p in &problems {
            eprintln!("nbt: {p}");
        }
        problems.len()
    }

    /// Bytes of the files the scans read so far.
    pub fn bytes(&self) -> u64 {
        self.bar.position()
    }
}

/// The bytes of the files every scan in `plan` reads.
fn scanned_bytes(plan: &dyn ExecutionPlan) -> u64 {
    let own = plan
        .downcast_ref::<WorldScanExec>()
        .map_or(0, WorldScanExec::bytes);
    own + plan
        .children()
        .into_iter()
        .map(|c| scanned_bytes(c.as_ref()))
        .sum::<u64>()
}

/// `nbt sql`.
pub fn run(args: SqlArgs) -> Result<u8> {
    let start = Instant::now();
    if args.format == Format::Parquet
        && args.output.is_none()
        && std::io::IsTerminal::is_terminal(&std::io::stdout())
    {
        return Err(Failure::new(
            "not writing Parquet to a terminal: give -o FILE, or redirect stdout",
        ));
    }
    let session = open(&args.world, &args.tables)?;
    let plan = session.plan(&args.query)?;
    let schema = plan.schema();
    let mut out = crate::batches::Output::create(args.output.as_deref())?;
    let mut writer = Writer::new(args.format, schema, out.writer()?)?;
    let mut rows = 0usize;
    let result = session.run(plan, &mut |batch| {
        rows += batch.num_rows();
        writer.write(&batch)
    });
    let skipped = session.finish();
    result?;
    writer.finish()?;
    drop(writer);
    out.commit()?;
    let seconds = start.elapsed().as_secs_f64().max(1e-9);
    let mb = session.bytes() as f64 / 1e6;
    eprintln!(
        "queried {mb:.1} MB in {seconds:.2} s ({:.1} MB/s): {}; {} skipped",
        mb / seconds,
        count(rows, "row"),
        count(skipped, "chunk or file")
    );
    Ok(if skipped > 0 {
        crate::failure::TROUBLE
    } else {
        0
    })
}
