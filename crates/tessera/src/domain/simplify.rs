//! An index-expression simplifier whose rewrite rules are the integer-division theorems
//! (reference Examples 20 and 26; nvFuser's `csrc/expr_simplifier.cpp`).
//!
//! Expressions are integers over named variables and constants with `+ - * / %`, `cdiv`, `gcd`,
//! `max`, `min`, `abs`; predicates are comparisons joined by `&&`. Assumptions are predicates
//! (`0 <= i0 < 32`, `i1 >= 0`, `S > 0`, `0 <= i0 < i1`).
//!
//! **Division is Euclidean** (`0 <= a % b < |b|`), as everywhere in `tessera::domain` and in
//! `proofs/Divisibility.v`. For `a >= 0, b > 0` it agrees with the C++ truncation nvFuser emits,
//! and every fixture of Example 20 has such operands. `cdiv(a, b)` is `ceil(a / b)` for `b > 0`
//! and undefined otherwise. A rule may turn an expression that is undefined for some values (a
//! division by zero) into a defined one, never the reverse: wherever the original evaluates (no
//! zero divisor, no `i64` overflow), the result evaluates to the same value (property-tested).
//!
//! **Canonical form.** Expressions are normalised to a polynomial ([`Poly`]): a sum of integer
//! multiples of monomials, each a sorted product of [`Atom`]s (variables, or `/ % cdiv gcd max
//! min abs` nodes whose arguments are polynomials). Ring laws (nvFuser's rules A–F, `distributeMul`,
//! flattening, `x - x`) are therefore implicit. Each remaining rule is a named [`Rule`] applied
//! only when its side conditions are proved from the assumptions by interval arithmetic plus
//! linear combinations of at most two assumptions ([`Context::proves_ge`]).
//!
//! **Printing.** Terms of a sum are ordered by the variables they print (case-insensitively),
//! constants last; in a product, compound factors come first and the plain part (coefficient,
//! then variables) after them, parenthesised when it has several factors; `/` and `%` are
//! parenthesised inside a product; spaces surround every binary operator. The reference strings
//! of §5 compare equal to ours once whitespace is removed; `&&` stands for `∧`.
//!
//! Work is bounded: input length, nesting depth, terms per polynomial, rewrite steps, subsets in
//! the gcd search and assumption pairs in the prover are all capped; exceeding a cap is
//! [`SimplifyError::TooLarge`]. Constant folding uses checked arithmetic.

use std::collections::{BTreeMap, HashMap};
use std::fmt;

/// Longest accepted input, in bytes.
pub const MAX_INPUT: usize = 4096;
/// Deepest accepted nesting of parentheses and operators.
pub const MAX_DEPTH: usize = 48;
/// Most terms a polynomial may have.
pub const MAX_TERMS: usize = 256;
/// Most atom simplifications per call.
pub const MAX_STEPS: usize = 20_000;
/// Most assumption facts used by the prover (extra facts are ignored, which is sound).
pub const MAX_FACTS: usize = 64;
/// Most conjuncts in a predicate given to [`simplify_pred`].
pub const MAX_CONJUNCTS: usize = 64;
/// Sums with more addends than this skip the gcd-remainder subset search.
pub const MAX_SUBSET_TERMS: usize = 10;
const MAX_ROUNDS: usize = 16;
const FUEL: usize = 24;

/// A failure of the simplifier.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SimplifyError {
    /// The text could not be parsed.
    #[error("column {column}: {message}")]
    Parse {
        /// 1-based column (byte offset + 1).
        column: usize,
        /// What was expected or found.
        message: String,
    },
    /// Checked arithmetic overflowed while folding constants.
    #[error("arithmetic overflow in {0}")]
    Overflow(&'static str),
    /// A work bound was exceeded.
    #[error("obligation `{what} <= {limit}` failed")]
    TooLarge {
        /// The bounded quantity.
        what: &'static str,
        /// Its bound.
        limit: usize,
    },
    /// The assumptions contradict each other.
    #[error("assumptions contradict: {0}")]
    Contradiction(String),
    /// An expression was given where a predicate was needed, or the reverse.
    #[error("expected {expected}, found {found}")]
    Kind {
        /// What was needed.
        expected: &'static str,
        /// What was given.
        found: &'static str,
    },
}

impl SimplifyError {
    /// A stable snake_case code.
    ///
    /// Pre: none. Post: one code per variant. Example: `SimplifyError::Overflow("add").code() ==
    /// "overflow"`.
    pub fn code(&self) -> &'static str {
        match self {
            SimplifyError::Parse { .. } => "parse",
            SimplifyError::Overflow(_) => "overflow",
            SimplifyError::TooLarge { .. } => "too_large",
            SimplifyError::Contradiction(_) => "contradiction",
            SimplifyError::Kind { .. } => "kind",
        }
    }
}

/// Result alias of the simplifier.
pub type Result<T> = std::result::Result<T, SimplifyError>;

fn ov(op: &'static str) -> SimplifyError {
    SimplifyError::Overflow(op)
}

// ---------------------------------------------------------------------------------------------
// Surface syntax
// ---------------------------------------------------------------------------------------------

/// A binary integer operator of the surface syntax.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BinOp {
    /// `a + b`
    Add,
    /// `a - b`
    Sub,
    /// `a * b`
    Mul,
    /// Euclidean `a / b`
    Div,
    /// Euclidean `a % b`
    Mod,
    /// `cdiv(a, b)` = `ceil(a / b)`, `b > 0`
    CeilDiv,
    /// `gcd(a, b) >= 0`
    Gcd,
    /// `max(a, b)`
    Max,
    /// `min(a, b)`
    Min,
}

/// An integer expression as written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Expr {
    /// A constant.
    Const(i64),
    /// A named variable.
    Var(String),
    /// `-a`
    Neg(Box<Expr>),
    /// `abs(a)`
    Abs(Box<Expr>),
    /// A binary operation.
    Bin(BinOp, Box<Expr>, Box<Expr>),
}

/// A comparison operator.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum CmpOp {
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
    /// `==`
    Eq,
    /// `!=`
    Ne,
}

impl CmpOp {
    /// Whether `a op b` holds.
    ///
    /// Pre: none. Post: the usual integer comparison. Example: `CmpOp::Le.holds(2, 2)`.
    pub fn holds(self, a: i64, b: i64) -> bool {
        match self {
            CmpOp::Lt => a < b,
            CmpOp::Le => a <= b,
            CmpOp::Gt => a > b,
            CmpOp::Ge => a >= b,
            CmpOp::Eq => a == b,
            CmpOp::Ne => a != b,
        }
    }

    fn symbol(self) -> &'static str {
        match self {
            CmpOp::Lt => "<",
            CmpOp::Le => "<=",
            CmpOp::Gt => ">",
            CmpOp::Ge => ">=",
            CmpOp::Eq => "==",
            CmpOp::Ne => "!=",
        }
    }
}

/// A predicate as written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Pred {
    /// `true` / `false`.
    Bool(bool),
    /// `a op b`.
    Cmp(Expr, CmpOp, Expr),
    /// Conjunction.
    And(Vec<Pred>),
}

/// Variable assignment used by evaluation.
pub type Env = BTreeMap<String, i64>;

fn gcd_i64(a: i64, b: i64) -> Option<i64> {
    let (mut x, mut y) = (a.checked_abs()?, b.checked_abs()?);
    while y != 0 {
        let t = x % y;
        x = y;
        y = t;
    }
    Some(x)
}

fn cdiv_i64(a: i64, b: i64) -> Option<i64> {
    if b <= 0 {
        return None;
    }
    a.checked_neg()?.checked_div_euclid(b)?.checked_neg()
}

fn apply_bin(op: BinOp, a: i64, b: i64) -> Option<i64> {
    match op {
        BinOp::Add => a.checked_add(b),
        BinOp::Sub => a.checked_sub(b),
        BinOp::Mul => a.checked_mul(b),
        BinOp::Div => a.checked_div_euclid(b),
        BinOp::Mod => a.checked_rem_euclid(b),
        BinOp::CeilDiv => cdiv_i64(a, b),
        BinOp::Gcd => gcd_i64(a, b),
        BinOp::Max => Some(a.max(b)),
        BinOp::Min => Some(a.min(b)),
    }
}

impl Expr {
    /// Evaluates with Euclidean division.
    ///
    /// Pre: none. Post: `None` when a variable is unbound, a divisor is zero, a `cdiv` divisor is
    /// not positive, or `i64` overflows. Example: `(-7) / 2` is `-4` and `(-7) % 2` is `1`.
    pub fn eval(&self, env: &Env) -> Option<i64> {
        match self {
            Expr::Const(c) => Some(*c),
            Expr::Var(v) => env.get(v).copied(),
            Expr::Neg(a) => a.eval(env)?.checked_neg(),
            Expr::Abs(a) => a.eval(env)?.checked_abs(),
            Expr::Bin(op, a, b) => apply_bin(*op, a.eval(env)?, b.eval(env)?),
        }
    }
}

/// Kleene conjunction: `false` if some conjunct is `false`, else undefined if some conjunct is
/// undefined, else `true`.
fn and_eval(vals: impl Iterator<Item = Option<bool>>) -> Option<bool> {
    let mut undefined = false;
    for v in vals {
        match v {
            Some(false) => return Some(false),
            None => undefined = true,
            Some(true) => {}
        }
    }
    (!undefined).then_some(true)
}

