//! `tessera check` against CUTLASS's own kernels: every sm80/sm89/sm90 GEMM name the
//! `cutlass_library` generator of the nvidia-cutlass 4.2.0.0 wheel emits
//! (`tests/data/cutlass_kernels.tsv`, made by `tools/oracle/cutlass_kernels.py`) parses; every
//! kernel `tessera check` models is checked with a problem meeting its alignment and nothing is
//! refuted; and for the sample compiled host-only with g++ against CUTLASS's CollectiveBuilder
//! (`tests/data/cutlass_builder.jsonl`, made by `tools/oracle/cutlass_builder.py`) the stage
//! count, the epilogue's and the kernel's `sizeof(SharedStorage)` and the thread count equal the
//! builder's.

use tessera::check::config::{Extent, Kernel, Stages};
use tessera::check::{check_with, cutlass, derive, Options, Verdict};

fn rows() -> Vec<(String, u32, [u64; 4], [u64; 3])> {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/cutlass_kernels.tsv"
    ))
    .expect("test data");
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            let nums = |s: &str| {
                s.split(',')
                    .map(|x| x.parse::<u64>().expect("number"))
                    .collect::<Vec<_>>()
            };
            let al = nums(f[2]);
            let w = nums(f[3]);
            (
                f[0].to_string(),
                f[1].parse().expect("arch"),
                [al[0], al[1], al[2], al[3]],
                [w[0], w[1], w[2]],
            )
        })
        .collect()
}

fn config_for(
    name: &str,
    al: [u64; 4],
    warps: [u64; 3],
) -> (tessera::check::Config, Option<String>) {
    let p = cutlass::parse(name).unwrap_or_else(|e| panic!("{name}: {e}"));
    let mut c = p.config;
    c.a.alignment = al[0];
    c.b.alignment = al[1];
    if al[2] > 0 {
        c.c.alignment = al[2];
    }
    if al[3] > 0 {
        c.d.alignment = al[3];
    }
    if !c.kernel.is_tma() {
        c.atom_layout = Some(warps);
    }
    c.problem = [
        Extent::Static(4096),
        Extent::Static(4096),
        Extent::Static(4096),
        Extent::Static(1),
    ];
    (c, p.unsupported)
}

#[test]
fn every_generator_name_parses_and_none_modelled_is_refuted() {
    let rows = rows();
    assert!(rows.len() > 20_000, "{} rows", rows.len());
    let (mut checked, mut sm90, mut sm80, mut skipped) = (0, 0, 0, 0);
    let mut failures = Vec::new();
    for (name, arch, al, warps) in &rows {
        let p = cutlass::parse(name).unwrap_or_else(|e| panic!("{name}: {e}"));
        // The name's fields agree with the generator's.
        assert_eq!(p.alignment, al[0].max(al[1]), "{name}: alignment");
        assert_eq!(
            p.config.sm,
            if *arch >= 90 { 90 } else { p.config.sm },
            "{name}: arch"
        );
        if p.unsupported.is_some() {
            skipped += 1;
            continue;
        }
        let (c, _) = config_for(name, *al, *warps);
        let r = check_with(&c, Options { suggestions: false });
        checked += 1;
        if c.kernel.is_tma() {
            sm90 += 1;
        } else {
            sm80 += 1;
        }
        if let Some(o) = r.obligations.iter().find(|o| o.verdict == Verdict::Refuted) {
            failures.push(format!(
                "{name}: {} {} ({})",
                o.code,
                o.message,
                o.witness.clone().unwrap_or_default()
            ));
        }
    }
    eprintln!("generator sweep: {} names parsed; {checked} checked ({sm90} sm90, {sm80} sm80/sm89), {skipped} not modelled", rows.len());
    assert!(
        failures.is_empty(),
        "{} of {checked} CUTLASS kernels refuted, e.g.:\n{}",
        failures.len(),
        failures
            .iter()
            .take(12)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
    assert!(
        sm90 > 5_000 && sm80 > 1_000,
        "{sm90} sm90, {sm80} sm80 checked"
    );
}

#[test]
fn sm80_warp_counts_follow_the_generator_for_most_tiles() {
    // The derivation used when a configuration leaves the warp count out.
    let rows = rows();
    let (mut agree, mut total) = (0, 0);
    for (name, _, _, warps) in &rows {
        if name.starts_with("cutlass_tensorop_") {
            let p = cutlass::parse(name).expect("parses");
            total += 1;
            if derive::sm80_warps(p.config.tile) == *warps {
                agree += 1;
            }
        }
    }
    eprintln!("sm80 warp-count rule: {agree} of {total} generator kernels");
    assert!(total > 1000 && agree * 3 > total * 2, "{agree} of {total}");
}

#[derive(serde::Deserialize)]
struct BuilderRow {
    name: String,
    stages: u64,
    epilogue_shared_storage: u64,
    kernel_shared_storage: u64,
    threads: u64,
}

#[test]
fn stage_counts_and_shared_storage_equal_the_compiled_collective_builder() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/cutlass_builder.jsonl"
    ))
    .expect("test data");
    let rows = rows();
    let mut n = 0;
    let mut bad = Vec::new();
    for line in text.lines().skip(1) {
        let b: BuilderRow = serde_json::from_str(line).expect("row");
        let (_, _, al, warps) = rows
            .iter()
            .find(|r| r.0 == b.name)
            .expect("name in the generator list");
        let (c, unsupported) = config_for(&b.name, *al, *warps);
        assert!(unsupported.is_none(), "{}: {unsupported:?}", b.name);
        assert_eq!(c.stages, Stages::Auto);
        assert!(matches!(
            c.kernel,
            Kernel::TmaWs | Kernel::TmaWsCooperative | Kernel::TmaWsPingpong
        ));
        let r = check_with(&c, Options { suggestions: false });
        let d = &r.derived;
        let got = (d.stages, d.epilogue_smem, d.smem_bytes, d.threads);
        let want = (
            b.stages,
            b.epilogue_shared_storage,
            b.kernel_shared_storage,
            b.threads,
        );
        if got != want {
            bad.push(format!(
                "{}: tessera (stages, epilogue, kernel, threads) = {got:?}, builder {want:?}",
                b.name
            ));
        }
        n += 1;
    }
    assert!(n >= 8, "{n} rows");
    assert!(
        bad.is_empty(),
        "{} of {n} differ:\n{}",
        bad.len(),
        bad.join("\n")
    );
}
