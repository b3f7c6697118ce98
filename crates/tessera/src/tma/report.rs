//! What [`validate`] finds: every rule checked ([`super::rules`]), checked suggestions for each
//! error ([`super::suggest`]), the descriptor when valid and the tiling view; and its readable
//! text ([`text`]).

use std::fmt::Write as _;

use super::error::{Error, Source};
use super::rules::{check, descriptor, Descriptor, Severity};
use super::suggest::{suggest, Suggestion};
use super::tiling::{tiling_view, HoleKind, TilingView};
use super::{Address, Request};

/// One failed obligation with its severity and checked suggestions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    /// The failed rule, with values.
    pub error: Error,
    /// Error or warning.
    pub severity: Severity,
    /// Fixes, each re-validated (the rule no longer fails and no new error appears).
    pub suggestions: Vec<Suggestion>,
}

impl Finding {
    /// The rule's code.
    ///
    /// Pre: none. Post: `self.error.code()`. Example: a box of 512 gives `"tma_box_dim"`.
    pub fn code(&self) -> &'static str {
        self.error.code()
    }
    /// The rule's source.
    ///
    /// Pre: none. Post: `self.error.source_doc()`. Example: a box of 512 cites the driver.
    pub fn source(&self) -> Source {
        self.error.source_doc()
    }
}

/// Everything [`validate`] finds.
#[derive(Debug, Clone)]
pub struct Report {
    /// The request.
    pub request: Request,
    /// Findings, errors first in rule order, then warnings.
    pub findings: Vec<Finding>,
    /// The descriptor when no finding is an error.
    pub descriptor: Option<Descriptor>,
    /// The tiling view (when the shape, boxes and element strides allow one).
    pub tiling: Option<TilingView>,
    /// Why there is no tiling view.
    pub tiling_error: Option<Error>,
    /// When several errors need fixing: the suggestions applied one after another (each checked),
    /// ending in a request the driver accepts; `None` when valid already or no chain is found.
    pub combined: Option<Suggestion>,
}

impl Report {
    /// Whether the driver accepts the descriptor (no error-level finding).
    ///
    /// Pre: none. Post: `descriptor.is_some()`. Example: the CUTLASS f16 128×64 box is valid.
    pub fn valid(&self) -> bool {
        self.descriptor.is_some()
    }
    /// Error-level findings.
    ///
    /// Pre: none. Post: those with [`Severity::Error`]. Example: empty when valid.
    pub fn errors(&self) -> impl Iterator<Item = &Finding> {
        self.findings
            .iter()
            .filter(|f| f.severity == Severity::Error)
    }
}

/// Applies, error after error, the first checked suggestion for the first remaining error, at
/// most 8 steps; returns the chain when it ends valid.
fn combine(r: &Request) -> Option<Suggestion> {
    let mut cur = r.clone();
    let mut texts = Vec::new();
    for _ in 0..8 {
        let errs: Vec<Error> = check(&cur)
            .into_iter()
            .filter(|(_, s)| *s == Severity::Error)
            .map(|(e, _)| e)
            .collect();
        if errs.is_empty() {
            return Some(Suggestion {
                text: texts.join("; "),
                request: cur,
                valid: true,
            });
        }
        let next = errs
            .iter()
            .find_map(|e| suggest(&cur, e, errs.len()).into_iter().next())?;
        texts.push(next.text);
        cur = next.request;
    }
    None
}

/// Checks every rule, with checked suggestions for each error, the descriptor when valid, and the
/// tiling view.
///
/// Pre: none. Post: `valid()` iff no error-level finding; every suggestion shown passed
/// [`check`] again (its rule no longer fails, and it has fewer errors than the request);
/// `combined`, when present, passes every driver rule.
/// Example: f16 `[1024, 4096]`, box `[64, 128]`, swizzle 128B: the inner box is 256 bytes, over
/// the 128-byte span; suggestions include box `[64, 64]`.
pub fn validate(r: &Request) -> Report {
    let raw = check(r);
    let errors = raw.iter().filter(|(_, s)| *s == Severity::Error).count();
    let findings: Vec<Finding> = raw
        .iter()
        .map(|(e, s)| Finding {
            error: e.clone(),
            severity: *s,
            suggestions: if *s == Severity::Error {
                suggest(r, e, errors)
            } else {
                Vec::new()
            },
        })
        .collect();
    let descriptor = descriptor(r).ok();
    let (tiling, tiling_error) = if findings.iter().any(|f| {
        matches!(
            f.error,
            Error::Arity { .. }
                | Error::Rank { .. }
                | Error::GlobalDim { .. }
                | Error::BoxDim { .. }
                | Error::ElementStride { .. }
        )
    }) {
        (
            None,
            Some(Error::Tiling(
                "needs valid rank, globalDim, boxDim and elementStrides".into(),
            )),
        )
    } else {
        match tiling_view(r) {
            Ok(t) => (Some(t), None),
            Err(e) => (None, Some(e)),
        }
    };
    let combined = if errors > 1 { combine(r) } else { None };
    Report {
        request: r.clone(),
        combined,
        findings,
        descriptor,
        tiling,
        tiling_error,
    }
}

