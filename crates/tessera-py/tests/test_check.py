"""tessera.check: a whole GEMM kernel configuration, as a dict or a CUTLASS kernel name."""

import tessera

NAME = "cutlass3x_sm90_tensorop_gemm_f16_f16_f32_f16_f16_128x128x64_1x2x1_0_tnn_align8_warpspecialized_cooperative_epi_tma"

CONFIG = {
    "arch": "sm90",
    "kernel": "tma_warpspecialized_cooperative",
    "problem": {"m": "M", "n": "N", "k": "K", "l": 1},
    "a": {"element": "f16", "layout": "row", "alignment": 8},
    "b": {"element": "f16", "layout": "col", "alignment": 8},
    "c": {"element": "f16", "layout": "col", "alignment": 8},
    "d": {"element": "f16", "layout": "col", "alignment": 8},
    "accumulator": "f32",
    "tile": [128, 128, 64],
    "cluster": [1, 2, 1],
    "stages": "auto",
    "epilogue": {"schedule": "tma_warpspecialized_cooperative", "tile": "auto"},
}


def test_dict_and_name_agree():
    a = tessera.check(CONFIG)
    b = tessera.check(NAME, problem=["M", "N", "K"])
    assert a.to_dict() == b.to_dict()
    assert a.verdict == "valid_if"
    assert a.guards == ["K % 8 == 0", "M % 8 == 0"]
    assert a.derived["stages"] == 6 and a.derived["threads"] == 384
    assert "<table>" in a._repr_html_()


def test_refuted_with_witness_and_checked_fix():
    cfg = dict(CONFIG, tma_swizzle_a="none")
    r = tessera.check(cfg, assume=["K % 8 == 0", "M % 8 == 0"])
    assert r.verdict == "invalid" and not r
    (o,) = r.refuted()
    assert o["code"] == "swizzle_match" and "87.5%" in o["message"] and o["witness"]
    assert (
        o["suggestions"][0]["text"] == 'tma_swizzle_a = "128B"' and o["suggestions"][0]["checked"]
    )
    assert (
        tessera.check(dict(cfg, tma_swizzle_a="128B"), assume=["K % 8 == 0", "M % 8 == 0"]).verdict
        == "valid"
    )


def test_check_many_summarizes():
    space = [dict(CONFIG, tile=t) for t in ([128, 128, 64], [128, 128, 24], [256, 256, 256])]
    verdicts, s = tessera.check_many(space)
    assert verdicts == ["valid_if", "invalid", "invalid"]
    assert s["invalid"] == 2 and s["valid_if"] == 1
    assert dict(s["by_first_refuted"])["tile_mma"] == 1


def test_bad_config_raises():
    try:
        tessera.check({"arch": "sm70"})
    except Exception as e:  # noqa: BLE001
        assert "arch" in str(e)
    else:
        raise AssertionError("expected an error")
