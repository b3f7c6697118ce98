//! A one-pass reader-evaluator for the common shapes of expressions: function calls, integers,
//! tuples and `shape:stride` literals, written in ASCII. It builds integer tuples straight into
//! their tree (no syntax tree, no string per token) and evaluates each call as soon as its `)` is
//! read.
//!
//! It answers only when its answer is the general path's, `eval_expr(&parse(text)?)`, and gives
//! up (`None`) otherwise: on anything outside its subset (`o` chains, `Sw<…>` and other named
//! values, non-ASCII text, nesting deeper than [`MAX_NEST`], integers that do not fit) and on every
//! syntax error, whose message and column the general parser owns. An evaluation error is returned
//! only once the whole text has been read without a syntax error: calls are evaluated in the
//! general evaluator's order (arguments left to right, depth first), so the first error found is
//! the general path's error.

use super::ops::apply;
use super::value::{int_tuple_value, Value};
use crate::error::{Error, Result};
use crate::layout::{Builder, IntTuple, Layout, Mode};

/// Nesting (of calls and tuples together) beyond which the reader gives up; below the general
/// parser's `MAX_DEPTH`, so the general path reports deep nesting.
pub const MAX_NEST: usize = 64;

/// `Some(eval_expr(&parse(text)?))` when the text is in the reader's subset, else `None`.
///
/// Pre: none. Post: `Some(r)` implies `r == eval_expr(&parse(text)?)` (values and errors alike).
/// Example: `eval("size((2,3):(1,2))")` is `Some(Ok(Value::Int(6)))`; `eval("Sw<1,2,3>")` is
/// `None`.
pub fn eval(text: &str) -> Option<Result<Value>> {
    if !text.is_ascii() {
        return None;
    }
    let mut r = Reader {
        s: text.as_bytes(),
        text,
        pos: 0,
        depth: 0,
        err: None,
        stack: STACK.take(),
    };
    let read = r.expr().is_some() && {
        r.skip_ws();
        r.pos == r.s.len()
    };
    let value = r.stack.pop();
    // The stack's storage serves the next expression of this thread (unless it grew large).
    let mut stack = std::mem::take(&mut r.stack);
    if stack.capacity() <= 64 {
        stack.clear();
        STACK.set(stack);
    }
    if !read {
        return None;
    }
    Some(match r.err {
        Some(e) => Err(e),
        None => value.ok_or_else(|| Error::overflow("expression")),
    })
}

thread_local! {
    /// The value stack of [`Reader`], kept between expressions (no allocation per expression).
    static STACK: std::cell::Cell<Vec<Value>> = const { std::cell::Cell::new(Vec::new()) };
}

/// The most parentheses and integers one side of a [`Reader::layout_literal`] may have.
const EVENTS: usize = 48;

/// One step of an integer tuple in pre-order.
#[derive(Clone, Copy)]
enum Ev {
    Open,
    Close,
    Leaf(i64),
}

struct Reader<'a> {
    s: &'a [u8],
    text: &'a str,
    pos: usize,
    depth: usize,
    /// The first evaluation error; once set, the rest is only read (for syntax), not evaluated,
    /// and `_` stands in for the values not computed.
    err: Option<Error>,
    /// Values read and not yet consumed: the arguments of the calls and the items of the tuples
    /// being read, innermost last.
    stack: Vec<Value>,
}

