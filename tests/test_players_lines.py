"""Real players' lines (tests/players_lines.toml), each through the library, the command line and the API.

Every form players write (winds with 风, 金, the declared wins by their Chinese
names, 立直 and リーチ, 宝牌 and 里宝牌, spaces after `:` and `,`, capital suit letters, simplified,
traditional and full-width characters) and the worked examples of every rule set typed in Chinese.
A line that scores gives its total, and the same hand as its ASCII line; a line that is refused gives
its code and the rewrite, in English and in Chinese. The library's answer is the one answer: `taihu
score --json` prints it and `POST /v1/score` answers it, in Chinese (`--lang zh`, `Accept-Language:
zh-CN`) and in English, and the command's printed output says the same in the same language. The
line less its `+` tile waits on that tile for the same total (`waits`, in the library, the command
line and the API alike).

Then the hints of part 5, checked on the table's lines: a count error names the tile whose removal (or
addition, or mark as `+`) wins, never the `+` tile wrongly; "no winning shape" with wildcards and no
`wild:` says so first. And docs/notation.md, both directions: each players' word it lists is in a line
of the table, and each refusal it lists is a line whose message gives the rewrite it lists.
"""

from __future__ import annotations

import json
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from api_app import app as api
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from taihu.cli.main import app as cli
from taihu.messages import Language
from taihu.messages.error_shape import hand_error_shape
from taihu.scorer import HandError, HandScore, parse, score_hand, slips, to_text
from taihu.scorer import tiles as T
from taihu.scorer.notation import DECLARED_WINS
from taihu.scorer.rulesets import RULESETS
from taihu.scorer.waiting import Waits, waits
from tests.test_cli_chinese import assert_chinese, error_text, keys, score_texts

ROOT = Path(__file__).resolve().parent.parent
TABLE = Path(__file__).with_name("players_lines.toml")
NOTATION = ROOT / "docs" / "notation.md"
LANGS: tuple[Language, ...] = ("zh", "en")
ACCEPT = {"zh": "zh-CN,zh;q=0.9", "en": "en"}
ENV = {"COLUMNS": "250", "NO_COLOR": "1", "TERM": "xterm"}


@dataclass(frozen=True)
class Line:
    typed: str
    rules: str = "lingxi"
    # a line that scores
    ascii: str | None = None
    total: int | None = None
    legal: bool = True
    winner: bool = True
    hand: str | None = None
    options: dict[str, int] | None = None
    # a line that is refused
    code: str | None = None
    en: str | None = None
    zh: str | None = None
    column: int | None = None

    @property
    def refused(self) -> bool:
        return self.code is not None


def lines() -> list[Line]:
    found = [Line(**entry) for entry in tomllib.loads(TABLE.read_text(encoding="utf-8"))["line"]]
    for line in found:  # each line says what it gives, one way or the other
        assert (line.total is None) == line.refused and (line.ascii is None) == line.refused, line
        assert not line.refused or (line.en and line.zh), line
    return found


LINES = lines()
IDS = [f"{line.rules}:{line.typed}" for line in LINES]
SCORED = [line for line in LINES if not line.refused]
REFUSED = [line for line in LINES if line.refused]


def score(line: Line, hand: str | None = None) -> HandScore:
    """The line (or `hand`, with the line's rule set and options) scored by the library."""
    return score_hand(line.typed if hand is None else hand, rules=line.rules, options=line.options)


def error_of(line: Line) -> HandError:
    with pytest.raises(HandError) as info:
        score(line)
    return info.value


def the_answer(line: Line, lang: Language) -> dict[str, Any]:
    """The library's answer as JSON, in `lang`: the HandScore, or the error in the one error shape."""
    try:
        return score(line).to_dict(lang)
    except HandError as exc:
        return hand_error_shape(exc, lang)


# -- the library -----------------------------------------------------------------------------------


