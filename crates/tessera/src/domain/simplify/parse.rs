//! The text front end: the lexer and the recursive-descent parser of expressions and
//! predicates, with input-length and nesting-depth limits.

use super::*;

/// A parsed input: an integer expression or a predicate.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Term {
    /// An integer expression.
    Expr(Expr),
    /// A predicate.
    Pred(Pred),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Tok {
    Int(i64),
    Ident(String),
    Op(&'static str),
}

pub(super) fn lex(s: &str) -> Result<Vec<(usize, Tok)>> {
    if s.len() > MAX_INPUT {
        return Err(SimplifyError::TooLarge {
            what: "input bytes",
            limit: MAX_INPUT,
        });
    }
    let b = s.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    const OPS: [&str; 17] = [
        "&&", "<=", ">=", "==", "!=", "<", ">", "+", "-", "*", "/", "%", "(", ")", ",", "∧", "=",
    ];
    'outer: while i < b.len() {
        let c = b[i];
        if c.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        if c.is_ascii_digit() {
            let start = i;
            while i < b.len() && b[i].is_ascii_digit() {
                i += 1;
            }
            let v: i64 = s[start..i].parse().map_err(|_| SimplifyError::Parse {
                column: start + 1,
                message: format!("integer `{}` does not fit in i64", &s[start..i]),
            })?;
            out.push((start, Tok::Int(v)));
            continue;
        }
        if c.is_ascii_alphabetic() || c == b'_' {
            let start = i;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_' || b[i] == b'.') {
                i += 1;
            }
            out.push((start, Tok::Ident(s[start..i].to_string())));
            continue;
        }
        for op in OPS {
            if s[i..].starts_with(op) {
                if op == "=" {
                    break;
                }
                out.push((i, Tok::Op(if op == "∧" { "&&" } else { op })));
                i += op.len();
                continue 'outer;
            }
        }
        let ch = s[i..].chars().next().unwrap_or('?');
        return Err(SimplifyError::Parse {
            column: i + 1,
            message: format!("unexpected character `{ch}`"),
        });
    }
    Ok(out)
}

pub(super) struct Parser {
    toks: Vec<(usize, Tok)>,
    pos: usize,
    end: usize,
    depth: usize,
    /// Every division (`/`, `%`, `cdiv`) read: the 1-based column of its operator (of `cdiv`'s
    /// name) and its divisor, so a `division_by_zero` can point at the column.
    divisions: Vec<(usize, Expr)>,
}

impl Parser {
    pub(super) fn column(&self) -> usize {
        self.toks.get(self.pos).map_or(self.end, |t| t.0) + 1
    }

    pub(super) fn err<T>(&self, message: impl Into<String>) -> Result<T> {
        Err(SimplifyError::Parse {
            column: self.column(),
            message: message.into(),
        })
    }

