//! SVG plots of the benchmarks (plotters' SVG backend: text stays SVG text, no fonts):
//! solve time against program size (`fusion-bench --svg`) and the speed-up of each
//! strategy's program over the unfused one (`strategy-bench --svg`).

use plotters::prelude::*;
use std::path::Path;

/// Colours of the series, in order (repeated past the end).
const PALETTE: [RGBColor; 8] = [
    RGBColor(31, 119, 180),
    RGBColor(255, 127, 14),
    RGBColor(44, 160, 44),
    RGBColor(214, 39, 40),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(127, 127, 127),
];

fn colour(i: usize) -> RGBColor {
    PALETTE[i % PALETTE.len()]
}

/// A named series of (x, y) points.
pub struct Series {
    pub name: String,
    pub points: Vec<(f64, f64)>,
}

/// Solve time (ms, log scale) against the number of combinators (log scale), one line
/// per series (a formulation or strategy), points where the solver stopped at its time
/// limit drawn hollow by the caller's choice of series.
pub fn solve_times(path: &Path, title: &str, series: &[Series]) -> Result<(), String> {
    let points = series.iter().flat_map(|s| s.points.iter());
    let (mut x_max, mut y_min, mut y_max) = (1.0f64, f64::INFINITY, 1.0f64);
    for &(x, y) in points {
        x_max = x_max.max(x);
        y_min = y_min.min(y);
        y_max = y_max.max(y);
    }
    let y_min = if y_min.is_finite() { (y_min / 2.0).max(1e-3) } else { 0.1 };
    let root = SVGBackend::new(path, (800, 500)).into_drawing_area();
    let draw = || -> Result<(), Box<dyn std::error::Error + '_>> {
        root.fill(&WHITE)?;
        let mut chart = ChartBuilder::on(&root)
            .caption(title, ("sans-serif", 18))
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(60)
            .build_cartesian_2d((1.0..x_max * 1.5).log_scale(), (y_min..y_max * 2.0).log_scale())?;
        chart.configure_mesh().x_desc("combinators").y_desc("solve time (ms)").draw()?;
        for (i, s) in series.iter().enumerate() {
            let c = colour(i);
            chart
                .draw_series(LineSeries::new(s.points.iter().copied(), c.stroke_width(2)))?
                .label(s.name.as_str())
                .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 18, y)], c.stroke_width(2)));
            chart.draw_series(s.points.iter().map(|&p| Circle::new(p, 3, c.filled())))?;
        }
        chart.configure_series_labels().position(SeriesLabelPosition::UpperLeft).border_style(BLACK).draw()?;
        root.present()?;
        Ok(())
    };
    draw().map_err(|e| format!("{}: {e}", path.display()))
}

/// Grouped bars: for each group (a function), one bar per strategy with its speed-up
/// over the unfused program (`None`: not timed, no bar), on a log scale with a line at 1
/// (as fast as unfused); the group names under the axis, vertical.
pub fn speedups(
    path: &Path,
    title: &str,
    groups: &[String],
    strategies: &[String],
    values: &[Vec<Option<f64>>],
) -> Result<(), String> {
    let all = || values.iter().flatten().flatten().copied();
    let y_max = all().fold(1.0f64, f64::max) * 1.5;
    let y_min = all().fold(1.0f64, f64::min) * 0.7;
    let bars = strategies.len().max(1);
    let width = (140 + groups.len() * (bars * 8 + 12)).max(640) as u32;
    let root = SVGBackend::new(path, (width, 620)).into_drawing_area();
    let draw = || -> Result<(), Box<dyn std::error::Error + '_>> {
        root.fill(&WHITE)?;
        let mut chart = ChartBuilder::on(&root)
            .caption(title, ("sans-serif", 18))
            .margin(12)
            .x_label_area_size(200)
            .y_label_area_size(60)
            .build_cartesian_2d(0.0..groups.len().max(1) as f64, (y_min..y_max).log_scale())?;
        chart.configure_mesh().disable_x_mesh().x_labels(0).y_desc("speed-up over unfused (log scale)").draw()?;
        for (k, name) in strategies.iter().enumerate() {
            let c = colour(k);
            let rects = values.iter().enumerate().filter_map(|(g, row)| {
                let v = row.get(k).copied().flatten()?;
                let x0 = g as f64 + 0.1 + 0.8 * k as f64 / bars as f64;
                Some(Rectangle::new([(x0, y_min), (x0 + 0.8 / bars as f64, v)], c.filled()))
            });
            chart
                .draw_series(rects)?
                .label(name.as_str())
                .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 12, y + 5)], c.filled()));
        }
        chart.draw_series(LineSeries::new([(0.0, 1.0), (groups.len() as f64, 1.0)], BLACK.stroke_width(1)))?;
        chart.configure_series_labels().position(SeriesLabelPosition::UpperLeft).border_style(BLACK).draw()?;
        // The group names, vertical, under the middle of each group.
        let style = ("sans-serif", 12).into_font().transform(FontTransform::Rotate90).color(&BLACK);
        for (g, name) in groups.iter().enumerate() {
            let (x, y) = chart.backend_coord(&(g as f64 + 0.5, y_min));
            root.draw(&Text::new(name.clone(), (x - 6, y + 6), style.clone()))?;
        }
        root.present()?;
        Ok(())
    };
    draw().map_err(|e| format!("{}: {e}", path.display()))
}