impl Reader<'_> {
    #[inline]
    fn skip_ws(&mut self) {
        while self.pos < self.s.len() && self.s[self.pos].is_ascii_whitespace() {
            self.pos += 1;
        }
    }

    #[inline]
    fn peek(&mut self) -> Option<u8> {
        self.skip_ws();
        self.s.get(self.pos).copied()
    }

    /// Records the first evaluation error.
    fn fail(&mut self, e: Error) {
        if self.err.is_none() {
            self.err = Some(e);
        }
    }

    /// `expr := term (':' term)?` (chains with `o` are left to the general path), at one more
    /// level of nesting; pushes its value onto the stack.
    fn expr(&mut self) -> Option<()> {
        self.depth += 1;
        if self.depth > MAX_NEST {
            return None;
        }
        // The common case first: a `shape:stride` literal of integer tuples, built as one tree.
        if let Some(l) = self.layout_literal() {
            self.stack.push(Value::Layout(l));
            self.depth -= 1;
            return Some(());
        }
        // An integer or a tuple of integers is kept as a tree until it is known whether it is
        // the shape of a layout.
        let shape = match self.peek()? {
            _ if self.at_int() => {
                let v = self.int()?;
                if self.peek() != Some(b':') {
                    self.stack.push(Value::Int(v));
                    self.depth -= 1;
                    return Some(());
                }
                Some(IntTuple::leaf(v))
            }
            b'(' => self.int_tuple(),
            _ => None,
        };
        let shape = match shape {
            Some(t) => {
                if self.peek() != Some(b':') {
                    self.stack.push(int_tuple_value(&t));
                    self.depth -= 1;
                    return Some(());
                }
                Some(t)
            }
            None => {
                self.term()?;
                if self.peek() != Some(b':') {
                    self.depth -= 1;
                    return Some(());
                }
                self.stack.pop()?.to_int_tuple()
            }
        };
        self.pos += 1;
        let stride = match self.peek()? {
            _ if self.at_int() => Some(IntTuple::leaf(self.int()?)),
            b'(' => match self.int_tuple() {
                Some(t) => Some(t),
                None => self.term_ints()?,
            },
            _ => self.term_ints()?,
        };
        self.depth -= 1;
        if self.err.is_some() {
            self.stack.push(Value::Under);
            return Some(());
        }
        let (s, d) = (shape?, stride?);
        match Layout::new(&s, &d) {
            Ok(l) => self.stack.push(Value::Layout(l)),
            Err(e) => {
                self.fail(e);
                self.stack.push(Value::Under);
            }
        }
        Some(())
    }

    /// A `shape:stride` literal at `pos` whose sides are congruent integer tuples (at most
    /// [`EVENTS`] parentheses and integers each) with every shape ≥ 1: the layout, built in one
    /// pass, as `Layout::new` builds it. `None`, with the position restored, for anything else
    /// (the general steps read it then, and give its error if it has one).
    fn layout_literal(&mut self) -> Option<Layout> {
        let start = self.pos;
        let r = self.layout_literal_at();
        if r.is_none() {
            self.pos = start;
        }
        r
    }

    fn layout_literal_at(&mut self) -> Option<Layout> {
        let mut shape = [Ev::Open; EVENTS];
        let ns = self.events(&mut shape)?;
        if self.peek() != Some(b':') {
            return None;
        }
        self.pos += 1;
        let mut stride = [Ev::Open; EVENTS];
        let nd = self.events(&mut stride)?;
        if ns != nd {
            return None;
        }
        let mut b = Builder::new();
        for (s, d) in shape[..ns].iter().zip(&stride[..nd]) {
            match (*s, *d) {
                (Ev::Open, Ev::Open) => b.open(),
                (Ev::Close, Ev::Close) => b.close(),
                (Ev::Leaf(s), Ev::Leaf(d)) if s >= 1 => b.leaf(Mode::new(s, d)),
                _ => return None,
            }
        }
        Some(Layout::from_tree(b.finish()))
    }

    /// An integer, or a parenthesised tuple of integers, at `pos`, as its pre-order events; the
    /// number of events, or `None` (position not restored) if it is anything else or too long.
    fn events(&mut self, ev: &mut [Ev; EVENTS]) -> Option<usize> {
        let mut n = 0usize;
        let mut push = |e: Ev| -> Option<()> {
            *ev.get_mut(n)? = e;
            n += 1;
            Some(())
        };
        self.skip_ws();
        if self.at_int() {
            push(Ev::Leaf(self.int()?))?;
            return Some(n);
        }
        if self.s.get(self.pos) != Some(&b'(') {
            return None;
        }
        let mut open = 0usize;
        loop {
            match self.peek()? {
                b'(' => {
                    open += 1;
                    if self.depth + open > MAX_NEST {
                        return None;
                    }
                    self.pos += 1;
                    push(Ev::Open)?;
                    continue;
                }
                _ if self.at_int() => push(Ev::Leaf(self.int()?))?,
                _ => return None,
            }
            loop {
                match self.peek()? {
                    b',' => {
                        self.pos += 1;
                        if self.peek() != Some(b')') {
                            break;
                        }
                        self.pos += 1;
                    }
                    b')' => self.pos += 1,
                    _ => return None,
                }
                push(Ev::Close)?;
                open -= 1;
                if open == 0 {
                    return Some(n);
                }
            }
        }
    }

    /// A term read in full, as an integer tuple if it is one (`Some(None)` if not).
    fn term_ints(&mut self) -> Option<Option<IntTuple>> {
        self.term()?;
        Some(self.stack.pop()?.to_int_tuple())
    }

    /// An integer at `pos` (digits, `-digits`, `_digits`, `_-digits`); `None` if it does not fit.
    #[inline]
    fn int(&mut self) -> Option<i64> {
        if self.s.get(self.pos) == Some(&b'_') {
            self.pos += 1;
        }
        let negative = self.s.get(self.pos) == Some(&b'-');
        if negative {
            self.pos += 1;
        }
        let start = self.pos;
        let mut v: i64 = 0;
        while let Some(&c) = self.s.get(self.pos) {
            if !c.is_ascii_digit() {
                break;
            }
            let d = i64::from(c - b'0');
            // Accumulated with the sign so that i64::MIN reads.
            v = v.checked_mul(10)?;
            v = if negative {
                v.checked_sub(d)?
            } else {
                v.checked_add(d)?
            };
            self.pos += 1;
        }
        (self.pos > start).then_some(v)
    }

    /// `true` when an integer starts at `pos` (as the general parser decides).
    #[inline]
    fn at_int(&self) -> bool {
        let at = |k: usize| self.s.get(self.pos + k).copied();
        match at(0) {
            Some(b'0'..=b'9') => true,
            Some(b'-') => matches!(at(1), Some(b'0'..=b'9')),
            Some(b'_') => match at(1) {
                Some(b'0'..=b'9') => true,
                Some(b'-') => matches!(at(2), Some(b'0'..=b'9')),
                _ => false,
            },
            _ => false,
        }
    }

    /// A parenthesised tuple of integers at `pos` (`(` there), read straight into its tree; on
    /// anything else the position is restored and `None` returned (the caller reads it in full).
    fn int_tuple(&mut self) -> Option<IntTuple> {
        let start = self.pos;
        let r = self.int_tuple_at();
        if r.is_none() {
            self.pos = start;
        }
        r
    }

    fn int_tuple_at(&mut self) -> Option<IntTuple> {
        let mut b = Builder::new();
        let mut open = 0usize;
        loop {
            // An element: `(` or an integer.
            match self.peek()? {
                b'(' => {
                    open += 1;
                    if self.depth + open > MAX_NEST {
                        return None;
                    }
                    self.pos += 1;
                    b.open();
                    continue;
                }
                _ if self.at_int() => b.leaf(self.int()?),
                _ => return None,
            }
            // After an element: `,` (then another element, or `)` for pycute's `(4,)`) or `)`.
            loop {
                match self.peek()? {
                    b',' => {
                        self.pos += 1;
                        if self.peek() != Some(b')') {
                            break;
                        }
                        self.pos += 1;
                    }
                    b')' => self.pos += 1,
                    _ => return None,
                }
                b.close();
                open -= 1;
                if open == 0 {
                    return Some(b.finish());
                }
            }
        }
    }

    /// `term := INT | '_' | '(' expr (',' expr)* ')' | NAME '(' …`; pushes its value.
    fn term(&mut self) -> Option<()> {
        match self.peek()? {
            _ if self.at_int() => {
                let v = self.int()?;
                self.stack.push(Value::Int(v));
            }
            b'_' => {
                self.pos += 1;
                self.stack.push(Value::Under);
            }
            b'(' => {
                self.pos += 1;
                let base = self.stack.len();
                loop {
                    self.expr()?;
                    match self.peek()? {
                        b',' => {
                            self.pos += 1;
                            if self.peek() == Some(b')') {
                                self.pos += 1;
                                break;
                            }
                        }
                        b')' => {
                            self.pos += 1;
                            break;
                        }
                        _ => return None,
                    }
                }
                let items = self.stack.split_off(base);
                self.stack.push(Value::Tuple(items));
            }
            c if c.is_ascii_alphabetic() => self.call()?,
            _ => return None,
        }
        Some(())
    }

    /// `NAME '(' [expr (',' expr)*] ')'`, evaluated when read; pushes its value.
    fn call(&mut self) -> Option<()> {
        let start = self.pos;
        while self.pos < self.s.len()
            && (self.s[self.pos].is_ascii_alphanumeric() || self.s[self.pos] == b'_')
        {
            self.pos += 1;
        }
        let name = &self.text[start..self.pos];
        // pycute swizzles (`SW_2_0_-2`) and qualified names (`GMMA::…`) are the general path's.
        if name.starts_with("SW_") || self.s.get(self.pos) == Some(&b':') {
            return None;
        }
        if self.peek()? != b'(' {
            return None;
        }
        self.pos += 1;
        self.depth += 1;
        if self.depth > MAX_NEST {
            return None;
        }
        let base = self.stack.len();
        if self.peek()? == b')' {
            self.pos += 1;
        } else {
            loop {
                self.expr()?;
                match self.peek()? {
                    b',' => self.pos += 1,
                    b')' => {
                        self.pos += 1;
                        break;
                    }
                    _ => return None,
                }
            }
        }
        self.depth -= 1;
        let v = if self.err.is_some() {
            Value::Under
        } else {
            // ASCII text: the column is the byte offset plus one.
            match apply(name, &self.stack[base..], start + 1) {
                Ok(v) => v,
                Err(e) => {
                    self.fail(e);
                    Value::Under
                }
            }
        };
        self.stack.truncate(base);
        self.stack.push(v);
        Some(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::{eval_expr, parse};

    fn general(text: &str) -> Result<Value> {
        eval_expr(&parse(text)?)
    }

    /// The reader answers `text`, and answers as the general path does.
    fn same(text: &str) {
        let fast = eval(text).unwrap_or_else(|| panic!("the reader gave up on {text:?}"));
        assert_eq!(fast, general(text), "{text}");
    }

    #[test]
    fn answers_the_common_shapes_as_the_general_path() {
        for t in [
            "4",
            "-4",
            "_8",
            "_-3",
            "(4,)",
            "((4))",
            " ( 2 , ( 3 , 4 ) ) ",
            "(2,(3,4)):(1,(2,6))",
            "_",
            "(_,1)",
            "(4:1,2:3)",
            "composition(20:2,(5,4):(4,1))",
            "composition( (4,8):(1,4) , ( 2:1 , 4:2 ) )",
            "complement(4:2,24)",
            "complement((2,2):(1,1))",
            "logical_divide((8,6):(1,8),(4,3))",
            "size(-9223372036854775808:1)",
            "shape((2,3):(1,2)):stride((2,3):(1,2))",
            "no_such_function(4:1)",
            "size()",
            "size(4:1,5)",
            "(2,3):(1)",
            "0:1",
            "make_swizzle(7,56)",
            "coalesce_trace((2,(1,6)):(1,(6,2)))",
            "size(complement((2,2):(1,1)), no_such(1))",
            "((4)):((1))",
            " ( 2 , ( 3 , 4 ) ) : ( 1 , ( 2 , 6 ) ) ",
            "(2,3):(1,(2,3))",
            "(0,1):(1,1)",
            "4:(1,2)",
            "(4,):(-1,)",
            "_4:_-1",
            "size((1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1):(0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0))",
            "coalesce((2,(3,(4,(5,(6,(7,(8,9))))))):(1,(2,(6,(24,(120,(720,(5040,40320))))))))",
        ] {
            same(t);
        }
    }

    #[test]
    fn leaves_the_rest_to_the_general_path() {
        for t in [
            "",
            "(",
            "size(4:1",
            "size(4:1))",
            "(4,,)",
            "99999999999999999999",
            "Sw<3,4,3>",
            "SW_3_4_3",
            "GMMA::Layout_K_SW128_Atom<half_t>",
            "Sw<1,2,3> o 0 o 4:1",
            "size(4:1) o 2",
            "size(é)",
            "(_,1):(1,1)",
            "size(complement((2,2):(1,1)), (4:1)",
            "size (4:1) x",
        ] {
            assert!(eval(t).is_none(), "{t}");
        }
        let deep = format!("{}1{}", "(".repeat(300), ")".repeat(300));
        assert!(eval(&deep).is_none());
        assert!(general(&deep).is_err());
    }

    /// Every expression of the benchmark corpus is in the reader's subset.
    #[test]
    fn reads_the_whole_benchmark_corpus() {
        let corpus = include_str!("../../../../benches/corpus/cases.txt");
        let mut n = 0;
        for line in corpus
            .lines()
            .filter(|l| !l.starts_with('#') && !l.is_empty())
        {
            let f: Vec<&str> = line.split('\t').collect();
            let text = format!("{}({})", f[0], f[2..].join(","));
            same(&text);
            n += 1;
        }
        assert!(n > 600, "{n} cases");
    }
}
