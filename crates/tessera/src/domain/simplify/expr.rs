//! The surface syntax: integer expressions and predicates over named variables, and their
//! evaluation (Euclidean `/` and `%`, checked arithmetic).

use std::collections::BTreeMap;

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

    pub(super) fn symbol(self) -> &'static str {
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

pub(super) fn gcd_i64(a: i64, b: i64) -> Option<i64> {
    let (mut x, mut y) = (a.checked_abs()?, b.checked_abs()?);
    while y != 0 {
        let t = x % y;
        x = y;
        y = t;
    }
    Some(x)
}

pub(super) fn cdiv_i64(a: i64, b: i64) -> Option<i64> {
    if b <= 0 {
        return None;
    }
    a.checked_neg()?.checked_div_euclid(b)?.checked_neg()
}

pub(super) fn apply_bin(op: BinOp, a: i64, b: i64) -> Option<i64> {
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
pub(super) fn and_eval(vals: impl Iterator<Item = Option<bool>>) -> Option<bool> {
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
