//! The index-expression simplifier on arbitrary text and assumptions: no panic.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: (&str, &str)| {
    let (expr, assume) = data;
    let asm: Vec<&str> = if assume.is_empty() { vec![] } else { vec![assume] };
    let _ = tessera::domain::simplify::simplify_text(expr, &asm);
});
