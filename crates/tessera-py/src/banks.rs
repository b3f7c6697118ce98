//! `tessera.bank_conflicts(...)`: shared-memory bank conflicts of an access (a TV layout or a
//! named copy atom) on a plain, swizzled or linear shared-memory layout (issue 13).

use pyo3::prelude::*;

use tessera::banks::atoms::Major;
use tessera::banks::synth::{synthesize, Candidate, Problem, Synthesis};
use tessera::banks::{analyze, Access, Atom, BankError, Dtype, Instr, Report, Smem};
use tessera::layout::AnyLayout;

use crate::swizzle::any_arg;
use crate::{layout_arg, raise_kind, Face};

fn berr(e: BankError) -> PyErr {
    match e {
        BankError::Layout(inner) => crate::raise(inner),
        other => raise_kind("banks", other.code(), other.to_string()),
    }
}

fn bad(what: &'static str, detail: String) -> PyErr {
    berr(BankError::BadInput {
        what,
        detail,
        suggestions: Vec::new(),
    })
}

/// The shared-memory layout from a layout object or text: a plain layout, `Sw<B,M,S> o 0 o L`,
/// or a linear layout `offset = [[1], [2]] -> offset = 4`.
fn smem_arg(o: &Bound<'_, PyAny>) -> PyResult<Smem> {
    // A `tessera.LinearLayout`, in either direction (Triton's `offset -> dims` is inverted).
    if let Some(l) = crate::linear::linear_arg(o) {
        let (l, _) = tessera::algebra::gluon::smem_direction(&l).map_err(crate::linear::lerr)?;
        return Ok(Smem::Linear(l));
    }
    let any = match any_arg(o) {
        Some(a) => a,
        None => {
            let text: String = o.extract()?;
            if text.contains("->") || text.trim_start().starts_with('{') {
                let l = crate::linear::parse_any(&text).map_err(|e| berr(e.into()))?;
                let (l, _) =
                    tessera::algebra::gluon::smem_direction(&l).map_err(crate::linear::lerr)?;
                return Ok(Smem::Linear(l));
            }
            text.parse::<AnyLayout>().map_err(crate::raise)?
        }
    };
    match any {
        AnyLayout::Plain(l) => Ok(Smem::Plain(l)),
        AnyLayout::Composed(c) => match (&c.outer, c.offset, &c.inner) {
            (AnyLayout::Swizzle(s), 0, AnyLayout::Plain(l)) if s.shift() >= 0 => {
                let u = |v: i64| u32::try_from(v).unwrap_or(u32::MAX);
                Ok(Smem::Swizzled {
                    bms: (u(s.bits()), u(s.base()), u(s.shift())),
                    layout: l.clone(),
                })
            }
            _ => Err(bad(
                "smem",
                format!("expected Sw<B,M,S> o 0 o LAYOUT with S >= 0, found {c}"),
            )),
        },
        AnyLayout::Swizzle(s) => Err(bad("smem", format!("{s} alone has no shape"))),
    }
}

/// A bank-conflict analysis: wavefronts against the ideal, the worst phase.
#[pyclass(module = "tessera._tessera", name = "BankReport", frozen)]
pub struct BankReport {
    r: Report,
    smem: Smem,
    dtype: Dtype,
}

#[pymethods]
impl BankReport {
    /// Shared-memory wavefronts the access takes.
    #[getter]
    fn wavefronts(&self) -> u64 {
        self.r.wavefronts
    }
    /// The conflict-free number of wavefronts.
    #[getter]
    fn ideal(&self) -> u64 {
        self.r.ideal
    }
    /// `wavefronts / ideal` (1.0 is conflict-free).
    #[getter]
    fn conflict_factor(&self) -> f64 {
        self.r.conflict_factor()
    }
    #[getter]
    fn instructions(&self) -> u64 {
        self.r.instructions
    }
    #[getter]
    fn phases(&self) -> u64 {
        self.r.phases
    }
    #[getter]
    fn vector_bytes(&self) -> u64 {
        self.r.vector_bytes
    }
    /// The report as JSON text (as `tessera banks --json`).
    fn json(&self) -> String {
        self.r.to_json()
    }
    /// The tile coloured by bank, the worst phase marked (SVG).
    fn svg(&self) -> PyResult<String> {
        tessera::render::banks_svg(&self.smem, self.dtype, &self.r)
            .map(|p| p.svg)
            .map_err(|e| raise_kind("picture", e.code(), e.to_string()))
    }
    fn _repr_svg_(&self) -> Option<String> {
        self.svg().ok().map(|s| tessera::render::html::fit_svg(&s))
    }
    fn __repr__(&self) -> String {
        format!(
            "<tessera.BankReport {} wavefront{}, ideal {} ({:.2}x), {}>",
            self.r.wavefronts,
            if self.r.wavefronts == 1 { "" } else { "s" },
            self.r.ideal,
            self.r.conflict_factor(),
            self.r.method
        )
    }
}

