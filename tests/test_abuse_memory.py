"""Every cache of the core under one memory budget, least-recently used out.

The bounded version of the soak's memory case: distinct hands with new
wildcard kinds and suit mixes, scored under a small budget, keep the caches'
estimated size within it (unbounded, they grow by about 1 MB per 150 hands).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from abuse_cases import distinct_hands

from taihu.scorer import HandError, memo, score_hand

ROOT = Path(__file__).resolve().parent.parent
HAND = "123m 456m 789p 234s 678s 5p +5p wild:9s,N"


@pytest.fixture(autouse=True)
def default_budget() -> Iterator[None]:
    yield
    memo.set_budget_mb(memo.DEFAULT_BUDGET_MB)
    memo.clear_caches()


def score_distinct(count: int) -> None:
    for rules, line in itertools.islice(distinct_hands(), count):
        try:
            score_hand(line, rules=rules)
        except HandError:
            pass


def test_every_cache_of_the_core_is_made_through_memo() -> None:
    """A new `functools.lru_cache` or `cached` dict outside memo.py would escape the budget."""
    for path in (ROOT / "taihu/scorer").rglob("*.py"):
        if path.name == "memo.py":
            continue
        text = path.read_text(encoding="utf-8")
        assert not re.search(r"^\s*@(functools\.)?lru_cache|^from functools import .*lru_cache", text, re.M), path
        assert "@cache\n" not in text, path


def test_the_caches_are_registered() -> None:
    score_hand(HAND)  # the engine and the rule sets load with the first hand (`taihu score` loads no more)
    named = {"engine.search", "engine.suit_readings", "engine.run_ways", "notation.decode_run", "rulesets.item_lines"}
    assert named <= set(memo.CACHES)


def test_clear_caches_empties_every_cache() -> None:
    score_distinct(200)
    assert sum(memo.usage().values()) > 0
    memo.clear_caches()
    assert memo.usage() == dict.fromkeys(memo.CACHES, 0)
    assert score_hand(HAND).total == 26  # and scoring works from empty caches


def test_distinct_hands_stay_within_a_small_budget() -> None:
    memo.set_budget_mb(8)
    score_distinct(3000)
    used = sum(memo.usage().values())
    assert used <= 8 * memo.MB * 1.25, memo.usage()


def test_the_default_budget_holds_the_fixed_caches_with_room_for_the_search() -> None:
    score_distinct(300)
    fixed = sum(size for name, size in memo.usage().items() if name != "engine.search")
    assert fixed < memo.budget_bytes() / 4


def test_a_budget_must_be_above_zero() -> None:
    with pytest.raises(ValueError, match="above 0 MB"):
        memo.set_budget_mb(0)


# -- the helpers ---------------------------------------------------------------------------


def test_tables_drop_the_least_recently_used_table_first() -> None:
    tables: memo.Tables[str] = memo.Tables("test.tables", bytes_per_entry=memo.MB)
    tables.RECOUNT_EVERY = 1  # count every table at every call (64 calls between full counts when serving)
    try:
        memo.clear_caches()  # the other caches hold nothing: the family has the whole budget
        memo.set_budget_mb(3)
        for name in ("a", "b", "c"):
            tables.table(name)[1] = name
        tables.table("a")  # a is now the most recent, b the least
        tables.table("d")[1] = "d"
        tables.table("d")  # four entries, and three fit
        assert set(tables.tables) == {"c", "d", "a"}
    finally:
        del memo.CACHES["test.tables"]


def test_a_table_alone_over_the_budget_starts_afresh() -> None:
    tables: memo.Tables[str] = memo.Tables("test.tables", bytes_per_entry=memo.MB)
    try:
        memo.clear_caches()
        memo.set_budget_mb(2)
        tables.table("a").update({1: 1, 2: 2, 3: 3})
        assert tables.table("a") == {}
    finally:
        del memo.CACHES["test.tables"]


def test_memo_drops_the_least_recently_used_entry() -> None:
    cache: memo.Memo[str, int] = memo.Memo("test.memo", maxsize=2, bytes_per_entry=100)
    try:
        cache.put("a", 1)
        cache.put("b", 2)
        assert cache.get("a") == 1  # b is now the least recently used
        cache.put("c", 3)
        assert (cache.get("a"), cache.get("b"), cache.get("c")) == (1, None, 3)
        assert memo.usage()["test.memo"] == 200
    finally:
        del memo.CACHES["test.memo"]


def test_lru_cache_is_registered_and_cleared() -> None:
    @memo.lru_cache("test.lru", maxsize=8, bytes_per_entry=10)
    def double(n: int) -> int:
        return 2 * n

    try:
        assert [double(n) for n in range(20)][-1] == 38
        assert memo.usage()["test.lru"] == 80
        memo.clear_caches()
        assert memo.usage()["test.lru"] == 0
    finally:
        del memo.CACHES["test.lru"]


def test_taihu_serve_cache_mb_reaches_the_app(monkeypatch: pytest.MonkeyPatch) -> None:
    import uvicorn
    from typer.testing import CliRunner

    from taihu.cli.main import app as cli_app

    monkeypatch.setattr(uvicorn, "run", lambda *args, **kwargs: None)
    before = memo.budget_bytes()
    try:
        assert CliRunner().invoke(cli_app, ["serve", "--cache-mb", "12"]).exit_code == 0  # the app is made: its budget
        assert memo.budget_bytes() == 12 * memo.MB
    finally:
        memo.set_budget_mb(before / memo.MB)
