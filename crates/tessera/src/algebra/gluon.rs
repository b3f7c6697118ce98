//! Triton's Gluon layouts (Triton 3.9, `triton.experimental.gluon.language`) as linear layouts.
//!
//! A Gluon layout is a Python dataclass; here it is read from its constructor text, the same text
//! `repr()` prints: `BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[4, 8],
//! warps_per_cta=[4, 1], order=[1, 0])` (keywords, or positional arguments in field order; nested
//! layouts for `parent`). [`Gluon::to_linear`] gives, for a tensor shape, the linear layout Triton's
//! `to_linear_layout` gives: register layouts map `register, lane, warp, block` to `dim0, dim1, …`;
//! shared layouts map `offset, block` to the dimensions. The definitions follow Triton's
//! documentation and the paper "Linear Layouts" (arXiv 2505.23819); agreement with Triton 3.9.0
//! itself is checked on the oracle `tests/data/triton_layouts.jsonl` (`tools/oracle/triton_layouts.py`).
//!
//! `PaddedSharedLayout` is not F2-linear: after every `interval` elements `padding` elements are
//! skipped, an addition that carries (Triton itself refuses `to_linear_layout` for it). Its linear
//! component (`offset_bases`: offset → dims) is returned by [`Gluon::to_linear`]; the padded
//! address of an offset is [`padded_offset`].

use crate::algebra::linear::{LinearError, LinearLayout};
use crate::layout::{Layout, Mode, Tree};

/// A failed obligation while reading or converting a Gluon layout.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GluonError {
    /// The text is not a Gluon constructor call.
    #[error("cannot read the Gluon layout at column {column}: {detail}")]
    Parse {
        /// 1-based column.
        column: usize,
        /// What was expected.
        detail: String,
    },
    /// A field is missing, unknown or of the wrong kind, or a value breaks the class's rule.
    #[error("{class}: {detail}")]
    Field {
        /// The Gluon class.
        class: String,
        /// What is wrong.
        detail: String,
    },
    /// The layout and the shape do not fit (rank, power of two, tile too large).
    #[error("{class} over shape {shape:?}: {detail}")]
    Shape {
        /// The Gluon class.
        class: String,
        /// The shape.
        shape: Vec<u64>,
        /// What is wrong.
        detail: String,
    },
    /// A linear-layout operation failed.
    #[error(transparent)]
    Linear(#[from] LinearError),
}

impl GluonError {
    /// A stable snake_case code (`gluon_parse`, `gluon_field`, `gluon_shape`, or the linear
    /// layout's `linear_*`).
    ///
    /// Pre: none. Post: non-empty.
    pub fn code(&self) -> &'static str {
        match self {
            GluonError::Parse { .. } => "gluon_parse",
            GluonError::Field { .. } => "gluon_field",
            GluonError::Shape { .. } => "gluon_shape",
            GluonError::Linear(e) => e.code(),
        }
    }
}

/// Result of a Gluon operation.
pub type GResult<T> = std::result::Result<T, GluonError>;

/// A Python literal of the constructor text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Value {
    /// An integer.
    Int(i64),
    /// `True` / `False`.
    Bool(bool),
    /// `None`.
    None,
    /// A list or tuple.
    List(Vec<Value>),
    /// A constructor call: name, positional arguments, keyword arguments.
    Call(String, Vec<Value>, Vec<(String, Value)>),
}

struct Parser<'a> {
    s: &'a [u8],
    i: usize,
}

impl Parser<'_> {
    fn ws(&mut self) {
        while self.i < self.s.len() && (self.s[self.i] as char).is_whitespace() {
            self.i += 1;
        }
    }
    fn err<T>(&self, detail: impl Into<String>) -> GResult<T> {
        Err(GluonError::Parse {
            column: self.i + 1,
            detail: detail.into(),
        })
    }
    fn peek(&mut self) -> Option<u8> {
        self.ws();
        self.s.get(self.i).copied()
    }
    fn eat(&mut self, c: u8) -> bool {
        if self.peek() == Some(c) {
            self.i += 1;
            true
        } else {
            false
        }
    }
    fn ident(&mut self) -> Option<String> {
        self.ws();
        let start = self.i;
        while self.i < self.s.len()
            && (self.s[self.i].is_ascii_alphanumeric()
                || self.s[self.i] == b'_'
                || self.s[self.i] == b'.')
        {
            self.i += 1;
        }
        (self.i > start).then(|| String::from_utf8_lossy(&self.s[start..self.i]).into_owned())
    }
    fn value(&mut self, depth: usize) -> GResult<Value> {
        if depth > 16 {
            return self.err("nesting deeper than 16");
        }
        match self.peek() {
            Some(b'[') | Some(b'(') => {
                let close = if self.s[self.i] == b'[' { b']' } else { b')' };
                self.i += 1;
                let mut items = Vec::new();
                if self.eat(close) {
                    return Ok(Value::List(items));
                }
                loop {
                    items.push(self.value(depth + 1)?);
                    if self.eat(close) {
                        return Ok(Value::List(items));
                    }
                    if !self.eat(b',') {
                        return self.err(format!("expected `,` or `{}`", close as char));
                    }
                    if self.eat(close) {
                        return Ok(Value::List(items));
                    }
                }
            }
            Some(c) if c == b'-' || c.is_ascii_digit() => {
                let start = self.i;
                self.i += 1;
                while self.i < self.s.len() && self.s[self.i].is_ascii_digit() {
                    self.i += 1;
                }
                let t = String::from_utf8_lossy(&self.s[start..self.i]).into_owned();
                match t.parse() {
                    Ok(v) => Ok(Value::Int(v)),
                    Err(_) => {
                        self.i = start;
                        self.err(format!("`{t}` is not an integer"))
                    }
                }
            }
            Some(_) => {
                let start = self.i;
                let Some(name) = self.ident() else {
                    return self.err("expected a number, a list, True/False or a layout");
                };
                match name.as_str() {
                    "True" => return Ok(Value::Bool(true)),
                    "False" => return Ok(Value::Bool(false)),
                    "None" => return Ok(Value::None),
                    _ => {}
                }
                // `ttgl.BlockedLayout` and `gl.BlockedLayout` name the class too.
                let short = name.rsplit('.').next().unwrap_or(&name).to_string();
                if !self.eat(b'(') {
                    self.i = start;
                    return self.err(format!("expected `(` after `{name}`"));
                }
                let mut pos = Vec::new();
                let mut kw: Vec<(String, Value)> = Vec::new();
                if self.eat(b')') {
                    return Ok(Value::Call(short, pos, kw));
                }
                loop {
                    let save = self.i;
                    let key = self.ident();
                    let is_kw = key.is_some() && self.eat(b'=');
                    if is_kw {
                        let key = key.unwrap_or_default();
                        let v = self.value(depth + 1)?;
                        kw.push((key, v));
                    } else {
                        self.i = save;
                        if !kw.is_empty() {
                            return self.err("a positional argument after a keyword argument");
                        }
                        pos.push(self.value(depth + 1)?);
                    }
                    if self.eat(b')') {
                        return Ok(Value::Call(short, pos, kw));
                    }
                    if !self.eat(b',') {
                        return self.err("expected `,` or `)`");
                    }
                    if self.eat(b')') {
                        return Ok(Value::Call(short, pos, kw));
                    }
                }
            }
            None => self.err("unexpected end of text"),
        }
    }
}

/// Parses a Python literal (integers, `True`/`False`/`None`, lists, constructor calls).
///
/// Pre: none. Post: `Err` points at the column. Example: `"[1, 2]"` is a list of two integers.
pub fn parse_value(text: &str) -> GResult<Value> {
    let mut p = Parser {
        s: text.as_bytes(),
        i: 0,
    };
    let v = p.value(0)?;
    if p.peek().is_some() {
        return p.err("unexpected text after the value");
    }
    Ok(v)
}

/// A linear layout from its text form (`register = [[0, 1]] -> dim0 = 2`) or from the JSON of
/// [`LinearLayout::to_json`] (`{"in_dims": [{"name": …, "bases": […]}], "out_dims": [{"name": …,
/// "size": …}]}`), told apart by the leading `{`.
///
/// Pre: well-formed text. Post: `linear_from_text(&l.to_json()) == Ok(l)`.
pub fn linear_from_text(text: &str) -> Result<LinearLayout, LinearError> {
    let t = text.trim();
    if t.starts_with('{') {
        return linear_from_json(t);
    }
    LinearLayout::parse(t)
}

