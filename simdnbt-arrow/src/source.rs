//! What a path opens as: a world folder (every dimension), a folder of region
//! files, one region file, or one NBT file; cut into partitions, one per file.

use std::io::Cursor;
use std::path::{Path, PathBuf};

use simdnbt::region::{Region, region_position};
use simdnbt::{ReadOptions, borrow};

use crate::Error;

/// What kind of file a partition is, which decides the tables it feeds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PartitionKind {
    /// A region file of chunks (`region/r.X.Z.mca`).
    Region,
    /// A region file of entity chunks (`entities/r.X.Z.mca`, 1.17+).
    Entities,
    /// A region file of points of interest (`poi/r.X.Z.mca`); read by the
    /// `nbt` table and custom tables only.
    Poi,
    /// A player file (`playerdata/UUID.dat`).
    Player,
    /// The world's `level.dat`.
    Level,
    /// Any other NBT file (gzip, zlib or uncompressed), opened by itself.
    File,
}

impl PartitionKind {
    /// Whether the file is a region file (chunks with a header) rather than
    /// one NBT document.
    pub fn is_region(self) -> bool {
        matches!(
            self,
            PartitionKind::Region | PartitionKind::Entities | PartitionKind::Poi
        )
    }

    /// The kind's name: `region`, `entities`, `poi`, `player`, `level`, `file`.
    pub fn name(self) -> &'static str {
        match self {
            PartitionKind::Region => "region",
            PartitionKind::Entities => "entities",
            PartitionKind::Poi => "poi",
            PartitionKind::Player => "player",
            PartitionKind::Level => "level",
            PartitionKind::File => "file",
        }
    }
}

/// One file of a source: the unit of parallelism and of streaming.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Partition {
    /// `overworld`, `the_nether`, `the_end`, or `namespace:path` for the
    /// folders under `dimensions/` (`minecraft:overworld` and the other two
    /// vanilla names are shortened the same way); empty for files outside a
    /// dimension (player files, `level.dat`, a loose NBT file).
    pub dimension: String,
    /// What the file is.
    pub kind: PartitionKind,
    /// The file.
    pub path: PathBuf,
    /// The region position `(X, Z)` of a file named `r.X.Z.mca`.
    pub region: Option<(i32, i32)>,
}

/// A world folder, region folder, region file or NBT file, cut into
/// [`Partition`]s. See the [crate docs](crate) for what is found where.
#[derive(Debug, Clone)]
pub struct Source {
    root: PathBuf,
    partitions: Vec<Partition>,
}

/// The region folders of one dimension folder, and their kinds.
const REGION_FOLDERS: [(&str, PartitionKind); 3] = [
    ("region", PartitionKind::Region),
    ("entities", PartitionKind::Entities),
    ("poi", PartitionKind::Poi),
];

fn io_error(path: &Path) -> impl FnOnce(std::io::Error) -> Error + '_ {
    move |error| Error::Io {
        path: path.to_owned(),
        error,
    }
}

/// `minecraft:overworld` → `overworld`, as the folders without a namespace are named.
fn short_dimension(name: String) -> String {
    match name.as_str() {
        "minecraft:overworld" => "overworld".into(),
        "minecraft:the_nether" => "the_nether".into(),
        "minecraft:the_end" => "the_end".into(),
        _ => name,
    }
}

/// The files directly in `dir`, sorted by name (absent folder: none).
fn files_in(dir: &Path) -> Result<Vec<PathBuf>, Error> {
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(io_error(dir)(e)),
    };
    let mut files = Vec::new();
    for entry in entries {
        let entry = entry.map_err(io_error(dir))?;
        let path = entry.path();
        if path.is_file() {
            files.push(path);
        }
    }
    files.sort();
    Ok(files)
}

fn subdirs(dir: &Path) -> Result<Vec<PathBuf>, Error> {
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(io_error(dir)(e)),
    };
    let mut dirs = Vec::new();
    for entry in entries {
        let path = entry.map_err(io_error(dir))?.path();
        if path.is_dir() {
            dirs.push(path);
        }
    }
    dirs.sort();
    Ok(dirs)
}

fn region_files(dir: &Path, dimension: &str, kind: PartitionKind) -> Result<Vec<Partition>, Error> {
    Ok(files_in(dir)?
        .into_iter()
        .filter_map(|path| {
            let region = region_position(&path)?;
            Some(Partition {
                dimension: dimension.to_owned(),
                kind,
                path,
                region: Some(region),
            })
        })
        .collect())
}

