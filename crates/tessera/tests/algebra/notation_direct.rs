//! The one-pass expression reader (`notation::eval`'s fast path) against the general parser and
//! evaluator (`eval_expr(&parse(text)?)`): the same value or the same error on every text,
//! random expressions of the language and random damage to them included.

use proptest::prelude::*;
use tessera::notation::{eval, eval_expr, parse};

fn general(text: &str) -> tessera::Result<tessera::notation::Value> {
    eval_expr(&parse(text)?)
}

/// Optional whitespace of the kinds the parser skips.
fn ws() -> impl Strategy<Value = String> {
    prop_oneof![
        6 => Just(String::new()),
        1 => Just(" ".to_string()),
        1 => Just("\t ".to_string()),
        1 => Just("\n".to_string()),
    ]
}

fn int() -> impl Strategy<Value = String> {
    prop_oneof![
        6 => (1i64..9).prop_map(|v| v.to_string()),
        2 => (0i64..70).prop_map(|v| v.to_string()),
        1 => (-9i64..0).prop_map(|v| v.to_string()),
        1 => (1i64..9).prop_map(|v| format!("_{v}")),
        1 => Just("9223372036854775807".to_string()),
        1 => Just("-9223372036854775808".to_string()),
        1 => Just("9223372036854775808".to_string()),
    ]
}

fn tuple_of(item: BoxedStrategy<String>) -> impl Strategy<Value = String> {
    (
        prop::collection::vec((ws(), item, ws()), 1..4),
        any::<bool>(),
    )
        .prop_map(|(items, comma)| {
            let body: Vec<String> = items.into_iter().map(|(a, b, c)| a + &b + &c).collect();
            if body.len() == 1 && comma {
                format!("({},)", body[0])
            } else {
                format!("({})", body.join(","))
            }
        })
}

fn int_tuple() -> BoxedStrategy<String> {
    int()
        .boxed()
        .prop_recursive(3, 12, 3, |inner| tuple_of(inner.boxed()).boxed())
        .boxed()
}

const NAMES: &[&str] = &[
    "size",
    "cosize",
    "coalesce",
    "composition",
    "complement",
    "logical_divide",
    "zipped_divide",
    "logical_product",
    "blocked_product",
    "right_inverse",
    "left_inverse",
    "shape",
    "stride",
    "rank",
    "get",
    "make_layout",
    "flatten",
    "max_common_vector",
    "make_swizzle",
    "no_such",
];

fn expr() -> impl Strategy<Value = String> {
    let leaf = prop_oneof![
        3 => int(),
        1 => Just("_".to_string()),
        4 => (int_tuple(), ws(), ws(), int_tuple()).prop_map(|(s, a, b, d)| format!("{s}{a}:{b}{d}")),
        2 => int_tuple(),
    ];
    leaf.prop_recursive(3, 16, 3, |inner| {
        prop_oneof![
            3 => (
                prop::sample::select(NAMES),
                ws(),
                prop::collection::vec((ws(), inner.clone(), ws()), 0..3)
            )
                .prop_map(|(n, w, args)| {
                    let a: Vec<String> = args.into_iter().map(|(x, y, z)| x + &y + &z).collect();
                    format!("{n}{w}({})", a.join(","))
                }),
            1 => tuple_of(inner.clone().boxed()),
            1 => (inner.clone(), inner).prop_map(|(s, d)| format!("{s}:{d}")),
        ]
    })
}