fn linear_from_json(t: &str) -> Result<LinearLayout, LinearError> {
    let bad = |d: &str| LinearError::Parse {
        column: 1,
        message: format!("JSON linear layout: {d}"),
    };
    // `{"k": v, …}` becomes the call `O(k=v, …)` and a string value `"s"` the call `S_s()`, so
    // the literal reader takes it (JSON's lists and numbers are Python literals).
    let mut s = String::with_capacity(t.len() + 16);
    let mut chars = t.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '{' => s.push_str("O("),
            '}' => s.push(')'),
            ':' => return Err(bad("a `:` outside a key")),
            '"' => {
                let mut name = String::new();
                for d in chars.by_ref() {
                    if d == '"' {
                        break;
                    }
                    if !(d.is_ascii_alphanumeric() || d == '_') {
                        return Err(bad("names are letters, digits and `_`"));
                    }
                    name.push(d);
                }
                while chars.peek().is_some_and(|c| c.is_whitespace()) {
                    chars.next();
                }
                if chars.peek() == Some(&':') {
                    chars.next();
                    s.push_str(&name);
                    s.push('=');
                } else {
                    s.push_str("S_");
                    s.push_str(&name);
                    s.push_str("()");
                }
            }
            other => s.push(other),
        }
    }
    let v = parse_value(&s).map_err(|e| bad(&e.to_string()))?;
    let Value::Call(_, _, kw) = v else {
        return Err(bad("expected an object"));
    };
    let field =
        |kw: &[(String, Value)], k: &str| kw.iter().find(|(n, _)| n == k).map(|(_, v)| v.clone());
    let list = |v: Option<Value>| -> Vec<Value> {
        match v {
            Some(Value::List(xs)) => xs,
            _ => Vec::new(),
        }
    };
    let name_of = |kw: &[(String, Value)]| -> Option<String> {
        match field(kw, "name") {
            Some(Value::Call(n, _, _)) => n.strip_prefix("S_").map(str::to_string),
            _ => None,
        }
    };
    let int = |v: &Value| match v {
        Value::Int(i) if *i >= 0 => Some(*i as u64),
        _ => None,
    };
    let mut ins: Vec<(String, Vec<Vec<u64>>)> = Vec::new();
    for d in list(field(&kw, "in_dims")) {
        let Value::Call(_, _, kw) = d else {
            return Err(bad("in_dims entries are objects"));
        };
        let name = name_of(&kw).ok_or_else(|| bad("an in_dim without a name"))?;
        let bases = list(field(&kw, "bases"))
            .iter()
            .map(|b| match b {
                Value::List(xs) => xs.iter().map(int).collect::<Option<Vec<u64>>>(),
                _ => None,
            })
            .collect::<Option<Vec<_>>>()
            .ok_or_else(|| bad("bases are lists of non-negative integers"))?;
        ins.push((name, bases));
    }
    let mut outs: Vec<(String, u64)> = Vec::new();
    for d in list(field(&kw, "out_dims")) {
        let Value::Call(_, _, kw) = d else {
            return Err(bad("out_dims entries are objects"));
        };
        let name = name_of(&kw).ok_or_else(|| bad("an out_dim without a name"))?;
        let size = field(&kw, "size")
            .as_ref()
            .and_then(int)
            .ok_or_else(|| bad("an out_dim without a size"))?;
        outs.push((name, size));
    }
    let ins: Vec<(&str, Vec<Vec<u64>>)> =
        ins.iter().map(|(n, b)| (n.as_str(), b.clone())).collect();
    let outs: Vec<(&str, u64)> = outs.iter().map(|(n, s)| (n.as_str(), *s)).collect();
    LinearLayout::new(&ins, &outs)
}

/// A shared-memory linear layout in the direction bank analysis reads, `coordinates → offset`,
/// and whether it had to be inverted: a layout with an `offset` input and no `offset` output is
/// Triton's direction (`offset[, block] → dim0 …`), restricted to block 0 and inverted (a right
/// inverse with the free offset bits zero when it is not injective, as for `fp4_padded`).
///
/// Pre: in Triton's direction, surjective on the coordinates. Post: `r.compose(l) == id` on the
/// coordinates in that case; otherwise `r == l`.
pub fn smem_direction(l: &LinearLayout) -> Result<(LinearLayout, bool), LinearError> {
    let has_in = l.in_dims().iter().any(|d| d.name == "offset");
    let has_out = l.out_dims().iter().any(|d| d.name == "offset");
    if !has_in || has_out {
        return Ok((l.clone(), false));
    }
    let outs: Vec<(&str, u64)> = l
        .out_dims()
        .iter()
        .map(|d| (d.name.as_str(), 1u64 << d.bits))
        .collect();
    let offset: Vec<Vec<u64>> = l
        .in_dims()
        .iter()
        .find(|d| d.name == "offset")
        .map(|d| d.bases.iter().map(|&b| l.split_out(b)).collect())
        .unwrap_or_default();
    let within = LinearLayout::new(&[("offset", offset)], &outs)?;
    let inv = if within.is_injective() {
        within.invert()?
    } else {
        within.pseudo_invert()?
    };
    Ok((inv, true))
}

/// The Gluon layout classes of Triton 3.9 (their dataclass fields).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Gluon {
    /// `BlockedLayout(size_per_thread, threads_per_warp, warps_per_cta, order, cga_layout=[])`.
    Blocked {
        /// Elements per thread per dimension.
        size_per_thread: Vec<u64>,
        /// Threads per warp per dimension (product 32).
        threads_per_warp: Vec<u64>,
        /// Warps per CTA per dimension.
        warps_per_cta: Vec<u64>,
        /// Dimensions from fastest to slowest.
        order: Vec<usize>,
        /// Block bases.
        cga_layout: Vec<Vec<u64>>,
    },
    /// `SliceLayout(dim, parent)`.
    Slice {
        /// The removed dimension.
        dim: usize,
        /// The parent layout.
        parent: Box<Gluon>,
    },
    /// `DotOperandLayout(operand_index, parent, k_width)`.
    DotOperand {
        /// 0 for A, 1 for B.
        operand_index: u64,
        /// The MMA (or blocked) parent.
        parent: Box<Gluon>,
        /// Consecutive K elements per thread.
        k_width: u64,
    },
    /// `NVMMADistributedLayout(version, warps_per_cta, instr_shape, cga_layout=[])`.
    NvmmaDistributed {
        /// `[2, 0]` (Ampere) or `[3, 0]` (Hopper).
        version: Vec<u64>,
        /// Warps per CTA.
        warps_per_cta: Vec<u64>,
        /// The instruction shape.
        instr_shape: Vec<u64>,
        /// Block bases.
        cga_layout: Vec<Vec<u64>>,
    },
    /// `DistributedLinearLayout(reg_bases, lane_bases, warp_bases, block_bases, shape)`.
    DistributedLinear {
        /// Register bases.
        reg_bases: Vec<Vec<u64>>,
        /// Lane bases.
        lane_bases: Vec<Vec<u64>>,
        /// Warp bases.
        warp_bases: Vec<Vec<u64>>,
        /// Block bases.
        block_bases: Vec<Vec<u64>>,
        /// The shape.
        shape: Vec<u64>,
    },
    /// `NVMMASharedLayout(swizzle_byte_width, element_bitwidth, rank=2, transposed=False,
    /// fp4_padded=False, cga_layout=[])`.
    NvmmaShared {
        /// 0, 32, 64 or 128.
        swizzle_byte_width: u64,
        /// 8, 16, 32 or 64.
        element_bitwidth: u64,
        /// The rank.
        rank: usize,
        /// The contiguous dimension is 0 instead of the last.
        transposed: bool,
        /// FP4 packed with padding.
        fp4_padded: bool,
        /// Block bases.
        cga_layout: Vec<Vec<u64>>,
    },
    /// `SwizzledSharedLayout(vec, per_phase, max_phase, order, cga_layout=[])`.
    SwizzledShared {
        /// Vector width.
        vec: u64,
        /// Rows per phase.
        per_phase: u64,
        /// Number of phases.
        max_phase: u64,
        /// Dimensions from fastest to slowest.
        order: Vec<usize>,
        /// Block bases.
        cga_layout: Vec<Vec<u64>>,
    },
    /// `PaddedSharedLayout(interval_padding_pairs, offset_bases, cga_layout, shape)`.
    PaddedShared {
        /// `[interval, padding]` pairs (powers of two).
        interval_padding_pairs: Vec<(u64, u64)>,
        /// Offset bases (offset → dims).
        offset_bases: Vec<Vec<u64>>,
        /// Block bases.
        cga_layout: Vec<Vec<u64>>,
        /// The shape.
        shape: Vec<u64>,
    },
    /// `SharedLinearLayout(offset_bases, block_bases=[], alignment=16)`.
    SharedLinear {
        /// Offset bases.
        offset_bases: Vec<Vec<u64>>,
        /// Block bases.
        block_bases: Vec<Vec<u64>>,
        /// Alignment in bytes.
        alignment: u64,
    },
}