@pytest.mark.parametrize("line", SCORED, ids=[f"{x.rules}:{x.typed}" for x in SCORED])
def test_a_players_line_scores_as_its_ascii_line(line: Line) -> None:
    as_typed, as_ascii = score(line), score(line, str(line.ascii))
    assert (as_typed.total, as_typed.legal, as_typed.winner) == (line.total, line.legal, line.winner)
    assert as_typed == as_ascii  # the same score, item for item, and the same canonical hand
    assert score(line, as_typed.hand) == as_ascii  # which reads back as the same hand
    assert line.hand is None or as_typed.hand == line.hand
    assert as_typed.hand.isascii()


@pytest.mark.parametrize("line", REFUSED, ids=[f"{x.rules}:{x.typed}" for x in REFUSED])
def test_what_is_not_the_notation_is_refused_with_the_rewrite(line: Line) -> None:
    error = error_of(line)
    assert error.code == line.code
    assert str(line.en) in str(error)
    assert str(line.zh) in error.message_in("zh")
    assert line.column is None or error.column == line.column
    named = re.search(r"at column (\d+)", str(error))
    assert named is None or error.column == int(named.group(1))  # the place the message names is the error's


# -- the command line and the API give the library's answer -----------------------------------------


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("line", LINES, ids=IDS)
def test_the_command_line_prints_the_same_answer(line: Line, lang: Language) -> None:
    options = [f"-o{name}={value}" for name, value in (line.options or {}).items()]
    args = ["score", line.typed, "-r", line.rules, *options, "--lang", lang]
    as_json = CliRunner().invoke(cli, [*args, "--json"], env=ENV)
    assert as_json.exit_code == (2 if line.refused else 0), as_json.output
    assert json.loads(as_json.stdout) == the_answer(line, lang)
    printed = CliRunner().invoke(cli, args, env=ENV)
    assert printed.exit_code == as_json.exit_code
    if line.refused:
        error = error_of(line)
        first = printed.output.splitlines()[0]
        assert first == ("错误：" if lang == "zh" else "error: ") + error.message_in(lang)
        assert str(line.zh if lang == "zh" else line.en) in first
    else:
        scored = score(line)
        assert scored.hand in printed.output
        assert str(scored.total) in printed.output
    if lang == "zh":  # no English word but the notation's: a tile group (NNN), a condition, a declared win, --rules
        if line.refused:
            message = printed.output.splitlines()[0]  # the input echoed under it is the player's own
            notation = [*error_text(lambda: score(line)), *keys(line.rules)]
            assert_chinese(message, [*notation, *DECLARED_WINS, *re.findall(r"\b[ESWNCFP]+\b", message), "--rules"])
        else:
            assert_chinese(printed.output, score_texts(score(line)))


@pytest.fixture(scope="module")
def client() -> TestClient:
    return TestClient(api)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("line", LINES, ids=IDS)
def test_the_api_answers_the_same_answer(line: Line, lang: Language, client: TestClient) -> None:
    body = {"rules": line.rules, "hand": line.typed, "options": line.options or {}}
    reply = client.post("/v1/score", json=body, headers={"Accept-Language": ACCEPT[lang]})
    assert reply.status_code == (422 if line.refused else 200), reply.text
    assert reply.headers["content-language"] == lang
    assert reply.json() == the_answer(line, lang)


# -- waits: the same line less its winning tile waits on it, for the same total -------------------------

HOW_WON = (
    "kong-draw",
    "rob-kong",
    "last-tile",
    "fourth-tile",
    "heaven",
    "earth",
    "human",
    "ippatsu",
)  # waits refuses these
SELF_WORDS = re.compile(r"(?<!\S)(?:self|自摸|ツモ)(?!\S)")
WAITING = [
    line
    for line in SCORED
    if line.winner and re.search(r"[+＋]", line.typed) and not line.options
    if not set(str(line.ascii).split()) & {*HOW_WON, *(f"declare:{d}" for d in DECLARED_WINS)}
]


