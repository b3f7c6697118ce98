//! The schedule text format: one statement per line, `#` starts a comment.
//!
//! ```text
//! I0 = iter 15                 # or `N0 = iter N` with a symbol
//! I1, I2 = split I0 by 6       # inner split; `outer split` for an outer one
//! I3 = merge I1, I2            # outer, inner
//! I4 = resize I0 by -1, 2      # left, right
//! I5, I6 = swizzle xor I1, I2
//! loop I3 I4                   # the loop domain, outermost first
//! alloc I1 I2 strides 8 1      # allocation domain, optional element strides
//! assume N % 8 == 0            # also `N >= 1`, `N > 0`, `N == 20`
//! vectorize I6                 # also `box I6` (TMA box)
//! unswitch I3                  # hoist the predicate out of loop I3 (nvFuser's Unswitch)
//! ```

use super::error::{Error, Result};
use super::ir::{Allocation, Schedule, SplitKind};
use super::symbolic::{Extent, Fact};

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Ident(String),
    Int(i64),
    Punct(&'static str),
}

#[derive(Debug, Clone)]
struct Token {
    tok: Tok,
    col: usize,
}

fn perr(line: usize, column: usize, message: impl Into<String>) -> Error {
    Error::Parse {
        line,
        column,
        message: message.into(),
    }
}

fn lex(line_no: usize, text: &str) -> Result<Vec<Token>> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let col = i + 1;
        if c == '#' {
            break;
        }
        if c.is_whitespace() {
            i += 1;
            continue;
        }
        if c.is_ascii_alphabetic() || c == '_' {
            let start = i;
            while i < chars.len() && (chars[i].is_ascii_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            out.push(Token {
                tok: Tok::Ident(chars[start..i].iter().collect()),
                col,
            });
            continue;
        }
        let neg_start = c == '-' && i + 1 < chars.len() && chars[i + 1].is_ascii_digit();
        if c.is_ascii_digit() || neg_start {
            let start = i;
            i += 1;
            while i < chars.len() && chars[i].is_ascii_digit() {
                i += 1;
            }
            let s: String = chars[start..i].iter().collect();
            let v = s
                .parse::<i64>()
                .map_err(|_| perr(line_no, col, format!("integer `{s}` out of range")))?;
            out.push(Token {
                tok: Tok::Int(v),
                col,
            });
            continue;
        }
        let two: String = chars[i..chars.len().min(i + 2)].iter().collect();
        let p: &'static str = match two.as_str() {
            "==" => "==",
            ">=" => ">=",
            _ => match c {
                '=' => "=",
                ',' => ",",
                '%' => "%",
                '>' => ">",
                _ => return Err(perr(line_no, col, format!("unexpected character `{c}`"))),
            },
        };
        i += p.len();
        out.push(Token {
            tok: Tok::Punct(p),
            col,
        });
    }
    Ok(out)
}

struct Cursor<'a> {
    toks: &'a [Token],
    pos: usize,
    line: usize,
    end_col: usize,
}

impl<'a> Cursor<'a> {
    fn col(&self) -> usize {
        self.toks.get(self.pos).map_or(self.end_col, |t| t.col)
    }
    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.pos).map(|t| &t.tok)
    }
    fn err(&self, msg: impl Into<String>) -> Error {
        perr(self.line, self.col(), msg)
    }
    fn ident(&mut self, what: &str) -> Result<(String, usize)> {
        let col = self.col();
        match self.peek() {
            Some(Tok::Ident(s)) => {
                let s = s.clone();
                self.pos += 1;
                Ok((s, col))
            }
            _ => Err(self.err(format!("expected {what}"))),
        }
    }
    fn int(&mut self, what: &str) -> Result<i64> {
        match self.peek() {
            Some(Tok::Int(v)) => {
                let v = *v;
                self.pos += 1;
                Ok(v)
            }
            _ => Err(self.err(format!("expected {what} (an integer)"))),
        }
    }
    fn punct(&mut self, p: &str) -> Result<()> {
        match self.peek() {
            Some(Tok::Punct(q)) if *q == p => {
                self.pos += 1;
                Ok(())
            }
            _ => Err(self.err(format!("expected `{p}`"))),
        }
    }
    fn keyword(&mut self, k: &str) -> Result<()> {
        match self.peek() {
            Some(Tok::Ident(s)) if s == k => {
                self.pos += 1;
                Ok(())
            }
            _ => Err(self.err(format!("expected `{k}`"))),
        }
    }
    fn is_keyword(&self, k: &str) -> bool {
        matches!(self.peek(), Some(Tok::Ident(s)) if s == k)
    }
    fn done(&self) -> Result<()> {
        if self.pos < self.toks.len() {
            Err(self.err("unexpected text at end of statement"))
        } else {
            Ok(())
        }
    }
    /// An existing IterDomain (the schedule's name index makes the lookup constant-time).
    fn id(&mut self, s: &Schedule) -> Result<usize> {
        let (name, col) = self.ident("an IterDomain name")?;
        s.id(&name)
            .map_err(|_| perr(self.line, col, format!("unknown IterDomain `{name}`")))
    }
    /// A list of existing IterDomains separated by spaces or commas.
    fn id_list(&mut self, s: &Schedule, stop: &str) -> Result<Vec<usize>> {
        let mut out = Vec::new();
        while let Some(Tok::Ident(name)) = self.peek() {
            if name == stop {
                break;
            }
            out.push(self.id(s)?);
            if matches!(self.peek(), Some(Tok::Punct(","))) {
                self.pos += 1;
            }
        }
        Ok(out)
    }
}