const FIELDS: &[(&str, &[&str])] = &[
    (
        "BlockedLayout",
        &[
            "size_per_thread",
            "threads_per_warp",
            "warps_per_cta",
            "order",
            "cga_layout",
        ],
    ),
    ("SliceLayout", &["dim", "parent"]),
    ("DotOperandLayout", &["operand_index", "parent", "k_width"]),
    (
        "NVMMADistributedLayout",
        &["version", "warps_per_cta", "instr_shape", "cga_layout"],
    ),
    (
        "DistributedLinearLayout",
        &[
            "reg_bases",
            "lane_bases",
            "warp_bases",
            "block_bases",
            "shape",
        ],
    ),
    (
        "NVMMASharedLayout",
        &[
            "swizzle_byte_width",
            "element_bitwidth",
            "rank",
            "transposed",
            "fp4_padded",
            "cga_layout",
        ],
    ),
    (
        "SwizzledSharedLayout",
        &["vec", "per_phase", "max_phase", "order", "cga_layout"],
    ),
    (
        "PaddedSharedLayout",
        &[
            "interval_padding_pairs",
            "offset_bases",
            "cga_layout",
            "shape",
        ],
    ),
    (
        "SharedLinearLayout",
        &["offset_bases", "block_bases", "alignment"],
    ),
];

/// The Gluon class names this module reads.
pub fn class_names() -> impl Iterator<Item = &'static str> {
    FIELDS.iter().map(|f| f.0)
}

struct Args<'a> {
    class: &'a str,
    fields: Vec<(&'static str, Option<&'a Value>)>,
}

impl<'a> Args<'a> {
    fn ferr<T>(&self, detail: impl Into<String>) -> GResult<T> {
        Err(GluonError::Field {
            class: self.class.to_string(),
            detail: detail.into(),
        })
    }
    fn get(&self, name: &str) -> Option<&'a Value> {
        self.fields
            .iter()
            .find(|f| f.0 == name)
            .and_then(|f| f.1)
            .filter(|v| **v != Value::None)
    }
    fn need(&self, name: &str) -> GResult<&'a Value> {
        match self.get(name) {
            Some(v) => Ok(v),
            None => self.ferr(format!("the field `{name}` is missing")),
        }
    }
    fn int(&self, name: &str, v: &Value) -> GResult<u64> {
        match v {
            Value::Int(i) if (0..=1 << 20).contains(i) => Ok(*i as u64),
            Value::Bool(b) => Ok(*b as u64),
            _ => self.ferr(format!("`{name}` must be an integer in [0, 2^20]")),
        }
    }
    fn u(&self, name: &str) -> GResult<u64> {
        self.int(name, self.need(name)?)
    }
    fn u_or(&self, name: &str, d: u64) -> GResult<u64> {
        match self.get(name) {
            Some(v) => self.int(name, v),
            None => Ok(d),
        }
    }
    fn list(&self, name: &str, v: &Value) -> GResult<Vec<u64>> {
        match v {
            Value::List(xs) => xs.iter().map(|x| self.int(name, x)).collect(),
            _ => self.ferr(format!("`{name}` must be a list of integers")),
        }
    }
    fn ints(&self, name: &str) -> GResult<Vec<u64>> {
        self.list(name, self.need(name)?)
    }
    fn bases(&self, name: &str) -> GResult<Vec<Vec<u64>>> {
        match self.get(name) {
            None => Ok(Vec::new()),
            Some(Value::List(xs)) => xs.iter().map(|x| self.list(name, x)).collect(),
            Some(_) => self.ferr(format!("`{name}` must be a list of lists of integers")),
        }
    }
    fn order(&self, name: &str) -> GResult<Vec<usize>> {
        let o = self.ints(name)?;
        let mut seen = vec![false; o.len()];
        for &d in &o {
            if d as usize >= o.len() || seen[d as usize] {
                return self.ferr(format!(
                    "`{name}` = {o:?} is not a permutation of 0..{}",
                    o.len()
                ));
            }
            seen[d as usize] = true;
        }
        Ok(o.into_iter().map(|d| d as usize).collect())
    }
    fn boolean(&self, name: &str) -> GResult<bool> {
        match self.get(name) {
            None => Ok(false),
            Some(Value::Bool(b)) => Ok(*b),
            Some(Value::Int(i)) => Ok(*i != 0),
            Some(_) => self.ferr(format!("`{name}` must be True or False")),
        }
    }
}

impl Gluon {
    /// Reads a Gluon layout from its constructor text (`repr()` of the dataclass).
    ///
    /// Pre: a known class with its fields. Post: `Gluon::parse(&g.to_string()) == Ok(g)`.
    ///
    /// ```
    /// use tessera::algebra::gluon::Gluon;
    /// let g = Gluon::parse("NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16)").unwrap();
    /// assert_eq!(g.class(), "NVMMASharedLayout");
    /// ```
    pub fn parse(text: &str) -> GResult<Gluon> {
        Gluon::from_value(&parse_value(text.trim())?)
    }

