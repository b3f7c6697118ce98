//! Pictures from the command line: `tessera show` (the print_layout table, or `--svg` pictures of
//! layouts, TV layouts and TMA tilings) and `tessera schedule FILE --svg dag|space|alloc`.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use tessera::notation::{self, Value};
use tessera::render::{self, TmaTiling};

/// Arguments of `tessera show`.
#[derive(clap::Args, Debug)]
pub struct ShowArgs {
    /// A layout, or an expression whose value is a layout (not used with `--svg-tma`).
    #[arg(required_unless_present = "svg_tma")]
    pub layout: Option<String>,
    /// Draw the layout as an SVG picture (cells coloured by index) instead of the table.
    #[arg(long)]
    pub svg: bool,
    /// Draw a thread-value layout over the `--tile` (implies `--svg`): cells coloured by thread,
    /// labelled `T{t}V{v}`.
    #[arg(long, requires = "tile")]
    pub tv: bool,
    /// The `M,N` tile a TV layout indexes in column-major order.
    #[arg(long, value_name = "M,N")]
    pub tile: Option<String>,
    /// Draw a tensor tiled by TMA boxes as SVG (needs `--shape` and `--box`).
    #[arg(long, requires_all = ["shape", "box_shape"], conflicts_with_all = ["svg", "tv"])]
    pub svg_tma: bool,
    /// Tensor extents for `--svg-tma`, outermost first, e.g. `6,10` (rows, columns).
    #[arg(long, value_name = "DIMS")]
    pub shape: Option<String>,
    /// Box extents for `--svg-tma`, outermost first, e.g. `4,4`.
    #[arg(long = "box", value_name = "DIMS")]
    pub box_shape: Option<String>,
    /// Element strides for `--svg-tma`, outermost first (default all 1).
    #[arg(long, value_name = "DIMS")]
    pub element_strides: Option<String>,
    /// Write the SVG to this file instead of standard output.
    /// Element size in bytes for `--svg` of a swizzled layout (cells coloured by 16-byte chunk).
    #[arg(long, value_name = "N", default_value_t = 2)]
    pub bytes: i64,
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
}

/// `--svg` of `tessera schedule`.
#[derive(clap::Args, Debug)]
pub struct ScheduleSvg {
    /// Draw a picture instead of the report: `dag` (the transform DAG), `space` (the iteration
    /// space, holes marked) or `alloc` (the allocation, allocated holes marked).
    #[arg(long, value_name = "KIND")]
    pub svg: Option<String>,
    /// Write the picture to this file instead of standard output.
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
}

use crate::exit::fail;

/// Writes `text` to `path`, or to standard output (a closed pipe is ignored).
pub fn emit(text: &str, path: Option<&Path>) -> ExitCode {
    match path {
        Some(p) => match std::fs::write(p, text) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => fail("io", format!("{}: {e}", p.display())),
        },
        None => {
            let _ = std::io::stdout().lock().write_all(text.as_bytes());
            ExitCode::SUCCESS
        }
    }
}

fn render_error(input: &str, e: &render::Error) -> ExitCode {
    match e {
        render::Error::Layout(inner) => {
            let _ = write!(
                std::io::stderr().lock(),
                "{}",
                crate::diagnostic::render(input, inner)
            );
            crate::exit::status(inner.code())
        }
        other => fail(other.code(), other),
    }
}

/// Parses `6,10` (or `6x10`) into extents.
fn dims(what: &str, text: &str) -> Result<Vec<i64>, ExitCode> {
    let parts: Result<Vec<i64>, _> = text
        .split([',', 'x'])
        .map(|p| p.trim().parse::<i64>())
        .collect();
    match parts {
        Ok(v) if !v.is_empty() => Ok(v),
        _ => Err(fail(
            "bad_argument",
            format!("{what} `{text}`: expected integers separated by commas, e.g. 6,10"),
        )),
    }
}

