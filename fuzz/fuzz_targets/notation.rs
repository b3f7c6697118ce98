//! The expression language on arbitrary text: no panic; a layout value prints to text that
//! parses back to the same layout.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(tessera::notation::Value::Layout(l)) = tessera::notation::eval(text) {
        let printed = l.to_string();
        let back: tessera::Layout = printed.parse().expect("a printed layout parses");
        assert_eq!(back, l, "{printed}");
    }
    // Errors render (suggestions are evaluated and checked) without panicking.
    if let Err(e) = tessera::notation::eval(text) {
        let _ = e.to_string();
        let _ = e.suggestions();
    }
});
