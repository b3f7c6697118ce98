//! The bank model against a real GPU: every access of `tests/data/banks_hw.tsv` was replayed on
//! an NVIDIA H200 with the real instruction (`ld.shared`/`st.shared` of 4, 8 and 16 bytes,
//! `ldmatrix.x1/x2/x4`) and its shared-memory wavefronts counted by Nsight Compute
//! (`tools/banks_hw/`: the case generator computes every address from the definitions, the CUDA
//! replayer, the collector). Tessera's analysis and its simulator must give the hardware's
//! instruction count and wavefront count on every line.

use tessera::banks::text::{parse_dtype, parse_instr, parse_smem};
use tessera::banks::{analyze, simulate, Access, Atom};

struct Case {
    line: usize,
    kind: String,
    smem: String,
    access: String,
    dtype: String,
    instr: String,
    hw_instructions: u64,
    hw_wavefronts: u64,
}

fn cases() -> Vec<Case> {
    let text = include_str!("../data/banks_hw.tsv");
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.starts_with('#') && !l.is_empty())
        .map(|(i, l)| {
            let f: Vec<&str> = l.split('\t').collect();
            assert_eq!(f.len(), 7, "line {}: {l}", i + 1);
            Case {
                line: i + 1,
                kind: f[0].to_string(),
                smem: f[1].to_string(),
                access: f[2].to_string(),
                dtype: f[3].to_string(),
                instr: f[4].to_string(),
                hw_instructions: f[5].parse().unwrap(),
                hw_wavefronts: f[6].parse().unwrap(),
            }
        })
        .collect()
}

fn access(c: &Case) -> Access {
    let smem = parse_smem(&c.smem).unwrap();
    let dtype = parse_dtype(&c.dtype).unwrap();
    match c.kind.as_str() {
        "atom" => Atom::parse(&c.access)
            .unwrap()
            .access(&smem, dtype, None)
            .unwrap(),
        "tv" => Access {
            tv: c.access.parse().unwrap(),
            instr: parse_instr(&c.instr).unwrap(),
            atom: None,
        },
        k => panic!("line {}: unknown kind {k}", c.line),
    }
}

#[test]
fn analysis_and_simulator_equal_the_hardware_counters() {
    let cs = cases();
    assert!(cs.len() >= 300, "{} cases", cs.len());
    let mut kinds = std::collections::BTreeMap::<&str, usize>::new();
    let mut conflicted = 0;
    for c in &cs {
        let smem = parse_smem(&c.smem).unwrap();
        let dtype = parse_dtype(&c.dtype).unwrap();
        let acc = access(c);
        let a = analyze(&smem, &acc, dtype)
            .unwrap_or_else(|e| panic!("line {}: analysis refused: {e}", c.line));
        let s = simulate(&smem, &acc, dtype)
            .unwrap_or_else(|e| panic!("line {}: simulator refused: {e}", c.line));
        let what = format!(
            "line {}: {} {} on {} ({})",
            c.line, c.instr, c.access, c.smem, c.dtype
        );
        assert_eq!(a.instructions, c.hw_instructions, "{what}: instructions");
        assert_eq!(a.wavefronts, c.hw_wavefronts, "{what}: analysis wavefronts");
        assert_eq!(
            s.wavefronts, c.hw_wavefronts,
            "{what}: simulator wavefronts"
        );
        if a.wavefronts > a.ideal {
            conflicted += 1;
        }
        *kinds.entry(c.instr.as_str()).or_default() += 1;
    }
    // The data exercises conflicts, not only conflict-free accesses, and every instruction.
    assert!(
        conflicted * 3 >= cs.len(),
        "{conflicted} conflicted of {}",
        cs.len()
    );
    for i in [
        "ld.shared.4",
        "ld.shared.8",
        "ld.shared.16",
        "st.shared.4",
        "st.shared.8",
        "st.shared.16",
        "ldmatrix.x1",
        "ldmatrix.x2",
        "ldmatrix.x4",
    ] {
        assert!(kinds.get(i).copied().unwrap_or(0) >= 10, "{i}: {kinds:?}");
    }
}

/// The counters are not vacuous: a model that ignored conflicts (ideal wavefronts) or counted
/// whole-warp phases for 16-byte accesses would disagree with the hardware on many lines.
#[test]
fn wrong_models_disagree_with_the_hardware() {
    let cs = cases();
    let mut ideal_wrong = 0;
    let mut phase_wrong = 0;
    for c in &cs {
        let smem = parse_smem(&c.smem).unwrap();
        let dtype = parse_dtype(&c.dtype).unwrap();
        let a = analyze(&smem, &access(c), dtype).unwrap();
        if a.ideal != c.hw_wavefronts {
            ideal_wrong += 1;
        }
        // One phase per instruction (a model without quarter/half-warp phases): at least one
        // wavefront per 128 bytes moved, so 16- and 8-byte accesses would cost fewer.
        if c.instr.ends_with(".16") || c.instr.ends_with(".8") {
            let one_phase = a.instructions;
            if one_phase != c.hw_wavefronts {
                phase_wrong += 1;
            }
        }
    }
    assert!(ideal_wrong >= 100, "{ideal_wrong}");
    assert!(phase_wrong >= 100, "{phase_wrong}");
}