/// Bank conflicts of an access on a shared-memory layout.
///
/// `smem`: a layout object or text (plain, `Sw<B,M,S> o 0 o L`, or linear); `dtype`: `"f16"`,
/// ...; the access: `tv` (a TV layout, 32 threads, with `instr` such as `"ld.shared"`,
/// `"ldmatrix.x4"`) or `atom` (a named copy atom such as `"ldmatrix.x4"`, `"tma"`), with `major`
/// (`"k"` or `"mn"`).
///
/// Pre: `smem` a layout over 2-D coordinates, `dtype` an element type, one access (`tv` or `atom`;
/// else `BankError`). Post: the wavefronts the access takes against the conflict-free ideal.
///
/// >>> tessera.bank_conflicts("(32,32):(1,32)", "f32", tv="(32,1):(32,0)").wavefronts
/// 32
#[pyfunction]
#[pyo3(signature = (smem, dtype, *, tv = None, atom = None, instr = None, major = None))]
fn bank_conflicts(
    smem: &Bound<'_, PyAny>,
    dtype: &str,
    tv: Option<&Bound<'_, PyAny>>,
    atom: Option<&str>,
    instr: Option<&str>,
    major: Option<&str>,
) -> PyResult<BankReport> {
    let smem = smem_arg(smem)?;
    let dt = tessera::banks::text::parse_dtype(dtype)
        .map_err(|_| bad("dtype", format!("unknown element type {dtype:?}")))?;
    let major = match major {
        None => None,
        Some("k" | "K") => Some(Major::K),
        Some("mn" | "MN" | "m" | "n") => Some(Major::MN),
        Some(o) => return Err(bad("major", format!("{o:?} is not k or mn"))),
    };
    let acc = match (tv, atom) {
        (Some(tv), None) => {
            let instr = match instr {
                None | Some("ld.shared") | Some("st.shared") => Instr::Shared { width: None },
                Some(i) => Atom::parse(i).map_err(berr)?.instr(),
            };
            Access {
                tv: layout_arg(tv, Face::Tessera)?,
                instr,
                atom: None,
            }
        }
        (None, Some(a)) => Atom::parse(a)
            .map_err(berr)?
            .access(&smem, dt, major)
            .map_err(berr)?,
        _ => return Err(bad("access", "give exactly one of tv= and atom=".into())),
    };
    let r = analyze(&smem, &acc, dt).map_err(berr)?;
    Ok(BankReport { r, smem, dtype: dt })
}

/// A shared-memory layout as a Python object: a `Layout`, the `ComposedLayout`
/// `Sw<B,M,S> o 0 o L`, or a `LinearLayout`.
fn smem_to_py(py: Python<'_>, smem: &Smem) -> PyResult<PyObject> {
    match smem {
        Smem::Plain(l) => crate::wrap(py, Face::Tessera, l.clone()),
        Smem::Swizzled { bms, layout } => {
            let (b, m, s) = *bms;
            let sw = tessera::layout::Swizzle::new(b.into(), m.into(), s.into())
                .map_err(crate::raise)?;
            let c = tessera::layout::ComposedLayout::new(
                AnyLayout::Swizzle(sw),
                0,
                AnyLayout::Plain(layout.clone()),
            );
            crate::swizzle::wrap_any(py, Face::Tessera, AnyLayout::Composed(Box::new(c)))
        }
        Smem::Linear(l) => Ok(Py::new(py, crate::linear::PyLinear { l: l.clone() })?.into_any()),
        Smem::Any(a) => crate::swizzle::wrap_any(py, Face::Tessera, a.clone()),
    }
}

/// One candidate of a swizzle synthesis: the shared-memory layout and both analyses.
#[pyclass(module = "tessera._tessera", name = "SwizzleCandidate", frozen)]
pub struct SwizzleCandidate {
    c: Candidate,
    dtype: Dtype,
}

#[pymethods]
impl SwizzleCandidate {
    /// The shared-memory layout (`Layout`, `ComposedLayout` or `LinearLayout`).
    #[getter]
    fn smem(&self, py: Python<'_>) -> PyResult<PyObject> {
        smem_to_py(py, &self.c.smem)
    }
    /// The writer's analysis.
    #[getter]
    fn writer(&self) -> BankReport {
        BankReport {
            r: self.c.writer.clone(),
            smem: self.c.smem.clone(),
            dtype: self.dtype,
        }
    }
    /// The reader's analysis.
    #[getter]
    fn reader(&self) -> BankReport {
        BankReport {
            r: self.c.reader.clone(),
            smem: self.c.smem.clone(),
            dtype: self.dtype,
        }
    }
    /// Both accesses conflict-free.
    #[getter]
    fn conflict_free(&self) -> bool {
        self.c.conflict_free()
    }
    /// Total wavefronts of both accesses, and their conflict-free ideal.
    #[getter]
    fn cost(&self) -> (u64, u64) {
        (self.c.cost(), self.c.ideal())
    }
    fn __repr__(&self) -> String {
        format!(
            "<tessera.SwizzleCandidate {} wavefronts (ideal {}){}>",
            self.c.cost(),
            self.c.ideal(),
            if self.c.conflict_free() {
                ", conflict-free"
            } else {
                ""
            }
        )
    }
}

