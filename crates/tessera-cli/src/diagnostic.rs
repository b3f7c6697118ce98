//! Human-readable diagnostics for the terminal, in rustc's style: the code and message, the call,
//! the obligation in math notation, notes with the failing arithmetic, and checked suggestions.

use std::io::IsTerminal;

use tessera::Error;

/// Whether stderr gets colours: a terminal, and `NO_COLOR` unset or empty.
pub fn stderr_colour() -> bool {
    let no_color = match std::env::var_os("NO_COLOR") {
        Some(v) => !v.is_empty(),
        None => false,
    };
    !no_color && std::io::stderr().is_terminal()
}

struct Style {
    on: bool,
}

impl Style {
    fn paint(&self, code: &str, text: &str) -> String {
        if self.on {
            format!("\x1b[{code}m{text}\x1b[0m")
        } else {
            text.to_string()
        }
    }
    fn error(&self, t: &str) -> String {
        self.paint("1;31", t)
    }
    fn bold(&self, t: &str) -> String {
        self.paint("1", t)
    }
    fn blue(&self, t: &str) -> String {
        self.paint("1;34", t)
    }
    fn help(&self, t: &str) -> String {
        self.paint("1;36", t)
    }
}

/// The diagnostic for `e`, raised while evaluating `input`; coloured when `colour`.
///
/// ```text
/// error[divisibility]: complement1: failed to discharge N·d ∣ M: 128·16 ∣ 2040 is false
///  --> complement1(128, 16, 2040)
///   = obligation: N·d ∣ M, here 128·16 ∣ 2040
///   = note: 128·16 = 2048, and 2048 ∣ 2040 is false (2040 mod 2048 = 2040, so 2048 ∤ 2040)
/// help: M = 2048: complement1(128,16,2048) = (16,1):(1,2048)
/// ```
pub fn render_with(input: &str, e: &Error, colour: bool) -> String {
    let st = Style { on: colour };
    let mut out = format!(
        "{}{}\n",
        st.error(&format!("error[{}]", e.code())),
        st.bold(&format!(": {e}"))
    );
    let column = match e {
        Error::Parse { column, .. } | Error::UnknownFunction { column, .. } => Some(*column),
        _ => None,
    };
    let single_line = !input.contains('\n');
    if let Some(col) = column {
        if single_line {
            out.push_str(&format!(
                "  {} {input}\n  {} {}{}\n",
                st.blue("|"),
                st.blue("|"),
                " ".repeat(col.saturating_sub(1)),
                st.error("^")
            ));
        }
    } else if single_line && !input.is_empty() && input.len() <= 200 {
        out.push_str(&format!(" {} {input}\n", st.blue("-->")));
    }
    if let Some(f) = e.failure() {
        let ob = &f.obligation;
        out.push_str(&format!(
            "  {} obligation: {}, here {ob}\n",
            st.blue("="),
            ob.symbolic()
        ));
        if let Some(call) = &f.call {
            if call.to_string().replace(' ', "") != input.replace(' ', "") {
                out.push_str(&format!("  {} note: checked for {call}\n", st.blue("=")));
            }
        }
        for n in e.notes() {
            out.push_str(&format!("  {} note: {n}\n", st.blue("=")));
        }
    }
    for s in e.checked_suggestions() {
        out.push_str(&format!(
            "{}: {}: {} = {}\n",
            st.help("help"),
            s.label,
            s.expr,
            s.value
        ));
    }
    out
}

/// [`render_with`], coloured when stderr is a terminal and `NO_COLOR` is not set.
pub fn render(input: &str, e: &Error) -> String {
    render_with(input, e, stderr_colour())
}

/// A note that travels with a successful result, in the same style (yellow `warning[CODE]`):
///
/// ```text
/// warning[complement_holes]: complement: (A, R) = ((2,2),1):((1,3),0) leaves holes in [0, 5): …
///  --> complement((2,2):(1,3))
///   = obligation: s_i·d_i ∣ d_{i+1} (sorted by stride), here 2·1 ∣ 3
/// ```
pub fn render_note_with(input: &str, n: &tessera::obligation::Note, colour: bool) -> String {
    let st = Style { on: colour };
    let mut out = format!(
        "{}{}\n",
        st.paint("1;33", &format!("warning[{}]", n.code)),
        st.bold(&format!(": {n}"))
    );
    if !input.contains('\n') && !input.is_empty() && input.len() <= 200 {
        out.push_str(&format!(" {} {input}\n", st.blue("-->")));
    }
    out.push_str(&format!(
        "  {} obligation: {}, here {}\n",
        st.blue("="),
        n.symbolic,
        n.obligation
    ));
    out
}

/// [`render_note_with`], coloured when stderr is a terminal and `NO_COLOR` is not set.
pub fn render_note(input: &str, n: &tessera::obligation::Note) -> String {
    render_note_with(input, n, stderr_colour())
}

#[cfg(test)]
mod tests {
    use super::render_with;

    #[test]
    fn colour_only_when_asked() {
        let e = tessera::notation::eval("complement1(128,16,2040)").unwrap_err();
        let plain = render_with("complement1(128,16,2040)", &e, false);
        let coloured = render_with("complement1(128,16,2040)", &e, true);
        assert!(!plain.contains('\x1b'));
        assert!(coloured.starts_with("\x1b[1;31merror[divisibility]\x1b[0m"));
        assert!(coloured.contains("\x1b[1;36mhelp\x1b[0m: M = 2048"));
        let strip = |s: &str| {
            let mut out = String::new();
            let mut esc = false;
            for c in s.chars() {
                match (esc, c) {
                    (_, '\x1b') => esc = true,
                    (true, 'm') => esc = false,
                    (true, _) => {}
                    (false, c) => out.push(c),
                }
            }
            out
        };
        assert_eq!(strip(&coloured), plain);
    }
}
