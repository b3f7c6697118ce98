//! The transform DAG: IterDomains, the transforms between them, the loop and allocation domains.

use super::error::{Error, Result};
use super::symbolic::{Decision, Extent, Fact, Facts};
use std::fmt;

/// A schedule holds at most this many IterDomains (2^18: a 100,000-split chain fits; every
/// analysis runs in O(n log n) in them, so the limit bounds memory, not time).
///
/// Pre/Post: declaring one more is [`Error::TooLarge`]. Example: real nvFuser tensors have tens.
pub const MAX_IDS: usize = 1 << 18;

/// An IterDomain's extent expression has at most this many nodes (constants, symbols and
/// operations): keeps printing, evaluating and storing every extent constant-time, so a chain of
/// symbolic merges cannot grow quadratically.
///
/// Pre/Post: an IterDomain whose extent is larger is [`Error::ExtentTooLarge`]. Example:
/// `ceilDiv(N * M, 128)` has 4 nodes; a chain of 32 merges of symbolic extents has 63.
pub const MAX_EXTENT_NODES: usize = 64;

/// Index of an IterDomain inside its [`Schedule`].
pub type Id = usize;

/// One IterDomain: a named axis `0 <= i < extent`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IterDomain {
    /// The name used in reports and generated code.
    pub name: String,
    /// The extent.
    pub extent: Extent,
    /// The transform that produced it (`None` for a root).
    pub definition: Option<usize>,
}

/// Split kind: which output gets the factor as extent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SplitKind {
    /// `(ceilDiv(N, f), f)`.
    Inner,
    /// `(f, ceilDiv(N, f))`.
    Outer,
}

/// An IterDomain expression.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Transform {
    /// `outer, inner = split input by factor`; `input = outer * extent(inner) + inner`.
    Split {
        /// Input.
        input: Id,
        /// Outer output.
        outer: Id,
        /// Inner output.
        inner: Id,
        /// The factor.
        factor: i64,
        /// Inner or outer split.
        kind: SplitKind,
    },
    /// `output = merge outer, inner`; `output = outer * extent(inner) + inner`.
    Merge {
        /// Outer input.
        outer: Id,
        /// Inner input.
        inner: Id,
        /// Output.
        output: Id,
    },
    /// `output = resize input by left, right`; `output = input + left`.
    Resize {
        /// Input.
        input: Id,
        /// Output.
        output: Id,
        /// Left expansion (negative: slice).
        left: i64,
        /// Right expansion (negative: slice).
        right: i64,
    },
    /// `out_x, out_y = swizzle xor x, y`; `out_x = x`, `out_y = x ^ y` (self-inverse).
    Swizzle {
        /// X input.
        x: Id,
        /// Y input.
        y: Id,
        /// X output.
        out_x: Id,
        /// Y output.
        out_y: Id,
    },
}

impl Transform {
    /// Inputs of the transform.
    ///
    /// Pre: none. Post: one or two IDs. Example: a merge's inputs are `[outer, inner]`.
    pub fn inputs(&self) -> Vec<Id> {
        match *self {
            Transform::Split { input, .. } | Transform::Resize { input, .. } => vec![input],
            Transform::Merge { outer, inner, .. } => vec![outer, inner],
            Transform::Swizzle { x, y, .. } => vec![x, y],
        }
    }
    /// Outputs of the transform.
    ///
    /// Pre: none. Post: one or two IDs. Example: a split's outputs are `[outer, inner]`.
    pub fn outputs(&self) -> Vec<Id> {
        match *self {
            Transform::Split { outer, inner, .. } => vec![outer, inner],
            Transform::Resize { output, .. } | Transform::Merge { output, .. } => vec![output],
            Transform::Swizzle { out_x, out_y, .. } => vec![out_x, out_y],
        }
    }
}

/// Memory description of an allocation domain.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Allocation {
    /// Allocated IterDomains, outermost first.
    pub ids: Vec<Id>,
    /// Element strides, one per allocated ID (`None`: contiguous row-major).
    pub strides: Option<Vec<i64>>,
}

