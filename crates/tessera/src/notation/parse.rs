//! The expression language: a small recursive-descent parser that reports 1-based columns.
//!
//! ```text
//! expr  := lay ('o' lay)*                       (a composed layout `A o O o B`)
//! lay   := term (':' term)?
//! term  := INT | '-' INT | '_' | NAME '(' [expr (',' expr)*] ')' | '(' expr (',' expr)* ')'
//!        | NAME '<' PARAM (',' PARAM)* '>' | SW_b_m_s   (`Sw<3,4,3>`, `GMMA::Layout_K_SW128_Atom<half_t>`)
//! ```
//! A `NAME` may contain `::` (`GMMA::Layout_K_SW128_Atom`).
//! Spaces are allowed between tokens; a leading `_` on an integer (CuTe's static marker, `_8`)
//! is accepted and ignored.

use crate::error::{Error, Result};

/// Nesting deeper than this is a parse error (no stack overflow on any input).
pub const MAX_DEPTH: usize = 200;

/// A parsed expression; `col` is the 1-based column where it starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Expr {
    /// An integer literal.
    Int {
        /// Value.
        v: i64,
        /// Column.
        col: usize,
    },
    /// `_`.
    Under {
        /// Column.
        col: usize,
    },
    /// `(e, …)`.
    Tuple {
        /// Elements.
        items: Vec<Expr>,
        /// Column.
        col: usize,
    },
    /// `shape:stride`.
    Layout {
        /// Shape.
        shape: Box<Expr>,
        /// Stride.
        stride: Box<Expr>,
        /// Column.
        col: usize,
    },
    /// `A o O o B …`: a chain of functions and offsets, outermost first (odd length).
    Compose {
        /// The functions (even positions) and offsets (odd positions).
        parts: Vec<Expr>,
        /// Column.
        col: usize,
    },
    /// A named value with template parameters: `Sw<3,4,3>`, `SW_3_4_3` (no parameters),
    /// `GMMA::Layout_K_SW128_Atom<half_t>`.
    Name {
        /// The name, with any `::` qualifiers.
        name: String,
        /// The parameters between `<` and `>`, as written.
        params: Vec<String>,
        /// Column.
        col: usize,
    },
    /// `name(args…)`.
    Call {
        /// Function name.
        name: String,
        /// Arguments.
        args: Vec<Expr>,
        /// Column.
        col: usize,
    },
}

impl Expr {
    /// The column where this expression starts.
    pub fn col(&self) -> usize {
        match self {
            Expr::Int { col, .. }
            | Expr::Under { col }
            | Expr::Tuple { col, .. }
            | Expr::Layout { col, .. }
            | Expr::Compose { col, .. }
            | Expr::Name { col, .. }
            | Expr::Call { col, .. } => *col,
        }
    }
}

struct Parser<'a> {
    s: &'a [u8],
    pos: usize,
    depth: usize,
    /// `(byte, column - 1)` of the last column computed: columns are counted incrementally, so
    /// parsing stays linear (a rank-250,000 layout asks for a column at every term).
    col_cache: std::cell::Cell<(usize, usize)>,
}

/// Parses one expression; the whole input must be consumed.
///
/// ```
/// let e = tessera::notation::parse("composition(20:2,(5,4):(4,1))").unwrap();
/// assert!(matches!(e, tessera::notation::Expr::Call { .. }));
/// let err = tessera::notation::parse("(2,3:").unwrap_err();
/// assert_eq!(err.to_string(), "parse error at column 6: expected an integer, `_`, `(` or a function name, found end of input");
/// ```
pub fn parse(text: &str) -> Result<Expr> {
    let mut p = Parser {
        s: text.as_bytes(),
        pos: 0,
        depth: 0,
        col_cache: std::cell::Cell::new((0, 0)),
    };
    let e = p.expr()?;
    p.skip_ws();
    if p.pos < p.s.len() {
        return Err(p.error(format!("unexpected {}", p.describe())));
    }
    Ok(e)
}

