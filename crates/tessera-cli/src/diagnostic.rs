//! Human-readable diagnostics for the terminal.

use tessera::Error;

/// `error[code]: message`, with a caret under the column for parse errors and the suggestions.
pub fn render(input: &str, e: &Error) -> String {
    let mut out = format!("error[{}]: {e}\n", e.code());
    let column = match e {
        Error::Parse { column, .. } | Error::UnknownFunction { column, .. } => Some(*column),
        _ => None,
    };
    if let Some(col) = column {
        if !input.contains('\n') {
            out.push_str(&format!(
                "  | {input}\n  | {}^\n",
                " ".repeat(col.saturating_sub(1))
            ));
        }
    }
    for s in e.suggestions() {
        out.push_str(&format!("help: {s}\n"));
    }
    out
}