    /// A Gluon layout from a parsed constructor call.
    ///
    /// Pre: `v` is a call of a known class. Post: as [`Gluon::parse`].
    pub fn from_value(v: &Value) -> GResult<Gluon> {
        let Value::Call(class, pos, kw) = v else {
            return Err(GluonError::Field {
                class: "?".into(),
                detail: "expected a Gluon layout constructor such as `BlockedLayout(...)`".into(),
            });
        };
        let Some((_, names)) = FIELDS.iter().find(|f| f.0 == class) else {
            let known: Vec<&str> = class_names().collect();
            return Err(GluonError::Field {
                class: class.clone(),
                detail: format!(
                    "not a Gluon layout class this reads (known: {})",
                    known.join(", ")
                ),
            });
        };
        if pos.len() > names.len() {
            return Err(GluonError::Field {
                class: class.clone(),
                detail: format!(
                    "{} positional arguments, but the class has {} fields",
                    pos.len(),
                    names.len()
                ),
            });
        }
        let mut fields: Vec<(&'static str, Option<&Value>)> =
            names.iter().map(|n| (*n, None)).collect();
        for (i, p) in pos.iter().enumerate() {
            fields[i].1 = Some(p);
        }
        for (k, v) in kw {
            match fields.iter_mut().find(|f| f.0 == k) {
                Some(f) => f.1 = Some(v),
                None => {
                    return Err(GluonError::Field {
                        class: class.clone(),
                        detail: format!("no field `{k}` (fields: {})", names.join(", ")),
                    })
                }
            }
        }
        let a = Args { class, fields };
        let parent = |a: &Args| -> GResult<Box<Gluon>> {
            Ok(Box::new(Gluon::from_value(a.need("parent")?)?))
        };
        Ok(match class.as_str() {
            "BlockedLayout" => Gluon::Blocked {
                size_per_thread: a.ints("size_per_thread")?,
                threads_per_warp: a.ints("threads_per_warp")?,
                warps_per_cta: a.ints("warps_per_cta")?,
                order: a.order("order")?,
                cga_layout: a.bases("cga_layout")?,
            },
            "SliceLayout" => Gluon::Slice {
                dim: a.u("dim")? as usize,
                parent: parent(&a)?,
            },
            "DotOperandLayout" => Gluon::DotOperand {
                operand_index: a.u("operand_index")?,
                parent: parent(&a)?,
                k_width: a.u("k_width")?,
            },
            "NVMMADistributedLayout" => Gluon::NvmmaDistributed {
                version: a.ints("version")?,
                warps_per_cta: a.ints("warps_per_cta")?,
                instr_shape: a.ints("instr_shape")?,
                cga_layout: a.bases("cga_layout")?,
            },
            "DistributedLinearLayout" => Gluon::DistributedLinear {
                reg_bases: a.bases("reg_bases")?,
                lane_bases: a.bases("lane_bases")?,
                warp_bases: a.bases("warp_bases")?,
                block_bases: a.bases("block_bases")?,
                shape: a.ints("shape")?,
            },
            "NVMMASharedLayout" => Gluon::NvmmaShared {
                swizzle_byte_width: a.u("swizzle_byte_width")?,
                element_bitwidth: a.u("element_bitwidth")?,
                rank: a.u_or("rank", 2)? as usize,
                transposed: a.boolean("transposed")?,
                fp4_padded: a.boolean("fp4_padded")?,
                cga_layout: a.bases("cga_layout")?,
            },
            "SwizzledSharedLayout" => Gluon::SwizzledShared {
                vec: a.u("vec")?,
                per_phase: a.u("per_phase")?,
                max_phase: a.u("max_phase")?,
                order: a.order("order")?,
                cga_layout: a.bases("cga_layout")?,
            },
            "PaddedSharedLayout" => {
                let pairs = a.bases("interval_padding_pairs")?;
                let mut ps = Vec::with_capacity(pairs.len());
                for p in pairs {
                    let [i, q] = p[..] else {
                        return a
                            .ferr("each interval_padding_pairs entry must be [interval, padding]");
                    };
                    if !i.is_power_of_two() || !q.is_power_of_two() {
                        return a.ferr(format!(
                            "interval {i} and padding {q} must be powers of two"
                        ));
                    }
                    ps.push((i, q));
                }
                if ps.is_empty() {
                    return a.ferr("interval_padding_pairs must have at least one pair");
                }
                Gluon::PaddedShared {
                    interval_padding_pairs: ps,
                    offset_bases: a.bases("offset_bases")?,
                    cga_layout: a.bases("cga_layout")?,
                    shape: a.ints("shape")?,
                }
            }
            _ => Gluon::SharedLinear {
                offset_bases: a.bases("offset_bases")?,
                block_bases: a.bases("block_bases")?,
                alignment: a.u_or("alignment", 16)?,
            },
        })
    }

    /// The Python class name.
    pub fn class(&self) -> &'static str {
        match self {
            Gluon::Blocked { .. } => "BlockedLayout",
            Gluon::Slice { .. } => "SliceLayout",
            Gluon::DotOperand { .. } => "DotOperandLayout",
            Gluon::NvmmaDistributed { .. } => "NVMMADistributedLayout",
            Gluon::DistributedLinear { .. } => "DistributedLinearLayout",
            Gluon::NvmmaShared { .. } => "NVMMASharedLayout",
            Gluon::SwizzledShared { .. } => "SwizzledSharedLayout",
            Gluon::PaddedShared { .. } => "PaddedSharedLayout",
            Gluon::SharedLinear { .. } => "SharedLinearLayout",
        }
    }

    /// Whether this is a shared-memory layout (`offset` input) rather than a register layout.
    pub fn is_shared(&self) -> bool {
        matches!(
            self,
            Gluon::NvmmaShared { .. }
                | Gluon::SwizzledShared { .. }
                | Gluon::PaddedShared { .. }
                | Gluon::SharedLinear { .. }
        )
    }

    /// The shape the layout carries itself (`DistributedLinearLayout`, `PaddedSharedLayout`,
    /// and `SharedLinearLayout`'s derived shape), if any.
    pub fn own_shape(&self) -> Option<Vec<u64>> {
        match self {
            Gluon::DistributedLinear { shape, .. } | Gluon::PaddedShared { shape, .. } => {
                Some(shape.clone())
            }
            Gluon::SharedLinear {
                offset_bases,
                block_bases,
                ..
            } => {
                let rank = offset_bases.first()?.len();
                let mut m = vec![0u64; rank];
                for b in offset_bases.iter().chain(block_bases) {
                    for (x, &v) in m.iter_mut().zip(b) {
                        *x = (*x).max(v);
                    }
                }
                Some(
                    m.iter()
                        .map(|&v| 1u64 << (64 - v.leading_zeros()).min(62))
                        .collect(),
                )
            }
            _ => None,
        }
    }

    /// The linear layout of this Gluon layout over a tensor `shape` (Triton's
    /// `to_linear_layout(layout, shape)`): inputs `register, lane, warp, block` (register
    /// layouts) or `offset, block` (shared layouts), outputs `dim0 … dim{rank-1}` of the shape's
    /// sizes. For `PaddedSharedLayout`, its linear component (see the module documentation).
    ///
    /// Pre: the shape's rank is the layout's, its sizes are powers of two, and the layout's own
    /// rules hold (threads per warp multiply to 32, NVMMA tiles fit the shape, …).
    /// Post: the outputs have exactly the shape's sizes.
    ///
    /// ```
    /// use tessera::algebra::gluon::Gluon;
    /// let g = Gluon::parse("BlockedLayout([1, 4], [4, 8], [4, 1], [1, 0])").unwrap();
    /// let l = g.to_linear(&[32, 64]).unwrap();
    /// assert_eq!(l.basis("lane", 3), Some(vec![1, 0]));
    /// ```
    pub fn to_linear(&self, shape: &[u64]) -> GResult<LinearLayout> {
        let sh = |detail: String| GluonError::Shape {
            class: self.class().into(),
            shape: shape.to_vec(),
            detail,
        };
        for &s in shape {
            if s == 0 || !s.is_power_of_two() || s > 1 << 30 {
                return Err(sh(format!("size {s} is not a power of two up to 2^30")));
            }
        }
        let bits: u32 = shape.iter().map(|s| s.trailing_zeros()).sum();
        if bits > 48 || shape.len() > 16 {
            return Err(sh(format!(
                "{} dimensions of 2^{bits} elements in all: at most 16 and 2^48",
                shape.len()
            )));
        }
        let l = self.build(shape)?;
        if l.rank != shape.len() {
            return Err(sh(format!("the layout has rank {}", l.rank)));
        }
        l.finish(self.is_shared())
    }

    fn shape_err(&self, shape: &[u64], detail: impl Into<String>) -> GluonError {
        GluonError::Shape {
            class: self.class().into(),
            shape: shape.to_vec(),
            detail: detail.into(),
        }
    }

    fn field_err(&self, detail: impl Into<String>) -> GluonError {
        GluonError::Field {
            class: self.class().into(),
            detail: detail.into(),
        }
    }

    fn rank_check(&self, shape: &[u64], rank: usize) -> GResult<()> {
        if shape.len() != rank {
            return Err(self.shape_err(
                shape,
                format!("the layout has rank {rank}, the shape {}", shape.len()),
            ));
        }
        Ok(())
    }

    fn cga(&self) -> &[Vec<u64>] {
        match self {
            Gluon::Blocked { cga_layout, .. }
            | Gluon::NvmmaDistributed { cga_layout, .. }
            | Gluon::NvmmaShared { cga_layout, .. }
            | Gluon::SwizzledShared { cga_layout, .. }
            | Gluon::PaddedShared { cga_layout, .. } => cga_layout,
            _ => &[],
        }
    }