/// A transform DAG from root domains to a loop domain, with an optional allocation domain and
/// facts about symbolic extents.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Schedule {
    /// All IterDomains in definition order.
    pub ids: Vec<IterDomain>,
    /// All transforms in definition order.
    pub transforms: Vec<Transform>,
    /// The loop domain (`None`: the leaves, in definition order).
    pub loop_domain: Option<Vec<Id>>,
    /// The allocation domain (`None`: the roots, contiguous).
    pub allocation: Option<Allocation>,
    /// IterDomains marked vectorized (`vectorize I`).
    pub vectorized: Vec<Id>,
    /// IterDomains marked as a TMA box (`box I`).
    pub boxes: Vec<Id>,
    /// Loop IterDomains marked unswitched (`unswitch I`): the predicate is hoisted out of them.
    pub unswitched: Vec<Id>,
    /// Facts about symbols.
    pub facts: Facts,
    /// Lookup tables kept by the builder methods (not part of the value).
    index: Index,
}

/// Name → IterDomain and symbol → IterDomains mentioning it, for the first `covered` IterDomains.
///
/// A cache: [`Schedule::fresh`] extends it, and rebuilds it when `ids` was edited directly (its
/// length no longer matches). Equality ignores it.
#[derive(Debug, Clone, Default)]
struct Index {
    names: std::collections::HashMap<String, Id>,
    by_symbol: std::collections::HashMap<String, Vec<Id>>,
    covered: usize,
}

impl PartialEq for Index {
    fn eq(&self, _: &Index) -> bool {
        true
    }
}

impl Eq for Index {}

impl Index {
    fn add(&mut self, id: Id, d: &IterDomain) {
        self.names.entry(d.name.clone()).or_insert(id);
        let mut syms = Vec::new();
        d.extent.symbols(&mut syms);
        for sym in syms {
            self.by_symbol.entry(sym).or_default().push(id);
        }
        self.covered = id + 1;
    }

    fn sync(&mut self, ids: &[IterDomain]) {
        if self.covered != ids.len() || self.names.len() > ids.len() {
            *self = Index::default();
            for (i, d) in ids.iter().enumerate() {
                self.add(i, d);
            }
        }
    }
}

impl Schedule {
    /// An empty schedule.
    ///
    /// Pre: none. Post: no IterDomains, no facts. Example: `Schedule::new().ids.is_empty()`.
    pub fn new() -> Schedule {
        Schedule::default()
    }

    /// Looks an IterDomain up by name.
    ///
    /// Post: `Err(UnknownId)` when absent. Example: after `iter("I0", 6)`, `id("I0") == Ok(0)`.
    ///
    /// Pre: none.
    pub fn id(&self, name: &str) -> Result<Id> {
        if let Some(&i) = self.index.names.get(name) {
            if self.ids.get(i).is_some_and(|d| d.name == name) {
                return Ok(i);
            }
        }
        self.ids
            .iter()
            .position(|d| d.name == name)
            .ok_or_else(|| Error::UnknownId(name.to_string()))
    }

    /// The name of an IterDomain.
    ///
    /// Pre: `id` exists (an index from this schedule). Post: the declared name. Example: `s.name(0)`
    /// is `"I0"` for the three-splits example.
    pub fn name(&self, id: Id) -> &str {
        &self.ids[id].name
    }

    fn fresh(&mut self, name: &str, extent: Extent, def: Option<usize>) -> Result<Id> {
        if self.ids.len() >= MAX_IDS {
            return Err(Error::TooLarge {
                count: self.ids.len() + 1,
                limit: MAX_IDS,
            });
        }
        self.index.sync(&self.ids);
        if let Some(&i) = self.index.names.get(name) {
            if self.ids[i].name == name {
                return Err(Error::Redefined(name.to_string()));
            }
            // Renamed by hand since indexed: fall back to a scan.
            if self.ids.iter().any(|d| d.name == name) {
                return Err(Error::Redefined(name.to_string()));
            }
        }
        let nodes = extent.nodes();
        if nodes > MAX_EXTENT_NODES {
            return Err(Error::ExtentTooLarge {
                id: name.to_string(),
                nodes,
                limit: MAX_EXTENT_NODES,
            });
        }
        if self.facts.at_least(&extent, 1)? == Decision::No {
            let v = extent.eval(&self.facts)?.unwrap_or(0);
            return Err(Error::NonPositiveExtent {
                id: name.to_string(),
                extent: v,
            });
        }
        let d = IterDomain {
            name: name.to_string(),
            extent,
            definition: def,
        };
        self.index.add(self.ids.len(), &d);
        self.ids.push(d);
        Ok(self.ids.len() - 1)
    }