/// Damage: a character deleted, or one of the language's characters inserted.
fn damaged() -> impl Strategy<Value = String> {
    (
        expr(),
        any::<prop::sample::Index>(),
        prop::sample::select(
            &[
                "", "(", ")", ",", ":", "_", "-", " o ", "é", "<", "::", "x", "0", ",)",
            ][..],
        ),
        any::<bool>(),
    )
        .prop_map(|(e, at, ins, delete)| {
            let mut cut = at.index(e.len() + 1);
            while !e.is_char_boundary(cut) {
                cut -= 1;
            }
            let (a, b) = e.split_at(cut);
            let b = if delete && !b.is_empty() { &b[1..] } else { b };
            format!("{a}{ins}{b}")
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn the_fast_path_answers_as_the_general_path(e in expr()) {
        prop_assert_eq!(eval(&e), general(&e), "{}", e);
    }

    #[test]
    fn values_print_into_a_buffer_as_display_does(e in expr()) {
        if let Ok(v) = general(&e) {
            let mut s = String::from("x");
            tessera::notation::write::write_value(&mut s, &v);
            prop_assert_eq!(&s[1..], v.to_string());
            if let tessera::notation::Value::Layout(l) = &v {
                let mut p = String::new();
                tessera::notation::write::write_layout(&mut p, l, true);
                prop_assert_eq!(p, tessera::notation::pycute(l));
            }
        }
    }

    #[test]
    fn integers_print_as_display_does(v in any::<i64>()) {
        let mut s = String::new();
        tessera::notation::write::push_int(&mut s, v);
        prop_assert_eq!(s, v.to_string());
    }

    #[test]
    fn damaged_expressions_get_the_general_answer(e in damaged()) {
        prop_assert_eq!(eval(&e), general(&e), "{}", e);
    }
}

/// The random expressions above mostly exercise the one-pass reader (not only its fallback).
#[test]
fn the_reader_answers_most_random_expressions() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let mut runner = TestRunner::deterministic();
    let (mut answered, n) = (0, 1000);
    for _ in 0..n {
        let e = expr().new_tree(&mut runner).unwrap().current();
        if let Some(r) = tessera::notation::direct::eval(&e) {
            assert_eq!(r, general(&e), "{e}");
            answered += 1;
        }
    }
    assert!(answered * 2 >= n, "{answered} of {n}");
}

#[test]
fn nested_one_tuples_and_extremes_print_as_display_does() {
    for e in [
        "((4)):((1))",
        "(((2,3))):(((1,2)))",
        "(4,):(1,)",
        "-9223372036854775808",
        "(-9223372036854775808,_,(1,))",
        "coalesce_trace((2,(1,6)):(1,(6,2)))",
        "make_swizzle(7,56)",
    ] {
        let v = general(e).unwrap();
        let mut s = String::new();
        tessera::notation::write::write_value(&mut s, &v);
        assert_eq!(s, v.to_string(), "{e}");
    }
}

/// Notes (warnings on successful results) come once, whichever path answers.
#[test]
fn notes_are_recorded_once() {
    use tessera::obligation::note;
    for e in [
        "complement((2,2):(1,3))",
        "logical_divide((5,2):(8,64),97)",
        "size(complement((2,2):(1,3)))",
        "make_layout(complement((2,2):(1,3)), 2:1) o 0 o 4:1",
        "size(complement((2,2):(1,3)), Sw<1,2,3>)",
        "(complement((2,2):(1,3)), size(",
    ] {
        let (fast, fast_notes) = tessera::notation::eval_noted(e);
        let (general, general_notes) = note::collect(|| general(e));
        assert_eq!(fast, general, "{e}");
        if fast.is_ok() {
            assert_eq!(fast_notes, general_notes, "{e}");
        }
    }
    let (_, notes) = tessera::notation::eval_noted("complement((2,2):(1,3))");
    assert_eq!(notes.len(), 1);
}

#[test]
fn errors_carry_the_same_text_and_suggestions() {
    for e in [
        "composition((6,2):(1,7),4:2)",
        "complement((2,2):(1,1))",
        "size(no_such(1))",
        "  logical_divide((6,2):(1,7),4)",
        "size((2,3):(1))",
        "size((2,0):(1,1))",
    ] {
        let (a, b) = (eval(e).unwrap_err(), general(e).unwrap_err());
        assert_eq!(a.to_string(), b.to_string(), "{e}");
        assert_eq!(a.code(), b.code(), "{e}");
        assert_eq!(a.suggestions(), b.suggestions(), "{e}");
    }
}
