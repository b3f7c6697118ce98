//! Strict JSON: what serde_json lets through and a request must not carry. A request is a JSON
//! object (an array is not read as positional fields), no object at any level repeats a key
//! (serde_json keeps the last), and an integer past the range a field can hold is refused with
//! its text as written (serde_json would read it as a float and print it rounded).

use std::collections::HashSet;

/// `Err(message)` when `text` is not one JSON object, or repeats a key in any object; the
/// message says where (serde_json's line and column).
///
/// Pre: none. Post: `Ok` implies `text` is a JSON object with distinct keys at every level.
/// Example: `{"a":{"b":1,"b":2}}` is refused (`duplicate key `b` at line 1 column 13`).
pub fn object(text: &str) -> Result<(), String> {
    let first = text
        .trim_start_matches([' ', '\t', '\n', '\r'])
        .bytes()
        .next();
    if first != Some(b'{') {
        return Err(format!(
            "a request is a JSON object `{{...}}`, found {} at line 1 column {}",
            match first {
                Some(b'[') => "an array",
                Some(b'"') => "a string",
                Some(b'-' | b'0'..=b'9') => "a number",
                Some(b't' | b'f') => "a boolean",
                Some(b'n') => "null",
                _ => "something else",
            },
            text.len() - text.trim_start_matches([' ', '\t', '\n', '\r']).len() + 1
        ));
    }
    duplicate_keys(text)
}

/// Scans `text` with an explicit stack of open objects and arrays (no recursion, any depth;
/// numbers are skipped as text, so `1.0e400` is no error here), refusing the first key an object
/// repeats (keys compared after unescaping, so `"a"` and `"\u0061"` are the same key).
fn duplicate_keys(text: &str) -> Result<(), String> {
    enum Frame {
        Object {
            keys: HashSet<String>,
            expect_key: bool,
        },
        Array,
    }
    let b = text.as_bytes();
    let mut stack: Vec<Frame> = Vec::new();
    let (mut i, mut line, mut line_start) = (0usize, 1usize, 0usize);
    while let Some(&c) = b.get(i) {
        match c {
            b'{' => stack.push(Frame::Object {
                keys: HashSet::new(),
                expect_key: true,
            }),
            b'[' => stack.push(Frame::Array),
            b'}' | b']' => {
                stack.pop();
            }
            b',' => {
                if let Some(Frame::Object { expect_key, .. }) = stack.last_mut() {
                    *expect_key = true;
                }
            }
            b'\n' => {
                line += 1;
                line_start = i + 1;
            }
            b'"' => {
                let start = i;
                i += 1;
                while let Some(&d) = b.get(i) {
                    match d {
                        b'\\' => i += 2,
                        b'"' => break,
                        _ => i += 1,
                    }
                }
                if let Some(Frame::Object { keys, expect_key }) = stack.last_mut() {
                    if *expect_key {
                        *expect_key = false;
                        let raw = text.get(start..(i + 1).min(text.len())).unwrap_or("");
                        let key: String =
                            serde_json::from_str(raw).unwrap_or_else(|_| raw.to_string());
                        if !keys.insert(key.clone()) {
                            return Err(format!(
                                "duplicate key `{key}` at line {line} column {}",
                                start - line_start + 1
                            ));
                        }
                    }
                }
            }
            _ => {}
        }
        i += 1;
    }
    Ok(())
}

/// `Err(message)` naming the first number of `text` (outside strings) that is not an integer
/// literal within `0..2^64` (or `-2^63..0`), as written, with its line and column.
///
/// Pre: `text` is JSON. Post: `Ok` implies every number of `text` reads exactly as a `u64` or
/// `i64`. Example: `{"shape":[18446744073709551616]}` is refused with the digits as written.
pub fn integers(text: &str) -> Result<(), String> {
    let b = text.as_bytes();
    let (mut i, mut line, mut line_start) = (0usize, 1usize, 0usize);
    while i < b.len() {
        match b[i] {
            b'"' => {
                i += 1;
                while i < b.len() && b[i] != b'"' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
                i += 1;
            }
            b'\n' => {
                line += 1;
                i += 1;
                line_start = i;
            }
            b'-' | b'0'..=b'9' => {
                let start = i;
                while i < b.len() && matches!(b[i], b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9')
                {
                    i += 1;
                }
                let tok = &text[start..i];
                if tok.parse::<u64>().is_err() && tok.parse::<i64>().is_err() {
                    return Err(format!(
                        "the value {tok} (as written, at line {line} column {}) is not an integer \
                         in the representable range [-2^63, 2^64)",
                        start - line_start + 1
                    ));
                }
            }
            _ => i += 1,
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn objects_only_and_no_repeated_key_at_any_level() {
        assert!(object(r#"{"id":1,"expr":"4"}"#).is_ok());
        assert!(object(r#"[1,"size(4:1)"]"#)
            .unwrap_err()
            .contains("an array"));
        assert!(object(r#"  "x""#).unwrap_err().contains("column 3"));
        let e = object(r#"{"tma":{"dtype":"f16","dtype":"f32"}}"#).unwrap_err();
        assert!(
            e.contains("duplicate key `dtype`") && e.contains("column"),
            "{e}"
        );
        let e = object(r#"{"a":[{"b":1},{"c":{"d":1,"d":2}}]}"#).unwrap_err();
        assert!(e.contains("duplicate key `d`"), "{e}");
        let e = object(r#"{"id":1.0e400,"a":1,"\u0061":2}"#).unwrap_err();
        assert!(
            e.contains("duplicate key `a`") && e.contains("column 21"),
            "{e}"
        );
        assert!(object(r#"{"id":1.0e400,"s":"{\"a\":1,\"a\":2}"}"#).is_ok());
    }

    #[test]
    fn integers_as_written() {
        assert!(integers(r#"{"shape":[64,18446744073709551615],"x":"1e99"}"#).is_ok());
        let e = integers(r#"{"shape":[18446744073709551617,64]}"#).unwrap_err();
        assert!(
            e.contains("18446744073709551617") && e.contains("column 11"),
            "{e}"
        );
        let e = integers("{\n\"box\":[1.5]}").unwrap_err();
        assert!(e.contains("1.5") && e.contains("line 2"), "{e}");
        assert!(integers(r#"{"a":-9223372036854775809}"#).is_err());
    }
}
