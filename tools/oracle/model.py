"""Plain-Python model of CuTe values used by the oracle generator.

Nothing here imports pycute: this module is the *independent* side of the differential test.
It provides
  * value types (IntTuple = int | tuple, Lay = layout, U = the `_` underscore),
  * rendering into Tessera's expression notation, into C++ source, into pycute objects,
  * a parser for C++'s printed results (after removing the `_` static markers),
  * layout evaluation (colexicographic coordinates, last mode unbounded) and the
    post-condition checks recorded as `cpp_post_ok`.
"""
from collections import Counter


class Lay:
    """A layout shape:stride (shape and stride congruent IntTuples)."""
    __slots__ = ("shape", "stride")

    def __init__(self, shape, stride):
        self.shape = shape
        self.stride = stride

    def __eq__(self, o):
        return isinstance(o, Lay) and self.shape == o.shape and self.stride == o.stride

    def __hash__(self):
        return hash((self.shape, self.stride))

    def __repr__(self):
        return expr(self)


class _Under:
    def __repr__(self):
        return "_"


U = _Under()


# --------------------------------------------------------------------------- rendering

def expr(v):
    """Tessera expression notation (C++ notation without `_` static markers, no spaces)."""
    if v is U:
        return "_"
    if isinstance(v, Lay):
        return f"{expr(v.shape)}:{expr(v.stride)}"
    if isinstance(v, bool):
        raise TypeError(v)
    if isinstance(v, int):
        return str(v)
    if isinstance(v, tuple):
        return "(" + ",".join(expr(x) for x in v) + ")"
    raise TypeError(v)


def cpp(v, kind="tuple"):
    """C++ source building v with all-static integers (`Int<N>{}`)."""
    if v is U:
        return "_"
    if isinstance(v, Lay):
        return f"make_layout({cpp(v.shape)}, {cpp(v.stride)})"
    if isinstance(v, int):
        return f"Int<{v}>{{}}"
    if isinstance(v, tuple):
        fn = {"tuple": "make_tuple", "tile": "make_tile", "coord": "make_coord",
              "shape": "make_shape", "step": "make_step"}[kind]
        return f"cute::{fn}(" + ", ".join(cpp(x, kind) for x in v) + ")"
    raise TypeError(v)


def cpp_dyn(v):
    """C++ source building v with dynamic (plain `int`) integers."""
    if isinstance(v, Lay):
        return f"make_layout({cpp_dyn(v.shape)}, {cpp_dyn(v.stride)})"
    if isinstance(v, int):
        return f"int({v})"
    return "cute::make_tuple(" + ", ".join(cpp_dyn(x) for x in v) + ")"


def to_pycute(v, pc):
    """Convert to a pycute object (`_` becomes None)."""
    if v is U:
        return None
    if isinstance(v, Lay):
        return pc.Layout(v.shape, v.stride)
    if isinstance(v, int):
        return v
    return tuple(to_pycute(x, pc) for x in v)


def pycute_text(r):
    """pycute's str() converted to C++ notation: no spaces, (x,) -> (x)."""
    s = str(r).replace(" ", "")
    return s.replace(",)", ")")


# --------------------------------------------------------------------------- parsing

def parse_tuple(s):
    pos = 0

    def p():
        nonlocal pos
        if s[pos] == "(":
            pos += 1
            items = []
            if s[pos] == ")":
                pos += 1
                return ()
            while True:
                items.append(p())
                if s[pos] == ",":
                    pos += 1
                    continue
                if s[pos] == ")":
                    pos += 1
                    return tuple(items)
                raise ValueError(f"bad tuple text {s!r} at {pos}")
        j = pos
        if s[pos] == "-":
            pos += 1
        while pos < len(s) and s[pos].isdigit():
            pos += 1
        if j == pos:
            raise ValueError(f"bad int in {s!r} at {pos}")
        return int(s[j:pos])

    v = p()
    if pos != len(s):
        raise ValueError(f"trailing text in {s!r}")
    return v


