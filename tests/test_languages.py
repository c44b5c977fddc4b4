"""The language a person reads, from the POSIX locale or an HTTP `Accept-Language` header."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from taihu.messages.language import accept_language, language_of_tag, locale_language


@pytest.mark.parametrize(
    ("tag", "lang"),
    [
        ("zh_CN.UTF-8", "zh"),
        ("zh_TW.Big5", "zh"),
        ("zh", "zh"),
        ("ZH-cn", "zh"),
        ("zh-Hant-TW", "zh"),
        ("zh_CN@pinyin", "zh"),
        ("en_US.UTF-8", "en"),
        ("en-GB", "en"),
        ("C", None),
        ("C.UTF-8", None),
        ("POSIX", None),
        ("fr_FR.UTF-8", None),
        ("zhx", None),  # not zh: the language is the part before `_`, `-`, `.` or `@`
        ("", None),
    ],
)
def test_a_tag_names_its_language(tag: str, lang: str | None) -> None:
    assert language_of_tag(tag) == lang


@pytest.mark.parametrize(
    ("environ", "lang"),
    [
        ({}, None),
        ({"LANG": "zh_CN.UTF-8"}, "zh"),
        ({"LANG": "en_US.UTF-8"}, "en"),
        ({"LANG": "zh_CN.UTF-8", "LC_MESSAGES": "en_US.UTF-8"}, "en"),  # LC_MESSAGES before LANG
        ({"LANG": "en_US.UTF-8", "LC_MESSAGES": "zh_CN.UTF-8"}, "zh"),
        ({"LC_MESSAGES": "zh_CN.UTF-8", "LC_ALL": "C"}, None),  # LC_ALL before both
        ({"LC_ALL": "zh_TW.UTF-8", "LANG": "C"}, "zh"),
        ({"LC_ALL": "", "LANG": "zh_CN.UTF-8"}, "zh"),  # set but empty: as if not set
        ({"LANGUAGE": "zh_CN"}, None),  # GNU's LANGUAGE list is not read
    ],
)
def test_the_locale_follows_posix_order(environ: dict[str, str], lang: str | None) -> None:
    assert locale_language(environ) == lang


@pytest.mark.parametrize(
    ("header", "lang"),
    [
        (None, "en"),
        ("", "en"),
        ("zh-CN", "zh"),
        ("zh-CN,zh;q=0.9,en;q=0.8", "zh"),
        ("en-US,en;q=0.9,zh-CN;q=0.8", "en"),
        ("fr-FR, zh;q=0.5, en;q=0.4", "zh"),  # the first language taihu has, by weight
        ("en;q=0.4, zh;q=0.5", "zh"),  # the weight, not the order
        ("zh;q=0.5, en;q=0.5", "zh"),  # equal weights: the first listed
        ("en;q=0.5, zh;q=0.5", "en"),
        ("zh;q=0, en", "en"),  # q=0: not acceptable
        ("zh;q=0", "en"),  # nothing acceptable: the default
        ("fr", "en"),
        ("*", "en"),  # any: the default
        ("fr, *;q=0.5", "en"),
        ("zh-TW;q=0.8, *;q=0.1", "zh"),
        ("zh;q=abc, en;q=0.1", "en"),  # a malformed weight is no preference
        ("zh;q=2, en;q=0.1", "en"),  # nor one out of range
        ("zh;q=nan, en;q=0.1", "en"),
        (" zh-Hans-CN ; q = 0.7 ", "zh"),
        ("zh;level=1;q=0.6, en;q=0.5", "zh"),  # other parameters are ignored
    ],
)
def test_accept_language_takes_the_best_weighted_language_taihu_has(header: str | None, lang: str) -> None:
    assert accept_language(header) == lang


def test_accept_language_has_a_default_for_any() -> None:
    assert accept_language("*", default="zh") == "zh"
    assert accept_language("fr", default="zh") == "zh"
    assert accept_language(None, default="zh") == accept_language("", default="zh") == "zh"


def test_a_long_header_is_read_only_so_far() -> None:
    assert accept_language(",".join(["fr"] * 32 + ["zh"])) == "en"  # the 33rd range is not read
    assert accept_language(",".join(["fr"] * 31 + ["zh"])) == "zh"


@given(st.text(max_size=200))
def test_any_header_gives_a_language(header: str) -> None:
    assert accept_language(header) in ("zh", "en")