    fn check(&self, id: Id) -> Result<()> {
        if id < self.ids.len() {
            Ok(())
        } else {
            Err(Error::UnknownId(format!("#{id}")))
        }
    }

    /// Declares a root IterDomain.
    ///
    /// Pre: `name` is new; the extent is not provably `< 1`. Post: a root with that extent.
    /// Example: `s.iter("I0", Extent::Const(15))`.
    pub fn iter(&mut self, name: &str, extent: Extent) -> Result<Id> {
        self.fresh(name, extent, None)
    }

    /// Splits `input` by `factor`; returns `(outer, inner)`.
    ///
    /// Pre: `factor > 0`; names new. Post: inner split gives extents `(ceilDiv(N, f), f)`, outer
    /// split `(f, ceilDiv(N, f))`; `input = outer * extent(inner) + inner`. Indivisible splits create
    /// `ceilDiv(N, f) * f - N` holes.
    /// Example: splitting `I0{6}` by 4 gives `I1{2}, I2{4}` and 2 holes.
    pub fn split(
        &mut self,
        input: Id,
        factor: i64,
        kind: SplitKind,
        outer_name: &str,
        inner_name: &str,
    ) -> Result<(Id, Id)> {
        self.check(input)?;
        if factor <= 0 {
            return Err(Error::BadFactor {
                id: self.name(input).to_string(),
                factor,
            });
        }
        let n = self.ids[input].extent.clone();
        let rem = n.ceil_div(factor)?;
        let (eo, ei) = match kind {
            SplitKind::Inner => (rem, Extent::Const(factor)),
            SplitKind::Outer => (Extent::Const(factor), rem),
        };
        let t = self.transforms.len();
        let outer = self.fresh(outer_name, eo, Some(t))?;
        let inner = self.fresh(inner_name, ei, Some(t))?;
        self.transforms.push(Transform::Split {
            input,
            outer,
            inner,
            factor,
            kind,
        });
        Ok((outer, inner))
    }

    /// Merges `outer` and `inner` into one IterDomain of extent `extent(outer) * extent(inner)`.
    ///
    /// Pre: distinct inputs; name new. Post: `output = outer * extent(inner) + inner`. A merge
    /// creates no holes (Theorem 2 (merge)).
    /// Example: merging `I1{2}` and `I2{5}` gives `I3{10}`.
    pub fn merge(&mut self, outer: Id, inner: Id, name: &str) -> Result<Id> {
        if outer == inner && outer < self.ids.len() {
            return Err(Error::SelfMerge(self.name(outer).to_string()));
        }
        self.check(outer)?;
        self.check(inner)?;
        let e = self.ids[outer].extent.mul(&self.ids[inner].extent)?;
        let t = self.transforms.len();
        let output = self.fresh(name, e, Some(t))?;
        self.transforms.push(Transform::Merge {
            outer,
            inner,
            output,
        });
        Ok(output)
    }

    /// Resizes `input` by `left`, `right` (negative amounts slice).
    ///
    /// Pre: the new extent `N + left + right` is not provably `< 1`. Post: `output = input + left`.
    /// Positive amounts create holes (Theorem 3 (resize) covers `left, right >= 0`).
    /// Example: resizing `I0{6}` by `-1, 2` gives `I1{7}`.
    pub fn resize(&mut self, input: Id, left: i64, right: i64, name: &str) -> Result<Id> {
        self.check(input)?;
        let total = left.checked_add(right).ok_or(Error::Overflow {
            op: "add",
            a: left,
            b: right,
        })?;
        let e = self.ids[input].extent.add(total)?;
        let t = self.transforms.len();
        let output = self.fresh(name, e, Some(t))?;
        self.transforms.push(Transform::Resize {
            input,
            output,
            left,
            right,
        });
        Ok(output)
    }