def parse_value(s):
    """Parse C++'s printed value with `_` markers already removed: a layout or an IntTuple."""
    if ":" in s:
        a, b = s.split(":")
        return Lay(parse_tuple(a), parse_tuple(b))
    return parse_tuple(s)


# --------------------------------------------------------------------------- IntTuple helpers

def size(t):
    if isinstance(t, Lay):
        return size(t.shape)
    if isinstance(t, int):
        return t
    r = 1
    for x in t:
        r *= size(x)
    return r


def leaves(t):
    if isinstance(t, int):
        return [t]
    out = []
    for x in t:
        out.extend(leaves(x))
    return out


def leaves_any(t):
    """Leaves of a tuple of arbitrary values (layouts, ints, `_`)."""
    if isinstance(t, tuple):
        out = []
        for x in t:
            out.extend(leaves_any(x))
        return out
    return [t]


def rank(t):
    if isinstance(t, Lay):
        t = t.shape
    return len(t) if isinstance(t, tuple) else 1


def depth(t):
    if isinstance(t, Lay):
        t = t.shape
    if isinstance(t, int):
        return 0
    return 1 + max((depth(x) for x in t), default=0)


def flatten_t(t):
    return tuple(leaves(t)) if isinstance(t, tuple) else t


def mode(L, k):
    if isinstance(L.shape, tuple):
        return Lay(L.shape[k], L.stride[k])
    assert k == 0
    return L


def cosize_cpp(L):
    return sum((s - 1) * abs(d) for s, d in zip(leaves(L.shape), leaves(L.stride))) + 1


def cdiv(a, b):
    """C/C++ integer division (truncates toward zero)."""
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b > 0) else -q


def cmod(a, b):
    """C/C++ remainder (sign of the dividend)."""
    return a - b * cdiv(a, b)


def crd2idx(c, shape, stride):
    """CuTe crd2idx: integer coordinates are split colexicographically, last mode unbounded."""
    if isinstance(c, tuple):
        assert isinstance(shape, tuple) and len(c) == len(shape) == len(stride)
        return sum(crd2idx(a, s, d) for a, s, d in zip(c, shape, stride))
    if isinstance(shape, int):
        return c * stride
    r = 0
    for k in range(len(shape) - 1):
        n = size(shape[k])
        r += crd2idx(cmod(c, n), shape[k], stride[k])
        c = cdiv(c, n)
    if len(shape) == 0:
        return 0
    return r + crd2idx(c, shape[-1], stride[-1])


def idx2crd(i, shape):
    """Colexicographic coordinate of i in shape, last mode unbounded (CuTe 2-argument idx2crd)."""
    if isinstance(i, tuple):
        return tuple(idx2crd(a, s) for a, s in zip(i, shape))
    if isinstance(shape, int):
        return i
    out = []
    for k in range(len(shape) - 1):
        n = size(shape[k])
        out.append(idx2crd(cmod(i, n), shape[k]))
        i = cdiv(i, n)
    out.append(idx2crd(i, shape[-1]))
    return tuple(out)


def ev(L, i):
    return crd2idx(i, L.shape, L.stride)


def vals(L):
    return [ev(L, i) for i in range(size(L))]


def injective(L):
    v = vals(L)
    return len(set(v)) == len(v)


def as_layout(t):
    """A tiler element as a layout: an integer n is n:1."""
    if isinstance(t, int):
        return Lay(t, 1)
    return t


def slice_expected(c, shape):
    """C++ slice on an IntTuple (tuple_cat flattening one level per tuple level)."""
    if c is U:
        return (shape,)
    if isinstance(c, tuple):
        out = ()
        for a, s in zip(c, shape):
            out += slice_expected(a, s)
        return out
    return ()


def has_under(c):
    if c is U:
        return True
    return isinstance(c, tuple) and any(has_under(x) for x in c)