/// Parses a schedule.
///
/// Pre: none (any text). Post: a schedule whose every statement was checked (names defined once,
/// used after definition, factors positive, extents not provably `< 1`); errors carry the line
/// and column.
/// Example: `parse("I0 = iter 6\nI1, I2 = split I0 by 4\n")` has 3 IterDomains, extents 6, 2, 4.
///
/// ```
/// let s = tessera::domain::parse("I0 = iter 6\nI1, I2 = split I0 by 4\nloop I1 I2\n").unwrap();
/// let i2 = s.id("I2").unwrap();
/// assert_eq!(s.name(i2), "I2");
/// assert!(tessera::domain::parse("I1 = split I9 by 4\n").is_err()); // I9 is not defined
/// ```
pub fn parse(text: &str) -> Result<Schedule> {
    if text.len() > MAX_TEXT {
        return Err(Error::InputTooLarge {
            what: "the schedule text".into(),
            size: text.len() as u64,
            limit: MAX_TEXT as u64,
        });
    }
    let mut s = Schedule::new();
    let mut alloc_line = 0;
    let mut transform_lines = Vec::new();
    for (k, raw) in text.lines().enumerate() {
        let line = k + 1;
        super::steps::tick(raw.len() + 1);
        let toks = lex(line, raw)?;
        if toks.is_empty() {
            continue;
        }
        let mut c = Cursor {
            toks: &toks,
            pos: 0,
            line,
            end_col: raw.trim_end().chars().count() + 1,
        };
        // Wrap library errors (no column) with the statement's position.
        let at = |e: Error, col: usize| match e {
            Error::Parse { .. } | Error::At { .. } => e,
            other => Error::At {
                line,
                column: col,
                error: Box::new(other),
            },
        };
        statement(&mut s, &mut c).map_err(|e| at(e, 1))?;
        transform_lines.resize(s.transforms.len(), line);
        if matches!(toks.first(), Some(Token { tok: Tok::Ident(k), .. }) if k == "alloc") {
            alloc_line = line;
        }
    }
    // A loop domain that determines an index along two routes is refused at the transform's line
    // (other plan errors, e.g. an undetermined index, are the analyses' to report).
    if let Err(e @ Error::Overdetermined { index, .. }) = super::eval::plan(&s) {
        return Err(Error::At {
            line: transform_lines.get(index).copied().unwrap_or(0),
            column: 1,
            error: Box::new(e),
        });
    }
    if alloc_line > 0 {
        super::alloc::check_aliasing(&s).map_err(|e| Error::At {
            line: alloc_line,
            column: 1,
            error: Box::new(e),
        })?;
    }
    Ok(s)
}

/// The largest schedule text [`parse`] accepts, in bytes (64 MiB; real schedules are a few
/// hundred bytes, and the CLI's own input limit, 1 MiB by default, applies first). Past it:
/// [`Error::InputTooLarge`]; [`super::ir::MAX_IDS`] bounds the IterDomains of a shorter text.
pub const MAX_TEXT: usize = 1 << 26;