    pub(super) fn peek_op(&self) -> Option<&'static str> {
        match self.toks.get(self.pos) {
            Some((_, Tok::Op(o))) => Some(o),
            _ => None,
        }
    }

    pub(super) fn eat(&mut self, op: &str) -> bool {
        if self.peek_op() == Some(op) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    pub(super) fn enter(&mut self) -> Result<()> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(SimplifyError::TooLarge {
                what: "nesting depth",
                limit: MAX_DEPTH,
            });
        }
        Ok(())
    }

    pub(super) fn term(&mut self) -> Result<Term> {
        self.enter()?;
        let first = self.chain()?;
        let t = if self.peek_op() == Some("&&") {
            let mut ps = vec![as_pred(first)?];
            while self.eat("&&") {
                ps.push(as_pred(self.chain()?)?);
            }
            Term::Pred(Pred::And(ps))
        } else {
            first
        };
        self.depth -= 1;
        Ok(t)
    }

    pub(super) fn chain(&mut self) -> Result<Term> {
        let first = self.sum()?;
        let mut parts = Vec::new();
        let mut lhs = first.clone();
        loop {
            let op = match self.peek_op() {
                Some("<") => CmpOp::Lt,
                Some("<=") => CmpOp::Le,
                Some(">") => CmpOp::Gt,
                Some(">=") => CmpOp::Ge,
                Some("==") => CmpOp::Eq,
                Some("!=") => CmpOp::Ne,
                _ => break,
            };
            self.pos += 1;
            let rhs = self.sum()?;
            parts.push(Pred::Cmp(as_expr(lhs)?, op, as_expr(rhs.clone())?));
            lhs = rhs;
        }
        Ok(match parts.len() {
            0 => first,
            1 => Term::Pred(parts.remove(0)),
            _ => Term::Pred(Pred::And(parts)),
        })
    }

    pub(super) fn sum(&mut self) -> Result<Term> {
        let mut acc = self.product()?;
        loop {
            let op = match self.peek_op() {
                Some("+") => BinOp::Add,
                Some("-") => BinOp::Sub,
                _ => return Ok(acc),
            };
            self.pos += 1;
            let rhs = as_expr(self.product()?)?;
            acc = Term::Expr(Expr::Bin(op, Box::new(as_expr(acc)?), Box::new(rhs)));
        }
    }

    pub(super) fn product(&mut self) -> Result<Term> {
        let mut acc = self.unary()?;
        loop {
            let op = match self.peek_op() {
                Some("*") => BinOp::Mul,
                Some("/") => BinOp::Div,
                Some("%") => BinOp::Mod,
                _ => return Ok(acc),
            };
            let column = self.column();
            self.pos += 1;
            let rhs = as_expr(self.unary()?)?;
            if op != BinOp::Mul {
                self.divisions.push((column, rhs.clone()));
            }
            acc = Term::Expr(Expr::Bin(op, Box::new(as_expr(acc)?), Box::new(rhs)));
        }
    }

    pub(super) fn unary(&mut self) -> Result<Term> {
        if self.eat("-") {
            self.enter()?;
            let e = as_expr(self.unary()?)?;
            self.depth -= 1;
            return Ok(Term::Expr(Expr::Neg(Box::new(e))));
        }
        self.primary()
    }

    pub(super) fn primary(&mut self) -> Result<Term> {
        let Some((start, tok)) = self.toks.get(self.pos).cloned() else {
            return self.err("unexpected end of input");
        };
        self.pos += 1;
        match tok {
            Tok::Int(v) => Ok(Term::Expr(Expr::Const(v))),
            Tok::Op("(") => {
                let t = self.term()?;
                if !self.eat(")") {
                    return self.err("expected `)`");
                }
                Ok(t)
            }
            Tok::Op(o) => {
                self.pos -= 1;
                self.err(format!("unexpected `{o}`"))
            }
            Tok::Ident(name) => match name.as_str() {
                "true" => Ok(Term::Pred(Pred::Bool(true))),
                "false" => Ok(Term::Pred(Pred::Bool(false))),
                "gcd" | "max" | "min" | "cdiv" | "ceilDiv" | "abs"
                    if self.peek_op() == Some("(") =>
                {
                    self.pos += 1;
                    self.enter()?;
                    let mut args = vec![as_expr(self.term()?)?];
                    while self.eat(",") {
                        args.push(as_expr(self.term()?)?);
                    }
                    if !self.eat(")") {
                        return self.err("expected `)` or `,`");
                    }
                    self.depth -= 1;
                    let arity_ok = match name.as_str() {
                        "abs" => args.len() == 1,
                        "max" | "min" => !args.is_empty(),
                        _ => args.len() == 2,
                    };
                    if !arity_ok {
                        return self.err(format!("wrong number of arguments to `{name}`"));
                    }
                    let op = match name.as_str() {
                        "gcd" => BinOp::Gcd,
                        "max" => BinOp::Max,
                        "min" => BinOp::Min,
                        "abs" => {
                            let a = args.remove(0);
                            return Ok(Term::Expr(Expr::Abs(Box::new(a))));
                        }
                        _ => {
                            for a in &args[1..] {
                                self.divisions.push((start + 1, a.clone()));
                            }
                            BinOp::CeilDiv
                        }
                    };
                    let mut it = args.into_iter();
                    let mut acc = it.next().unwrap_or(Expr::Const(0));
                    for a in it {
                        acc = Expr::Bin(op, Box::new(acc), Box::new(a));
                    }
                    Ok(Term::Expr(acc))
                }
                _ => Ok(Term::Expr(Expr::Var(name))),
            },
        }
    }
}

pub(super) fn as_expr(t: Term) -> Result<Expr> {
    match t {
        Term::Expr(e) => Ok(e),
        Term::Pred(_) => Err(SimplifyError::Kind {
            expected: "an integer expression",
            found: "a predicate",
        }),
    }
}

pub(super) fn as_pred(t: Term) -> Result<Pred> {
    match t {
        Term::Pred(p) => Ok(p),
        Term::Expr(_) => Err(SimplifyError::Kind {
            expected: "a predicate",
            found: "an integer expression",
        }),
    }
}

/// Parses an expression or a predicate.
///
/// Pre: at most [`MAX_INPUT`] bytes. Post: `a < b < c` is `a < b && b < c`; `∧` is `&&`;
/// `ceilDiv` is `cdiv`; `max`/`min` take one or more arguments. Example:
/// `parse("0 <= i0 < 32")` is a conjunction of two comparisons.
pub fn parse(text: &str) -> Result<Term> {
    parse_with_divisions(text).map(|(t, _)| t)
}

/// [`parse`], with every division of the text: the 1-based column of its operator (`/`, `%`, or
/// the name `cdiv`) and its divisor, in the order read.
pub(super) fn parse_with_divisions(text: &str) -> Result<(Term, Vec<(usize, Expr)>)> {
    let toks = lex(text)?;
    let mut p = Parser {
        toks,
        pos: 0,
        end: text.len(),
        depth: 0,
        divisions: Vec::new(),
    };
    let t = p.term()?;
    if p.pos != p.toks.len() {
        return p.err("unexpected trailing input");
    }
    Ok((t, p.divisions))
}

/// Parses an integer expression.
///
/// Pre/Post: as [`parse`], a predicate is [`SimplifyError::Kind`]. Example: `parse_expr("i0 / 2")`.
pub fn parse_expr(text: &str) -> Result<Expr> {
    as_expr(parse(text)?)
}

/// Parses a predicate.
///
/// Pre/Post: as [`parse`], an expression is [`SimplifyError::Kind`]. Example:
/// `parse_pred("i1 >= 0")`.
pub fn parse_pred(text: &str) -> Result<Pred> {
    as_pred(parse(text)?)
}