/// The answer of `synthesize_swizzle`: the base layout's analysis, the conflict-free CuTe
/// swizzles, the best CuTe swizzle when none is, the general F2 swizzle and what its search proved.
#[pyclass(module = "tessera._tessera", name = "SwizzleSynthesis", frozen)]
pub struct SwizzleSynthesis {
    s: Synthesis,
    dtype: Dtype,
    writer: String,
    reader: String,
}

impl SwizzleSynthesis {
    fn cand(&self, c: &Candidate) -> SwizzleCandidate {
        SwizzleCandidate {
            c: c.clone(),
            dtype: self.dtype,
        }
    }
}

#[pymethods]
impl SwizzleSynthesis {
    /// The unswizzled base layout, analysed.
    #[getter]
    fn base(&self) -> SwizzleCandidate {
        self.cand(&self.s.base)
    }
    /// Conflict-free CuTe swizzles, smallest `B` first.
    #[getter]
    fn cute(&self) -> Vec<SwizzleCandidate> {
        self.s.cute.iter().map(|c| self.cand(c)).collect()
    }
    /// The cheapest CuTe swizzle when none is conflict-free.
    #[getter]
    fn best_cute(&self) -> Option<SwizzleCandidate> {
        self.s.best_cute.as_ref().map(|c| self.cand(c))
    }
    /// The general F2 swizzle (searched only when no CuTe swizzle is conflict-free).
    #[getter]
    fn general(&self) -> Option<SwizzleCandidate> {
        self.s.general.as_ref().map(|c| self.cand(c))
    }
    /// What the F2 search proved (None when it did not run).
    #[getter]
    fn f2_verdict(&self) -> Option<String> {
        self.s.f2_verdict.clone()
    }
    /// The best candidate: the first conflict-free CuTe swizzle, else the general F2 one, else
    /// the best CuTe one, else the base.
    #[getter]
    fn best(&self) -> SwizzleCandidate {
        let c = self
            .s
            .cute
            .first()
            .or(self.s.general.as_ref())
            .or(self.s.best_cute.as_ref())
            .unwrap_or(&self.s.base);
        self.cand(c)
    }
    /// The JSON of `tessera banks --synth --json`.
    fn json(&self) -> String {
        tessera::banks::text::synthesis_json(&self.s)
    }
    /// The text `tessera banks --synth` prints.
    fn __str__(&self) -> String {
        tessera::banks::text::synthesis_text(&self.s, &self.writer, &self.reader, self.dtype)
    }
    fn __repr__(&self) -> String {
        format!(
            "<tessera.SwizzleSynthesis {} conflict-free CuTe swizzle(s), best {}>",
            self.s.cute.len(),
            self.best().__repr__()
        )
    }
}

/// A swizzle that makes a writer and a reader of a tile both conflict-free (`tessera banks
/// --synth`): CuTe swizzles first, then general F2 swizzles, every candidate checked by the model.
///
/// Pre: `base` the unswizzled tile as a plain layout (e.g. `(64,64):(64,1)`), `dtype` an element
/// type, `writer`/`reader` copy atoms legal on it (`BankError`). Post: every candidate returned
/// was analysed; `cute` holds only conflict-free ones.
///
/// >>> s = tessera.synthesize_swizzle("(64,64):(64,1)", "f16")
/// >>> s.best.smem, s.best.conflict_free
/// (ComposedLayout('Sw<3,3,3> o 0 o (64,64):(64,1)'), True)
#[pyfunction]
#[pyo3(signature = (base, dtype, writer = "tma", reader = "ldmatrix.x4", major = None))]
fn synthesize_swizzle(
    base: &Bound<'_, PyAny>,
    dtype: &str,
    writer: &str,
    reader: &str,
    major: Option<&str>,
) -> PyResult<SwizzleSynthesis> {
    let Smem::Plain(base) = smem_arg(base)? else {
        return Err(bad(
            "smem",
            "synthesis starts from a plain layout (the unswizzled tile)".into(),
        ));
    };
    let dt = tessera::banks::text::parse_dtype(dtype)
        .map_err(|_| bad("dtype", format!("unknown element type {dtype:?}")))?;
    let major = tessera::banks::text::parse_major(major).map_err(berr)?;
    let p = Problem {
        base,
        dtype: dt,
        writer: Atom::parse(writer).map_err(berr)?,
        writer_major: major,
        reader: Atom::parse(reader).map_err(berr)?,
        reader_major: None,
    };
    let s = synthesize(&p).map_err(berr)?;
    Ok(SwizzleSynthesis {
        s,
        dtype: dt,
        writer: writer.to_string(),
        reader: reader.to_string(),
    })
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<BankReport>()?;
    m.add_class::<SwizzleCandidate>()?;
    m.add_class::<SwizzleSynthesis>()?;
    m.add_function(wrap_pyfunction!(synthesize_swizzle, m)?)?;
    m.add_function(wrap_pyfunction!(bank_conflicts, m)?)
}
