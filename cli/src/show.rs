//! `nbt show` of a region file without `--chunk`: its chunk table.

use simdnbt::region::Region;

/// The chunk table of a region: position, sectors, compression, save time.
pub fn chunk_table(region: &Region) -> String {
    let mut out = String::from("   x   z  sector  sectors  compression  saved (UTC)\n");
    for info in region.chunks() {
        let compression = format!(
            "{}{}",
            crate::chunk_compression_name(info.compression, info.compression_id),
            if info.external { " (.mcc)" } else { "" }
        );
        out.push_str(&format!(
            "{:>4}{:>4}{:>8}{:>9}  {:<11}  {}\n",
            info.pos.x,
            info.pos.z,
            info.sector,
            info.sectors,
            compression,
            utc(info.timestamp)
        ));
    }
    out.push_str(&format!(
        "{} chunks; show one with --chunk X,Z\n",
        region.len()
    ));
    out
}

/// `YYYY-MM-DD HH:MM:SS` for seconds since the Unix epoch; `-` for 0 (never saved).
fn utc(seconds: u32) -> String {
    if seconds == 0 {
        return "-".into();
    }
    let days = i64::from(seconds / 86_400);
    let rest = seconds % 86_400;
    let (y, m, d) = civil_from_days(days);
    format!(
        "{y:04}-{m:02}-{d:02} {:02}:{:02}:{:02}",
        rest / 3600,
        rest / 60 % 60,
        rest % 60
    )
}

/// The proleptic Gregorian date of a day count from 1970-01-01 (Howard
/// Hinnant's `civil_from_days`, shifted to eras starting in March).
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

/// `nbt show DIR [PATH]`: every file below the folder (the walker's), each
/// under a line `# FILE`: a document as pretty SNBT (or the values at PATH),
/// a region file as its chunk table (with PATH: the values of every chunk,
/// each chunk under its own `# FILE chunk (X, Z)` line). A file that cannot
/// be read is named on stderr and the others go on (exit status 2).
pub fn folder(
    dir: &std::path::Path,
    path: Option<&str>,
    opts: &crate::input::InputOpts,
    layout: crate::output::Layout,
) -> crate::failure::Result<u8> {
    use crate::input::{self, Opened};
    let inputs = crate::walk::Inputs::collect(&[dir.to_owned()]);
    let mut failed = inputs.unreadable.len();
    for message in &inputs.unreadable {
        eprintln!("nbt: {message}");
    }
    let parsed = path.map(crate::query::parse_path).transpose()?;
    for file in inputs.documents.iter().chain(&inputs.regions) {
        let place = crate::many::place(file);
        let text = match (input::open(&place, &opts.in_folder(&place)), &parsed) {
            (Ok(Opened::Region(region)), None) => Ok(chunk_table(&region)),
            (Ok(Opened::Region(region)), Some(p)) => chunk_values(&place, &region, p, layout),
            (Ok(Opened::Document(doc)), None) => {
                crate::output::document_snbt(doc.doc.as_ref(), layout)
            }
            (Ok(Opened::Document(doc)), Some(p)) => {
                let found = crate::query::select(p, doc.doc.as_ref());
                let mut text = String::new();
                for tag in &found {
                    text.push_str(&crate::output::snbt_text(tag, layout)?);
                }
                Ok(text)
            }
            (Err(f), _) => Err(f),
        };
        match text {
            Ok(text) if text.is_empty() => {}
            Ok(text) => {
                crate::output::write_stdout(format!("# {}\n{text}", file.display()).as_bytes())?
            }
            Err(f) => {
                eprintln!("nbt: {}", f.message);
                failed += 1;
            }
        }
    }
    Ok(if failed > 0 {
        crate::failure::TROUBLE
    } else {
        0
    })
}

/// The values at `path` in every chunk of `region` that has any, each chunk
/// under a `# FILE chunk (X, Z)` line.
fn chunk_values(
    place: &crate::input::Place,
    region: &Region,
    path: &simdnbt::path::NbtPath,
    layout: crate::output::Layout,
) -> crate::failure::Result<String> {
    let mut text = String::new();
    for info in region.chunks() {
        let (x, z) = (i32::from(info.pos.x), i32::from(info.pos.z));
        let bytes = region
            .chunk(x, z)
            .map_err(|e| crate::failure::Failure::new(format!("{place}: {e}")))?
            .unwrap_or_default();
        let doc = simdnbt::document::Document::from_vec(bytes).map_err(|e| {
            crate::failure::Failure::new(format!("{place} chunk {}: invalid NBT: {e}", info.pos))
        })?;
        let found = crate::query::select(path, doc.as_ref());
        if found.is_empty() {
            continue;
        }
        text.push_str(&format!("# {place} chunk {}\n", info.pos));
        for tag in &found {
            text.push_str(&crate::output::snbt_text(tag, layout)?);
        }
    }
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates() {
        assert_eq!(utc(0), "-");
        assert_eq!(utc(1), "1970-01-01 00:00:01");
        assert_eq!(utc(951_782_400), "2000-02-29 00:00:00");
        assert_eq!(utc(1_680_307_199), "2023-03-31 23:59:59");
        assert_eq!(utc(u32::MAX), "2106-02-07 06:28:15");
    }
}