/// `error` or `warning`.
pub fn severity_name(s: Severity) -> &'static str {
    match s {
        Severity::Error => "error",
        Severity::Warning => "warning",
    }
}

fn join(v: &[u64]) -> String {
    v.iter()
        .map(|x| x.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

/// The readable report (what `tessera tma` prints): the request, each finding with its source and
/// checked suggestions, the descriptor arguments or the refusal, and the tiling view with its holes.
///
/// Pre: none. Post: plain text, each line ending in a newline; numbers in driver order.
/// Example: a valid f16 `[64, 64]` request with box `[64, 64]` prints `valid: cuTensorMapEncodeTiled(`.
pub fn text(rep: &Report) -> String {
    let r = &rep.request;
    let mut o = String::new();
    let _ = writeln!(
        o,
        "TMA request: {} tensor [{}], strides [{}] elements, box [{}], element strides [{}]",
        r.dtype.name(),
        join(&r.shape),
        join(&r.strides),
        join(&r.box_dims),
        join(&r.element_strides)
    );
    let addr = match r.address {
        Address::Exact(a) => format!("address {a:#x}"),
        Address::Aligned(a) => format!("address aligned to {a} bytes"),
    };
    let _ = writeln!(
        o,
        "  interleave {}, swizzle {}, {}, {}, {addr}, sm_{}",
        r.interleave.name(),
        r.swizzle.name(),
        r.l2_promotion
            .cu_name()
            .trim_start_matches("CU_TENSOR_MAP_"),
        r.oob_fill.cu_name().trim_start_matches("CU_TENSOR_MAP_"),
        r.sm
    );
    let _ = writeln!(
        o,
        "  (reports number dimensions as the driver does: dimension 0 is the innermost, the last of the shape)"
    );
    let _ = writeln!(o);
    for f in &rep.findings {
        let _ = writeln!(
            o,
            "{}[{}] {}\n  source: {}",
            severity_name(f.severity),
            f.code(),
            f.error,
            f.source().cite()
        );
        for s in &f.suggestions {
            let _ = writeln!(
                o,
                "  suggestion (checked{}): {} -> shape [{}], strides [{}], box [{}], element strides [{}], swizzle {}",
                if s.valid { ", valid" } else { ", fixes this rule" },
                s.text,
                join(&s.request.shape),
                join(&s.request.strides),
                join(&s.request.box_dims),
                join(&s.request.element_strides),
                s.request.swizzle.name()
            );
        }
    }
    if let Some(c) = &rep.combined {
        let _ = writeln!(
            o,
            "all errors fixed together (checked, valid): {} -> shape [{}], strides [{}], box [{}], element strides [{}], swizzle {}",
            c.text,
            join(&c.request.shape),
            join(&c.request.strides),
            join(&c.request.box_dims),
            join(&c.request.element_strides),
            c.request.swizzle.name()
        );
    }
    if !rep.findings.is_empty() {
        let _ = writeln!(o);
    }
    match &rep.descriptor {
        Some(d) => {
            let _ = writeln!(o, "valid: cuTensorMapEncodeTiled(");
            let _ = writeln!(
                o,
                "  tensorDataType = {} ({}),",
                d.data_type.cu_name(),
                d.data_type.cu_value()
            );
            let _ = writeln!(o, "  tensorRank     = {},", d.rank);
            let _ = writeln!(
                o,
                "  globalAddress  = {},",
                d.global_address
                    .map_or_else(|| "(base pointer)".to_string(), |a| format!("{a:#x}"))
            );
            let _ = writeln!(o, "  globalDim      = {{{}}},", join(&d.global_dim));
            let _ = writeln!(
                o,
                "  globalStrides  = {{{}}},  // bytes, dimensions 1..",
                join(&d.global_strides)
            );
            let _ = writeln!(o, "  boxDim         = {{{}}},", join(&d.box_dim));
            let _ = writeln!(o, "  elementStrides = {{{}}},", join(&d.element_strides));
            let _ = writeln!(o, "  interleave     = {},", d.interleave.cu_name());
            let _ = writeln!(o, "  swizzle        = {},", d.swizzle.cu_name());
            let _ = writeln!(o, "  l2Promotion    = {},", d.l2_promotion.cu_name());
            let _ = writeln!(o, "  oobFill        = {})", d.oob_fill.cu_name());
            if d.smem_bytes == d.copy_bytes {
                let _ = writeln!(
                    o,
                    "one copy: {} bytes of shared memory, aligned to {} bytes",
                    d.copy_bytes, d.smem_alignment
                );
            } else {
                let _ = writeln!(
                    o,
                    "one copy: moves {} bytes but occupies {} bytes of shared memory (TMA pads each {}-byte box row to the {}-byte swizzle span), aligned to {} bytes",
                    d.copy_bytes,
                    d.smem_bytes,
                    d.box_dim.first().copied().unwrap_or(0) * d.data_type.mem_bits() / 8,
                    d.swizzle.span().unwrap_or(0),
                    d.smem_alignment
                );
            }
        }
        None => {
            let n = rep.errors().count();
            let _ = writeln!(
                o,
                "invalid: the driver refuses this descriptor (CUDA_ERROR_INVALID_VALUE): {n} error{}",
                if n == 1 { "" } else { "s" }
            );
        }
    }
    let _ = writeln!(o);
    match (&rep.tiling, &rep.tiling_error) {
        (Some(t), _) => {
            let _ = writeln!(o, "tiling view (driver order, elements):");
            let _ = writeln!(o, "  tensor {}", t.tensor);
            if let Some(b) = &t.boxes {
                let _ = writeln!(o, "  boxes  {b}   ((box modes), (rest modes))");
            }
            if let Some(b) = &t.tiles {
                if t.dims.iter().any(|d| d.element_stride > 1) {
                    let _ = writeln!(o, "  tiles  {b}   ((strided tile modes), (rest modes))");
                }
            }
            for n in &t.notes {
                let _ = writeln!(o, "  note: {n}");
            }
            let _ = writeln!(
                o,
                "  {}",
                if t.exact {
                    "exact: the boxes tile the tensor with no hole"
                } else {
                    "not exact: holes"
                }
            );
            for d in &t.dims {
                let _ = write!(
                    o,
                    "  dim {}: S={} B={} e={}: {} box{}, {} element{} per copy",
                    d.dim,
                    d.size,
                    d.box_size,
                    d.element_stride,
                    d.boxes,
                    if d.boxes == 1 { "" } else { "es" },
                    d.tile,
                    if d.tile == 1 { "" } else { "s" }
                );
                if d.boxing_holes + d.striding_holes == 0 {
                    let _ = writeln!(o, ", no holes");
                    continue;
                }
                let _ = writeln!(o);
                if d.boxing_holes > 0 {
                    let _ = writeln!(
                        o,
                        "    boxing split {} by {}: {} hole{} at coordinates {}..{} (last box), zero-filled by the bound check",
                        d.size,
                        d.box_size,
                        d.boxing_holes,
                        if d.boxing_holes == 1 { "" } else { "s" },
                        d.size,
                        d.size + d.boxing_holes - 1
                    );
                }
                if d.striding_holes > 0 {
                    let _ = writeln!(
                        o,
                        "    striding split {} by {}: {} hole{} (box offsets {}..{} of every box): {} filled with in-bound data, {} zero-filled",
                        d.box_size,
                        d.element_stride,
                        d.striding_holes,
                        if d.striding_holes == 1 { "" } else { "s" },
                        d.box_size,
                        d.tile * d.element_stride - 1,
                        d.data_filled,
                        d.zero_filled
                    );
                    let shown: Vec<String> = d
                        .sites
                        .iter()
                        .filter(|h| h.kind == HoleKind::Striding)
                        .map(|h| {
                            format!(
                                "box {} offset {} -> coordinate {} {}",
                                h.box_number,
                                h.offset,
                                h.coordinate,
                                if h.zero_filled { "(zero)" } else { "(data)" }
                            )
                        })
                        .collect();
                    let _ = writeln!(o, "      {}", shown.join("; "));
                }
                if d.fttc {
                    let _ = writeln!(
                        o,
                        "    FTTC: e={} < B={} < S={} and {} does not divide {}: strong correctness is impossible",
                        d.element_stride, d.box_size, d.size, d.element_stride, d.box_size
                    );
                }
            }
            let _ = writeln!(
                o,
                "  {}",
                if t.all_holes_zero {
                    "every hole is zero-filled by the hardware: strongly correct for sum reductions with no predicate"
                } else if t.strong_correctness {
                    "some holes hold in-bound data, but the FTTC condition fails in every dimension: strong correctness is achievable by predicating the element-stride loop"
                } else {
                    "FTTC: strong correctness is impossible (holes hold in-bound data the hardware cannot be told to skip); only weak correctness"
                }
            );
        }
        (None, Some(e)) => {
            let _ = writeln!(o, "tiling view: unavailable ({e})");
        }
        (None, None) => {}
    }
    o
}

impl crate::diagnostic::Diagnose for Finding {
    /// The rule's diagnostic: its severity, its source in the notes (`source: …`), and the
    /// suggestions that pass every rule.
    fn diagnostic(&self) -> crate::diagnostic::Diagnostic {
        let severity = match self.severity {
            super::Severity::Error => crate::diagnostic::Severity::Error,
            super::Severity::Warning => crate::diagnostic::Severity::Warning,
        };
        crate::diagnostic::Diagnostic::new(self.code(), severity, self.error.to_string())
            .with_notes(vec![format!("source: {}", self.source().cite())])
            .with_suggestions(
                self.suggestions
                    .iter()
                    .filter(|s| s.valid)
                    .map(|s| s.text.clone())
                    .collect(),
            )
    }
}
