//! Zero heap allocations on the hot paths: every operation, on layouts of rank ≤ 8 with ≤ 16
//! leaves, succeeds without touching the allocator. (Errors may allocate: they carry text.)

use std::alloc::{GlobalAlloc, Layout as AllocLayout, System};
use std::cell::Cell;
use std::hint::black_box;

use tessera::algebra::{self, decide, Tiler};
use tessera::layout::IntTuple;
use tessera::Layout;

/// Counts allocations made by the current thread (tests run on several threads).
struct Counting;

thread_local! {
    static ALLOCS: Cell<usize> = const { Cell::new(0) };
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: AllocLayout) -> *mut u8 {
        ALLOCS.with(|c| c.set(c.get() + 1));
        System.alloc(l)
    }
    unsafe fn dealloc(&self, p: *mut u8, l: AllocLayout) {
        System.dealloc(p, l)
    }
    unsafe fn realloc(&self, p: *mut u8, l: AllocLayout, n: usize) -> *mut u8 {
        ALLOCS.with(|c| c.set(c.get() + 1));
        System.realloc(p, l, n)
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// The number of allocations `f` makes on this thread.
fn allocations<R>(f: impl FnOnce() -> R) -> usize {
    let before = ALLOCS.with(|c| c.get());
    black_box(f());
    ALLOCS.with(|c| c.get()) - before
}

fn l(text: &str) -> Layout {
    text.parse().unwrap()
}

/// Rank ≤ 8, ≤ 16 leaves: MMA atoms, a rank-8 16-leaf layout, smem and GEMM layouts.
const LAYOUTS: &[&str] = &[
    "((4,8),(2,2,2)):((32,1),(16,8,128))",
    "((4,8,4),(2,2,32)):((128,1,16),(64,8,512))",
    "((2,2),(2,2),(2,2),(2,2),(2,2),(2,2),(2,2),(2,2)):((1,2),(4,8),(16,32),(64,128),(256,512),(1024,2048),(4096,8192),(16384,32768))",
    "(2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2):(1,2,4,8,16,32,64,128,256,512,1024,2048,4096,8192,16384,32768)",
    "((8,16),(64,1)):((64,512),(1,0))",
    "(4096,4096):(1,4096)",
    "(64,64):(1,65)",
    "(128,32):(32,1)",
    "8:2",
];

#[test]
fn unary_operations_do_not_allocate() {
    for text in LAYOUTS {
        let a = l(text);
        let size = a.size().unwrap();
        let m = IntTuple::leaf(4 * a.cosize().unwrap());
        assert_eq!(
            allocations(|| algebra::coalesce(&a).unwrap()),
            0,
            "coalesce {text}"
        );
        assert_eq!(
            allocations(|| algebra::filter(&a).unwrap()),
            0,
            "filter {text}"
        );
        assert_eq!(
            allocations(|| algebra::right_inverse(&a).unwrap()),
            0,
            "right_inverse {text}"
        );
        if algebra::left_inverse(&a).is_ok() {
            assert_eq!(
                allocations(|| algebra::left_inverse(&a).unwrap()),
                0,
                "left_inverse {text}"
            );
        }
        if algebra::complement(&a, &m).is_ok() {
            assert_eq!(
                allocations(|| algebra::complement(&a, &m).unwrap()),
                0,
                "complement {text}"
            );
        }
        assert_eq!(
            allocations(|| a.size().unwrap() + a.cosize().unwrap()),
            0,
            "size {text}"
        );
        assert_eq!(
            allocations(|| decide::is_injective(&a).unwrap()),
            0,
            "is_injective {text}"
        );
        assert_eq!(
            allocations(|| decide::is_bijection_onto(&a, size).unwrap()),
            0,
            "is_bijection_onto {text}"
        );
    }
}

#[test]
fn composition_divide_product_do_not_allocate() {
    let pairs = [
        ("(16,8):(1,16)", "((4,8),(2,2)):((32,1),(16,8))"),
        ("(16,16):(16,1)", "((4,8),(2,2,2)):((32,1),(16,8,128))"),
        (
            "(64,64):(64,1)",
            "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))",
        ),
        ("(4096,4096):(1,4096)", "(128,64):(1,4096)"),
        (LAYOUTS[2], "(16,16):(16,1)"),
        (LAYOUTS[3], "((4,4),(4,4)):((1,64),(4,16))"),
        ("((8,16),(64,1)):((64,512),(1,0))", "(128,64):(1,128)"),
    ];
    for (a, b) in pairs {
        let (a, b) = (l(a), l(b));
        assert_eq!(
            allocations(|| algebra::composition(&a, &b).unwrap()),
            0,
            "composition {a} o {b}"
        );
        assert_eq!(
            allocations(|| decide::is_admissible(&a, &b).unwrap()),
            0,
            "is_admissible {a} o {b}"
        );
    }
    let divides = [
        ("(4096,4096):(1,4096)", "128:1"),
        ("((4,8),(2,2,2)):((32,1),(16,8,128))", "(4,8):(1,4)"),
        (LAYOUTS[3], "(4,4):(1,4)"),
        (LAYOUTS[2], "16:1"),
    ];
    for (a, t) in divides {
        let (a, t) = (l(a), Tiler::Layout(l(t)));
        assert_eq!(
            allocations(|| algebra::logical_divide(&a, &t).unwrap()),
            0,
            "logical_divide {a} / {t:?}"
        );
    }
    let products = [
        ("(8,64):(64,1)", "(16,1):(1,16)"),
        ("((4,8),(2,2)):((32,1),(16,8))", "4:1"),
        (
            "((2,2),(2,2),(2,2),(2,2)):((1,2),(4,8),(16,32),(64,128))",
            "(2,4):(1,2)",
        ),
        ("32:1", "8:1"),
    ];
    for (a, t) in products {
        let (a, t) = (l(a), Tiler::Layout(l(t)));
        assert_eq!(
            allocations(|| algebra::logical_product(&a, &t).unwrap()),
            0,
            "logical_product {a} x {t:?}"
        );
    }
}

#[test]
fn by_mode_tilers_do_not_allocate() {
    let a = l("(4096,4096):(1,4096)");
    let t = Tiler::Tuple(vec![Tiler::Layout(l("128:1")), Tiler::Layout(l("64:1"))]);
    assert_eq!(
        allocations(|| algebra::logical_divide(&a, &t).unwrap()),
        0,
        "logical_divide by mode"
    );
    assert_eq!(
        allocations(|| algebra::logical_product(&a, &t).unwrap()),
        0,
        "logical_product by mode"
    );
    assert_eq!(
        allocations(|| algebra::composition_tiler(&a, &t).unwrap()),
        0,
        "composition by mode"
    );
}