def waiting(line: Line) -> str:
    """The line as typed, without its `+` tile and a self-draw's word: the hand before the win."""
    return " ".join(SELF_WORDS.sub(" ", re.sub(r"[+＋]\S+", " ", line.typed)).split())


@pytest.mark.parametrize("line", WAITING, ids=[f"{x.rules}:{x.typed}" for x in WAITING])
def test_the_line_before_its_win_waits_on_its_tile_for_its_total(line: Line, client: TestClient) -> None:
    scored = score(line)
    tile = re.search(r"\+(\S+)", scored.hand).group(1)  # type: ignore[union-attr]
    found = waits(waiting(line), rules=line.rules)
    assert isinstance(found, Waits)
    (listed,) = [w for w in found.waits if w.tile == tile]
    won = listed.self_drawn if "self" in scored.hand.split() else listed.discard
    assert won is not None and won.total == scored.total
    for lang in LANGS:  # and the command line and the API list the same
        as_json = CliRunner().invoke(cli, ["waits", waiting(line), "-r", line.rules, "--json", "--lang", lang])
        assert json.loads(as_json.stdout) == found.to_dict(lang)
        body = {"rules": line.rules, "hand": waiting(line)}
        reply = client.post("/v1/waits", json=body, headers={"Accept-Language": ACCEPT[lang]})
        assert reply.json() == found.to_dict(lang)


# -- part 5: the hints, checked against the table ----------------------------------------------------


def _wins(line: Line, parsed: Any) -> bool:
    try:
        return score(line, to_text(parsed)).winner
    except HandError:
        return False


def _rank(line: Line, parsed: Any) -> tuple[bool, int] | None:
    """How good a win the hand is (a legal one first, then the total); None where it is none."""
    try:
        scored = score(line, to_text(parsed))
    except HandError:
        return None
    return (scored.legal, scored.total) if scored.winner else None


def _kind(name: str) -> int:
    return next(k for k in range(T.KIND_COUNT) if T.name(k) == name)


def _named(pattern: str, message: str) -> list[int]:
    found = re.search(pattern, message)
    return [_kind(name) for name in found.group(1).split(" or one ")] if found else []


@pytest.mark.parametrize("line", REFUSED, ids=[f"{x.rules}:{x.typed}" for x in REFUSED])
def test_a_hint_does_what_it_says(line: Line) -> None:
    """Each tile a count error names does what the message says; the `+` tile is blamed only when its removal
    wins; a tile suggested as the `+` is one of the hand's; a rule set's missing wildcards are said first."""
    error = error_of(line)
    message = str(error)
    if error.code in ("stray_tile", "winning_tile_twice", "tile_count", "no_winning_tile"):
        parsed = parse(line.typed)
    if error.code == "stray_tile":
        strays = _named(r"without one (.+?) the hand wins", message)
        assert strays and parsed.win not in strays
        for kind in strays:
            assert _wins(line, slips._without(parsed, kind))
    elif error.code == "winning_tile_twice":
        assert _wins(line, slips._without(parsed, parsed.win))
    elif error.code == "tile_count" and "with one more" in message:
        for kind in _named(r"with one more (.+?) among the hand tiles", message):
            assert _wins(line, parsed._replace(tiles=tuple(sorted((*parsed.tiles, kind)))))
    elif error.code == "no_winning_tile":
        mark = _kind(re.search(r"e\.g\. \+(\S+)", message).group(1))  # type: ignore[union-attr]
        assert mark in parsed.tiles
        ranks = {kind: _rank(line, slips._without(parsed, kind, win=kind)) for kind in set(parsed.tiles)}
        assert ranks[mark] is not None and ranks[mark] == max(r for r in ranks.values() if r is not None)
    elif error.code == "no_winning_shape":
        parsed = parse(line.typed)
        unnamed = parsed.wild is None and parsed.flip is None
        has_wildcards = "wild" in RULESETS[line.rules].conditions
        assert message.startswith("no wild:") == (unnamed and has_wildcards), message
        assert error.message_in("zh").startswith("没有写 wild:") == (unnamed and has_wildcards)