# --------------------------------------------------------------------------- post-conditions

def chk_comp(A, B, R):
    """R == A o B: by-mode for tuple tilers, else size(R)==size(B) and R(i)==A(B(i))."""
    if isinstance(B, tuple):
        if rank(R) != len(B):
            return False
        return all(chk_comp(mode(A, k), B[k], mode(R, k)) for k in range(len(B)))
    B = as_layout(B)
    n = size(B)
    if size(R) != n:
        return False
    return all(ev(R, i) == ev(A, ev(B, i)) for i in range(n))


def chk_complement(A, M, R):
    """ordered (R(i) strictly increasing), disjoint (R(i) != A(j), i>=1), cosize((A,R)) >= M."""
    rv = vals(R)
    if any(rv[i] >= rv[i + 1] for i in range(len(rv) - 1)):
        return False
    av = set(vals(A))
    if any(x in av for x in rv[1:]):
        return False
    AR = Lay((A.shape, R.shape), (A.stride, R.stride))
    return cosize_cpp(AR) >= M


def pointwise_eq(X, Y):
    return size(X) == size(Y) and all(ev(X, i) == ev(Y, i) for i in range(size(X)))


def chk_divide_mode(A, B, R):
    """one mode of a logical_divide: layout<0>(R) == A o B, size(R)==size(A), same multiset of values."""
    if isinstance(B, tuple):
        return chk_divide_bymode(A, B, R)
    if size(R) != size(A) or Counter(vals(R)) != Counter(vals(A)):
        return False
    return chk_comp(A, B, mode(R, 0))


def chk_divide_bymode(A, T, R):
    if rank(R) != rank(A):
        return False
    for k in range(rank(A)):
        if k < len(T):
            if not chk_divide_mode(mode(A, k), T[k], mode(R, k)):
                return False
        elif not pointwise_eq(mode(A, k), mode(R, k)):
            return False
    return True


def chk_divide(op, A, T, R):
    if op == "logical_divide":
        return chk_divide_mode(A, T, R)
    # zipped / tiled / flat: whole-layout re-indexing + tile part equal to A o T
    if size(R) != size(A) or Counter(vals(R)) != Counter(vals(A)):
        return False
    if isinstance(T, tuple):
        if op == "flat_divide":
            tiles = [mode(R, k) for k in range(len(T))]
        else:
            R0 = mode(R, 0)
            if rank(R0) != len(T):
                return False
            tiles = [mode(R0, k) for k in range(len(T))]
        return all(chk_comp(mode(A, k), T[k], tiles[k]) for k in range(len(T)))
    if op == "flat_divide":
        return True
    return chk_comp(A, T, mode(R, 0))


def tiler_size(T):
    if isinstance(T, tuple):
        r = 1
        for x in T:
            r *= tiler_size(x)
        return r
    return size(as_layout(T))


def tiler_injective(T):
    if isinstance(T, tuple):
        return all(tiler_injective(x) for x in T)
    return injective(as_layout(T))


def chk_product(op, A, T, R):
    """size(R)==size(A)*size(T); the A-part equals A; R injective when A and T are."""
    if size(R) != size(A) * tiler_size(T):
        return False
    # injectivity is a whole-layout property only for a Layout tiler; a by-mode product is
    # injective mode by mode (checked recursively for logical_product), not across modes.
    if not isinstance(T, tuple) and injective(A) and tiler_injective(T) and not injective(R):
        return False
    if op == "logical_product":
        if isinstance(T, tuple):
            for k in range(rank(A)):
                if k < len(T):
                    if not chk_product(op, mode(A, k), T[k], mode(R, k)):
                        return False
                elif not pointwise_eq(mode(A, k), mode(R, k)):
                    return False
            return True
        return pointwise_eq(mode(R, 0), A)
    if op in ("zipped_product", "tiled_product"):
        R0 = mode(R, 0)
        if isinstance(T, tuple):
            return all(pointwise_eq(mode(R0, k), mode(A, k)) for k in range(len(T)))
        return pointwise_eq(R0, A)
    return True