impl Parser<'_> {
    fn skip_ws(&mut self) {
        while self.pos < self.s.len() && self.s[self.pos].is_ascii_whitespace() {
            self.pos += 1;
        }
    }

    fn col(&self) -> usize {
        // Columns count characters (bytes that are not UTF-8 continuation bytes), from the last
        // position asked for when the parser has moved forward.
        let pos = self.pos.min(self.s.len());
        let (mut at, mut chars) = self.col_cache.get();
        if pos < at {
            (at, chars) = (0, 0);
        }
        chars += self.s[at..pos]
            .iter()
            .filter(|&&b| b & 0xC0 != 0x80)
            .count();
        self.col_cache.set((pos, chars));
        chars + 1
    }

    fn error(&self, message: String) -> Error {
        Error::Parse {
            column: self.col(),
            message,
        }
    }

    fn describe(&self) -> String {
        match std::str::from_utf8(&self.s[self.pos..])
            .ok()
            .and_then(|r| r.chars().next())
        {
            Some(c) => format!("`{c}`"),
            None if self.pos >= self.s.len() => "end of input".into(),
            None => "a byte that is not UTF-8".into(),
        }
    }

    fn peek(&mut self) -> Option<u8> {
        self.skip_ws();
        self.s.get(self.pos).copied()
    }

    fn expect(&mut self, c: u8) -> Result<()> {
        if self.peek() == Some(c) {
            self.pos += 1;
            Ok(())
        } else {
            Err(self.error(format!(
                "expected `{}`, found {}",
                c as char,
                self.describe()
            )))
        }
    }

    fn expr(&mut self) -> Result<Expr> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(self.error(format!("nesting deeper than {MAX_DEPTH}")));
        }
        let col = {
            self.skip_ws();
            self.col()
        };
        let first = self.lay(col)?;
        let mut parts = Vec::new();
        while self.at_compose() {
            if parts.is_empty() {
                parts.push(first.clone());
            }
            self.pos += 1;
            self.skip_ws();
            let c = self.col();
            parts.push(self.lay(c)?);
        }
        self.depth -= 1;
        if parts.is_empty() {
            Ok(first)
        } else {
            if parts.len() % 2 == 0 {
                return Err(Error::Parse {
                    column: col,
                    message: "a composed layout is `A o offset o B` (functions and offsets \
                              alternate, an odd number of parts)"
                        .into(),
                });
            }
            Ok(Expr::Compose { parts, col })
        }
    }

    /// `true` at the composition operator ` o ` (an `o` followed by a space, `(` or `-`).
    fn at_compose(&mut self) -> bool {
        self.peek() == Some(b'o')
            && matches!(self.s.get(self.pos + 1), Some(c) if c.is_ascii_whitespace() || *c == b'(' || *c == b'-')
    }

    fn lay(&mut self, col: usize) -> Result<Expr> {
        let shape = self.term()?;
        let e = if self.peek() == Some(b':') {
            self.pos += 1;
            let stride = self.term()?;
            Expr::Layout {
                shape: Box::new(shape),
                stride: Box::new(stride),
                col,
            }
        } else {
            shape
        };
        Ok(e)
    }

    fn int(&mut self, negative: bool, col: usize) -> Result<Expr> {
        let start = self.pos;
        while self.pos < self.s.len() && self.s[self.pos].is_ascii_digit() {
            self.pos += 1;
        }
        let digits = std::str::from_utf8(&self.s[start..self.pos]).unwrap_or("");
        let text = if negative {
            format!("-{digits}")
        } else {
            digits.to_string()
        };
        match text.parse::<i64>() {
            Ok(v) => Ok(Expr::Int { v, col }),
            Err(_) => Err(Error::Parse {
                column: col,
                message: format!("integer {text} does not fit in a signed 64-bit integer"),
            }),
        }
    }

    fn term(&mut self) -> Result<Expr> {
        let Some(c) = self.peek() else {
            return Err(self.error(
                "expected an integer, `_`, `(` or a function name, found end of input".into(),
            ));
        };
        let col = self.col();
        match c {
            b'0'..=b'9' => self.int(false, col),
            b'-' => {
                self.pos += 1;
                if matches!(self.s.get(self.pos), Some(b'0'..=b'9')) {
                    self.int(true, col)
                } else {
                    Err(self.error(format!(
                        "expected digits after `-`, found {}",
                        self.describe()
                    )))
                }
            }
            b'_' => {
                self.pos += 1;
                // CuTe's static marker: `_8`, `_-1`.
                match self.s.get(self.pos) {
                    Some(b'0'..=b'9') => self.int(false, col),
                    Some(b'-') if matches!(self.s.get(self.pos + 1), Some(b'0'..=b'9')) => {
                        self.pos += 1;
                        self.int(true, col)
                    }
                    _ => Ok(Expr::Under { col }),
                }
            }
            b'(' => {
                self.pos += 1;
                let mut items = vec![self.expr()?];
                loop {
                    match self.peek() {
                        Some(b',') => {
                            self.pos += 1;
                            // pycute's 1-tuple `(4,)`.
                            if self.peek() == Some(b')') {
                                self.pos += 1;
                                break;
                            }
                            items.push(self.expr()?);
                        }
                        Some(b')') => {
                            self.pos += 1;
                            break;
                        }
                        _ => {
                            return Err(self
                                .error(format!("expected `,` or `)`, found {}", self.describe())))
                        }
                    }
                }
                Ok(Expr::Tuple { items, col })
            }
            c if c.is_ascii_alphabetic() => {
                let name = self.name();
                if self.peek() == Some(b'<') {
                    self.pos += 1;
                    let mut params = Vec::new();
                    loop {
                        self.skip_ws();
                        let start = self.pos;
                        if self.s.get(self.pos) == Some(&b'-') {
                            self.pos += 1;
                        }
                        while self.pos < self.s.len()
                            && (self.s[self.pos].is_ascii_alphanumeric()
                                || self.s[self.pos] == b'_'
                                || self.s[self.pos] == b':')
                        {
                            self.pos += 1;
                        }
                        if self.pos == start {
                            return Err(self.error(format!(
                                "expected a template parameter of {name}, found {}",
                                self.describe()
                            )));
                        }
                        params.push(String::from_utf8_lossy(&self.s[start..self.pos]).into_owned());
                        match self.peek() {
                            Some(b',') => self.pos += 1,
                            Some(b'>') => {
                                self.pos += 1;
                                break;
                            }
                            _ => {
                                return Err(self.error(format!(
                                    "expected `,` or `>` in the parameters of {name}, found {}",
                                    self.describe()
                                )))
                            }
                        }
                    }
                    return Ok(Expr::Name { name, params, col });
                }
                if is_pycute_swizzle(&name) && self.peek() != Some(b'(') {
                    return Ok(Expr::Name {
                        name,
                        params: Vec::new(),
                        col,
                    });
                }
                self.expect(b'(')?;
                let mut args = Vec::new();
                if self.peek() == Some(b')') {
                    self.pos += 1;
                } else {
                    loop {
                        args.push(self.expr()?);
                        match self.peek() {
                            Some(b',') => self.pos += 1,
                            Some(b')') => {
                                self.pos += 1;
                                break;
                            }
                            _ => {
                                return Err(self.error(format!(
                                    "expected `,` or `)` in the arguments of {name}, found {}",
                                    self.describe()
                                )))
                            }
                        }
                    }
                }
                Ok(Expr::Call { name, args, col })
            }
            _ => Err(self.error(format!(
                "expected an integer, `_`, `(` or a function name, found {}",
                self.describe()
            ))),
        }
    }

    /// An identifier, with `::` qualifiers (`GMMA::Layout_K_SW128_Atom`).
    fn name(&mut self) -> String {
        let start = self.pos;
        loop {
            while self.pos < self.s.len()
                && (self.s[self.pos].is_ascii_alphanumeric()
                    || self.s[self.pos] == b'_'
                    // pycute's negative shift: `SW_2_0_-2`.
                    || (self.s[self.pos] == b'-'
                        && self.s[start..].starts_with(b"SW_")
                        && self.s[self.pos - 1] == b'_'
                        && matches!(self.s.get(self.pos + 1), Some(c) if c.is_ascii_digit())))
            {
                self.pos += 1;
            }
            if self.s.get(self.pos) == Some(&b':')
                && self.s.get(self.pos + 1) == Some(&b':')
                && matches!(self.s.get(self.pos + 2), Some(c) if c.is_ascii_alphabetic())
            {
                self.pos += 2;
            } else {
                break;
            }
        }
        String::from_utf8_lossy(&self.s[start..self.pos]).into_owned()
    }
}

/// pycute's swizzle name `SW_b_m_s` (three integers, the shift possibly negative: `SW_2_0_-2`).
pub(crate) fn is_pycute_swizzle(name: &str) -> bool {
    pycute_swizzle_params(name).is_some()
}

/// The `(B, M, S)` of pycute's `SW_b_m_s`.
pub(crate) fn pycute_swizzle_params(name: &str) -> Option<(i64, i64, i64)> {
    let rest = name.strip_prefix("SW_")?;
    let mut it = rest.split('_');
    let b = it.next()?.parse().ok()?;
    let m = it.next()?.parse().ok()?;
    let s = it.next()?.parse().ok()?;
    if it.next().is_some() {
        return None;
    }
    Some((b, m, s))
}