    /// XOR-swizzles `x` and `y`; returns `(out_x, out_y)` with the same extents as the inputs.
    ///
    /// Pre: distinct inputs. Post: `out_x = x`, `out_y = x ^ y` (self-inverse); Theorem 4
    /// (swizzle): `x` in bound iff `out_x` in bound. When `extent(y)` is not a power of two at
    /// least `extent(x)`, `x ^ y` can leave its range: the swizzle then creates holes.
    /// Example: swizzling `I1{4}, I2{4}` maps `(1, 2)` to `(1, 3)`.
    pub fn swizzle(
        &mut self,
        x: Id,
        y: Id,
        out_x_name: &str,
        out_y_name: &str,
    ) -> Result<(Id, Id)> {
        if x == y && x < self.ids.len() {
            return Err(Error::SwizzleSameInput(self.name(x).to_string()));
        }
        self.check(x)?;
        self.check(y)?;
        let (ex, ey) = (self.ids[x].extent.clone(), self.ids[y].extent.clone());
        let t = self.transforms.len();
        let out_x = self.fresh(out_x_name, ex, Some(t))?;
        let out_y = self.fresh(out_y_name, ey, Some(t))?;
        self.transforms
            .push(Transform::Swizzle { x, y, out_x, out_y });
        Ok((out_x, out_y))
    }

    /// Adds a fact about a symbol.
    ///
    /// Pre: consistent with earlier facts. Post: later decisions may use it; extents already
    /// declared are re-checked for positivity.
    /// Example: `s.assume(Fact::Divisible("N".into(), 8))`.
    pub fn assume(&mut self, fact: Fact) -> Result<()> {
        let sym = match &fact {
            Fact::Divisible(s, _) | Fact::AtLeast(s, _) | Fact::Equals(s, _) => s.clone(),
        };
        self.facts.assume(fact)?;
        // Only extents mentioning the symbol can change their decision.
        self.index.sync(&self.ids);
        let mentioning = self.index.by_symbol.get(&sym).map_or(&[][..], |v| &v[..]);
        for d in mentioning.iter().map(|&i| &self.ids[i]) {
            if self.facts.at_least(&d.extent, 1)? == Decision::No {
                return Err(Error::NonPositiveExtent {
                    id: d.name.clone(),
                    extent: d.extent.eval(&self.facts)?.unwrap_or(0),
                });
            }
        }
        Ok(())
    }

    /// Root IterDomains (no definition), in definition order.
    ///
    /// Pre: none. Post: IDs with `definition == None`. Example: the split-then-merge and merge-then-split orders have roots `[I1, I2]`.
    pub fn roots(&self) -> Vec<Id> {
        (0..self.ids.len())
            .filter(|&i| self.ids[i].definition.is_none())
            .collect()
    }

    /// Leaves: IterDomains used by no transform, in definition order.
    ///
    /// Pre: transforms reference existing IDs. Post: IDs that are no transform's input.
    /// Example: the three-splits example's leaves are `I3, I4, I5, I6`.
    pub fn leaves(&self) -> Vec<Id> {
        let mut used = vec![false; self.ids.len()];
        for t in &self.transforms {
            for i in t.inputs() {
                used[i] = true;
            }
        }
        (0..self.ids.len()).filter(|&i| !used[i]).collect()
    }

    /// The loop domain: the declared one, or the leaves.
    ///
    /// Post: non-empty, no repeats (else [`Error::BadLoop`]).
    ///
    /// Pre: none (the schedule is validated first). Example: the three-splits example gives `[I3, I4, I5, I6]`.
    pub fn loop_ids(&self) -> Result<Vec<Id>> {
        self.validate()?;
        let l = match &self.loop_domain {
            Some(l) => l.clone(),
            None => self.leaves(),
        };
        if l.is_empty() {
            return Err(Error::BadLoop("the loop domain is empty".into()));
        }
        let mut seen = vec![false; self.ids.len()];
        for &a in &l {
            if std::mem::replace(&mut seen[a], true) {
                return Err(Error::BadLoop(format!("{} listed twice", self.name(a))));
            }
        }
        Ok(l)
    }