    fn build(&self, shape: &[u64]) -> GResult<Ll> {
        let rank = shape.len();
        match self {
            Gluon::Blocked {
                size_per_thread,
                threads_per_warp,
                warps_per_cta,
                order,
                ..
            } => {
                self.rank_check(shape, order.len())?;
                for (n, v) in [
                    ("size_per_thread", size_per_thread),
                    ("threads_per_warp", threads_per_warp),
                    ("warps_per_cta", warps_per_cta),
                ] {
                    if v.len() != rank {
                        return Err(self
                            .field_err(format!("`{n}` has {} entries for rank {rank}", v.len())));
                    }
                    pow2s(self, n, v)?;
                }
                let cta = Ll::identity_nd("register", size_per_thread, order)
                    .mul(&Ll::identity_nd("lane", threads_per_warp, order))
                    .mul(&Ll::identity_nd("warp", warps_per_cta, order));
                self.with_cga(cta, shape)
            }
            Gluon::NvmmaDistributed {
                version,
                warps_per_cta,
                instr_shape,
                ..
            } => {
                self.rank_check(shape, warps_per_cta.len())?;
                if rank < 2 {
                    return Err(self.shape_err(shape, "an MMA layout has rank at least 2"));
                }
                pow2s(self, "warps_per_cta", warps_per_cta)?;
                let v = version.first().copied().unwrap_or(0);
                let (m, n) = match v {
                    2 if instr_shape.len() == rank => (instr_shape[rank - 2], instr_shape[rank - 1]),
                    3 if instr_shape.len() == 3 => (instr_shape[0], instr_shape[1]),
                    _ => {
                        return Err(self.field_err(format!(
                            "version {version:?} with instr_shape {instr_shape:?}: only Ampere ([2, 0], instr_shape [.., 16, 8]) and Hopper ([3, 0], instr_shape [16, N, K]) accumulators are read"
                        )))
                    }
                };
                let mut tile = vec![1u64; rank];
                tile[rank - 2] = m;
                tile[rank - 1] = n;
                let row_major: Vec<usize> = (0..rank).rev().collect();
                let mut cta = mma_tile(self, &tile, 2, &row_major, &row_major)?;
                let warps = Ll::identity_nd("warp", warps_per_cta, &mma_warp_order(v, rank));
                cta = cta.mul(&warps);
                self.with_cga(cta, shape)
            }
            Gluon::DotOperand {
                operand_index,
                parent,
                k_width,
            } => {
                let (warps, version) = match parent.as_ref() {
                    Gluon::NvmmaDistributed {
                        warps_per_cta,
                        version,
                        ..
                    } => (warps_per_cta.clone(), version.first().copied().unwrap_or(0)),
                    _ => {
                        return Err(self.field_err(
                            "only NVMMADistributedLayout parents are read (the blocked FMA parent is not)",
                        ))
                    }
                };
                self.rank_check(shape, warps.len())?;
                if rank < 2 || *operand_index > 1 {
                    return Err(
                        self.field_err("operand_index must be 0 or 1 and the rank at least 2")
                    );
                }
                if *operand_index == 1 && version != 2 {
                    return Err(self.field_err(
                        "a Hopper (version 3) B operand lives in shared memory, not registers",
                    ));
                }
                if *k_width == 0 || !k_width.is_power_of_two() {
                    return Err(
                        self.field_err(format!("k_width = {k_width} is not a power of two"))
                    );
                }
                let is_a = *operand_index == 0;
                let mut tile = vec![1u64; rank];
                if is_a {
                    tile[rank - 2] = 16;
                    tile[rank - 1] = k_width * 8;
                } else {
                    tile[rank - 2] = k_width * 8;
                    tile[rank - 1] = 8;
                }
                // K is the fastest dimension of both operands.
                let k_dim = if is_a { rank - 1 } else { rank - 2 };
                let other = if is_a { rank - 2 } else { rank - 1 };
                let mut order = vec![k_dim, other];
                order.extend((0..rank - 2).rev());
                let mut cta = mma_tile(self, &tile, *k_width, &order, &order)?;
                let mut w = Ll::empty(rank);
                for &d in &mma_warp_order(version, rank) {
                    w = if d == k_dim {
                        w.mul(&Ll::zeros_1d(warps[d], "warp", d, rank))
                    } else {
                        w.mul(&Ll::identity_1d(warps[d], "warp", d, rank))
                    };
                }
                cta = cta.mul(&w);
                let cga = dot_cga(parent.cga(), rank, k_dim);
                with_cga(self, cta, &cga, shape)
            }
            Gluon::Slice { dim, parent } => {
                if *dim > rank {
                    return Err(
                        self.field_err(format!("dim {dim} is past the parent's rank {}", rank + 1))
                    );
                }
                let mut pshape = shape.to_vec();
                pshape.insert(*dim, 1);
                let p = parent.build(&pshape)?;
                if p.rank != rank + 1 {
                    return Err(self.shape_err(
                        shape,
                        format!("the parent has rank {}, not {}", p.rank, rank + 1),
                    ));
                }
                Ok(p.slice(*dim))
            }
            Gluon::DistributedLinear {
                reg_bases,
                lane_bases,
                warp_bases,
                block_bases,
                shape: own,
            } => {
                if own.as_slice() != shape {
                    return Err(
                        self.shape_err(shape, format!("the layout is defined for shape {own:?}"))
                    );
                }
                Ll::explicit(
                    self,
                    shape,
                    &[
                        ("register", reg_bases),
                        ("lane", lane_bases),
                        ("warp", warp_bases),
                        ("block", block_bases),
                    ],
                )
            }
            Gluon::SharedLinear {
                offset_bases,
                block_bases,
                ..
            } => {
                let own = self.own_shape().unwrap_or_default();
                if own.len() != rank || own.iter().zip(shape).any(|(o, s)| o > s) {
                    return Err(self.shape_err(shape, format!("the bases span shape {own:?}")));
                }
                Ll::explicit(
                    self,
                    shape,
                    &[("offset", offset_bases), ("block", block_bases)],
                )
            }
            Gluon::PaddedShared {
                offset_bases,
                cga_layout,
                shape: own,
                ..
            } => {
                if own.as_slice() != shape {
                    return Err(
                        self.shape_err(shape, format!("the layout is defined for shape {own:?}"))
                    );
                }
                Ll::explicit(
                    self,
                    shape,
                    &[("offset", offset_bases), ("block", cga_layout)],
                )
            }
            Gluon::SwizzledShared {
                vec,
                per_phase,
                max_phase,
                order,
                cga_layout,
            } => {
                self.rank_check(shape, order.len())?;
                if *per_phase == 0 || *vec == 0 || *max_phase == 0 {
                    return Err(self.field_err("vec, per_phase and max_phase must be positive"));
                }
                let per_cta = shape_per_cta(self, shape, cga_layout)?;
                let mut cta = if rank == 1 {
                    Ll::identity_1d(per_cta[0], "offset", 0, 1)
                } else {
                    let (col, row) = (order[0], order[1]);
                    let cols = per_cta[col];
                    let rows = per_cta[row];
                    let mut bases = Vec::new();
                    let mut c = 1;
                    while c < cols {
                        bases.push(unit2(rank, col, c, row, 0));
                        c *= 2;
                    }
                    let mut r = 1;
                    while r < rows {
                        let x = (vec * ((r / per_phase) % max_phase)) % cols;
                        bases.push(unit2(rank, row, r, col, x));
                        r *= 2;
                    }
                    let mut l = Ll::empty(rank);
                    l.out_order = vec![row, col];
                    l.size[row] = rows;
                    l.size[col] = cols;
                    l.ins.push(("offset", bases));
                    for &d in &order[2..] {
                        l = l.mul(&Ll::identity_1d(per_cta[d], "offset", d, rank));
                    }
                    l
                };
                cta.rank = rank;
                self.with_cga(cta, shape)
            }
            Gluon::NvmmaShared {
                swizzle_byte_width,
                element_bitwidth,
                rank: r,
                transposed,
                fp4_padded,
                cga_layout,
            } => {
                self.rank_check(shape, *r)?;
                if ![0, 32, 64, 128].contains(swizzle_byte_width)
                    || ![8, 16, 32, 64].contains(element_bitwidth)
                {
                    return Err(self.field_err("swizzle_byte_width must be 0, 32, 64 or 128 and element_bitwidth 8, 16, 32 or 64"));
                }
                if *fp4_padded && (*swizzle_byte_width != 128 || *element_bitwidth != 8) {
                    return Err(self.field_err(
                        "fp4_padded needs swizzle_byte_width 128 and element_bitwidth 8",
                    ));
                }
                let per_cta = shape_per_cta(self, shape, cga_layout)?;
                let cta = nvmma_shared(
                    self,
                    &per_cta,
                    *swizzle_byte_width,
                    *element_bitwidth,
                    *transposed,
                    *fp4_padded,
                )?;
                self.with_cga(cta, shape)
            }
        }
    }

    fn with_cga(&self, cta: Ll, shape: &[u64]) -> GResult<Ll> {
        with_cga(self, cta, self.cga(), shape)
    }
}

/// The order of an MMA layout's warps: row-major for Ampere, column-major (M first) for Hopper.
fn mma_warp_order(version: u64, rank: usize) -> Vec<usize> {
    if version == 3 {
        (0..rank).collect()
    } else {
        (0..rank).rev().collect()
    }
}