def chk_filter(L, R):
    """same image, size = product of the nonzero-stride modes, no stride-0 mode left (or R == 1:0)."""
    keep = 1
    for s, d in zip(leaves(L.shape), leaves(L.stride)):
        if d != 0:
            keep *= s
    no_zero = R == Lay(1, 0) or all(d != 0 for s, d in zip(leaves(R.shape), leaves(R.stride)) if s != 1)
    return size(R) == keep and set(vals(R)) == set(vals(L)) and no_zero


def post_check(op, args, R):
    """cpp_post_ok for C++'s parsed result R, or None where there is no check for op."""
    a = args
    if isinstance(R, Lay) and op not in ("upcast", "downcast") and any(s < 1 for s in leaves(R.shape)):
        return False  # a shape entry <= 0 is not a layout (C++ prints such results for negative strides)
    if op == "coalesce":
        L = a[0]
        ok = size(R) == size(L) and all(ev(R, i) == ev(L, i) for i in range(size(L)))
        if len(a) == 1:
            ok = ok and depth(R) <= 1
        return ok
    if op == "filter":
        return chk_filter(a[0], R)
    if op == "composition":
        return chk_comp(a[0], a[1], R)
    if op == "complement":
        A = a[0]
        if len(a) == 1:
            fv = [(s, d) for s, d in zip(leaves(A.shape), leaves(A.stride)) if d != 0 and s != 1]
            M = sum((s - 1) * abs(d) for s, d in fv) + 1
        else:
            M = size(a[1])
        return chk_complement(A, M, R)
    if op == "right_inverse":
        L = a[0]
        return all(0 <= ev(R, i) < size(L) and ev(L, ev(R, i)) == i for i in range(size(R)))
    if op == "left_inverse":
        L = a[0]
        return all(ev(L, ev(R, ev(L, i))) == ev(L, i) for i in range(size(L)))
    if op in ("logical_divide", "zipped_divide", "tiled_divide", "flat_divide"):
        return chk_divide(op, a[0], a[1], R)
    if op in ("logical_product", "zipped_product", "tiled_product", "flat_product",
              "blocked_product", "raked_product"):
        return chk_product(op, a[0], a[1], R)
    if op == "tile_to_shape":
        S = a[1]
        if rank(R) != rank(S) or size(R) != size(S):
            return False
        if isinstance(S, tuple) and any(size(mode(R, k)) != size(S[k]) for k in range(len(S))):
            return False
        return (not injective(a[0])) or injective(R)
    if op == "make_ordered_layout":
        return R.shape == a[0] and sorted(vals(R)) == list(range(size(R)))
    if op == "nullspace":
        L = a[0]
        keep = 1
        for s, d in zip(leaves(L.shape), leaves(L.stride)):
            if d != 0:
                keep *= s
        return (size(R) == size(L) // keep and injective(R)
                and all(0 <= ev(R, i) < size(L) and ev(L, ev(R, i)) == 0 for i in range(size(R))))
    if op == "max_common_layout":
        A, B = a
        return all(ev(A, ev(R, i)) == i and ev(B, ev(R, i)) == i for i in range(size(R)))
    if op == "size":
        return R == size(a[0])
    if op == "cosize":
        return R == cosize_cpp(a[0])
    if op == "rank":
        return R == rank(a[0])
    if op == "depth":
        return R == depth(a[0])
    if op == "flatten":
        L = a[0]
        return R == Lay(flatten_t(L.shape), flatten_t(L.stride))
    if op == "idx2crd":
        return R == idx2crd(a[0], a[1])
    if op == "crd2idx":
        return R == crd2idx(a[0], a[1], a[2])
    if op == "slice":
        c, L = a
        if c is U:
            return R == L
        return R == Lay(slice_expected(c, L.shape), slice_expected(c, L.stride))
    return None
