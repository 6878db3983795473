//! SVG bar charts, one per table, drawn with plotters' SVG backend.
//!
//! plotters is built without its `ttf`/`ab_glyph` features, so text sizes
//! come from its naive estimate and labels are plain SVG `<text>` elements
//! that the viewer renders with its own fonts: no font library is needed to
//! build or run this.

use plotters::coord::ranged1d::SegmentValue;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use compare_results::format;
use compare_results::tables::Table;

/// Bar colour for this workspace's simdnbt.
const OURS: RGBColor = RGBColor(0xd9, 0x48, 0x0f);
/// Bar colour for every other library.
const OTHERS: RGBColor = RGBColor(0x6b, 0x7f, 0x99);

/// Chart width in pixels.
const WIDTH: u32 = 900;
/// Height per bar, in pixels.
const ROW_HEIGHT: u32 = 30;

/// File name (no directory) of the chart for `table`, e.g.
/// `complex_player.dat-read.svg`. Characters other than ASCII
/// alphanumerics, `.`, `-` and `_` become `_`.
pub fn file_name(table: &Table) -> String {
    let file: String = table
        .file
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_') {
                c
            } else {
                '_'
            }
        })
        .collect();
    format!("{file}-{}.svg", table.workload.as_str())
}

/// Renders `table` as a horizontal bar chart and returns the SVG text.
/// Bars show throughput in MiB/s when every row has a byte throughput,
/// otherwise median time in µs; the fastest is on top and ours are drawn in
/// a highlight colour.
pub fn render(table: &Table) -> Result<String, String> {
    let mut svg = String::new();
    draw(table, &mut svg).map_err(|e| format!("drawing {}: {e}", file_name(table)))?;
    Ok(svg)
}

fn draw(table: &Table, svg: &mut String) -> Result<(), Box<dyn std::error::Error>> {
    let rows = &table.rows;
    let n = rows.len().max(1) as i32;
    let by_throughput = !rows.is_empty() && rows.iter().all(|r| r.bytes_per_sec.is_some());
    let values: Vec<f64> = rows
        .iter()
        .map(|r| match (by_throughput, r.bytes_per_sec) {
            (true, Some(b)) => b / format::MIB,
            _ => r.median.point / 1e3,
        })
        .collect();
    let labels: Vec<String> = rows
        .iter()
        .map(|r| match (by_throughput, r.bytes_per_sec) {
            (true, Some(b)) => format::throughput(b),
            _ => format::time_ns(r.median.point),
        })
        .collect();
    let max = values.iter().copied().fold(0.0_f64, f64::max);
    let x_max = if max > 0.0 { max * 1.22 } else { 1.0 };
    let (x_desc, better) = if by_throughput {
        ("throughput at median time, MiB/s", "longer is faster")
    } else {
        ("median time per iteration, µs", "shorter is faster")
    };

    let height = 110 + ROW_HEIGHT * n as u32;
    let root = SVGBackend::with_string(svg, (WIDTH, height)).into_drawing_area();
    root.fill(&WHITE)?;
    let title = format!(
        "{}: {} ({better}; orange = this simdnbt)",
        table.file,
        table.workload.title().to_lowercase()
    );
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 20))
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(150)
        // plotters' segmented i32 coordinates include the range's end, so
        // `0..n - 1` gives exactly `n` bar slots; a single bar gets two
        // slots since an empty range cannot be mapped.
        .build_cartesian_2d(0.0..x_max, (0..(n - 1).max(1)).into_segmented())?;

    // Row 0 is drawn at the bottom: put the fastest (first) row on top.
    let slot = |i: usize| n - 1 - i as i32;
    let name_of = |v: &SegmentValue<i32>| match v {
        SegmentValue::CenterOf(s) | SegmentValue::Exact(s) => rows
            .iter()
            .enumerate()
            .find(|(i, _)| slot(*i) == *s)
            .map(|(_, r)| r.peer.clone())
            .unwrap_or_default(),
        SegmentValue::Last => String::new(),
    };
    chart
        .configure_mesh()
        .disable_y_mesh()
        .y_labels(n as usize)
        .y_label_formatter(&name_of)
        .y_label_style(("sans-serif", 15))
        .x_desc(x_desc)
        .x_label_formatter(&|x| format!("{x:.0}"))
        .x_label_style(("sans-serif", 13))
        .axis_desc_style(("sans-serif", 15))
        .draw()?;

    chart.draw_series(rows.iter().zip(&values).enumerate().map(|(i, (row, &v))| {
        let colour = if row.ours { OURS } else { OTHERS };
        let s = slot(i);
        let mut bar = Rectangle::new(
            [
                (0.0, SegmentValue::Exact(s)),
                (v, SegmentValue::Exact(s + 1)),
            ],
            colour.filled(),
        );
        bar.set_margin(4, 4, 0, 0);
        bar
    }))?;

    let label_style =
        TextStyle::from(("sans-serif", 14).into_font()).pos(Pos::new(HPos::Left, VPos::Center));
    chart.draw_series(
        rows.iter()
            .zip(&labels)
            .enumerate()
            .map(|(i, (row, label))| {
                let text = match row.ratio {
                    Some(r) => format!("{label}  ({})", format::ratio(r)),
                    None => label.clone(),
                };
                Text::new(
                    text,
                    (values[i] + x_max * 0.01, SegmentValue::CenterOf(slot(i))),
                    label_style.clone(),
                )
            }),
    )?;
    root.present()?;
    Ok(())
}