fn pow2s(g: &Gluon, name: &str, v: &[u64]) -> GResult<()> {
    for &x in v {
        if x == 0 || !x.is_power_of_two() || x > 1 << 20 {
            return Err(g.field_err(format!("`{name}` = {v:?} has {x}, not a power of two")));
        }
    }
    Ok(())
}

fn unit2(rank: usize, a: usize, va: u64, b: usize, vb: u64) -> Vec<u64> {
    let mut v = vec![0u64; rank];
    v[a] = va;
    v[b] ^= vb;
    v
}

/// The shape held by one CTA: `shape` divided by the CGA's extent per dimension.
fn shape_per_cta(g: &Gluon, shape: &[u64], cga: &[Vec<u64>]) -> GResult<Vec<u64>> {
    let ext = cga_extent(g, shape, cga)?;
    Ok(shape
        .iter()
        .zip(&ext)
        .map(|(&s, &e)| (s / e).max(1))
        .collect())
}

fn cga_extent(g: &Gluon, shape: &[u64], cga: &[Vec<u64>]) -> GResult<Vec<u64>> {
    let rank = shape.len();
    let mut ext = vec![1u64; rank];
    for b in cga {
        if b.len() != rank {
            return Err(g.field_err(format!("cga_layout basis {b:?} has not {rank} entries")));
        }
        for (e, &v) in ext.iter_mut().zip(b) {
            if v != 0 {
                if !v.is_power_of_two() || v > 1 << 20 {
                    return Err(
                        g.field_err(format!("cga_layout basis {b:?} is not a power of two"))
                    );
                }
                *e = (*e).max(v * 2);
            }
        }
    }
    Ok(ext)
}

/// The CGA of a dot operand: the parent's with the K entry zeroed (broadcast along K).
fn dot_cga(parent: &[Vec<u64>], rank: usize, k_dim: usize) -> Vec<Vec<u64>> {
    parent
        .iter()
        .map(|b| {
            let mut b = b.clone();
            if b.len() == rank {
                b[k_dim] = 0;
            }
            b
        })
        .collect()
}

/// Combines a CTA layout with the CGA (block) bases and fits it to `shape`: the CTA layout is
/// repeated (new register or offset bases) up to `shape / cga extent` and bases beyond it become
/// zero (broadcast); block bases are scaled by the CTA shape.
fn with_cga(g: &Gluon, cta: Ll, cga: &[Vec<u64>], shape: &[u64]) -> GResult<Ll> {
    let rank = shape.len();
    let ext = cga_extent(g, shape, cga)?;
    // The CGA layout, fitted to the shape (entries past it are broadcast).
    let cga_size: Vec<u64> = ext.iter().zip(shape).map(|(&e, &s)| e.min(s)).collect();
    let cta_shape: Vec<u64> = shape
        .iter()
        .zip(&cga_size)
        .map(|(&s, &e)| (s / e).max(1))
        .collect();
    let drop = matches!(g, Gluon::Blocked { .. });
    let cta = cta.not_smaller(&cta_shape).not_larger(&cta_shape, drop);
    let block: Vec<Vec<u64>> = cga
        .iter()
        .map(|b| {
            b.iter()
                .enumerate()
                .map(|(d, &v)| {
                    if v >= cga_size[d] {
                        0
                    } else {
                        v * cta_shape[d]
                    }
                })
                .collect()
        })
        .collect();
    let mut out = cta;
    if !block.is_empty() {
        out.ins.push(("block", block));
    }
    out.size = shape.to_vec();
    out.rank = rank;
    Ok(out)
}

/// Triton's MMA register tile: `k_width` registers and 4 lanes along `order[0]`, 8 lanes and
/// `m / 8` registers along `order[1]`, then `n / (4·k_width)` registers along `order[0]`.
fn mma_tile(
    g: &Gluon,
    tile: &[u64],
    k_width: u64,
    order: &[usize],
    rep_order: &[usize],
) -> GResult<Ll> {
    let rank = tile.len();
    let (inner, outer) = (order[0], order[1]);
    let m = tile[outer];
    let n = tile[inner];
    if !m.is_multiple_of(8)
        || !n.is_multiple_of(k_width * 4)
        || !m.is_power_of_two()
        || !n.is_power_of_two()
    {
        return Err(g.field_err(format!(
            "the MMA tile {tile:?} is not a multiple of 8 × {}",
            k_width * 4
        )));
    }
    let mut l = Ll::empty(rank);
    l.out_order = rep_order.to_vec();
    Ok(l.mul(&Ll::identity_1d(k_width, "register", inner, rank))
        .mul(&Ll::identity_1d(4, "lane", inner, rank))
        .mul(&Ll::identity_1d(8, "lane", outer, rank))
        .mul(&Ll::identity_1d(m / 8, "register", outer, rank))
        .mul(&Ll::identity_1d(n / (k_width * 4), "register", inner, rank)))
}

/// NVMMA shared layout of one CTA. With a swizzle: the core matrix (8 rows of `swizzle` bytes,
/// row `r` XORed with `16 bytes · ((r / per_phase) % max_phase)`) is repeated over the TMA box
/// collapsed to two dimensions (rows first), the result is reshaped row-major to the box in
/// memory order (for `transposed`, dimension 0 moved last) and named back, then repeated over the
/// shape. Without a swizzle: the identity in memory order.
fn nvmma_shared(
    g: &Gluon,
    per_cta: &[u64],
    sw: u64,
    bits: u64,
    transposed: bool,
    fp4: bool,
) -> GResult<Ll> {
    let rank = per_cta.len();
    if rank == 1 {
        return Ok(Ll::identity_1d(per_cta[0], "offset", 0, 1));
    }
    let packing = if fp4 { 2 } else { 1 };
    // Memory order, fastest first.
    let mem: Vec<usize> = if transposed {
        std::iter::once(0).chain((1..rank).rev()).collect()
    } else {
        (0..rank).rev().collect()
    };
    if sw == 0 {
        let mut l = Ll::empty(rank);
        for &d in &mem {
            l = l.mul(&Ll::identity_1d(per_cta[d].min(256), "offset", d, rank));
        }
        l.out_order = (0..rank).collect();
        return Ok(l.not_smaller(per_cta));
    }
    let contig = if transposed { 0 } else { rank - 1 };
    let tile_cols = 8 * sw / bits;
    // The TMA box: the contiguous dimension clipped to the swizzle span, the others to 256.
    let t: Vec<u64> = (0..rank)
        .map(|d| {
            if d == contig {
                per_cta[d].min(tile_cols / packing)
            } else {
                per_cta[d].min(256)
            }
        })
        .collect();
    let outer: u64 = t[..rank - 1].iter().product();
    let (rows, cols) = if transposed {
        (t[rank - 1], outer)
    } else {
        (outer, t[rank - 1])
    };
    if cols * packing < tile_cols || rows < 8 {
        return Err(g.shape_err(
            per_cta,
            format!(
                "the TMA box collapses to [{rows}, {cols}], smaller than the swizzle tile [8, {}]",
                tile_cols / packing
            ),
        ));
    }
    let (per_phase, max_phase) = match sw {
        32 => (4, 2),
        64 => (2, 4),
        _ => (1, 8),
    };
    let vec = 128 / bits;
    let pack = |c: u64| if fp4 { c / 16 * 8 + c % 8 } else { c };
    // The 2-D layout: (row, col) bases, rows then cols repeated up to [rows, cols].
    let mut b2: Vec<(u64, u64)> = Vec::new();
    let mut c = 1;
    while c < tile_cols {
        b2.push((0, pack(c)));
        c *= 2;
    }
    let mut r = 1;
    while r < 8 {
        b2.push((r, pack(vec * ((r / per_phase) % max_phase))));
        r *= 2;
    }
    let mut r = 8;
    while r < rows {
        b2.push((r, 0));
        r *= 2;
    }
    let mut c = (tile_cols / packing).max(1);
    while c < cols {
        b2.push((0, c));
        c *= 2;
    }
    // Reshape row-major to the box in memory order (slowest first), then name the dimensions.
    let mem_shape: Vec<usize> = mem.iter().rev().copied().collect();
    let bases: Vec<Vec<u64>> = b2
        .iter()
        .map(|&(r, c)| {
            let mut f = r * cols + c;
            let mut v = vec![0u64; rank];
            for &d in mem_shape.iter().rev() {
                v[d] = f % t[d];
                f /= t[d];
            }
            v
        })
        .collect();
    let mut l = Ll::empty(rank);
    l.out_order = (0..rank).collect();
    l.size = t;
    l.ins.push(("offset", bases));
    Ok(l.not_smaller(per_cta))
}