/// The dimension a region folder belongs to, from the folders above it
/// (`DIM-1/region` → `the_nether`, `dimensions/ns/path/region` → `ns:path`).
fn dimension_of_dir(dim_dir: &Path) -> String {
    let name = |p: &Path| p.file_name().map(|n| n.to_string_lossy().into_owned());
    match name(dim_dir).as_deref() {
        Some("DIM-1") => return "the_nether".into(),
        Some("DIM1") => return "the_end".into(),
        _ => {}
    }
    let ns_dir = dim_dir.parent();
    let dims_dir = ns_dir.and_then(Path::parent);
    if let (Some(path), Some(ns), Some(dims)) = (
        name(dim_dir),
        ns_dir.and_then(name),
        dims_dir.and_then(name),
    ) {
        if dims == "dimensions" {
            return short_dimension(format!("{ns}:{path}"));
        }
    }
    "overworld".into()
}

fn kind_of_region_dir(dir: &Path) -> PartitionKind {
    let name = dir.file_name().map(|n| n.to_string_lossy().into_owned());
    REGION_FOLDERS
        .iter()
        .find(|(folder, _)| name.as_deref() == Some(folder))
        .map_or(PartitionKind::Region, |&(_, kind)| kind)
}

impl Source {
    /// Opens `path`:
    ///
    /// - a **world folder** (it has a `level.dat`, `region/`, `DIM-1/`,
    ///   `DIM1/`, `dimensions/`, `entities/` or `playerdata/`): every
    ///   dimension's `region/`, `entities/` and `poi/` files, the player files
    ///   `playerdata/*.dat` and `level.dat`;
    /// - a **folder of region files** (`r.X.Z.mca` directly in it): those, of
    ///   the kind and dimension the folder's name and place say
    ///   (`DIM-1/entities` → entity regions of `the_nether`);
    /// - a **folder of NBT files** (`*.dat`, `*.nbt` directly in it, such as
    ///   `playerdata/`): each as a file below;
    /// - a **region file** (named `*.mca`; its kind and dimension from its folders);
    /// - any other **file**: one NBT document (gzip, zlib or uncompressed),
    ///   a [`PartitionKind::Player`] under `playerdata/`, [`PartitionKind::Level`]
    ///   if named `level.dat`, else [`PartitionKind::File`].
    ///
    /// Nothing is read but folder listings: a broken file is found by the scan.
    pub fn open(path: impl AsRef<Path>) -> Result<Source, Error> {
        let root = path.as_ref().to_owned();
        let meta = std::fs::metadata(&root).map_err(io_error(&root))?;
        let partitions = if meta.is_dir() {
            let mut parts = Self::world(&root)?;
            if parts.is_empty() {
                let dimension = dimension_of_dir(root.parent().unwrap_or(Path::new("")));
                parts = region_files(&root, &dimension, kind_of_region_dir(&root))?;
            }
            if parts.is_empty() {
                parts = Self::nbt_files(&root)?;
            }
            if parts.is_empty() {
                return Err(Error::NothingToRead { path: root });
            }
            parts
        } else {
            vec![Self::file(&root)]
        };
        Ok(Source { root, partitions })
    }

    fn world(root: &Path) -> Result<Vec<Partition>, Error> {
        let mut dims = vec![
            ("overworld".to_owned(), root.to_owned()),
            ("the_nether".to_owned(), root.join("DIM-1")),
            ("the_end".to_owned(), root.join("DIM1")),
        ];
        for ns in subdirs(&root.join("dimensions"))? {
            for dim in subdirs(&ns)? {
                dims.push((dimension_of_dir(&dim), dim));
            }
        }
        let mut parts = Vec::new();
        for (name, dir) in &dims {
            for (folder, kind) in REGION_FOLDERS {
                parts.extend(region_files(&dir.join(folder), name, kind)?);
            }
        }
        for path in files_in(&root.join("playerdata"))? {
            if path.extension().is_some_and(|e| e == "dat") {
                parts.push(Partition {
                    dimension: String::new(),
                    kind: PartitionKind::Player,
                    path,
                    region: None,
                });
            }
        }
        let level = root.join("level.dat");
        if level.is_file() {
            parts.push(Partition {
                dimension: String::new(),
                kind: PartitionKind::Level,
                path: level,
                region: None,
            });
        }
        Ok(parts)
    }