# (a line with house options aside: the search for the slip scores by the rule set's defaults)
WINNERS = [line for line in SCORED if line.winner and "declare:" not in str(line.ascii) and not line.options]


@pytest.mark.parametrize("line", WINNERS, ids=[f"{x.rules}:{x.typed}" for x in WINNERS])
def test_a_tile_too_many_in_a_players_line_is_named(line: Line) -> None:
    """Each winning line of the table with one tile too many: one more of a tile it holds, or its seat wind
    left among the tiles. Where a removal leaves a win the error names one (the `+` only when it is one),
    and what it names wins without it."""
    parsed = parse(line.typed)
    held = [k for k in dict.fromkeys(parsed.tiles) if not T.is_flower(k)][:3]  # a few per line: there are many
    for extra in dict.fromkeys([*held, _kind(parsed.seat or "E")]):
        more = parsed._replace(tiles=tuple(sorted((*parsed.tiles, extra))))
        try:
            score(line, to_text(more))
        except HandError as exc:
            error = exc
        else:
            continue  # still a hand (a kong's fourth, a pung's): no count error
        winning = slips.removals_that_win(more, line.rules)
        if error.code == "winning_tile_twice":
            assert more.win in winning
        elif error.code == "stray_tile":
            named = _named(r"without one (.+?) the hand wins", str(error))
            assert named and set(named) <= set(winning) and more.win not in named
        else:
            # else no removal wins, or the error comes first: a kong unmarked, a fifth copy, a wind in Putian
            assert winning == [] or error.code in ("unmarked_kong", "tile_copies", "tile_not_played"), str(error)


# -- docs/notation.md, both directions ----------------------------------------------------------------


def _generated(name: str) -> str:
    text = NOTATION.read_text(encoding="utf-8")
    start = text.index(f"<!-- begin generated (make docs): {name} -->")
    return text[start : text.index("<!-- end generated -->", start)]


def documented_words() -> list[str]:
    """Every players' word docs/notation.md lists ("The same words the other way round")."""
    out = []
    for row in _generated("words").splitlines()[3:]:
        cells = [cell.strip() for cell in row.strip("|").split("|")]
        if len(cells) == 3:
            words = cells[1].replace("after 1–9 or", " ").replace("(alone)", " ")
            out += words.split()
    return out


def test_every_word_the_docs_list_is_in_a_players_line() -> None:
    words = documented_words()
    assert len(words) > 80  # the table was found
    typed = "\n".join(line.typed for line in LINES)
    missing = [word for word in words if word not in typed and word.replace(":", "：") not in typed]
    assert missing == []


def documented_refusals() -> list[tuple[list[str], str, str]]:
    """The rows of docs/notation.md's "What is refused, and the rewrite": (what is written, the rewrite, the code)."""
    text = NOTATION.read_text(encoding="utf-8")
    section = text[text.index("### What is refused, and the rewrite") :]
    section = section[: section.index("\n#")] if "\n#" in section else section
    rows = []
    for row in section.splitlines():
        cells = [cell.strip() for cell in row.strip().strip("|").split("|")]
        if len(cells) == 4 and re.fullmatch(r"`[a-z_]+`", cells[3]) and "`" in cells[0]:
            rows.append(
                (re.findall(r"`([^`]+)`", cells[0]), re.findall(r"`([^`]+)`", cells[2])[0], cells[3].strip("`"))
            )
    return rows


def test_every_refusal_the_docs_list_is_a_players_line_with_its_rewrite() -> None:
    rows = documented_refusals()
    assert len(rows) >= 6
    for written, rewrite, code in rows:
        for form in written:
            lines = [line for line in REFUSED if form in line.typed and line.code == code]
            assert lines, f"no line of the table writes {form!r} refused as {code}"
            assert any(rewrite in str(error_of(line)) for line in lines), (form, rewrite)
