//! `tessera report` inputs: a layout file's expression or a schedule, rendered to HTML with its
//! pictures; no panic on any text.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let _ = tessera::render::html::layout_report(text);
    if let Ok(s) = tessera::domain::parse(text) {
        let _ = tessera::render::html::schedule_report("fuzz", Some(text), &s);
    }
});
