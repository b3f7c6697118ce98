//! Golden examples from the reference study (§7.3, §2.4) and CuTe's documentation, all verified
//! against CuTe C++ with static integers (printed here without `_` markers).

use tessera::notation::eval;

fn check(expr: &str, expected: &str) {
    match eval(expr) {
        Ok(v) => assert_eq!(v.to_string(), expected, "{expr}"),
        Err(e) => panic!("{expr}: unexpected error {e}"),
    }
}

fn rejects(expr: &str, code: &str) {
    match eval(expr) {
        Ok(v) => panic!("{expr}: expected error {code}, got {v}"),
        Err(e) => assert_eq!(e.code(), code, "{expr}: {e}"),
    }
}

#[test]
fn coalesce_examples() {
    check("coalesce((2,(1,6)):(1,(6,2)))", "12:1");
    check("coalesce((2,(1,6)):(1,(6,2)),(1,1))", "(2,6):(1,2)");
    check("filter((2,3,4):(0,1,0))", "3:1");
}

#[test]
fn composition_examples() {
    check(
        "composition((6,2):(8,2),(4,3):(3,1))",
        "((2,2),3):((24,2),8)",
    );
    check("composition(20:2,(5,4):(4,1))", "(5,4):(8,2)");
    check(
        "composition((10,2):(16,4),(5,4):(1,5))",
        "(5,(2,2)):(16,(80,4))",
    );
    check(
        "composition((12,(4,8)):(59,(13,1)),(3:4,8:2))",
        "(3,(2,4)):(236,(26,1))",
    );
    check(
        "composition((12,(4,8)):(59,(13,1)),(3,8))",
        "(3,(4,2)):(59,(13,1))",
    );
    check("composition((4,3):(3,1),24:1)", "(4,6):(3,1)");
    check("composition((4,6,8,10):(2,3,5,7),6:12)", "(2,3):(9,5)");
    // C++ extends A past its domain through coalesce_x (§5 rows 2-3).
    check("composition((4,1):(1,0),8:1)", "(4,2):(1,0)");
    check("composition(1:2,6:1)", "6:2");
    check("composition((2,1):(1,4),(8,6):(2,32))", "(8,6):(4,64)");
    check("composition((8,8):(8,1),3:3)", "3:24");
}

#[test]
fn composition_rejections() {
    // cutlass #3177: C++ returns (2,3):(6,3), wrong at 4 of 6 points.
    rejects(
        "composition((4,6,8):(2,3,5),6:3)",
        "inadmissible_composition",
    );
    // cutlass #2955: both implementations return (3,2):(2,3), wrong at one point.
    rejects(
        "composition((6,2):(1,7),(3,2):(2,3))",
        "inadmissible_composition",
    );
    // pycute returns 2:1 (size 2, not 3); C++ static_asserts.
    rejects("composition((2,4):(1,10),3:1)", "inadmissible_composition");
}

#[test]
fn complement_examples() {
    check("complement(4:1,24)", "6:4");
    check("complement(6:4,24)", "4:1");
    check("complement((4,6):(1,4),24)", "1:0");
    check("complement(4:2,24)", "(2,3):(1,8)");
    check("complement((2,4):(1,6),24)", "3:2");
    check("complement((2,2):(1,6),24)", "(3,2):(2,12)");
    check("complement(12:2,53)", "(2,3):(1,24)");
    rejects("complement((2,2):(1,1))", "non_injective");
}

#[test]
fn divide_examples() {
    check(
        "logical_divide((4,2,3):(2,1,8),4:2)",
        "((2,2),(2,3)):((4,1),(2,8))",
    );
    let a = "(9,(4,8)):(59,(13,1))";
    let t = "(3:3,(2,4):(1,8))";
    check(
        &format!("logical_divide({a},{t})"),
        "((3,3),((2,4),(2,2))):((177,59),((13,2),(26,1)))",
    );
    check(
        &format!("zipped_divide({a},{t})"),
        "((3,(2,4)),(3,(2,2))):((177,(13,2)),(59,(26,1)))",
    );
    check(
        &format!("tiled_divide({a},{t})"),
        "((3,(2,4)),3,(2,2)):((177,(13,2)),59,(26,1))",
    );
    check(
        &format!("flat_divide({a},{t})"),
        "(3,(2,4),3,(2,2)):(177,(13,2),59,(26,1))",
    );
    // C++ returns (2,(2,5)):(5,(10,1)), wrong at 17 of 20 points.
    rejects(
        "logical_divide((3,5):(5,1),2:1)",
        "inadmissible_composition",
    );
}

