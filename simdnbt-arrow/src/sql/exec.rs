//! The physical scan: DataFusion partitions fed by the scanner, one thread
//! per partition, through bounded channels.

use std::fmt;
use std::sync::Arc;

use arrow_array::RecordBatch;
use arrow_schema::SchemaRef;
use datafusion::common::tree_node::TreeNodeRecursion;
use datafusion::error::{DataFusionError, Result};
use datafusion::execution::TaskContext;
use datafusion::physical_expr::{EquivalenceProperties, PhysicalExpr};
use datafusion::physical_plan::execution_plan::{Boundedness, EmissionType};
use datafusion::physical_plan::stream::RecordBatchStreamAdapter;
use datafusion::physical_plan::{
    DisplayAs, DisplayFormatType, ExecutionPlan, Partitioning, PlanProperties,
    SendableRecordBatchStream,
};
use tokio::sync::mpsc;

use super::{CHANNEL_BATCHES, Events};
use crate::{Partition, ScanOptions, Table, scan_partition};

/// Spreads `parts` over at most `target` groups (at least one, possibly
/// empty), largest files first, each to the group with the fewest bytes so
/// far: the groups end at about the same time.
pub(super) fn spread(mut parts: Vec<Partition>, target: usize) -> Vec<Vec<Partition>> {
    let mut sized: Vec<(u64, Partition)> =
        parts.drain(..).map(|p| (file_size(&p.path), p)).collect();
    sized.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.path.cmp(&b.1.path)));
    let n = target.clamp(1, sized.len().max(1));
    let mut groups: Vec<(u64, Vec<Partition>)> = vec![(0, Vec::new()); n];
    for (bytes, part) in sized {
        let (total, group) = groups
            .iter_mut()
            .min_by_key(|(total, _)| *total)
            .expect("at least one group");
        *total += bytes;
        group.push(part);
    }
    groups.into_iter().map(|(_, g)| g).collect()
}

/// Scans one table of a world: DataFusion partition `i` reads the files of
/// group `i`, one after the other.
pub struct WorldScanExec {
    table: Table,
    opts: ScanOptions,
    groups: Arc<Vec<Vec<Partition>>>,
    schema: SchemaRef,
    events: Arc<Events>,
    properties: Arc<PlanProperties>,
}

impl WorldScanExec {
    /// A scan of `table` with `opts` (its projection gives the output
    /// schema) over `groups` of files.
    pub fn new(
        table: Table,
        opts: ScanOptions,
        groups: Vec<Vec<Partition>>,
        events: Arc<Events>,
    ) -> std::result::Result<Self, arrow_schema::ArrowError> {
        let full = table.schema();
        let schema = match &opts.projection {
            Some(columns) => Arc::new(full.project(columns)?),
            None => full,
        };
        let properties = PlanProperties::new(
            EquivalenceProperties::new(Arc::clone(&schema)),
            Partitioning::UnknownPartitioning(groups.len()),
            EmissionType::Incremental,
            Boundedness::Bounded,
        );
        Ok(WorldScanExec {
            table,
            opts,
            groups: Arc::new(groups),
            schema,
            events,
            properties: Arc::new(properties),
        })
    }

    fn files(&self) -> usize {
        self.groups.iter().map(Vec::len).sum()
    }

    /// The size in bytes of the files this scan reads (what a progress
    /// line counts: [`super::Events::with_progress`] reports each file's
    /// size once it is read).
    pub fn bytes(&self) -> u64 {
        self.groups
            .iter()
            .flatten()
            .map(|p| file_size(&p.path))
            .sum()
    }
}

fn file_size(path: &std::path::Path) -> u64 {
    std::fs::metadata(path).map_or(0, |m| m.len())
}

impl fmt::Debug for WorldScanExec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("WorldScanExec")
            .field("table", &self.table.name())
            .field("projection", &self.opts.projection)
            .field("files", &self.files())
            .field("partitions", &self.groups.len())
            .finish()
    }
}