    /// The allocation domain: the declared one, or the roots (contiguous).
    ///
    /// Post: IDs exist, strides (if any) are one per ID and non-negative (else
    /// [`Error::BadAlloc`]). Example: with no `alloc` statement, the three-splits example's allocation is `[I0]`.
    ///
    /// Pre: none.
    pub fn allocation(&self) -> Result<Allocation> {
        self.validate()?;
        let a = self.allocation.clone().unwrap_or_else(|| Allocation {
            ids: self.roots(),
            strides: None,
        });
        if a.ids.is_empty() {
            return Err(Error::BadAlloc("the allocation domain is empty".into()));
        }
        if let Some(st) = &a.strides {
            if st.len() != a.ids.len() {
                return Err(Error::BadAlloc(format!(
                    "{} strides for {} allocated IterDomains",
                    st.len(),
                    a.ids.len()
                )));
            }
            if let Some(k) = st.iter().position(|&x| x < 0) {
                return Err(Error::BadAlloc(format!(
                    "stride {} of {} is negative",
                    st[k],
                    self.name(a.ids[k])
                )));
            }
        }
        Ok(a)
    }

    /// Checks that every reference inside the schedule is in range and that the transforms form a
    /// DAG (the fields are public, so a schedule built by hand may be inconsistent; the builder
    /// methods never produce that).
    ///
    /// Pre: none. Post: `Ok` iff every transform, definition, loop, allocation, vectorized and
    /// box reference names an existing IterDomain or transform, each IterDomain is defined by
    /// the transform its `definition` names, every transform reads only IterDomains defined
    /// before it (no cycle, [`Error::Cycle`]) and no merge or swizzle reads one IterDomain twice.
    /// (An IterDomain may feed several transforms, as in nvFuser's exact graph across tensors;
    /// [`super::eval::plan`] refuses a loop domain that determines it along two routes.) Example: a parsed schedule always validates.
    pub fn validate(&self) -> Result<()> {
        let n = self.ids.len();
        let bad = |what: String| Err(Error::UnknownId(what));
        for (t, tr) in self.transforms.iter().enumerate() {
            for i in tr.inputs().into_iter().chain(tr.outputs()) {
                if i >= n {
                    return bad(format!("#{i} (used by transform {t})"));
                }
            }
            let ins = tr.inputs();
            if ins.len() == 2 && ins[0] == ins[1] {
                return Err(match tr {
                    Transform::Merge { .. } => Error::SelfMerge(self.ids[ins[0]].name.clone()),
                    _ => Error::SwizzleSameInput(self.ids[ins[0]].name.clone()),
                });
            }
            for &i in &ins {
                if let Some(d) = self.ids[i].definition {
                    if d >= t {
                        return Err(Error::Cycle(format!(
                            "transform {t} reads {}, which transform {d} defines",
                            self.ids[i].name
                        )));
                    }
                }
            }
            for o in tr.outputs() {
                if self.ids[o].definition != Some(t) {
                    return Err(Error::Redefined(format!(
                        "{} (output of transform {t} but defined elsewhere)",
                        self.ids[o].name
                    )));
                }
            }
        }
        for d in &self.ids {
            if let Some(t) = d.definition {
                if t >= self.transforms.len()
                    || !self.transforms[t]
                        .outputs()
                        .iter()
                        .any(|&o| self.ids[o].name == d.name)
                {
                    return Err(Error::Redefined(format!(
                        "{} has an invalid definition",
                        d.name
                    )));
                }
            }
        }
        let lists = [
            self.loop_domain.clone().unwrap_or_default(),
            self.allocation
                .as_ref()
                .map(|a| a.ids.clone())
                .unwrap_or_default(),
            self.vectorized.clone(),
            self.boxes.clone(),
            self.unswitched.clone(),
        ];
        for l in &lists {
            if let Some(&i) = l.iter().find(|&&i| i >= n) {
                return bad(format!("#{i}"));
            }
        }
        Ok(())
    }

