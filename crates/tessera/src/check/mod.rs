//! `tessera check`: a whole GEMM kernel configuration in, every obligation out.
//!
//! A [`Config`] (CUTLASS's names: arch, kernel schedule, problem M/N/K/L with runtime names and
//! facts, operands, accumulator, tile, cluster, stages, epilogue, and any builder-derived field
//! given by hand) comes from a TOML/JSON/Python value tree ([`config::Tree`]) or a CUTLASS kernel
//! name ([`cutlass::parse`]). [`check`] derives what CUTLASS's builders derive ([`derive`]) and
//! checks every obligation of the kernel ([`rules`]): each is **proved**, **refuted** with a
//! witness and suggestions that were checked again, reduced to a **runtime** guard over the
//! problem's runtime extents, or a **warning** (performance). [`text`] writes the report as text,
//! JSON, or a host-side `can_implement` guard.
//!
//! The engine is arch-neutral: each obligation reads the arch's numbers from
//! [`facts`], and the SM90 and SM80 paths differ only in what [`derive`] gives them.
//!
//! Order inside: `facts` → `config` → `derive` → `cutlass` → `rules` → `text`.

pub mod config;
pub mod cutlass;
pub mod derive;
pub mod facts;
pub mod rules;
pub mod text;

pub use config::{Config, ConfigError, Extent, Fact, Tree};
pub use rules::{Derived, Obligation, Suggestion, Verdict};

/// The result of [`check`].
#[derive(Debug, Clone, PartialEq)]
pub struct Report {
    /// Every obligation, in the order of [`rules::CODES`].
    pub obligations: Vec<Obligation>,
    /// What the builder derives.
    pub derived: Derived,
}

/// The whole-kernel verdict.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Overall {
    /// Every obligation proved (warnings allowed).
    Valid,
    /// Valid when the runtime guards hold.
    ValidIf,
    /// At least one obligation refuted.
    Invalid,
}

impl Overall {
    /// `valid`, `valid_if` or `invalid`.
    ///
    /// Pre: none. Post: the JSON spelling. Example: `Overall::ValidIf.name() == "valid_if"`.
    pub fn name(self) -> &'static str {
        match self {
            Overall::Valid => "valid",
            Overall::ValidIf => "valid_if",
            Overall::Invalid => "invalid",
        }
    }
}

impl Report {
    /// The whole-kernel verdict.
    ///
    /// Pre: none. Post: `Invalid` iff some obligation is refuted; else `ValidIf` iff some is
    /// runtime. Example: a configuration with a runtime K and no fact about it is `ValidIf`.
    pub fn overall(&self) -> Overall {
        if self
            .obligations
            .iter()
            .any(|o| o.verdict == Verdict::Refuted)
        {
            Overall::Invalid
        } else if self
            .obligations
            .iter()
            .any(|o| o.verdict == Verdict::Runtime)
        {
            Overall::ValidIf
        } else {
            Overall::Valid
        }
    }
    /// The runtime guards, each once, in obligation order.
    ///
    /// Pre: none. Post: the `guard` of every runtime obligation, deduplicated.
    /// Example: `["K % 8 == 0"]`.
    pub fn guards(&self) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for o in &self.obligations {
            if let Some(g) = &o.guard {
                for part in g.split(" && ") {
                    if !out.iter().any(|x| x == part) {
                        out.push(part.to_string());
                    }
                }
            }
        }
        out
    }
    /// The refuted obligations.
    ///
    /// Pre: none. Post: those with [`Verdict::Refuted`]. Example: empty when valid.
    pub fn refuted(&self) -> impl Iterator<Item = &Obligation> {
        self.obligations
            .iter()
            .filter(|o| o.verdict == Verdict::Refuted)
    }
    /// The first refuted obligation's code (what a search-space summary groups by).
    ///
    /// Pre: none. Post: `None` when nothing is refuted. Example: `Some("smem_capacity")`.
    pub fn first_refuted(&self) -> Option<&'static str> {
        self.refuted().next().map(|o| o.code)
    }
}

/// Options of [`check_with`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Options {
    /// Compute checked suggestions for refuted obligations (each one re-runs the check).
    pub suggestions: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options { suggestions: true }
    }
}

/// Checks every obligation of a kernel configuration, with checked suggestions.
///
/// Pre: none (any configuration; nothing panics, arithmetic saturates or is checked).
/// Post: one [`Obligation`] per code of [`rules::CODES`] that applies to the kernel; every
/// suggestion shown was checked: with it, the obligation is no longer refuted and no other
/// obligation becomes refuted.
/// Example: `check(&Config::sm90_example()).overall()` is `ValidIf` (runtime M, N, K).
pub fn check(c: &Config) -> Report {
    check_with(c, Options::default())
}

/// [`check`] with options (suggestions off: what an autotuner sweeping a space uses).
///
/// Pre: none. Post: as [`check`]; without suggestions when `opts.suggestions` is false.
/// Example: `check_with(&c, Options { suggestions: false })`.
pub fn check_with(c: &Config, opts: Options) -> Report {
    let (mut obligations, candidates, derived) = rules::run(c);
    if opts.suggestions {
        let refuted_before: Vec<&'static str> = obligations
            .iter()
            .filter(|o| o.verdict == Verdict::Refuted)
            .map(|o| o.code)
            .collect();
        for (code, cands) in candidates {
            let mut kept: Vec<Suggestion> = Vec::new();
            for cand in cands {
                if kept.len() >= 4 || kept.iter().any(|k| k.text == cand.text) {
                    continue;
                }
                let (after, _, _) = rules::run(&cand.config);
                let still = after
                    .iter()
                    .any(|o| o.code == code && o.verdict == Verdict::Refuted);
                let new = after
                    .iter()
                    .any(|o| o.verdict == Verdict::Refuted && !refuted_before.contains(&o.code));
                if !still && !new {
                    kept.push(Suggestion {
                        text: cand.text,
                        changes: cand.changes,
                        checked: true,
                    });
                }
            }
            if let Some(o) = obligations.iter_mut().find(|o| o.code == code) {
                o.suggestions = kept;
            }
        }
    }
    Report {
        obligations,
        derived,
    }
}

/// A search space summary: how many configurations are valid, valid-if, invalid, and the
/// invalid ones by their first refuted obligation.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SpaceSummary {
    /// Valid configurations.
    pub valid: u64,
    /// Valid when runtime guards hold.
    pub valid_if: u64,
    /// Invalid configurations.
    pub invalid: u64,
    /// `(code, count)` of the first refuted obligation, most frequent first.
    pub by_first_refuted: Vec<(&'static str, u64)>,
}

/// Checks every configuration of a space (no suggestions) and summarizes.
///
/// Pre: none. Post: `valid + valid_if + invalid == configs.len()`. Example: a space of tiles.
pub fn check_many(configs: &[Config]) -> (Vec<Overall>, SpaceSummary) {
    let mut s = SpaceSummary::default();
    let mut counts: Vec<(&'static str, u64)> = Vec::new();
    let mut out = Vec::with_capacity(configs.len());
    for c in configs {
        let r = check_with(c, Options { suggestions: false });
        let o = r.overall();
        match o {
            Overall::Valid => s.valid += 1,
            Overall::ValidIf => s.valid_if += 1,
            Overall::Invalid => {
                s.invalid += 1;
                if let Some(code) = r.first_refuted() {
                    match counts.iter_mut().find(|(c, _)| *c == code) {
                        Some(e) => e.1 += 1,
                        None => counts.push((code, 1)),
                    }
                }
            }
        }
        out.push(o);
    }
    counts.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
    s.by_first_refuted = counts;
    (out, s)
}