/// The padded address of an element offset of a `PaddedSharedLayout`: `offset + Σ (offset /
/// interval) · padding` over its pairs.
///
/// Pre: `pairs` are powers of two. Post: strictly increasing in `offset`.
/// Example: pairs `[(2, 1), (4, 2)]` put offset 4 at 4 + 2 + 2 = 8.
pub fn padded_offset(pairs: &[(u64, u64)], offset: u64) -> Option<u64> {
    let mut r = offset;
    for &(i, p) in pairs {
        if i == 0 {
            return None;
        }
        r = r.checked_add((offset / i).checked_mul(p)?)?;
    }
    Some(r)
}

/// A linear layout in Triton's building form: bases as full vectors over the dimensions
/// (indexed by dimension number), the output order kept for Triton's `operator*` and its
/// `ensureLayoutNotSmallerThan`.
#[derive(Clone, Debug)]
struct Ll {
    rank: usize,
    out_order: Vec<usize>,
    size: Vec<u64>,
    ins: Vec<(&'static str, Vec<Vec<u64>>)>,
}

impl Ll {
    fn empty(rank: usize) -> Ll {
        Ll {
            rank,
            out_order: Vec::new(),
            size: vec![1; rank],
            ins: Vec::new(),
        }
    }

    fn identity_1d(n: u64, input: &'static str, dim: usize, rank: usize) -> Ll {
        let mut l = Ll::empty(rank);
        let mut bases = Vec::new();
        let mut v = 1;
        while v < n {
            let mut b = vec![0; rank];
            b[dim] = v;
            bases.push(b);
            v *= 2;
        }
        l.out_order.push(dim);
        l.size[dim] = n.max(1);
        l.ins.push((input, bases));
        l
    }

    fn zeros_1d(n: u64, input: &'static str, dim: usize, rank: usize) -> Ll {
        let mut l = Ll::empty(rank);
        let k = 64 - n.max(1).leading_zeros() - 1;
        l.out_order.push(dim);
        l.ins.push((input, vec![vec![0; rank]; k as usize]));
        l
    }

    /// `identityStandardND`: identities along `order`, fastest first.
    fn identity_nd(input: &'static str, sizes: &[u64], order: &[usize]) -> Ll {
        let rank = sizes.len();
        let mut l = Ll::empty(rank);
        for &d in order {
            l = l.mul(&Ll::identity_1d(sizes[d], input, d, rank));
        }
        if l.ins.is_empty() {
            l.ins.push((input, Vec::new()));
        }
        l
    }

    /// Triton's `operator*`: shared outputs put `self` low and `o` high.
    fn mul(&self, o: &Ll) -> Ll {
        let mut r = self.clone();
        for &d in &o.out_order {
            if !r.out_order.contains(&d) {
                r.out_order.push(d);
            }
        }
        for (name, bases) in &o.ins {
            let scaled: Vec<Vec<u64>> = bases
                .iter()
                // Saturating: an entry that large is past any shape and becomes 0 (broadcast).
                .map(|b| {
                    b.iter()
                        .zip(&self.size)
                        .map(|(&v, &s)| v.saturating_mul(s))
                        .collect()
                })
                .collect();
            match r.ins.iter_mut().find(|i| i.0 == *name) {
                Some(i) => i.1.extend(scaled),
                None => r.ins.push((name, scaled)),
            }
        }
        for d in 0..self.rank {
            r.size[d] = self.size[d].saturating_mul(o.size[d]);
        }
        r
    }

    /// `ensureLayoutNotSmallerThan`: repeat with new bases of the first input (registers or
    /// offsets) until every output reaches `shape`, outputs in the layout's order.
    fn not_smaller(mut self, shape: &[u64]) -> Ll {
        let first = self.ins.first().map(|i| i.0).unwrap_or("register");
        let order: Vec<usize> = self.out_order.clone();
        for d in order.into_iter().chain(0..self.rank) {
            while self.size[d] < shape[d] {
                let mut b = vec![0; self.rank];
                b[d] = self.size[d];
                match self.ins.iter_mut().find(|i| i.0 == first) {
                    Some(i) => i.1.push(b),
                    None => self.ins.push((first, vec![b])),
                }
                self.size[d] *= 2;
            }
        }
        self
    }

    /// `ensureLayoutNotLargerThan`: basis entries at or past `shape` become zero (broadcast);
    /// with `drop_registers`, register bases that become zero are removed instead.
    fn not_larger(mut self, shape: &[u64], drop_registers: bool) -> Ll {
        for d in 0..self.rank {
            if self.size[d] <= shape[d] {
                continue;
            }
            for (name, bases) in self.ins.iter_mut() {
                let drop = drop_registers && *name == "register";
                bases.retain_mut(|b| {
                    if b[d] >= shape[d] {
                        b[d] = 0;
                        return !(drop && b.iter().all(|&v| v == 0));
                    }
                    true
                });
            }
            self.size[d] = shape[d];
        }
        self
    }

    /// A slice: dimension `dim` removed, then zero register bases dropped.
    fn slice(mut self, dim: usize) -> Ll {
        for (_, bases) in self.ins.iter_mut() {
            for b in bases.iter_mut() {
                b.remove(dim);
            }
        }
        if let Some(r) = self.ins.iter_mut().find(|i| i.0 == "register") {
            r.1.retain(|b| b.iter().any(|&v| v != 0));
        }
        self.size.remove(dim);
        self.out_order.retain(|&d| d != dim);
        for d in self.out_order.iter_mut() {
            if *d > dim {
                *d -= 1;
            }
        }
        self.rank -= 1;
        self
    }