    /// Concrete extents of all IterDomains (`Err(Unbound)` if a symbol has no value).
    ///
    /// Post: every extent `>= 1` (else [`Error::NonPositiveExtent`]).
    ///
    /// Pre: none. Example: `I0 = iter N` with `assume N == 6` gives `[6]`; without it `Unbound("N")`.
    pub fn concrete_extents(&self) -> Result<Vec<i64>> {
        let mut out = Vec::with_capacity(self.ids.len());
        for d in &self.ids {
            match d.extent.eval(&self.facts)? {
                Some(v) if v >= 1 => out.push(v),
                Some(v) => {
                    return Err(Error::NonPositiveExtent {
                        id: d.name.clone(),
                        extent: v,
                    })
                }
                None => {
                    let mut syms = Vec::new();
                    d.extent.symbols(&mut syms);
                    let s = syms
                        .into_iter()
                        .find(|s| self.facts.value(s).is_none())
                        .unwrap_or_default();
                    return Err(Error::Unbound(s));
                }
            }
        }
        Ok(out)
    }

    /// Whether all extents evaluate (no unbound symbol).
    ///
    /// Pre: none. Post: `true` iff [`Schedule::concrete_extents`] succeeds. Example: `I0 = iter 6`
    /// is concrete.
    pub fn is_concrete(&self) -> bool {
        self.concrete_extents().is_ok()
    }

    /// Decides whether the split `t` is divisible (`factor | extent(input)`).
    ///
    /// Pre: `t` is a split. Post: [`Decision::Unknown`] when the facts do not decide it.
    ///
    /// Example: the three-splits example's splits are all `No`; `split I0{6} by 2` is `Yes`.
    pub fn split_divisible(&self, t: usize) -> Result<Decision> {
        match &self.transforms[t] {
            Transform::Split { input, factor, .. } => {
                self.facts.divides(*factor, &self.ids[*input].extent)
            }
            _ => Ok(Decision::No),
        }
    }

    /// A one-line description of transform `t` in the text format.
    ///
    /// Pre: `t` is a transform position. Post: parses back to the same transform.
    /// Example: `"I1, I2 = split I0 by 6"`.
    pub fn describe(&self, t: usize) -> String {
        let n = |i: Id| self.name(i);
        match &self.transforms[t] {
            Transform::Split {
                input,
                outer,
                inner,
                factor,
                kind,
            } => format!(
                "{}, {} = {}split {} by {}",
                n(*outer),
                n(*inner),
                if *kind == SplitKind::Outer {
                    "outer "
                } else {
                    ""
                },
                n(*input),
                factor
            ),
            Transform::Merge {
                outer,
                inner,
                output,
            } => {
                format!("{} = merge {}, {}", n(*output), n(*outer), n(*inner))
            }
            Transform::Resize {
                input,
                output,
                left,
                right,
            } => format!(
                "{} = resize {} by {}, {}",
                n(*output),
                n(*input),
                left,
                right
            ),
            Transform::Swizzle { x, y, out_x, out_y } => format!(
                "{}, {} = swizzle xor {}, {}",
                n(*out_x),
                n(*out_y),
                n(*x),
                n(*y)
            ),
        }
    }
}

impl fmt::Display for Schedule {
    /// Prints the schedule back in the text format.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for fact in &self.facts.list {
            writeln!(f, "assume {fact}")?;
        }
        for r in self.roots() {
            writeln!(f, "{} = iter {}", self.name(r), self.ids[r].extent)?;
        }
        for t in 0..self.transforms.len() {
            writeln!(f, "{}", self.describe(t))?;
        }
        if let Some(l) = &self.loop_domain {
            let names: Vec<&str> = l.iter().map(|&i| self.name(i)).collect();
            writeln!(f, "loop {}", names.join(" "))?;
        }
        Ok(())
    }
}
