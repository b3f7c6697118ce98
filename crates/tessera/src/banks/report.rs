//! The answer of the analysis and of the simulator ([`Report`], its worst phase [`Worst`]) and
//! its JSON wire form.

/// The worst phase: which threads collide in which bank.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Worst {
    /// The atom instance (0 without an atom).
    pub instance: u64,
    /// The instruction within the instance.
    pub instruction: u64,
    /// The phase within the instruction.
    pub phase: u64,
    /// Its wavefronts.
    pub wavefronts: u64,
    /// The bank with the most distinct words.
    pub bank: u64,
    /// `(thread, word, domain index)` of every access to that bank in that phase.
    pub hits: Vec<(u64, u64, u64)>,
}

/// The answer of the analysis (and of the simulator).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    /// Bytes per thread per instruction.
    pub vector_bytes: u64,
    /// Instructions in total (atom instances × instructions per instance).
    pub instructions: u64,
    /// Phases per instruction.
    pub phases: u64,
    /// Wavefronts in total.
    pub wavefronts: u64,
    /// The ideal: the total number of phases.
    pub ideal: u64,
    /// The worst phase.
    pub worst: Worst,
    /// `f2-rank` (no enumeration) or `enumeration`.
    pub method: &'static str,
}

impl Report {
    /// `wavefronts / ideal`.
    pub fn conflict_factor(&self) -> f64 {
        self.wavefronts as f64 / self.ideal.max(1) as f64
    }

    /// JSON with `vector_bytes`, `instructions`, `phases_per_instruction`, `wavefronts`, `ideal`,
    /// `conflict_factor`, `method` and the worst phase (compact, keys in that order).
    ///
    /// Pre: none. Post: [`Report::to_json_value`] as text. Example: starts with
    /// `{"vector_bytes":`.
    pub fn to_json(&self) -> String {
        self.to_json_value().to_string()
    }

    /// [`Report::to_json`] as a JSON value (serde), the wire form `tessera banks --json` writes.
    ///
    /// Pre: none. Post: an object; `conflict_factor` rounded to 3 decimals, written as an
    /// integer when whole. Example: `conflict_factor` of 8 wavefronts over an ideal of 1 is `8`.
    pub fn to_json_value(&self) -> serde_json::Value {
        let hits: Vec<serde_json::Value> = self
            .worst
            .hits
            .iter()
            .map(|(t, w, i)| serde_json::json!({"thread": t, "word": w, "index": i}))
            .collect();
        serde_json::json!({
            "vector_bytes": self.vector_bytes,
            "instructions": self.instructions,
            "phases_per_instruction": self.phases,
            "wavefronts": self.wavefronts,
            "ideal": self.ideal,
            "conflict_factor": factor_json(self.conflict_factor()),
            "method": self.method,
            "worst_phase": {
                "instance": self.worst.instance,
                "instruction": self.worst.instruction,
                "phase": self.worst.phase,
                "wavefronts": self.worst.wavefronts,
                "bank": self.worst.bank,
                "hits": hits,
            },
        })
    }
}

/// The conflict factor as a JSON number: 3 decimals, trailing zeros dropped (an integer when
/// whole).
pub(crate) fn factor_json(f: f64) -> serde_json::Value {
    let s = fmt_factor(f);
    if let Ok(n) = s.parse::<u64>() {
        return n.into();
    }
    s.parse::<f64>()
        .ok()
        .and_then(serde_json::Number::from_f64)
        .map_or(serde_json::Value::Null, serde_json::Value::Number)
}

pub(crate) fn fmt_factor(f: f64) -> String {
    let s = format!("{f:.3}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    s.to_string()
}
