"""One exception class per error code, carrying the obligation, notes and checked suggestions."""

import pytest

import tessera
from tessera import errors


def test_every_code_has_its_class_and_runs_its_example():
    for code in tessera.error_codes():
        title, obligation, explanation = tessera.explain(code)
        cls = errors._BY_CODE[code]
        assert issubclass(cls, tessera.Error) and issubclass(cls, ValueError)
        assert cls.code == code and title and obligation and explanation
    # Each catalogue example that is an expression raises its own class.
    examples = {
        "overflow": "size((4611686018427387904,4))",
        "parse_error": "coalesce((2,3):(1,2)",
        "non_positive_shape": "make_layout(0)",
        "not_congruent": "make_layout((2,2),(1,2,4))",
        "rank_mismatch": "get((2,3):(1,2),5)",
        "too_many_modes": "logical_divide(8:1,(2,2))",
        "divisibility": "complement1(128,16,2040)",
        "inadmissible_composition": "composition((4,6,8):(2,3,5),6:3)",
        "non_injective": "complement((2,2):(1,1))",
        "not_complementable": "complement_exact((2,2):(1,3))",
        "out_of_domain": "idx2crd(-1,4)",
        "type_error": "complement1(4:1,2,8)",
        "arity": "complement1(4,2)",
        "unknown_function": "complemnt(4:1)",
        "too_large": "left_inverse((2048,2048,2):(1,1,1))",
        "no_unit_stride": "downcast(4:2,2)",
    }
    for code, expr in examples.items():
        with pytest.raises(errors._BY_CODE[code]) as ei:
            tessera.eval(expr)
        assert ei.value.code == code
        assert ei.value.message


def test_obligation_notes_and_checked_suggestions():
    with pytest.raises(tessera.Divisibility) as ei:
        tessera.complement1(128, 16, 2040)
    e = ei.value
    assert e.obligation == "128·16 ∣ 2040"
    assert any("2048" in n for n in e.notes)
    s = e.suggestions
    assert s[0].label == "M = 2048" and s[0].expr == "complement1(128,16,2048)"
    # each suggestion is a ready-to-use value, and it is what the expression evaluates to
    for x in s:
        assert x.value == tessera.eval(x.expr) and str(x.value) == x.text
    with pytest.raises(tessera.InadmissibleComposition) as ei:
        tessera.composition("(4,6,8):(2,3,5)", "6:3")
    sug = ei.value.suggestions
    assert sug and all(isinstance(x.value, tessera.Layout) for x in sug)
    assert (sug[0].label, str(sug[0].value)) == (
        "B = 6:2 (stride 3 → 2)",
        "(2,3):(4,3)",
    )
    # the suggested B composes with A: A o 6:2 is the suggested value
    assert tessera.composition("(4,6,8):(2,3,5)", "6:2") == sug[0].value


def test_pycute_face_raises_typed_errors_where_pycute_is_wrong():
    import tessera.pycute as tp

    # cutlass #3177: pycute returns a wrong layout; the drop-in raises
    with pytest.raises(tessera.InadmissibleComposition):
        tp.composition(tp.Layout((4, 6, 8), (2, 3, 5)), tp.Layout(6, 3))
    # pycute returns a layout of the wrong size (no divisibility check)
    with pytest.raises(tessera.Error):
        tp.composition(tp.Layout((2, 4), (1, 10)), tp.Layout(3, 1))
    with pytest.raises(tessera.NonInjective):
        tp.complement(tp.Layout((2, 2), (1, 1)))
    with pytest.raises(tessera.Divisibility):
        tp.shape_div(3, 2)


def test_str_is_the_cli_diagnostic():
    with pytest.raises(tessera.Divisibility) as ei:
        tessera.complement1(128, 16, 2040)
    lines = str(ei.value).splitlines()
    assert lines[0] == "error[divisibility]: " + ei.value.message
    assert lines[1] == " --> complement1(128,16,2040)"
    assert lines[2] == "  = obligation: N·d ∣ M, here 128·16 ∣ 2040"
    assert any(l.startswith("  = note: 128·16 = 2048") for l in lines)
    assert "help: M = 2048: complement1(128,16,2048) = (16,1):(1,2048)" in lines
    # the one-line message stays available
    assert "\n" not in ei.value.message


def test_suggestions_carry_arguments_to_pass_back():
    with pytest.raises(tessera.InadmissibleComposition) as ei:
        tessera.composition("(4,6,8):(2,3,5)", "6:3")
    s = ei.value.suggestions[0]
    assert s.function == "composition"
    assert s.args == (tessera.Layout("(4,6,8):(2,3,5)"), tessera.Layout("6:2"))
    assert s.changed == {1: tessera.Layout("6:2")}
    # pass the changed argument back: the fixed call gives the suggestion's result
    assert tessera.composition("(4,6,8):(2,3,5)", s.changed[1]) == s.value == s.call()
    for x in ei.value.suggestions:
        assert x.call() == x.value and str(x.value) == x.text


def test_suggestions_are_the_same_whichever_entry_point():
    import tessera.pycute as tp

    def sugg(f):
        try:
            f()
        except tessera.Error as e:
            return [(s.label, s.expr, s.text) for s in e.suggestions]
        raise AssertionError("no error")

    want = sugg(lambda: tessera.eval("logical_divide((3,5):(5,1),2:1)"))
    assert want[0][1] == "ragged_logical_divide((3,5):(5,1),2:1)"  # the ragged form, as the CLI
    assert sugg(lambda: tessera.logical_divide("(3,5):(5,1)", "2:1")) == want
    assert (
        sugg(lambda: tessera.logical_divide(tessera.Layout("(3,5):(5,1)"), tessera.Layout("2:1")))
        == want
    )
    assert sugg(lambda: tessera.apply("logical_divide", "(3,5):(5,1)", "2:1")) == want
    assert sugg(lambda: tp.logical_divide(tp.Layout((3, 5), (5, 1)), tp.Layout(2, 1))) == want
    with pytest.raises(tessera.InadmissibleComposition) as ei:
        tessera.logical_divide("(3,5):(5,1)", "2:1")
    s = ei.value.suggestions[0]
    assert s.function == "ragged_logical_divide" and s.value.startswith("index (2,8):(1,2)")
    assert s.call() == s.value