impl Pred {
    /// Evaluates a predicate.
    ///
    /// Pre: none. Post: `None` when a comparison has an undefined side, unless another conjunct
    /// is `false` (conjunction is Kleene's: a conjunct may be simplified into one that is
    /// undefined only where another conjunct is false). Example: `i % 6 < 3` at `i = 7` is
    /// `Some(true)`.
    pub fn eval(&self, env: &Env) -> Option<bool> {
        match self {
            Pred::Bool(b) => Some(*b),
            Pred::Cmp(a, op, b) => Some(op.holds(a.eval(env)?, b.eval(env)?)),
            Pred::And(ps) => and_eval(ps.iter().map(|p| p.eval(env))),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Parser
// ---------------------------------------------------------------------------------------------

/// A parsed input: an integer expression or a predicate.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Term {
    /// An integer expression.
    Expr(Expr),
    /// A predicate.
    Pred(Pred),
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Tok {
    Int(i64),
    Ident(String),
    Op(&'static str),
}

fn lex(s: &str) -> Result<Vec<(usize, Tok)>> {
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

struct Parser {
    toks: Vec<(usize, Tok)>,
    pos: usize,
    end: usize,
    depth: usize,
}

impl Parser {
    fn column(&self) -> usize {
        self.toks.get(self.pos).map_or(self.end, |t| t.0) + 1
    }

    fn err<T>(&self, message: impl Into<String>) -> Result<T> {
        Err(SimplifyError::Parse {
            column: self.column(),
            message: message.into(),
        })
    }

    fn peek_op(&self) -> Option<&'static str> {
        match self.toks.get(self.pos) {
            Some((_, Tok::Op(o))) => Some(o),
            _ => None,
        }
    }

    fn eat(&mut self, op: &str) -> bool {
        if self.peek_op() == Some(op) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    fn enter(&mut self) -> Result<()> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(SimplifyError::TooLarge {
                what: "nesting depth",
                limit: MAX_DEPTH,
            });
        }
        Ok(())
    }

    fn term(&mut self) -> Result<Term> {
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

    fn chain(&mut self) -> Result<Term> {
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

    fn sum(&mut self) -> Result<Term> {
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

    fn product(&mut self) -> Result<Term> {
        let mut acc = self.unary()?;
        loop {
            let op = match self.peek_op() {
                Some("*") => BinOp::Mul,
                Some("/") => BinOp::Div,
                Some("%") => BinOp::Mod,
                _ => return Ok(acc),
            };
            self.pos += 1;
            let rhs = as_expr(self.unary()?)?;
            acc = Term::Expr(Expr::Bin(op, Box::new(as_expr(acc)?), Box::new(rhs)));
        }
    }

    fn unary(&mut self) -> Result<Term> {
        if self.eat("-") {
            self.enter()?;
            let e = as_expr(self.unary()?)?;
            self.depth -= 1;
            return Ok(Term::Expr(Expr::Neg(Box::new(e))));
        }
        self.primary()
    }

    fn primary(&mut self) -> Result<Term> {
        let Some((_, tok)) = self.toks.get(self.pos).cloned() else {
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
                        _ => BinOp::CeilDiv,
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

fn as_expr(t: Term) -> Result<Expr> {
    match t {
        Term::Expr(e) => Ok(e),
        Term::Pred(_) => Err(SimplifyError::Kind {
            expected: "an integer expression",
            found: "a predicate",
        }),
    }
}

fn as_pred(t: Term) -> Result<Pred> {
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
    let toks = lex(text)?;
    let mut p = Parser {
        toks,
        pos: 0,
        end: text.len(),
        depth: 0,
    };
    let t = p.term()?;
    if p.pos != p.toks.len() {
        return p.err("unexpected trailing input");
    }
    Ok(t)
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

// ---------------------------------------------------------------------------------------------
// Canonical polynomials
// ---------------------------------------------------------------------------------------------

/// A factor of a monomial: a variable or an operation the ring laws cannot open.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Atom {
    /// A variable.
    Var(String),
    /// Euclidean `a / b`.
    Div(Box<Poly>, Box<Poly>),
    /// Euclidean `a % b`.
    Mod(Box<Poly>, Box<Poly>),
    /// `cdiv(a, b)`.
    CeilDiv(Box<Poly>, Box<Poly>),
    /// `gcd(a, b)` (arguments sorted).
    Gcd(Box<Poly>, Box<Poly>),
    /// `max` of two or more (sorted).
    Max(Vec<Poly>),
    /// `min` of two or more (sorted).
    Min(Vec<Poly>),
    /// `abs(a)`.
    Abs(Box<Poly>),
}

/// A polynomial: monomial (sorted atoms, with repetition) → nonzero coefficient.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Poly {
    terms: BTreeMap<Vec<Atom>, i64>,
}

type Mono = (Vec<Atom>, i64);

fn check_size(p: &Poly) -> Result<()> {
    if p.terms.len() > MAX_TERMS {
        return Err(SimplifyError::TooLarge {
            what: "terms",
            limit: MAX_TERMS,
        });
    }
    Ok(())
}

impl Poly {
    /// The constant `c`.
    ///
    /// Pre: none. Post: `as_const() == Some(c)`. Example: `Poly::constant(0)` has no terms.
    pub fn constant(c: i64) -> Poly {
        let mut terms = BTreeMap::new();
        if c != 0 {
            terms.insert(Vec::new(), c);
        }
        Poly { terms }
    }

    /// The variable `name`.
    ///
    /// Pre: none. Post: one term, coefficient 1. Example: `Poly::var("i0").to_string() == "i0"`.
    pub fn var(name: &str) -> Poly {
        Poly::atom(Atom::Var(name.to_string()))
    }

    /// The atom `a` as a polynomial.
    ///
    /// Pre: none. Post: one term `1 * a`. Example: `Poly::atom(Atom::Var("x".into()))`.
    pub fn atom(a: Atom) -> Poly {
        let mut terms = BTreeMap::new();
        terms.insert(vec![a], 1);
        Poly { terms }
    }

    fn mono(atoms: Vec<Atom>, c: i64) -> Poly {
        let mut terms = BTreeMap::new();
        if c != 0 {
            terms.insert(atoms, c);
        }
        Poly { terms }
    }

    /// The value if constant.
    ///
    /// Pre: none. Post: `Some(c)` iff no term has an atom. Example: `Poly::constant(3).as_const()
    /// == Some(3)`.
    pub fn as_const(&self) -> Option<i64> {
        match self.terms.len() {
            0 => Some(0),
            1 => self.terms.get(&Vec::new()).copied(),
            _ => None,
        }
    }

    fn as_atom(&self) -> Option<&Atom> {
        match self.as_monomial() {
            Some((atoms, 1)) if atoms.len() == 1 => atoms.first(),
            _ => None,
        }
    }

    fn as_monomial(&self) -> Option<(&Vec<Atom>, i64)> {
        if self.terms.len() == 1 {
            self.terms.iter().next().map(|(a, c)| (a, *c))
        } else {
            None
        }
    }

    /// The terms, monomial → coefficient.
    ///
    /// Pre: none. Post: no zero coefficient. Example: `2 * x + 1` has two terms.
    pub fn terms(&self) -> impl Iterator<Item = (&[Atom], i64)> {
        self.terms.iter().map(|(a, c)| (a.as_slice(), *c))
    }

    fn add_term(&mut self, atoms: Vec<Atom>, c: i64) -> Result<()> {
        if c == 0 {
            return Ok(());
        }
        let e = self.terms.entry(atoms).or_insert(0);
        *e = e.checked_add(c).ok_or(ov("add"))?;
        if *e == 0 {
            self.terms.retain(|_, v| *v != 0);
        }
        Ok(())
    }

    /// `self + o`.
    ///
    /// Pre: none. Post: exact, or [`SimplifyError::Overflow`] / [`SimplifyError::TooLarge`].
    /// Example: `x + (-x) == 0`.
    pub fn add(&self, o: &Poly) -> Result<Poly> {
        let mut r = self.clone();
        for (a, c) in &o.terms {
            r.add_term(a.clone(), *c)?;
        }
        check_size(&r)?;
        Ok(r)
    }

    /// `k * self`.
    ///
    /// Pre: none. Post: exact or overflow. Example: `2 * (x + 1) == 2x + 2`.
    pub fn scale(&self, k: i64) -> Result<Poly> {
        let mut r = Poly::default();
        for (a, c) in &self.terms {
            r.add_term(a.clone(), c.checked_mul(k).ok_or(ov("mul"))?)?;
        }
        Ok(r)
    }

    /// `self - o`.
    ///
    /// Pre: none. Post: exact or overflow. Example: `x - x == 0`.
    pub fn sub(&self, o: &Poly) -> Result<Poly> {
        self.add(&o.scale(-1)?)
    }

    /// `self * o`, distributed.
    ///
    /// Pre: none. Post: exact or overflow / too large. Example: `(x + 1) * (x + 1)` has 3 terms.
    pub fn mul(&self, o: &Poly) -> Result<Poly> {
        if self.terms.len().saturating_mul(o.terms.len()) > MAX_TERMS.saturating_mul(4) {
            return Err(SimplifyError::TooLarge {
                what: "terms",
                limit: MAX_TERMS,
            });
        }
        let mut r = Poly::default();
        for (a, c) in &self.terms {
            for (b, d) in &o.terms {
                let mut m = a.clone();
                m.extend(b.iter().cloned());
                m.sort();
                r.add_term(m, c.checked_mul(*d).ok_or(ov("mul"))?)?;
            }
        }
        check_size(&r)?;
        Ok(r)
    }

    /// Converts a surface expression (ring normalisation only, no rewrite rule).
    ///
    /// Pre: none. Post: evaluates like `e` wherever `e` evaluates without overflow. Example:
    /// `i1*i2*3 + i2*i1*6` becomes `9 * i1 * i2`.
    pub fn from_expr(e: &Expr) -> Result<Poly> {
        from_expr_depth(e, 0)
    }

    /// Evaluates with Euclidean division.
    ///
    /// Pre: none. Post: as [`Expr::eval`]. Example: `x % 4` at `x = -1` is `3`.
    pub fn eval(&self, env: &Env) -> Option<i64> {
        let mut s: i64 = 0;
        for (atoms, c) in &self.terms {
            let mut t = *c;
            for a in atoms {
                t = t.checked_mul(a.eval(env)?)?;
            }
            s = s.checked_add(t)?;
        }
        Some(s)
    }
}

impl Atom {
    /// Evaluates an atom.
    ///
    /// Pre: none. Post: as [`Expr::eval`]. Example: `gcd(-4, 6)` is `2`.
    pub fn eval(&self, env: &Env) -> Option<i64> {
        match self {
            Atom::Var(v) => env.get(v).copied(),
            Atom::Div(a, b) => a.eval(env)?.checked_div_euclid(b.eval(env)?),
            Atom::Mod(a, b) => a.eval(env)?.checked_rem_euclid(b.eval(env)?),
            Atom::CeilDiv(a, b) => cdiv_i64(a.eval(env)?, b.eval(env)?),
            Atom::Gcd(a, b) => gcd_i64(a.eval(env)?, b.eval(env)?),
            Atom::Max(xs) => {
                let mut m: Option<i64> = None;
                for x in xs {
                    let v = x.eval(env)?;
                    m = Some(m.map_or(v, |m| m.max(v)));
                }
                m
            }
            Atom::Min(xs) => {
                let mut m: Option<i64> = None;
                for x in xs {
                    let v = x.eval(env)?;
                    m = Some(m.map_or(v, |m| m.min(v)));
                }
                m
            }
            Atom::Abs(a) => a.eval(env)?.checked_abs(),
        }
    }
}

fn from_expr_depth(e: &Expr, depth: usize) -> Result<Poly> {
    if depth > 4 * MAX_DEPTH {
        return Err(SimplifyError::TooLarge {
            what: "nesting depth",
            limit: MAX_DEPTH,
        });
    }
    let rec = |x: &Expr| from_expr_depth(x, depth + 1);
    Ok(match e {
        Expr::Const(c) => Poly::constant(*c),
        Expr::Var(v) => Poly::var(v),
        Expr::Neg(a) => rec(a)?.scale(-1)?,
        Expr::Abs(a) => Poly::atom(Atom::Abs(Box::new(rec(a)?))),
        Expr::Bin(op, a, b) => {
            let (x, y) = (rec(a)?, rec(b)?);
            match op {
                BinOp::Add => x.add(&y)?,
                BinOp::Sub => x.sub(&y)?,
                BinOp::Mul => x.mul(&y)?,
                BinOp::Div => Poly::atom(Atom::Div(Box::new(x), Box::new(y))),
                BinOp::Mod => Poly::atom(Atom::Mod(Box::new(x), Box::new(y))),
                BinOp::CeilDiv => Poly::atom(Atom::CeilDiv(Box::new(x), Box::new(y))),
                BinOp::Gcd => {
                    let (x, y) = if x <= y { (x, y) } else { (y, x) };
                    Poly::atom(Atom::Gcd(Box::new(x), Box::new(y)))
                }
                BinOp::Max | BinOp::Min => {
                    let mut xs = Vec::new();
                    for p in [x, y] {
                        match p.as_atom() {
                            Some(Atom::Max(v)) if *op == BinOp::Max => xs.extend(v.iter().cloned()),
                            Some(Atom::Min(v)) if *op == BinOp::Min => xs.extend(v.iter().cloned()),
                            _ => xs.push(p),
                        }
                    }
                    xs.sort();
                    Poly::atom(if *op == BinOp::Max {
                        Atom::Max(xs)
                    } else {
                        Atom::Min(xs)
                    })
                }
            }
        }
    })
}

/// Removes the multiset `sub` from sorted `atoms`, if contained.
fn atoms_minus(atoms: &[Atom], sub: &[Atom]) -> Option<Vec<Atom>> {
    let mut rest = atoms.to_vec();
    for s in sub {
        let i = rest.iter().position(|a| a == s)?;
        rest.remove(i);
    }
    Some(rest)
}

/// `a / m` for a monomial `m`, when every term of `a` is a multiple of `m`.
fn exact_div(a: &Poly, b: &Poly) -> Option<Poly> {
    let (matoms, mc) = b.as_monomial()?;
    let mut r = Poly::default();
    for (atoms, c) in &a.terms {
        if c % mc != 0 {
            return None;
        }
        let rest = atoms_minus(atoms, matoms)?;
        r.add_term(rest, c / mc).ok()?;
    }
    Some(r)
}

/// Common monomial factor of all terms of all `ps`: (positive coefficient gcd, common atoms).
fn common_factor(ps: &[&Poly]) -> Option<Poly> {
    let mut g: Option<(i64, Vec<Atom>)> = None;
    for p in ps {
        for (atoms, c) in &p.terms {
            g = Some(match g {
                None => (c.checked_abs()?, atoms.clone()),
                Some((gc, ga)) => {
                    let mut common = Vec::new();
                    let mut rest = atoms.clone();
                    for a in ga {
                        if let Some(i) = rest.iter().position(|x| *x == a) {
                            rest.remove(i);
                            common.push(a);
                        }
                    }
                    (gcd_i64(gc, *c)?, common)
                }
            });
        }
    }
    g.map(|(c, a)| Poly::mono(a, c))
}

// ---------------------------------------------------------------------------------------------
// Intervals
// ---------------------------------------------------------------------------------------------

/// A closed integer interval; `None` bounds are infinite.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Interval {
    /// Lower bound.
    pub lo: Option<i128>,
    /// Upper bound.
    pub hi: Option<i128>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Ext {
    NegInf,
    Fin(i128),
    PosInf,
}

fn ext_mul(a: Ext, b: Ext) -> Option<Ext> {
    use Ext::*;
    let sign = |e: Ext| match e {
        NegInf => -1,
        PosInf => 1,
        Fin(v) => v.signum(),
    };
    match (a, b) {
        (Fin(x), Fin(y)) => x.checked_mul(y).map(Fin),
        _ => Some(match sign(a) * sign(b) {
            0 => Fin(0),
            s if s > 0 => PosInf,
            _ => NegInf,
        }),
    }
}

impl Interval {
    /// The whole line.
    pub const FULL: Interval = Interval { lo: None, hi: None };

    fn point(c: i128) -> Interval {
        Interval {
            lo: Some(c),
            hi: Some(c),
        }
    }

    fn at_least(c: i128) -> Interval {
        Interval {
            lo: Some(c),
            hi: None,
        }
    }

    fn intersect(self, o: Interval) -> Interval {
        let lo = match (self.lo, o.lo) {
            (Some(a), Some(b)) => Some(a.max(b)),
            (a, b) => a.or(b),
        };
        let hi = match (self.hi, o.hi) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        Interval { lo, hi }
    }

    fn add(self, o: Interval) -> Interval {
        let f = |a: Option<i128>, b: Option<i128>| match (a, b) {
            (Some(x), Some(y)) => x.checked_add(y).map(Some),
            _ => Some(None),
        };
        match (f(self.lo, o.lo), f(self.hi, o.hi)) {
            (Some(lo), Some(hi)) => Interval { lo, hi },
            _ => Interval::FULL,
        }
    }

    fn neg(self) -> Interval {
        match (
            self.hi.map(|h| h.checked_neg()),
            self.lo.map(|l| l.checked_neg()),
        ) {
            (Some(None), _) | (_, Some(None)) => Interval::FULL,
            (lo, hi) => Interval {
                lo: lo.flatten(),
                hi: hi.flatten(),
            },
        }
    }

    fn mul(self, o: Interval) -> Interval {
        let lo_e = |x: Option<i128>| x.map_or(Ext::NegInf, Ext::Fin);
        let hi_e = |x: Option<i128>| x.map_or(Ext::PosInf, Ext::Fin);
        let (mut lo, mut hi) = (Ext::PosInf, Ext::NegInf);
        for a in [lo_e(self.lo), hi_e(self.hi)] {
            for b in [lo_e(o.lo), hi_e(o.hi)] {
                let Some(p) = ext_mul(a, b) else {
                    return Interval::FULL;
                };
                lo = lo.min(p);
                hi = hi.max(p);
            }
        }
        Interval {
            lo: match lo {
                Ext::Fin(v) => Some(v),
                _ => None,
            },
            hi: match hi {
                Ext::Fin(v) => Some(v),
                _ => None,
            },
        }
    }

    fn excludes_zero(self) -> bool {
        self.lo.is_some_and(|l| l > 0) || self.hi.is_some_and(|h| h < 0)
    }

    fn max_abs(self) -> Option<i128> {
        Some(self.lo?.checked_abs()?.max(self.hi?.checked_abs()?))
    }

    /// Floor division by a divisor interval with `lo >= 1`.
    fn div_pos(self, b: Interval) -> Interval {
        self.div_pos_opt(b).unwrap_or(Interval::FULL)
    }

    fn div_pos_opt(self, b: Interval) -> Option<Interval> {
        let bl = b.lo.filter(|&l| l >= 1)?;
        if b.hi.is_some_and(|h| h < bl) {
            return None;
        }
        let lo = match self.lo {
            None => None,
            Some(al) if al >= 0 => Some(b.hi.map_or(0, |bh| al.div_euclid(bh))),
            Some(al) => Some(al.div_euclid(bl)),
        };
        let hi = match self.hi {
            None => None,
            Some(ah) if ah >= 0 => Some(ah.div_euclid(bl)),
            Some(ah) => Some(b.hi.map_or(-1, |bh| ah.div_euclid(bh))),
        };
        Some(Interval { lo, hi })
    }

    fn ceil_div_pos(self, b: Interval) -> Interval {
        self.ceil_div_pos_opt(b).unwrap_or(Interval::FULL)
    }

    fn ceil_div_pos_opt(self, b: Interval) -> Option<Interval> {
        let b = b.intersect(Interval::at_least(1));
        let bl = b.lo?;
        if b.hi.is_some_and(|h| h < bl) {
            return None;
        }
        let c = |a: i128, d: i128| a.checked_neg()?.div_euclid(d).checked_neg();
        let lo = match self.lo {
            None => None,
            Some(al) if al >= 0 => Some(match b.hi {
                None => i128::from(al > 0),
                Some(bh) => c(al, bh)?,
            }),
            Some(al) => Some(c(al, bl)?),
        };
        let hi = match self.hi {
            None => None,
            Some(ah) if ah >= 0 => Some(c(ah, bl)?),
            Some(ah) => Some(match b.hi {
                None => 0,
                Some(bh) => c(ah, bh)?,
            }),
        };
        Some(Interval { lo, hi })
    }
}

// ---------------------------------------------------------------------------------------------
// Rules
// ---------------------------------------------------------------------------------------------

/// A rewrite rule, named as nvFuser names the pass or test that exercises it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Rule {
    /// Constant folding and identities (`a / 1`, `a % 1`, `0 / b`).
    EliminateTrivialComputation,
    /// `0 <= r < |a| ⇒ r % a = r, r / a = 0` (Coq `idiv_2_5`).
    DivModLessThan,
    /// `a = b*q ⇒ a / b = q, a % b = 0` (Coq `idiv_2_9`, `ediv_of`).
    SimplifyDivisibleDivMod,
    /// Common factor `d >= 0`: `(d a)/(d b) = a/b`, `(d a) % (d b) = (a % b) * d`
    /// (Coq `idiv_2_11`, `idiv_2_13`).
    CancelDivMod,
    /// `b | a ⇒ (a + r)/b = a/b + r/b, (a + r) % b = r % b` (Coq `idiv_2_15_1`, `idiv_2_7_1`).
    DistributeDivisibleDivMod,
    /// `g | a, g | c, 0 <= b < |g| ⇒ (a + b)/c = a/c, (a + b) % c = a % c + b`
    /// (Coq `idiv_2_15_2`, `idiv_2_7_2`).
    DistributeGcdRemainderDivMod,
    /// `c > 0 ⇒ (a / c) / b = a / (c * b)` (Coq `idiv_2_11`).
    DoubleDiv,
    /// `c > 0, b | c ⇒ (a % c) % b = a % b` (Coq `idiv_2_12`, `idiv_2_7_1`, `idiv_2_5`).
    ModOfMod,
    /// `(a / b) * b + a % b = a` (Theorem 1.1; Coq `ediv_of` / `emod_of`).
    FundamentalDivisionWithRemainderProperty,
    /// `gcd(d a, d b) = gcd(a, b) * |d|` (Coq stdlib `Z.gcd_mul_mono_l`).
    FactorizeGcd,
    /// `abs(a) = a` when `a >= 0`, `-a` when `a <= 0`.
    SimplifyAbs,
    /// `max`/`min` arguments dominated by another argument are dropped.
    EliminateDominatedMaxMin,
    /// A comparison decided by the prover (`NonZeroLoopIndexStart` is one instance).
    EliminateTrivialPredicate,
    /// Common additive terms of both sides of a comparison are removed.
    CancelTermsInPredicate,
    /// `d > 0 ⇒ (i / d < D ⇔ i < D * d)` (Coq `idiv_2_16`).
    PredicateDivToMul,
    /// Each conjunct simplified assuming the others (`doc/math/logic.md` Theorem 1).
    SimplifyConjunct,
}

impl Rule {
    /// The rule's name.
    ///
    /// Pre: none. Post: nvFuser's name for the pass. Example: `Rule::DoubleDiv.name() ==
    /// "DoubleDiv"`.
    pub fn name(self) -> &'static str {
        match self {
            Rule::EliminateTrivialComputation => "EliminateTrivialComputation",
            Rule::DivModLessThan => "DivModLessThan",
            Rule::SimplifyDivisibleDivMod => "SimplifyDivisibleDivMod",
            Rule::CancelDivMod => "CancelDivMod",
            Rule::DistributeDivisibleDivMod => "DistributeDivisibleDivMod",
            Rule::DistributeGcdRemainderDivMod => "DistributeGcdRemainderDivMod",
            Rule::DoubleDiv => "DoubleDiv",
            Rule::ModOfMod => "ModOfMod",
            Rule::FundamentalDivisionWithRemainderProperty => {
                "FundamentalDivisionWithRemainderProperty"
            }
            Rule::FactorizeGcd => "FactorizeGcd",
            Rule::SimplifyAbs => "SimplifyAbs",
            Rule::EliminateDominatedMaxMin => "EliminateDominatedMaxMin",
            Rule::EliminateTrivialPredicate => "EliminateTrivialPredicate",
            Rule::CancelTermsInPredicate => "CancelTermsInPredicate",
            Rule::PredicateDivToMul => "PredicateDivToMul",
            Rule::SimplifyConjunct => "SimplifyConjunct",
        }
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

// ---------------------------------------------------------------------------------------------
// Canonical predicates
// ---------------------------------------------------------------------------------------------

/// A predicate over canonical polynomials.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CPred {
    /// Decided.
    Bool(bool),
    /// `a op b`.
    Cmp(Poly, CmpOp, Poly),
    /// Conjunction of comparisons.
    And(Vec<CPred>),
}

impl CPred {
    /// Converts a surface predicate (ring normalisation only).
    ///
    /// Pre: none. Post: evaluates like `p`; nested conjunctions are flattened. Example:
    /// `0 <= i < 4` becomes `And[0 <= i, i < 4]`.
    pub fn from_pred(p: &Pred) -> Result<CPred> {
        Ok(match p {
            Pred::Bool(b) => CPred::Bool(*b),
            Pred::Cmp(a, op, b) => CPred::Cmp(Poly::from_expr(a)?, *op, Poly::from_expr(b)?),
            Pred::And(ps) => {
                let mut out = Vec::new();
                for q in ps {
                    match CPred::from_pred(q)? {
                        CPred::And(v) => out.extend(v),
                        c => out.push(c),
                    }
                }
                CPred::And(out)
            }
        })
    }

    /// Evaluates.
    ///
    /// Pre: none. Post: as [`Pred::eval`] (Kleene conjunction). Example: `true` is `Some(true)`.
    pub fn eval(&self, env: &Env) -> Option<bool> {
        match self {
            CPred::Bool(b) => Some(*b),
            CPred::Cmp(a, op, b) => Some(op.holds(a.eval(env)?, b.eval(env)?)),
            CPred::And(ps) => and_eval(ps.iter().map(|p| p.eval(env))),
        }
    }

    fn conjuncts(&self) -> Vec<CPred> {
        match self {
            CPred::And(v) => v.clone(),
            CPred::Bool(true) => Vec::new(),
            c => vec![c.clone()],
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The engine
// ---------------------------------------------------------------------------------------------

/// Assumptions turned into facts `f >= 0`, per-atom ranges, caches and the rule log.
#[derive(Debug, Clone, Default)]
pub struct Context {
    facts: Vec<Poly>,
    ranges: BTreeMap<Atom, Interval>,
    simp_cache: HashMap<Atom, Poly>,
    iv_cache: HashMap<Atom, Interval>,
    steps: usize,
    log: Vec<Rule>,
}

impl Context {
    /// Builds a context from assumptions.
    ///
    /// Pre: none. Post: every comparison becomes facts `f >= 0` (`a < b` is `b - a - 1 >= 0`,
    /// `==` two facts, `!=` none); a fact linear in one atom bounds that atom; at most
    /// [`MAX_FACTS`] facts are kept. `false`, a negative constant fact or an empty range is
    /// [`SimplifyError::Contradiction`]. Example: `0 <= i0 < 32` bounds `i0` to `[0, 31]`.
    pub fn new(assumptions: &[CPred]) -> Result<Context> {
        let mut ctx = Context::default();
        let mut stack: Vec<CPred> = assumptions.to_vec();
        stack.reverse();
        while let Some(p) = stack.pop() {
            match p {
                CPred::Bool(true) => {}
                CPred::Bool(false) => {
                    return Err(SimplifyError::Contradiction("`false` is assumed".into()))
                }
                CPred::And(v) => stack.extend(v.into_iter().rev()),
                CPred::Cmp(a, op, b) => {
                    let fs = match op {
                        CmpOp::Lt => vec![b.sub(&a)?.add(&Poly::constant(-1))?],
                        CmpOp::Le => vec![b.sub(&a)?],
                        CmpOp::Gt => vec![a.sub(&b)?.add(&Poly::constant(-1))?],
                        CmpOp::Ge => vec![a.sub(&b)?],
                        CmpOp::Eq => vec![b.sub(&a)?, a.sub(&b)?],
                        CmpOp::Ne => vec![],
                    };
                    for f in fs {
                        ctx.add_fact(f)?;
                    }
                }
            }
        }
        for (a, iv) in &ctx.ranges {
            if let (Some(l), Some(h)) = (iv.lo, iv.hi) {
                if l > h {
                    return Err(SimplifyError::Contradiction(format!(
                        "{} is assumed in [{l}, {h}]",
                        Poly::atom(a.clone())
                    )));
                }
            }
        }
        Ok(ctx)
    }

    fn add_fact(&mut self, f: Poly) -> Result<()> {
        if let Some(c) = f.as_const() {
            if c < 0 {
                return Err(SimplifyError::Contradiction(format!(
                    "an assumption reduces to {c} >= 0"
                )));
            }
            return Ok(());
        }
        // k * atom + c >= 0 bounds the atom.
        let c = f.terms.get(&Vec::new()).copied().unwrap_or(0);
        let nonconst: Vec<(&Vec<Atom>, i64)> = f
            .terms
            .iter()
            .filter(|(a, _)| !a.is_empty())
            .map(|(a, k)| (a, *k))
            .collect();
        if let [(atoms, k)] = nonconst.as_slice() {
            if let [atom] = atoms.as_slice() {
                let (c, k) = (i128::from(c), i128::from(*k));
                let iv = if k > 0 {
                    Interval::at_least(-(c.div_euclid(k)))
                } else {
                    Interval {
                        lo: None,
                        hi: Some(c.div_euclid(-k)),
                    }
                };
                let e = self.ranges.entry(atom.clone()).or_insert(Interval::FULL);
                *e = e.intersect(iv);
            }
        }
        if self.facts.len() < MAX_FACTS {
            self.facts.push(f);
        }
        Ok(())
    }

    /// The rules applied so far, in first-use order.
    ///
    /// Pre: none. Post: no duplicates. Example: after `i0 / 2 / 3` it contains `DoubleDiv`.
    pub fn rules(&self) -> &[Rule] {
        &self.log
    }

    fn fire(&mut self, r: Rule) {
        if !self.log.contains(&r) {
            self.log.push(r);
        }
    }

    fn step(&mut self) -> Result<()> {
        self.steps += 1;
        if self.steps > MAX_STEPS {
            return Err(SimplifyError::TooLarge {
                what: "rewrite steps",
                limit: MAX_STEPS,
            });
        }
        Ok(())
    }

    // -- intervals and the prover ------------------------------------------------------------

    /// An interval containing every value of `p` under the assumptions.
    ///
    /// Pre: none. Post: sound for every assignment satisfying the assumptions at which `p` is
    /// defined. Example: `8 * i0 + i1` under `0 <= i0 < 32, 0 <= i1 < 8` is `[0, 255]`.
    pub fn interval(&mut self, p: &Poly) -> Interval {
        let mut acc = Interval::point(0);
        for (atoms, c) in &p.terms {
            let mut t = Interval::point(i128::from(*c));
            for a in atoms {
                let ia = self.atom_interval(a);
                t = t.mul(ia);
            }
            acc = acc.add(t);
        }
        acc
    }

    fn atom_interval(&mut self, a: &Atom) -> Interval {
        if let Some(iv) = self.iv_cache.get(a) {
            return *iv;
        }
        let base = match a {
            Atom::Var(_) => Interval::FULL,
            Atom::Div(x, y) => {
                let (ix, iy) = (self.interval(x), self.interval(y));
                if iy.lo.is_some_and(|l| l >= 1) {
                    ix.div_pos(iy)
                } else if iy.hi.is_some_and(|h| h <= -1) {
                    ix.div_pos(iy.neg()).neg()
                } else {
                    Interval::FULL
                }
            }
            Atom::Mod(x, y) => {
                let (ix, iy) = (self.interval(x), self.interval(y));
                let mut hi = iy.max_abs().map(|m| m - 1);
                if ix.lo.is_some_and(|l| l >= 0) {
                    hi = match (hi, ix.hi) {
                        (Some(a), Some(b)) => Some(a.min(b)),
                        (a, b) => a.or(b),
                    };
                }
                Interval { lo: Some(0), hi }
            }
            Atom::CeilDiv(x, y) => {
                let (ix, iy) = (self.interval(x), self.interval(y));
                ix.ceil_div_pos(iy)
            }
            Atom::Gcd(x, y) => {
                let (ix, iy) = (self.interval(x), self.interval(y));
                let lo = i128::from(ix.excludes_zero() || iy.excludes_zero());
                let hi = match (ix.max_abs(), iy.max_abs()) {
                    (Some(a), Some(b)) => Some(a.max(b)),
                    (Some(a), None) if ix.excludes_zero() => Some(a),
                    (None, Some(b)) if iy.excludes_zero() => Some(b),
                    _ => None,
                };
                Interval { lo: Some(lo), hi }
            }
            Atom::Max(xs) | Atom::Min(xs) => {
                let is_max = matches!(a, Atom::Max(_));
                let ivs: Vec<Interval> = xs.iter().map(|x| self.interval(x)).collect();
                let pick = |v: Vec<Option<i128>>, lower_bound: bool| -> Option<i128> {
                    // For max: lo = max of los (None = -inf loses), hi = max of his (None wins).
                    // For min: lo = min of los (None wins), hi = min of his (None loses).
                    let none_wins = is_max != lower_bound;
                    if none_wins && v.iter().any(|x| x.is_none()) {
                        return None;
                    }
                    let fin = v.into_iter().flatten();
                    if is_max {
                        fin.max()
                    } else {
                        fin.min()
                    }
                };
                Interval {
                    lo: pick(ivs.iter().map(|i| i.lo).collect(), true),
                    hi: pick(ivs.iter().map(|i| i.hi).collect(), false),
                }
            }
            Atom::Abs(x) => {
                let ix = self.interval(x);
                if ix.lo.is_some_and(|l| l >= 0) {
                    ix
                } else if ix.hi.is_some_and(|h| h <= 0) {
                    ix.neg()
                } else {
                    Interval {
                        lo: Some(0),
                        hi: ix.max_abs(),
                    }
                }
            }
        };
        let iv = match self.ranges.get(a) {
            Some(r) => base.intersect(*r),
            None => base,
        };
        self.iv_cache.insert(a.clone(), iv);
        iv
    }

    /// Tries to prove `p >= k` under the assumptions.
    ///
    /// Pre: none. Post: `true` only if `p >= k` for every assignment satisfying the assumptions
    /// at which `p` is defined: by the interval of `p`, of `p - f`, or of `p - f - g` for facts
    /// `f, g >= 0`. Example: `i1 - i0 >= 1` from `i0 < i1`.
    pub fn proves_ge(&mut self, p: &Poly, k: i64) -> bool {
        let k = i128::from(k);
        let ok = |iv: Interval| iv.lo.is_some_and(|l| l >= k);
        if ok(self.interval(p)) {
            return true;
        }
        let mut facts = self.facts.clone();
        // `0 <= x % y < y` for every remainder of `p` whose divisor is provably non-negative.
        let mods: Vec<(Atom, Poly)> = p
            .terms
            .keys()
            .flatten()
            .filter_map(|a| match a {
                Atom::Mod(_, y) => Some((a.clone(), (**y).clone())),
                _ => None,
            })
            .collect();
        for (m, y) in mods.into_iter().take(4) {
            if self.proves_ge(&y, 0) {
                if let Ok(f) = y
                    .sub(&Poly::atom(m))
                    .and_then(|d| d.add(&Poly::constant(-1)))
                {
                    facts.push(f);
                }
            }
        }
        let mut diffs = Vec::new();
        for f in &facts {
            if let Ok(d) = p.sub(f) {
                if ok(self.interval(&d)) {
                    return true;
                }
                diffs.push(d);
            }
        }
        if facts.len() <= 16 {
            for (i, d) in diffs.iter().enumerate() {
                for g in facts.iter().skip(i + 1) {
                    if let Ok(e) = d.sub(g) {
                        if ok(self.interval(&e)) {
                            return true;
                        }
                    }
                }
            }
        }
        false
    }

    fn lt(&mut self, a: &Poly, b: &Poly) -> bool {
        b.sub(a).is_ok_and(|d| self.proves_ge(&d, 1))
    }

    fn le(&mut self, a: &Poly, b: &Poly) -> bool {
        b.sub(a).is_ok_and(|d| self.proves_ge(&d, 0))
    }

    fn nonneg(&mut self, a: &Poly) -> bool {
        self.proves_ge(a, 0)
    }

    fn positive(&mut self, a: &Poly) -> bool {
        self.proves_ge(a, 1)
    }

    /// Whether `p` is defined at every assignment satisfying the assumptions: every `/` and `%`
    /// divisor is provably nonzero and every `cdiv` divisor provably positive.
    fn is_total(&mut self, p: &Poly) -> bool {
        let atoms: Vec<Atom> = p.terms.keys().flatten().cloned().collect();
        atoms.iter().all(|a| match a {
            Atom::Var(_) => true,
            Atom::Div(x, y) | Atom::Mod(x, y) => {
                self.is_total(x)
                    && self.is_total(y)
                    && (self.proves_ge(y, 1) || y.scale(-1).is_ok_and(|n| self.proves_ge(&n, 1)))
            }
            Atom::CeilDiv(x, y) => self.is_total(x) && self.is_total(y) && self.proves_ge(y, 1),
            Atom::Gcd(x, y) => self.is_total(x) && self.is_total(y),
            Atom::Max(xs) | Atom::Min(xs) => xs.iter().all(|x| self.is_total(x)),
            Atom::Abs(x) => self.is_total(x),
        })
    }

    fn is_total_pred(&mut self, c: &CPred) -> bool {
        match c {
            CPred::Bool(_) => true,
            CPred::Cmp(a, _, b) => self.is_total(a) && self.is_total(b),
            CPred::And(v) => v.iter().all(|x| self.is_total_pred(x)),
        }
    }

    // -- expressions -------------------------------------------------------------------------

    /// Simplifies a polynomial to a fixed point (at most 16 rounds).
    ///
    /// Pre: none. Post: equal to `p` wherever `p` is defined under the assumptions. Example:
    /// `((8*i0)+i1) % 128` under `0 <= i0 < 32, 0 <= i1 < 8` is `(i0 % 16) * 8 + i1`.
    pub fn simplify(&mut self, p: &Poly) -> Result<Poly> {
        let mut cur = p.clone();
        for _ in 0..MAX_ROUNDS {
            let next = self.pass(&cur)?;
            if next == cur {
                break;
            }
            cur = next;
        }
        Ok(cur)
    }

    fn pass(&mut self, p: &Poly) -> Result<Poly> {
        let mut out = Poly::default();
        for (atoms, c) in &p.terms {
            let mut t = Poly::constant(*c);
            for a in atoms {
                let s = self.simplify_atom(a)?;
                t = t.mul(&s)?;
            }
            out = out.add(&t)?;
        }
        self.fundamental(out)
    }

    fn simplify_atom(&mut self, a: &Atom) -> Result<Poly> {
        if let Some(p) = self.simp_cache.get(a) {
            return Ok(p.clone());
        }
        self.step()?;
        let r = match a {
            Atom::Var(_) => Poly::atom(a.clone()),
            Atom::Div(x, y) => {
                let (x, y) = (self.simplify(x)?, self.simplify(y)?);
                self.div(x, y, FUEL)?
            }
            Atom::Mod(x, y) => {
                let (x, y) = (self.simplify(x)?, self.simplify(y)?);
                self.rem(x, y, FUEL)?
            }
            Atom::CeilDiv(x, y) => {
                let (x, y) = (self.simplify(x)?, self.simplify(y)?);
                self.ceil_div(x, y)?
            }
            Atom::Gcd(x, y) => {
                let (x, y) = (self.simplify(x)?, self.simplify(y)?);
                self.gcd(x, y)?
            }
            Atom::Abs(x) => {
                let x = self.simplify(x)?;
                self.abs(x)?
            }
            Atom::Max(xs) | Atom::Min(xs) => {
                let mut v = Vec::new();
                for x in xs {
                    v.push(self.simplify(x)?);
                }
                self.max_min(matches!(a, Atom::Max(_)), v)?
            }
        };
        self.simp_cache.insert(a.clone(), r.clone());
        Ok(r)
    }

    fn div(&mut self, a: Poly, b: Poly, fuel: usize) -> Result<Poly> {
        let keep = |a: Poly, b: Poly| Poly::atom(Atom::Div(Box::new(a), Box::new(b)));
        if fuel == 0 || b.as_const() == Some(0) {
            return Ok(keep(a, b));
        }
        if let (Some(x), Some(y)) = (a.as_const(), b.as_const()) {
            self.fire(Rule::EliminateTrivialComputation);
            return Ok(Poly::constant(x.checked_div_euclid(y).ok_or(ov("div"))?));
        }
        if b.as_const() == Some(1) || a.as_const() == Some(0) {
            self.fire(Rule::EliminateTrivialComputation);
            return a.scale(i64::from(b.as_const() == Some(1)));
        }
        // idiv_2_5
        if self.nonneg(&a) && (self.lt(&a, &b) || self.lt(&a, &b.scale(-1)?)) {
            self.fire(Rule::DivModLessThan);
            return Ok(Poly::default());
        }
        // ediv_of: a = b * q
        if let Some(q) = exact_div(&a, &b) {
            self.fire(Rule::SimplifyDivisibleDivMod);
            return Ok(q);
        }
        // idiv_2_11 with the common factor as the first divisor
        if let Some((_, a2, b2)) = self.cancellable(&a, &b) {
            self.fire(Rule::CancelDivMod);
            return self.div(a2, b2, fuel - 1);
        }
        // idiv_2_15_1
        if let Some((d, r)) = split_divisible(&a, &b) {
            self.fire(Rule::DistributeDivisibleDivMod);
            let q = exact_div(&d, &b).ok_or(ov("div"))?;
            let rest = self.div(r, b, fuel - 1)?;
            return q.add(&rest);
        }
        // idiv_2_15_2
        if let Some(big) = self.gcd_remainder(&a, &b) {
            self.fire(Rule::DistributeGcdRemainderDivMod);
            return self.div(big, b, fuel - 1);
        }
        // idiv_2_11: (x / c) / b = x / (c * b), c > 0
        if let Some(Atom::Div(x, c)) = a.as_atom() {
            if self.positive(c) {
                let (x, cb) = ((**x).clone(), c.mul(&b)?);
                self.fire(Rule::DoubleDiv);
                return self.div(x, cb, fuel - 1);
            }
        }
        Ok(keep(a, b))
    }

    fn rem(&mut self, a: Poly, b: Poly, fuel: usize) -> Result<Poly> {
        let keep = |a: Poly, b: Poly| Poly::atom(Atom::Mod(Box::new(a), Box::new(b)));
        if fuel == 0 || b.as_const() == Some(0) {
            return Ok(keep(a, b));
        }
        if let (Some(x), Some(y)) = (a.as_const(), b.as_const()) {
            self.fire(Rule::EliminateTrivialComputation);
            return Ok(Poly::constant(x.checked_rem_euclid(y).ok_or(ov("mod"))?));
        }
        if matches!(b.as_const(), Some(1 | -1)) || a.as_const() == Some(0) {
            self.fire(Rule::EliminateTrivialComputation);
            return Ok(Poly::default());
        }
        // idiv_2_5
        if self.nonneg(&a) && (self.lt(&a, &b) || self.lt(&a, &b.scale(-1)?)) {
            self.fire(Rule::DivModLessThan);
            return Ok(a);
        }
        // idiv_2_9
        if exact_div(&a, &b).is_some() {
            self.fire(Rule::SimplifyDivisibleDivMod);
            return Ok(Poly::default());
        }
        // idiv_2_13
        if let Some((g, a2, b2)) = self.cancellable(&a, &b) {
            self.fire(Rule::CancelDivMod);
            return self.rem(a2, b2, fuel - 1)?.mul(&g);
        }
        // idiv_2_7_1
        if let Some((_, r)) = split_divisible(&a, &b) {
            self.fire(Rule::DistributeDivisibleDivMod);
            return self.rem(r, b, fuel - 1);
        }
        // idiv_2_7_2
        if let Some(big) = self.gcd_remainder(&a, &b) {
            self.fire(Rule::DistributeGcdRemainderDivMod);
            let small = a.sub(&big)?;
            return self.rem(big, b, fuel - 1)?.add(&small);
        }
        // (x % c) % b = x % b when b > 0 and b | c
        if let Some(Atom::Mod(x, c)) = a.as_atom() {
            if exact_div(c, &b).is_some() && self.positive(&b) {
                let x = (**x).clone();
                self.fire(Rule::ModOfMod);
                return self.rem(x, b, fuel - 1);
            }
        }
        Ok(keep(a, b))
    }

    /// The common factor `g != 1` of `a` and `b` with `g >= 0` provable, and `a / g`, `b / g`.
    /// When the full factor's sign is unknown, its positive constant part is used.
    fn cancellable(&mut self, a: &Poly, b: &Poly) -> Option<(Poly, Poly, Poly)> {
        let g = common_factor(&[a, b])?;
        let (atoms, c) = g.as_monomial()?;
        let mut cands = vec![g.clone()];
        if !atoms.is_empty() {
            cands.push(Poly::constant(c));
        }
        for g in cands {
            if g.as_const() == Some(1) || g.as_const() == Some(0) || !self.nonneg(&g) {
                continue;
            }
            if let (Some(a2), Some(b2)) = (exact_div(a, &g), exact_div(b, &g)) {
                return Some((g, a2, b2));
            }
        }
        None
    }

    /// A proper part `A` of the sum `a` with a common divisor `g` of `A` and `b` such that
    /// `0 <= a - A < g` is provable.
    fn gcd_remainder(&mut self, a: &Poly, b: &Poly) -> Option<Poly> {
        let terms: Vec<Mono> = a.terms.iter().map(|(k, v)| (k.clone(), *v)).collect();
        let n = terms.len();
        if !(2..=MAX_SUBSET_TERMS).contains(&n) {
            return None;
        }
        for size in 1..n {
            for mask in 1u32..(1u32 << n) - 1 {
                if mask.count_ones() as usize != size {
                    continue;
                }
                let mut small = Poly::default();
                let mut big = Poly::default();
                for (i, (k, v)) in terms.iter().enumerate() {
                    let t = if mask & (1 << i) != 0 {
                        &mut small
                    } else {
                        &mut big
                    };
                    t.add_term(k.clone(), *v).ok()?;
                }
                let Some(g) = common_factor(&[&big, b]) else {
                    continue;
                };
                if g.as_const() == Some(1) {
                    continue;
                }
                if self.nonneg(&small) && self.lt(&small, &g) {
                    return Some(big);
                }
            }
        }
        None
    }

    fn ceil_div(&mut self, a: Poly, b: Poly) -> Result<Poly> {
        if let (Some(x), Some(y)) = (a.as_const(), b.as_const()) {
            if let Some(v) = cdiv_i64(x, y) {
                self.fire(Rule::EliminateTrivialComputation);
                return Ok(Poly::constant(v));
            }
        }
        if b.as_const() == Some(1) {
            self.fire(Rule::EliminateTrivialComputation);
            return Ok(a);
        }
        if b.as_const().is_none_or(|c| c > 0) {
            if let Some(q) = exact_div(&a, &b) {
                self.fire(Rule::SimplifyDivisibleDivMod);
                return Ok(q);
            }
        }
        Ok(Poly::atom(Atom::CeilDiv(Box::new(a), Box::new(b))))
    }

    fn gcd(&mut self, a: Poly, b: Poly) -> Result<Poly> {
        if let (Some(x), Some(y)) = (a.as_const(), b.as_const()) {
            self.fire(Rule::EliminateTrivialComputation);
            return Ok(Poly::constant(gcd_i64(x, y).ok_or(ov("gcd"))?));
        }
        if a.as_const() == Some(0) || b.as_const() == Some(0) {
            self.fire(Rule::EliminateTrivialComputation);
            let other = if a.as_const() == Some(0) { b } else { a };
            return self.abs(other);
        }
        if matches!(a.as_const(), Some(1 | -1)) || matches!(b.as_const(), Some(1 | -1)) {
            self.fire(Rule::EliminateTrivialComputation);
            return Ok(Poly::constant(1));
        }
        if let Some(g) = common_factor(&[&a, &b]) {
            if g.as_const() != Some(1) {
                if let (Some(a2), Some(b2)) = (exact_div(&a, &g), exact_div(&b, &g)) {
                    self.fire(Rule::FactorizeGcd);
                    let inner = self.gcd(a2, b2)?;
                    let (atoms, c) = g.as_monomial().ok_or(ov("gcd"))?;
                    let abs_c = Poly::constant(c.checked_abs().ok_or(ov("abs"))?);
                    let abs_atoms = self.abs(Poly::mono(atoms.clone(), 1))?;
                    return inner.mul(&abs_c)?.mul(&abs_atoms);
                }
            }
        }
        let (a, b) = if a <= b { (a, b) } else { (b, a) };
        Ok(Poly::atom(Atom::Gcd(Box::new(a), Box::new(b))))
    }

    fn abs(&mut self, a: Poly) -> Result<Poly> {
        if let Some(c) = a.as_const() {
            return Ok(Poly::constant(c.checked_abs().ok_or(ov("abs"))?));
        }
        if self.nonneg(&a) {
            self.fire(Rule::SimplifyAbs);
            return Ok(a);
        }
        let n = a.scale(-1)?;
        if self.nonneg(&n) {
            self.fire(Rule::SimplifyAbs);
            return Ok(n);
        }
        Ok(Poly::atom(Atom::Abs(Box::new(a))))
    }

    fn max_min(&mut self, is_max: bool, xs: Vec<Poly>) -> Result<Poly> {
        let mut args: Vec<Poly> = Vec::new();
        for x in xs {
            match x.as_atom() {
                Some(Atom::Max(v)) if is_max => args.extend(v.iter().cloned()),
                Some(Atom::Min(v)) if !is_max => args.extend(v.iter().cloned()),
                _ => args.push(x),
            }
        }
        args.sort();
        args.dedup();
        // Drop an argument dominated by another (for max: x <= y; for min: y <= x).
        let mut i = 0;
        while i < args.len() && args.len() > 1 {
            let mut dominated = false;
            for j in 0..args.len() {
                if i != j {
                    let (x, y) = (args[i].clone(), args[j].clone());
                    if (is_max && self.le(&x, &y)) || (!is_max && self.le(&y, &x)) {
                        dominated = true;
                        break;
                    }
                }
            }
            if dominated {
                self.fire(Rule::EliminateDominatedMaxMin);
                args.remove(i);
            } else {
                i += 1;
            }
        }
        if args.len() == 1 {
            return Ok(args.remove(0));
        }
        Ok(Poly::atom(if is_max {
            Atom::Max(args)
        } else {
            Atom::Min(args)
        }))
    }

    /// `(a / b) * b * m + (a % b) * m → a * m` when those terms occur in `p`.
    fn fundamental(&mut self, p: Poly) -> Result<Poly> {
        let mut cur = p;
        'again: for _ in 0..MAX_TERMS {
            for (atoms, c) in cur.terms.clone() {
                for (i, at) in atoms.iter().enumerate() {
                    let Atom::Mod(x, y) = at else { continue };
                    let mut rest = atoms.clone();
                    rest.remove(i);
                    let m = Poly::mono(rest, c);
                    let div = Poly::atom(Atom::Div(x.clone(), y.clone()));
                    let target_div = div.mul(y)?.mul(&m)?;
                    let present = target_div.terms.iter().all(|(k, v)| {
                        cur.terms
                            .get(k)
                            .is_some_and(|w| w.signum() == v.signum() && w.abs() >= v.abs())
                    });
                    if present && !target_div.terms.is_empty() {
                        let modt = Poly::atom(at.clone()).mul(&m)?;
                        let repl = x.mul(&m)?;
                        cur = cur.sub(&target_div)?.sub(&modt)?.add(&repl)?;
                        self.fire(Rule::FundamentalDivisionWithRemainderProperty);
                        continue 'again;
                    }
                }
            }
            break;
        }
        Ok(cur)
    }

    // -- predicates --------------------------------------------------------------------------

    fn decide(&mut self, a: &Poly, op: CmpOp, b: &Poly) -> Option<bool> {
        match op {
            CmpOp::Lt => {
                if self.lt(a, b) {
                    Some(true)
                } else if self.le(b, a) {
                    Some(false)
                } else {
                    None
                }
            }
            CmpOp::Le => {
                if self.le(a, b) {
                    Some(true)
                } else if self.lt(b, a) {
                    Some(false)
                } else {
                    None
                }
            }
            CmpOp::Gt => self.decide(b, CmpOp::Lt, a),
            CmpOp::Ge => self.decide(b, CmpOp::Le, a),
            CmpOp::Eq => {
                if a == b {
                    Some(true)
                } else if self.lt(a, b) || self.lt(b, a) {
                    Some(false)
                } else if self.le(a, b) && self.le(b, a) {
                    Some(true)
                } else {
                    None
                }
            }
            CmpOp::Ne => self.decide(a, CmpOp::Eq, b).map(|v| !v),
        }
    }

    /// Simplifies a comparison.
    ///
    /// Pre: none. Post: equivalent to `a op b` wherever both sides are defined under the
    /// assumptions. Example: `i1 / S < i2` under `S > 0` is `i1 < i2 * S`.
    pub fn simplify_cmp(&mut self, a: &Poly, op: CmpOp, b: &Poly) -> Result<CPred> {
        let (mut a, mut b) = (self.simplify(a)?, self.simplify(b)?);
        if let Some(v) = self.decide(&a, op, &b) {
            self.fire(Rule::EliminateTrivialPredicate);
            return Ok(CPred::Bool(v));
        }
        // Cancel common terms (same sign on both sides).
        let mut common = Poly::default();
        for (k, v) in &a.terms {
            if let Some(w) = b.terms.get(k) {
                if v.signum() == w.signum() {
                    let m = if v.abs() <= w.abs() { *v } else { *w };
                    common.add_term(k.clone(), m)?;
                }
            }
        }
        if !common.terms.is_empty() {
            self.fire(Rule::CancelTermsInPredicate);
            a = a.sub(&common)?;
            b = b.sub(&common)?;
        }
        // idiv_2_16: i / d < D ⇔ i < D * d (d > 0); its negation for >=; mirrored for > and <=.
        let (div_side_left, other) = match op {
            CmpOp::Lt | CmpOp::Ge => (true, &b),
            CmpOp::Gt | CmpOp::Le => (false, &a),
            _ => (true, &b),
        };
        let div_side = if div_side_left { &a } else { &b };
        if matches!(op, CmpOp::Lt | CmpOp::Ge | CmpOp::Gt | CmpOp::Le) {
            if let Some(Atom::Div(i, d)) = div_side.as_atom() {
                if self.positive(d) {
                    let (i, dd) = ((**i).clone(), other.mul(d)?);
                    self.fire(Rule::PredicateDivToMul);
                    let (a2, b2) = if div_side_left { (i, dd) } else { (dd, i) };
                    let a2 = self.simplify(&a2)?;
                    let b2 = self.simplify(&b2)?;
                    if let Some(v) = self.decide(&a2, op, &b2) {
                        self.fire(Rule::EliminateTrivialPredicate);
                        return Ok(CPred::Bool(v));
                    }
                    return Ok(CPred::Cmp(a2, op, b2));
                }
            }
        }
        if let Some(v) = self.decide(&a, op, &b) {
            self.fire(Rule::EliminateTrivialPredicate);
            return Ok(CPred::Bool(v));
        }
        Ok(CPred::Cmp(a, op, b))
    }
}

/// Splits `a` into the terms divisible by the monomial `b` and the rest, both nonempty.
fn split_divisible(a: &Poly, b: &Poly) -> Option<(Poly, Poly)> {
    b.as_monomial()?;
    let mut d = Poly::default();
    let mut r = Poly::default();
    for (k, v) in &a.terms {
        let t = Poly::mono(k.clone(), *v);
        if exact_div(&t, b).is_some() {
            d.add_term(k.clone(), *v).ok()?;
        } else {
            r.add_term(k.clone(), *v).ok()?;
        }
    }
    (!d.terms.is_empty() && !r.terms.is_empty()).then_some((d, r))
}

/// A simplified value and the rules that produced it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Simplified<T> {
    /// The result.
    pub value: T,
    /// Rules applied, in first-use order.
    pub rules: Vec<Rule>,
}

fn context_for(assumptions: &[Pred]) -> Result<Context> {
    let mut cs = Vec::new();
    for a in assumptions {
        cs.push(CPred::from_pred(a)?);
    }
    Context::new(&cs)
}

/// Simplifies an integer expression under assumptions.
///
/// Pre: none. Post: wherever `e` evaluates (no zero divisor, no overflow) at an assignment
/// satisfying the assumptions, the result evaluates to the same value. Example: `i0 / 2 / 3` is
/// `i0 / 6` (DoubleDiv).
pub fn simplify_expr(e: &Expr, assumptions: &[Pred]) -> Result<Simplified<Poly>> {
    let mut ctx = context_for(assumptions)?;
    let p = Poly::from_expr(e)?;
    let value = ctx.simplify(&p)?;
    Ok(Simplified {
        value,
        rules: ctx.log,
    })
}

/// Simplifies a predicate under assumptions; each conjunct is simplified assuming the others
/// (`doc/math/logic.md` Theorem 1: `p ⇒ (q ⇔ r)` gives `p ∧ q ⇔ p ∧ r`), repeated to a fixed
/// point; `true` conjuncts are dropped and a `false` one makes the whole predicate `false`.
///
/// Pre: none. Post: at every assignment satisfying the assumptions where `p` is defined, the
/// result has the same truth value. Example (reference Example 26): `i >= 0 && i < 6 && i % 6 <
/// 3` is `i >= 0 && i < 3`.
pub fn simplify_pred(p: &Pred, assumptions: &[Pred]) -> Result<Simplified<CPred>> {
    let mut global = Vec::new();
    for a in assumptions {
        global.push(CPred::from_pred(a)?);
    }
    // Contradictory global assumptions are reported once.
    let mut gctx = Context::new(&global)?;
    let mut rules: Vec<Rule> = Vec::new();
    let note = |rs: &[Rule], rules: &mut Vec<Rule>| {
        for r in rs {
            if !rules.contains(r) {
                rules.push(*r);
            }
        }
    };
    let mut conj = CPred::from_pred(p)?.conjuncts();
    if conj.len() > MAX_CONJUNCTS {
        return Err(SimplifyError::TooLarge {
            what: "conjuncts",
            limit: MAX_CONJUNCTS,
        });
    }
    let single = conj.len() <= 1;
    for _ in 0..MAX_ROUNDS {
        let before = conj.clone();
        let mut k = 0;
        while k < conj.len() {
            // Only conjuncts defined everywhere (under the assumptions) may be assumed: an
            // undefined one would make every claim vacuously provable.
            let mut asm = global.clone();
            for (j, c) in conj.iter().enumerate() {
                if j != k && gctx.is_total_pred(c) {
                    asm.push(c.clone());
                }
            }
            let mut ctx = match Context::new(&asm) {
                Ok(c) => c,
                // The other conjuncts contradict the assumptions: the conjunction is false.
                Err(SimplifyError::Contradiction(_)) => {
                    note(&[Rule::SimplifyConjunct], &mut rules);
                    return Ok(Simplified {
                        value: CPred::Bool(false),
                        rules,
                    });
                }
                Err(e) => return Err(e),
            };
            let s = match &conj[k] {
                CPred::Cmp(a, op, b) => ctx.simplify_cmp(a, *op, b)?,
                other => other.clone(),
            };
            note(ctx.rules(), &mut rules);
            match s {
                CPred::Bool(true) => {
                    conj.remove(k);
                }
                CPred::Bool(false) => {
                    return Ok(Simplified {
                        value: CPred::Bool(false),
                        rules,
                    })
                }
                s => {
                    conj[k] = s;
                    k += 1;
                }
            }
        }
        if conj == before {
            break;
        }
        if !single {
            note(&[Rule::SimplifyConjunct], &mut rules);
        }
    }
    let value = match conj.len() {
        0 => CPred::Bool(true),
        1 => conj.remove(0),
        _ => CPred::And(conj),
    };
    Ok(Simplified { value, rules })
}

/// Parses and simplifies `text` (an expression or a predicate) under assumption texts; returns
/// the canonical printing and the rules applied.
///
/// Pre: every text parses; assumptions are predicates. Post: as [`simplify_expr`] /
/// [`simplify_pred`]. Example: `simplify_text("i0 / 2 / 3", &[])` is `"i0 / 6"`.
pub fn simplify_text(text: &str, assumptions: &[&str]) -> Result<(String, Vec<Rule>)> {
    let mut asm = Vec::new();
    for a in assumptions {
        asm.push(parse_pred(a)?);
    }
    match parse(text)? {
        Term::Expr(e) => {
            let s = simplify_expr(&e, &asm)?;
            Ok((s.value.to_string(), s.rules))
        }
        Term::Pred(p) => {
            let s = simplify_pred(&p, &asm)?;
            Ok((s.value.to_string(), s.rules))
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Printing
// ---------------------------------------------------------------------------------------------

fn var_key(v: &str) -> (String, String) {
    (v.to_lowercase(), v.to_string())
}

/// Variables in printing order, lowercased (the ordering key of terms and factors).
fn atom_vars(a: &Atom, out: &mut Vec<String>) {
    match a {
        Atom::Var(v) => out.push(v.to_lowercase()),
        Atom::Div(x, y) | Atom::Mod(x, y) | Atom::CeilDiv(x, y) | Atom::Gcd(x, y) => {
            poly_vars(x, out);
            poly_vars(y, out);
        }
        Atom::Max(xs) | Atom::Min(xs) => xs.iter().for_each(|x| poly_vars(x, out)),
        Atom::Abs(x) => poly_vars(x, out),
    }
}

fn poly_vars(p: &Poly, out: &mut Vec<String>) {
    for (atoms, _) in sorted_terms(p) {
        for a in ordered_factors(&atoms) {
            atom_vars(&a, out);
        }
    }
}

fn ordered_factors(atoms: &[Atom]) -> Vec<Atom> {
    let mut compound: Vec<Atom> = atoms
        .iter()
        .filter(|a| !matches!(a, Atom::Var(_)))
        .cloned()
        .collect();
    compound.sort_by_key(|a| {
        let mut v = Vec::new();
        atom_vars(a, &mut v);
        (v, a.clone())
    });
    let mut vars: Vec<Atom> = atoms
        .iter()
        .filter(|a| matches!(a, Atom::Var(_)))
        .cloned()
        .collect();
    vars.sort_by_key(|a| match a {
        Atom::Var(v) => var_key(v),
        _ => (String::new(), String::new()),
    });
    compound.extend(vars);
    compound
}

fn sorted_terms(p: &Poly) -> Vec<Mono> {
    let mut ts: Vec<Mono> = p.terms.iter().map(|(a, c)| (a.clone(), *c)).collect();
    ts.sort_by_key(|(atoms, _)| {
        let mut v = Vec::new();
        for a in ordered_factors(atoms) {
            atom_vars(&a, &mut v);
        }
        (atoms.is_empty(), v, atoms.clone())
    });
    ts
}

fn is_function(a: &Atom) -> bool {
    matches!(
        a,
        Atom::CeilDiv(..) | Atom::Gcd(..) | Atom::Max(_) | Atom::Min(_) | Atom::Abs(_)
    )
}

/// An operand of `/` or `%`: bare if a variable, a non-negative constant or a function call.
fn operand(p: &Poly) -> String {
    let bare = match (p.as_const(), p.as_atom()) {
        (Some(c), _) => c >= 0,
        (_, Some(a)) => matches!(a, Atom::Var(_)) || is_function(a),
        _ => false,
    };
    if bare {
        p.to_string()
    } else {
        format!("({p})")
    }
}

fn atom_str(a: &Atom, in_product: bool) -> String {
    let list = |xs: &[Poly]| {
        xs.iter()
            .map(|x| x.to_string())
            .collect::<Vec<_>>()
            .join(", ")
    };
    match a {
        Atom::Var(v) => v.clone(),
        Atom::Div(x, y) | Atom::Mod(x, y) => {
            let op = if matches!(a, Atom::Div(..)) { "/" } else { "%" };
            let s = format!("{} {op} {}", operand(x), operand(y));
            if in_product {
                format!("({s})")
            } else {
                s
            }
        }
        Atom::CeilDiv(x, y) => format!("cdiv({x}, {y})"),
        Atom::Gcd(x, y) => format!("gcd({x}, {y})"),
        Atom::Max(xs) => format!("max({})", list(xs)),
        Atom::Min(xs) => format!("min({})", list(xs)),
        Atom::Abs(x) => format!("abs({x})"),
    }
}

/// A monomial with a positive coefficient `c`.
fn mono_str(atoms: &[Atom], c: u64) -> String {
    let factors = ordered_factors(atoms);
    let compound: Vec<&Atom> = factors
        .iter()
        .filter(|a| !matches!(a, Atom::Var(_)))
        .collect();
    let mut plain: Vec<String> = Vec::new();
    if c != 1 || factors.is_empty() {
        plain.push(c.to_string());
    }
    plain.extend(
        factors
            .iter()
            .filter(|a| matches!(a, Atom::Var(_)))
            .map(|a| atom_str(a, false)),
    );
    if compound.is_empty() {
        return plain.join(" * ");
    }
    let many = compound.len() + usize::from(!plain.is_empty()) > 1;
    let mut parts: Vec<String> = compound.iter().map(|a| atom_str(a, many)).collect();
    match plain.len() {
        0 => {}
        1 => parts.push(plain.remove(0)),
        _ => parts.push(format!("({})", plain.join(" * "))),
    }
    parts.join(" * ")
}

impl fmt::Display for Poly {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let ts = sorted_terms(self);
        if ts.is_empty() {
            return f.write_str("0");
        }
        for (i, (atoms, c)) in ts.iter().enumerate() {
            let body = mono_str(atoms, c.unsigned_abs());
            match (i, *c < 0) {
                (0, true) => write!(f, "-{body}")?,
                (0, false) => f.write_str(&body)?,
                (_, true) => write!(f, " - {body}")?,
                (_, false) => write!(f, " + {body}")?,
            }
        }
        Ok(())
    }
}

impl fmt::Display for CPred {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CPred::Bool(b) => write!(f, "{b}"),
            CPred::Cmp(a, op, b) => write!(f, "{a} {} {b}", op.symbol()),
            CPred::And(ps) => {
                let parts: Vec<String> = ps.iter().map(|p| p.to_string()).collect();
                f.write_str(&parts.join(" && "))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prints_and_parses() {
        let (s, _) = simplify_text("i0 / 2 / 3", &[]).unwrap();
        assert_eq!(s, "i0 / 6");
        assert!(parse("(1 +").is_err());
        assert!(parse("i0 # 2").is_err());
        assert_eq!(parse_expr("x < 1").unwrap_err().code(), "kind");
    }
}