#[test]
fn product_examples() {
    check(
        "logical_product((2,2):(4,1),(4,2):(2,1))",
        "((2,2),(4,2)):((4,1),(8,2))",
    );
    check(
        "logical_product(3:32,(8,8):(8,1))",
        "(3,((4,2),8)):(32,((8,96),1))",
    );
    check(
        "logical_product((2,2):(4,1),6:1)",
        "((2,2),(2,3)):((4,1),(2,8))",
    );
    check("logical_product(3:1,4)", "(3,4):(1,3)");
    check(
        "blocked_product((2,5):(5,1),make_layout((3,4)))",
        "((2,3),(5,4)):((5,10),(1,30))",
    );
    check(
        "raked_product((2,5):(5,1),make_layout((3,4)))",
        "((3,2),(4,5)):((10,5),(30,1))",
    );
    check(
        "tile_to_shape((2,5):(5,1),(8,20))",
        "((2,4),(5,4)):((5,10),(1,40))",
    );
}

#[test]
fn inverse_examples() {
    check("right_inverse((2,4,6):(4,1,8))", "(4,2,6):(2,1,8)");
    check("left_inverse((8,4):(4,1))", "(4,8):(8,1)");
    check("right_inverse((2,3,2):(1,1,2))", "(2,2):(1,6)");
    check("left_inverse(4:2)", "(2,4):(0,1)");
    check("left_inverse((2,2,2):(4,0,1))", "(4,2):(4,1)");
}

#[test]
fn misc_examples() {
    check(
        "make_ordered_layout((2,2,2,2),(0,2,3,1))",
        "(2,2,2,2):(1,4,8,2)",
    );
    check("make_layout((2,1,3))", "(2,1,3):(1,0,2)");
    check("nullspace((7,5,16):(3,1,0))", "16:35");
    check("upcast((4,8):(1,4),2)", "(2,8):(1,2)");
    check("downcast((4,8):(1,4),2)", "(8,8):(1,8)");
    check("idx2crd(16,(3,(2,3)))", "(1,(1,2))");
    check("crd2idx(16,(3,(2,3)),(3,(12,1)))", "17");
    // 20 lies outside the shape's 18 points: CuTe extrapolates (9); Tessera refuses a coordinate
    // no point of the domain has (issue 30, docs/differences.md). Inside, the same answer as CuTe.
    rejects("crd2idx(20,(3,(2,3)),(3,(12,1)))", "out_of_domain");
    check("crd2idx(16,(3,(2,3)),(3,(12,1)))", "17");
    check("cosize(4:-1)", "4");
    check("slice((_,1),(4,(2,3)):(1,(4,8)))", "(4):(1)");
    check("slice((_,(1,_)),(4,(2,3)):(1,(4,8)))", "(4,3):(1,8)");
}

/// Deliberate differences from CuTe C++ (docs/differences.md), pinned.
#[test]
fn deliberate_differences() {
    // Row 3: injective but not tractable: CuTe's answer (with a note), its rest raised where
    // CuTe's falls short of cosize((A,R)) >= M (CuTe: 2:6, cosize 11 < 12); the strict variant
    // refuses.
    check("complement((2,2):(1,3))", "1:0");
    check("complement((2,2):(1,3),12)", "3:6");
    rejects("complement_exact((2,2):(1,3),12)", "not_complementable");
    rejects("complement((2,2):(2,3))", "not_complementable");
    // Row 5: negative strides.
    rejects("complement(4:-1,8)", "not_complementable");
    // Row 6: the rest covers the whole cotarget.
    check("complement((4,2):(6,3),(22,2,2))", "(3,4):(1,24)");
    // Row 7: CuTe's quasi-inverse of an overlapping layout is wrong.
    rejects("left_inverse((2,6,2):(2,1,1))", "non_injective");
    rejects("left_inverse((3,6):(5,1))", "non_injective");
    // Row 8.
    rejects("left_inverse(4:-1)", "divisibility");
    // Row 9: `_` in a zipped tiler keeps the mode as the rest.
    check(
        "zipped_divide((4,6):(1,4),(2,_))",
        "((2,1),(2,6)):((1,0),(2,4))",
    );
    // Row 2: CuTe's weak check rejects, but a correct layout exists.
    check("logical_product((2):(2),(2:3))", "((2,2)):((2,5))");
    // Row 11: overflow is an error.
    rejects("size((4294967296,4294967296))", "overflow");
}