    fn explicit(g: &Gluon, shape: &[u64], ins: &[(&'static str, &Vec<Vec<u64>>)]) -> GResult<Ll> {
        let rank = shape.len();
        let mut l = Ll::empty(rank);
        l.size = shape.to_vec();
        l.out_order = (0..rank).collect();
        for (name, bases) in ins {
            for b in bases.iter() {
                if b.len() != rank || b.iter().zip(shape).any(|(&v, &s)| v >= s) {
                    return Err(g.shape_err(
                        shape,
                        format!("`{name}` basis {b:?} is not inside the shape"),
                    ));
                }
            }
            l.ins.push((name, (*bases).clone()));
        }
        Ok(l)
    }

    /// The [`LinearLayout`] with the standard input order and outputs `dim0 …`.
    fn finish(self, shared: bool) -> GResult<LinearLayout> {
        let order: &[&str] = if shared {
            &["offset", "block"]
        } else {
            &["register", "lane", "warp", "block"]
        };
        let names: Vec<String> = (0..self.rank).map(|d| format!("dim{d}")).collect();
        let outs: Vec<(&str, u64)> = names
            .iter()
            .map(|n| n.as_str())
            .zip(self.size.iter().copied())
            .collect();
        let mut ins: Vec<(&str, Vec<Vec<u64>>)> = Vec::new();
        for n in order {
            let bases = self
                .ins
                .iter()
                .find(|i| i.0 == *n)
                .map(|i| i.1.clone())
                .unwrap_or_default();
            ins.push((n, bases));
        }
        Ok(LinearLayout::new(&ins, &outs)?)
    }
}

/// The thread-value layout of a register layout: `(thread, value) → index` of the tensor
/// (colexicographic, `dim0` fastest), threads `lane + 32·warp` (blocks left out), values the
/// registers, as a CuTe layout `(T, V)` when the bases share no bit (no XOR), else an error.
///
/// Pre: `l` has inputs `register, lane, warp` and outputs `dim0 …` (as [`Gluon::to_linear`]).
/// Post: `tv(t, v) == index(l(register = v, lane = t % 32, warp = t / 32))`.
pub fn tv_layout(l: &LinearLayout) -> GResult<Layout> {
    let bases = |n: &str| -> Vec<u64> {
        l.in_dims()
            .iter()
            .find(|d| d.name == n)
            .map(|d| d.bases.clone())
            .unwrap_or_default()
    };
    let thread: Vec<u64> = bases("lane").into_iter().chain(bases("warp")).collect();
    let value = bases("register");
    let mut seen = 0u64;
    for &b in thread.iter().chain(&value) {
        if seen & b != 0 {
            return Err(GluonError::Linear(LinearError::NoCuteForm {
                layout: l.to_string(),
                target: "thread-value CuTe layout",
                detail: format!("basis {b} shares bits with another, so XOR and + differ"),
            }));
        }
        seen |= b;
    }
    let mode = |bs: &[u64]| -> Tree<Mode> {
        if bs.is_empty() {
            Tree::leaf(Mode::new(1, 0))
        } else {
            Tree::flat(bs.iter().map(|&b| Mode::new(2, b as i64)))
        }
    };
    let t = Tree::tuple([mode(&thread), mode(&value)].iter().map(|m| m.as_ref()));
    let raw = Layout::from_tree(t);
    let profile = Tree::flat([1i64, 1]);
    crate::algebra::coalesce_by(&raw, &profile).map_err(|e| {
        GluonError::Linear(LinearError::NoCuteForm {
            layout: l.to_string(),
            target: "thread-value CuTe layout",
            detail: e.to_string(),
        })
    })
}

/// The Gluon constructor that gives `l` (a shared layout, `offset[, block] → dim0 …`) over its
/// output shape, when an `NVMMASharedLayout` or a `SwizzledSharedLayout` (without CGA) does:
/// every NVMMA swizzle width and element width, transposed or not, then every swizzled
/// `vec`/`per_phase`/`max_phase` up to 16 and every order, first match. `None` when none fits.
///
/// Pre: none. Post: `Gluon::parse(&r).to_linear(shape)` equals `l` as a function.
pub fn to_gluon(l: &LinearLayout) -> Option<String> {
    let shape: Vec<u64> = l.out_dims().iter().map(|d| 1u64 << d.bits).collect();
    let rank = shape.len();
    let flat = LinearLayout::new(
        &[(
            "offset",
            l.in_dims()
                .iter()
                .find(|d| d.name == "offset")
                .map(|d| d.bases.iter().map(|&b| l.split_out(b)).collect())
                .unwrap_or_default(),
        )],
        &l.out_dims()
            .iter()
            .map(|d| (d.name.as_str(), 1u64 << d.bits))
            .collect::<Vec<_>>(),
    )
    .ok()?;
    if l.in_dims()
        .iter()
        .any(|d| d.name != "offset" && !d.bases.is_empty())
        || rank == 0
    {
        return None;
    }
    let matches = |g: &Gluon| {
        g.to_linear(&shape)
            .map(|x| x.equivalent(&flat))
            .unwrap_or(false)
    };
    let mut cands = Vec::new();
    for sw in [128u64, 64, 32, 0] {
        for bits in [16u64, 8, 32, 64] {
            for tr in [false, true] {
                cands.push(Gluon::NvmmaShared {
                    swizzle_byte_width: sw,
                    element_bitwidth: bits,
                    rank,
                    transposed: tr,
                    fp4_padded: false,
                    cga_layout: Vec::new(),
                });
            }
        }
    }
    for tr in [false, true] {
        cands.push(Gluon::NvmmaShared {
            swizzle_byte_width: 128,
            element_bitwidth: 8,
            rank,
            transposed: tr,
            fp4_padded: true,
            cga_layout: Vec::new(),
        });
    }
    for g in &cands {
        if matches(g) {
            return Some(g.to_string());
        }
    }
    let perms = permutations(rank);
    for order in &perms {
        for vec in [1u64, 2, 4, 8, 16] {
            for per_phase in [1u64, 2, 4, 8, 16] {
                for max_phase in [1u64, 2, 4, 8, 16] {
                    let g = Gluon::SwizzledShared {
                        vec,
                        per_phase,
                        max_phase,
                        order: order.clone(),
                        cga_layout: Vec::new(),
                    };
                    if matches(&g) {
                        return Some(g.to_string());
                    }
                }
            }
        }
    }
    None
}

fn permutations(n: usize) -> Vec<Vec<usize>> {
    if n == 0 {
        return vec![Vec::new()];
    }
    if n > 4 {
        return vec![(0..n).rev().collect()];
    }
    let mut out = Vec::new();
    for p in permutations(n - 1) {
        for i in 0..=p.len() {
            let mut q = p.clone();
            q.insert(i, n - 1);
            out.push(q);
        }
    }
    // Row-major (`[n-1, …, 0]`) first: the usual order.
    out.sort_by_key(|p| {
        p.iter()
            .enumerate()
            .filter(|&(i, &d)| d != n - 1 - i)
            .count()
    });
    out
}

fn list(v: &[u64]) -> String {
    format!(
        "[{}]",
        v.iter()
            .map(|x| x.to_string())
            .collect::<Vec<_>>()
            .join(", ")
    )
}

fn lists(v: &[Vec<u64>]) -> String {
    format!(
        "[{}]",
        v.iter().map(|x| list(x)).collect::<Vec<_>>().join(", ")
    )
}

fn py_bool(b: bool) -> &'static str {
    if b {
        "True"
    } else {
        "False"
    }
}

impl std::fmt::Display for Gluon {
    /// The constructor text (keywords), as Triton's `repr()` prints it.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let us = |v: &[usize]| list(&v.iter().map(|&x| x as u64).collect::<Vec<_>>());
        match self {
            Gluon::Blocked {
                size_per_thread,
                threads_per_warp,
                warps_per_cta,
                order,
                cga_layout,
            } => write!(
                f,
                "BlockedLayout(size_per_thread={}, threads_per_warp={}, warps_per_cta={}, order={}, cga_layout={})",
                list(size_per_thread),
                list(threads_per_warp),
                list(warps_per_cta),
                us(order),
                lists(cga_layout)
            ),
            Gluon::Slice { dim, parent } => write!(f, "SliceLayout(dim={dim}, parent={parent})"),
            Gluon::DotOperand {
                operand_index,
                parent,
                k_width,
            } => write!(f, "DotOperandLayout(operand_index={operand_index}, parent={parent}, k_width={k_width})"),
            Gluon::NvmmaDistributed {
                version,
                warps_per_cta,
                instr_shape,
                cga_layout,
            } => write!(
                f,
                "NVMMADistributedLayout(version={}, warps_per_cta={}, instr_shape={}, cga_layout={})",
                list(version),
                list(warps_per_cta),
                list(instr_shape),
                lists(cga_layout)
            ),
            Gluon::DistributedLinear {
                reg_bases,
                lane_bases,
                warp_bases,
                block_bases,
                shape,
            } => write!(
                f,
                "DistributedLinearLayout(reg_bases={}, lane_bases={}, warp_bases={}, block_bases={}, shape={})",
                lists(reg_bases),
                lists(lane_bases),
                lists(warp_bases),
                lists(block_bases),
                list(shape)
            ),
            Gluon::NvmmaShared {
                swizzle_byte_width,
                element_bitwidth,
                rank,
                transposed,
                fp4_padded,
                cga_layout,
            } => write!(
                f,
                "NVMMASharedLayout(swizzle_byte_width={swizzle_byte_width}, element_bitwidth={element_bitwidth}, rank={rank}, transposed={}, fp4_padded={}, cga_layout={})",
                py_bool(*transposed),
                py_bool(*fp4_padded),
                lists(cga_layout)
            ),
            Gluon::SwizzledShared {
                vec,
                per_phase,
                max_phase,
                order,
                cga_layout,
            } => write!(
                f,
                "SwizzledSharedLayout(vec={vec}, per_phase={per_phase}, max_phase={max_phase}, order={}, cga_layout={})",
                us(order),
                lists(cga_layout)
            ),
            Gluon::PaddedShared {
                interval_padding_pairs,
                offset_bases,
                cga_layout,
                shape,
            } => write!(
                f,
                "PaddedSharedLayout(interval_padding_pairs={}, offset_bases={}, cga_layout={}, shape={})",
                lists(&interval_padding_pairs.iter().map(|&(i, p)| vec![i, p]).collect::<Vec<_>>()),
                lists(offset_bases),
                lists(cga_layout),
                list(shape)
            ),
            Gluon::SharedLinear {
                offset_bases,
                block_bases,
                alignment,
            } => write!(
                f,
                "SharedLinearLayout(offset_bases={}, block_bases={}, alignment={alignment})",
                lists(offset_bases),
                lists(block_bases)
            ),
        }
    }
}
