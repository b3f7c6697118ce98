//! Schedule text on arbitrary input: parsing and every analysis are panic-free, and a parsed
//! schedule prints back to text that parses.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(s) = tessera::domain::parse(text) else {
        return;
    };
    if let Ok(r) = tessera::domain::report::analyze(&s) {
        let _ = r.render();
    }
    let _ = tessera::domain::parse(&s.to_string());
});