    /// The `.dat` and `.nbt` files directly in a folder (such as `playerdata/`).
    fn nbt_files(dir: &Path) -> Result<Vec<Partition>, Error> {
        Ok(files_in(dir)?
            .into_iter()
            .filter(|p| p.extension().is_some_and(|e| e == "dat" || e == "nbt"))
            .map(|p| Self::file(&p))
            .collect())
    }

    fn file(path: &Path) -> Partition {
        let parent = path.parent().unwrap_or(Path::new(""));
        if path.extension().is_some_and(|e| e == "mca") {
            let kind = kind_of_region_dir(parent);
            let dimension = dimension_of_dir(parent.parent().unwrap_or(Path::new("")));
            return Partition {
                dimension,
                kind,
                path: path.to_owned(),
                region: region_position(path),
            };
        }
        let kind = if path.file_name().is_some_and(|n| n == "level.dat") {
            PartitionKind::Level
        } else if parent.file_name().is_some_and(|n| n == "playerdata") {
            PartitionKind::Player
        } else {
            PartitionKind::File
        };
        Partition {
            dimension: String::new(),
            kind,
            path: path.to_owned(),
            region: None,
        }
    }

    /// The path this source was opened from.
    pub fn path(&self) -> &Path {
        &self.root
    }

    /// One partition per file: region files by dimension (overworld, the
    /// nether, the end, then `dimensions/` in name order) and kind, then the
    /// player files, then `level.dat`.
    pub fn partitions(&self) -> &[Partition] {
        &self.partitions
    }

    /// The total size of the partitions' files in bytes (the unit of
    /// [`crate::Progress`]); files that cannot be read count 0.
    pub fn total_bytes(&self) -> u64 {
        self.partitions
            .iter()
            .filter_map(|p| std::fs::metadata(&p.path).ok())
            .map(|m| m.len())
            .sum()
    }
}

impl Source {
    /// Calls `f` with the root of each document (chunks of region files in
    /// header order, then whole files), at most `max` of them; what does
    /// not open, inflate or parse is passed over.
    pub(crate) fn for_each_document(
        &self,
        max: usize,
        mut f: impl FnMut(simdnbt::borrow::NbtCompound<'_, '_>),
    ) -> Result<(), Error> {
        let mut left = max;
        let opts = ReadOptions::default();
        for part in self.partitions() {
            if left == 0 {
                break;
            }
            if part.kind.is_region() {
                let Ok(region) = Region::open(&part.path) else {
                    continue;
                };
                let mut buf = Vec::new();
                for info in region.chunks() {
                    if left == 0 {
                        break;
                    }
                    let (x, z) = (i32::from(info.pos.x), i32::from(info.pos.z));
                    if region.chunk_into(x, z, &mut buf).is_err() {
                        continue;
                    }
                    if let Ok(borrow::Nbt::Some(nbt)) =
                        borrow::read_with(&mut Cursor::new(&buf[..]), &opts)
                    {
                        left -= 1;
                        f(nbt.as_compound());
                    }
                }
            } else if let Ok(file) = simdnbt::compression::read_file_with(&part.path, &opts) {
                if let Ok(borrow::Nbt::Some(nbt)) = file.borrow() {
                    left -= 1;
                    f(nbt.as_compound());
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dimension_names_come_from_the_folders() {
        assert_eq!(dimension_of_dir(Path::new("w/DIM-1")), "the_nether");
        assert_eq!(dimension_of_dir(Path::new("w/DIM1")), "the_end");
        assert_eq!(dimension_of_dir(Path::new("w")), "overworld");
        assert_eq!(
            dimension_of_dir(Path::new("w/dimensions/mymod/sky")),
            "mymod:sky"
        );
        assert_eq!(
            dimension_of_dir(Path::new("w/dimensions/minecraft/the_end")),
            "the_end"
        );
    }

    #[test]
    fn a_single_file_is_one_partition() {
        let p = Source::file(Path::new("w/DIM1/entities/r.-1.2.mca"));
        assert_eq!(p.kind, PartitionKind::Entities);
        assert_eq!(p.dimension, "the_end");
        assert_eq!(p.region, Some((-1, 2)));
        let p = Source::file(Path::new("w/playerdata/abc.dat"));
        assert_eq!(p.kind, PartitionKind::Player);
        assert_eq!(
            Source::file(Path::new("w/level.dat")).kind,
            PartitionKind::Level
        );
        assert_eq!(Source::file(Path::new("x.nbt")).kind, PartitionKind::File);
    }
}