impl DisplayAs for WorldScanExec {
    fn fmt_as(&self, _t: DisplayFormatType, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let columns: Vec<&str> = self
            .schema
            .fields()
            .iter()
            .map(|f| f.name().as_str())
            .collect();
        write!(
            f,
            "WorldScanExec: table={}, files={}, columns=[{}]",
            self.table.name(),
            self.files(),
            columns.join(", ")
        )
    }
}

impl ExecutionPlan for WorldScanExec {
    fn name(&self) -> &str {
        "WorldScanExec"
    }

    fn properties(&self) -> &Arc<PlanProperties> {
        &self.properties
    }

    fn children(&self) -> Vec<&Arc<dyn ExecutionPlan>> {
        Vec::new()
    }

    fn apply_expressions(
        &self,
        _f: &mut dyn FnMut(&Arc<dyn PhysicalExpr>) -> Result<TreeNodeRecursion>,
    ) -> Result<TreeNodeRecursion> {
        Ok(TreeNodeRecursion::Continue)
    }

    fn with_new_children(
        self: Arc<Self>,
        children: Vec<Arc<dyn ExecutionPlan>>,
    ) -> Result<Arc<dyn ExecutionPlan>> {
        if children.is_empty() {
            Ok(self)
        } else {
            Err(DataFusionError::Internal(
                "WorldScanExec has no children".into(),
            ))
        }
    }

    fn execute(
        &self,
        partition: usize,
        _context: Arc<TaskContext>,
    ) -> Result<SendableRecordBatchStream> {
        let group = self.groups.get(partition).cloned().ok_or_else(|| {
            DataFusionError::Internal(format!(
                "WorldScanExec: no partition {partition} (of {})",
                self.groups.len()
            ))
        })?;
        let (tx, mut rx) = mpsc::channel(CHANNEL_BATCHES);
        let (table, opts, events) = (
            self.table.clone(),
            self.opts.clone(),
            Arc::clone(&self.events),
        );
        let schema = Arc::clone(&self.schema);
        std::thread::Builder::new()
            .name(format!("scan {} #{partition}", table.name()))
            .spawn(move || produce(&table, &opts, &group, &events, &schema, &tx))
            .map_err(|e| DataFusionError::External(Box::new(e)))?;
        let stream = futures::stream::poll_fn(move |cx| rx.poll_recv(cx));
        Ok(Box::pin(RecordBatchStreamAdapter::new(
            Arc::clone(&self.schema),
            stream,
        )))
    }
}

/// The work of one partition's thread: each file of `group` scanned in turn,
/// its batches sent on `tx`; stops early when DataFusion drops the stream
/// (a `LIMIT` met, the query cancelled). A file or chunk that cannot be
/// read goes to `events` and the scan goes on.
fn produce(
    table: &Table,
    opts: &ScanOptions,
    group: &[Partition],
    events: &Events,
    schema: &SchemaRef,
    tx: &mpsc::Sender<Result<RecordBatch>>,
) {
    for part in group {
        let mut scan = match scan_partition(table, part, opts) {
            Ok(scan) => scan,
            Err(e) => {
                // A projection past the schema: the plan is wrong, not the file.
                let _ = tx.blocking_send(Err(DataFusionError::External(Box::new(e))));
                return;
            }
        };
        for batch in scan.by_ref() {
            let batch = match batch {
                // The scanner's schema and the plan's are the same columns;
                // the plan's is the one DataFusion checks for.
                Ok(batch) => batch.with_schema(Arc::clone(schema)).map_err(|e| {
                    DataFusionError::Internal(format!(
                        "table {}: {}: the batch does not have the columns planned: {e}",
                        table.name(),
                        part.path.display()
                    ))
                }),
                // The file cannot be opened: skipped, as a chunk is.
                Err(e) => {
                    events.problem(e.to_string());
                    break;
                }
            };
            if tx.blocking_send(batch).is_err() {
                return;
            }
        }
        for warning in scan.take_warnings() {
            events.problem(warning.to_string());
        }
        events.more_problems(scan.dropped_warnings());
        events.file_done(file_size(&part.path));
    }
}