fn layout_of(text: &str) -> Result<tessera::Layout, render::Error> {
    match notation::eval(text)? {
        Value::Layout(l) => Ok(l),
        other => Err(tessera::Error::Type {
            op: "show".into(),
            position: 1,
            expected: "a layout",
            found: other.to_string(),
        }
        .into()),
    }
}

/// Runs `tessera show`.
pub fn show(args: ShowArgs) -> ExitCode {
    let out = args.output.as_deref();
    if args.svg_tma {
        let get = |what: &str, v: &Option<String>| match v {
            Some(t) => dims(what, t),
            None => Err(fail("bad_argument", format!("--svg-tma needs {what}"))),
        };
        let tiling = (|| {
            Ok::<_, ExitCode>(TmaTiling {
                shape: get("--shape", &args.shape)?,
                box_shape: get("--box", &args.box_shape)?,
                element_strides: match &args.element_strides {
                    Some(t) => dims("--element-strides", t)?,
                    None => vec![],
                },
            })
        })();
        let tiling = match tiling {
            Ok(t) => t,
            Err(c) => return c,
        };
        return match render::tma_svg(&tiling) {
            Ok(p) => emit(&p.svg, out),
            Err(e) => fail(e.code(), e),
        };
    }
    let Some(text) = args.layout.as_deref() else {
        return fail("bad_argument", "a layout is needed");
    };
    if args.tv {
        let Some(tile) = args.tile.as_deref() else {
            return fail("bad_argument", "--tv needs --tile M,N");
        };
        let mn = match dims("--tile", tile) {
            Ok(v) if v.len() == 2 => v,
            Ok(_) => return fail("bad_argument", format!("--tile `{tile}`: expected M,N")),
            Err(c) => return c,
        };
        return match layout_of(text).and_then(|l| render::tv_svg(&l, mn[0], mn[1])) {
            Ok(p) => emit(&p.svg, out),
            Err(e) => render_error(text, &e),
        };
    }
    if args.svg {
        if let Ok(f) = notation::eval(text).map(|v| v.to_any_layout()) {
            if let Some(f) = f.filter(|f| !f.is_plain()) {
                return match render::layout::swizzle_svg(&f, args.bytes) {
                    Ok(p) => emit(&p.svg, out),
                    Err(e) => render_error(text, &e),
                };
            }
        }
        return match layout_of(text).and_then(|l| render::layout_svg(&l)) {
            Ok(p) => emit(&p.svg, out),
            Err(e) => render_error(text, &e),
        };
    }
    let table = notation::eval(text)
        .map_err(render::Error::from)
        .and_then(|v| match v.to_any_layout() {
            Some(f) => Ok(notation::print_layout_any(&f)?),
            None => layout_of(text).and_then(|l| Ok(notation::print_layout(&l)?)),
        });
    match table {
        Ok(t) => emit(&t, out),
        Err(e) => render_error(text, &e),
    }
}

/// Runs `tessera schedule FILE --svg KIND`; errors exit with the status of [`crate::exit`].
pub fn schedule_picture(s: &tessera::domain::Schedule, pic: &ScheduleSvg) -> ExitCode {
    let kind = pic.svg.as_deref().unwrap_or("dag");
    let drawn = match kind {
        "dag" => {
            // Frame the predicated IterDomains when the analysis succeeds.
            let predicated = tessera::domain::report::analyze(s)
                .map(|r| r.derivation.chosen)
                .unwrap_or_default();
            render::dag_svg(s, &predicated)
        }
        "space" => render::space_svg(s),
        "alloc" | "allocation" => render::alloc_svg(s),
        other => {
            return fail(
                "bad_argument",
                format!("unknown picture `{other}` (dag, space, alloc)"),
            )
        }
    };
    match drawn {
        Ok(p) => emit(&p.svg, pic.output.as_deref()),
        Err(e) => fail(e.code(), e.to_string()),
    }
}