fn statement(s: &mut Schedule, c: &mut Cursor) -> Result<()> {
    let (first, _) = c.ident("a statement")?;
    match first.as_str() {
        "loop" => {
            let ids = c.id_list(s, "")?;
            c.done()?;
            if ids.is_empty() {
                return Err(c.err("`loop` needs at least one IterDomain"));
            }
            s.loop_domain = Some(ids);
            return Ok(());
        }
        "alloc" => {
            let ids = c.id_list(s, "strides")?;
            if ids.is_empty() {
                return Err(c.err("`alloc` needs at least one IterDomain"));
            }
            let strides = if c.is_keyword("strides") {
                c.pos += 1;
                let mut v = Vec::new();
                while matches!(c.peek(), Some(Tok::Int(_))) {
                    v.push(c.int("a stride")?);
                    if matches!(c.peek(), Some(Tok::Punct(","))) {
                        c.pos += 1;
                    }
                }
                if v.len() != ids.len() {
                    return Err(c.err(format!(
                        "{} strides for {} allocated IterDomains",
                        v.len(),
                        ids.len()
                    )));
                }
                Some(v)
            } else {
                None
            };
            c.done()?;
            s.allocation = Some(Allocation { ids, strides });
            return Ok(());
        }
        "vectorize" | "box" | "unswitch" => {
            let id = c.id(s)?;
            c.done()?;
            match first.as_str() {
                "vectorize" => s.vectorized.push(id),
                "box" => s.boxes.push(id),
                _ => s.unswitched.push(id),
            }
            return Ok(());
        }
        "assume" => {
            let (sym, sym_col) = c.ident("a symbol")?;
            let fact = match c.peek() {
                Some(Tok::Punct("%")) => {
                    c.pos += 1;
                    let mcol = c.col();
                    let m = c.int("a modulus")?;
                    c.punct("==")?;
                    let rcol = c.col();
                    let r = c.int("0")?;
                    if r != 0 {
                        return Err(perr(c.line, rcol, "only `N % m == 0` facts are supported"));
                    }
                    if m <= 0 {
                        return Err(perr(c.line, mcol, format!("modulus {m} must be positive")));
                    }
                    Fact::Divisible(sym, m)
                }
                Some(Tok::Punct(">=")) => {
                    c.pos += 1;
                    Fact::AtLeast(sym, c.int("a bound")?)
                }
                Some(Tok::Punct(">")) => {
                    c.pos += 1;
                    let b = c.int("a bound")?;
                    let b1 = b
                        .checked_add(1)
                        .ok_or_else(|| c.err("bound out of range"))?;
                    Fact::AtLeast(sym, b1)
                }
                Some(Tok::Punct("==")) => {
                    c.pos += 1;
                    Fact::Equals(sym, c.int("a value")?)
                }
                _ => return Err(c.err("expected `%`, `>=`, `>` or `==`")),
            };
            c.done()?;
            let line = c.line;
            return s.assume(fact).map_err(|e| Error::At {
                line,
                column: sym_col,
                error: Box::new(e),
            });
        }
        _ => {}
    }
    // Definitions: NAME = ... or NAME, NAME = ...
    let mut names = vec![first];
    if matches!(c.peek(), Some(Tok::Punct(","))) {
        c.pos += 1;
        names.push(c.ident("a second name")?.0);
    }
    c.punct("=")?;
    let (op, op_col) =
        c.ident("`iter`, `split`, `outer`, `inner`, `merge`, `resize` or `swizzle`")?;
    let line = c.line;
    // Library errors (no position of their own) point at the transform.
    let lib = |e: Error| match e {
        Error::Parse { .. } | Error::At { .. } => e,
        other => Error::At {
            line,
            column: op_col,
            error: Box::new(other),
        },
    };
    let need = |c: &Cursor, k: usize| {
        if names.len() == k {
            Ok(())
        } else {
            Err(perr(
                c.line,
                1,
                format!("`{op}` defines {k} IterDomain(s), {} given", names.len()),
            ))
        }
    };
    match op.as_str() {
        "iter" => {
            need(c, 1)?;
            let e = match c.peek() {
                Some(Tok::Int(v)) => Extent::Const(*v),
                Some(Tok::Ident(n)) => Extent::Sym(n.clone()),
                _ => return Err(c.err("expected an extent (integer or symbol)")),
            };
            c.pos += 1;
            c.done()?;
            s.iter(&names[0], e).map_err(lib)?;
        }
        "split" | "outer" | "inner" => {
            need(c, 2)?;
            let kind = if op == "outer" {
                c.keyword("split")?;
                SplitKind::Outer
            } else {
                if op == "inner" {
                    c.keyword("split")?;
                }
                SplitKind::Inner
            };
            let input = c.id(s)?;
            c.keyword("by")?;
            let f = c.int("a split factor")?;
            c.done()?;
            s.split(input, f, kind, &names[0], &names[1]).map_err(lib)?;
        }
        "merge" => {
            need(c, 1)?;
            let a = c.id(s)?;
            c.punct(",")?;
            let b = c.id(s)?;
            c.done()?;
            s.merge(a, b, &names[0]).map_err(lib)?;
        }
        "resize" => {
            need(c, 1)?;
            let a = c.id(s)?;
            c.keyword("by")?;
            let l = c.int("a left amount")?;
            c.punct(",")?;
            let r = c.int("a right amount")?;
            c.done()?;
            s.resize(a, l, r, &names[0]).map_err(lib)?;
        }
        "swizzle" => {
            need(c, 2)?;
            c.keyword("xor")?;
            let x = c.id(s)?;
            c.punct(",")?;
            let y = c.id(s)?;
            c.done()?;
            s.swizzle(x, y, &names[0], &names[1]).map_err(lib)?;
        }
        other => return Err(perr(line, op_col, format!("unknown transform `{other}`"))),
    }
    Ok(())
}
