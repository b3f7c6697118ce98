//! Runs one row of `benches/symbolic.rs` a given number of times, for counting instructions
//! per operation with valgrind (independent of the machine's load): the count of a run with
//! `n + k` iterations minus the count with `n`, divided by `k`.
//!
//! ```sh
//! cargo build --release -p tessera --example symbolic_count
//! valgrind --tool=callgrind target/release/examples/symbolic_count divide 1
//! valgrind --tool=callgrind target/release/examples/symbolic_count divide 1001
//! ```
//!
//! Rows: `coalesce`, `coalesce4`, `composition`, `complement`, `divide`, `right_inverse`,
//! `local_tile`, `divide_strided`, `divide_nested`, `local_tile_strided`, `int_divide`.

use std::hint::black_box;

use tessera::symbolic::expr::Item;
use tessera::symbolic::ops::{self, parse_tiler};
use tessera::symbolic::{parse_expr, Ctx, Facts, SymLayout};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let row = args.get(1).map(String::as_str).unwrap_or("divide");
    let n: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(1);
    let facts = Facts::parse(&["M % 128 == 0", "K % 64 == 0", "N % 128 == 0"]).expect("facts");
    let none = Facts::default();
    let l = |s: &str| -> SymLayout { s.parse().expect("layout") };
    let (a, mn, row16, b) = (
        l("(M,K):(K,1)"),
        l("(M,N):(1,M)"),
        l("(16,N):(1,16)"),
        l("(4,8):(1,4)"),
    );
    let r4 = l("(2,M,4,N):(1,2,2*M,8*M)");
    let nested = l("((2,M),(2,K)):((1,2),(2*M,4*M))");
    let t = parse_tiler("(128,64)").expect("tiler");
    let ts = parse_tiler("(128:2,64:2)").expect("tiler");
    let cot = parse_expr("M").expect("expr");
    let tile = l("128:1");
    let coord = Item::Tuple(vec![
        Item::Expr(parse_expr("bm").expect("bm")),
        Item::Expr(parse_expr("bk").expect("bk")),
    ]);
    let ia: tessera::Layout = "(4096,4096):(4096,1)".parse().expect("layout");
    let it = tessera::algebra::Tiler::Tuple(vec![
        tessera::algebra::Tiler::Int(128),
        tessera::algebra::Tiler::Int(64),
    ]);
    let mut ok = 0usize;
    for _ in 0..n {
        let r = match row {
            "coalesce" => ops::coalesce(&mut Ctx::new(none.clone()), black_box(&mn)).is_ok(),
            "coalesce4" => ops::coalesce(&mut Ctx::new(none.clone()), black_box(&r4)).is_ok(),
            "composition" => {
                ops::composition(&mut Ctx::new(none.clone()), black_box(&mn), black_box(&b)).is_ok()
            }
            "complement" => {
                ops::complement(&mut Ctx::new(none.clone()), black_box(&tile), Some(&cot)).is_ok()
            }
            "divide" => {
                ops::logical_divide(&mut Ctx::new(facts.clone()), black_box(&a), black_box(&t))
                    .is_ok()
            }
            "divide_strided" => {
                ops::logical_divide(&mut Ctx::new(facts.clone()), black_box(&a), black_box(&ts))
                    .is_ok()
            }
            "divide_nested" => ops::logical_divide(
                &mut Ctx::new(facts.clone()),
                black_box(&nested),
                black_box(&t),
            )
            .is_ok(),
            "right_inverse" => {
                ops::right_inverse(&mut Ctx::new(none.clone()), black_box(&row16)).is_ok()
            }
            "local_tile" => ops::local_tile(
                &mut Ctx::new(facts.clone()),
                black_box(&a),
                black_box(&t),
                &coord,
            )
            .is_ok(),
            "local_tile_strided" => ops::local_tile(
                &mut Ctx::new(facts.clone()),
                black_box(&a),
                black_box(&ts),
                &coord,
            )
            .is_ok(),
            "int_divide" => {
                tessera::algebra::logical_divide(black_box(&ia), black_box(&it)).is_ok()
            }
            other => panic!("unknown row {other}"),
        };
        ok += usize::from(r);
    }
    println!("{row}: {ok} of {n} ok");
}
