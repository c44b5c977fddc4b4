"""Regenerates the generated parts of README.md and docs/: `python -m taihu.docs` (or `make docs`).

A page marks each generated part with a begin line naming what it shows and
an end line; everything between them is rewritten, the rest is left as it
was written by hand:

    <!-- begin generated (make docs): items NAME -->
    <!-- begin generated (make docs): conditions -->
    <!-- begin generated (make docs): events -->
    <!-- begin generated (make docs): units -->
    <!-- begin generated (make docs): words -->
    <!-- begin generated (make docs): $ taihu score "…" -r NAME -->
    <!-- begin generated (make docs): POST /score {"rules": "…", "hand": "…"} -->
    <!-- begin generated (make docs): POST /settle @examples/tables/normal-win.json -->
    <!-- begin generated (make docs): file examples/tables/normal-win.json -->
    <!-- end generated -->

`items NAME` is the rule set's item table, options and exclusions, read from
the code's own item data (`RuleSet.info()`), so a page cannot disagree with
what the scorer counts; `conditions` and `events` are which rule set
accepts which condition and which side event, from each one's own list; `units` what each rule set's
items count (`ScoreItem.unit` by kind); `words` the players' words by what each reads as;
`$ taihu …` is the command's output (run in this
process, at a fixed width; `$ COLUMNS=40 taihu …` at that width, `… < FILE`
with the file on stdin); `GET …`/`POST …` is the HTTP API's answer (a
body `@FILE` is read from that file); `file` is the
file as it is. tests/test_docs.py fails when a page differs from what this
module makes of it.
"""

from __future__ import annotations

import json
import re
import shlex
import sys
import warnings
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path

from taihu.scorer.limits import MAX_OPTION_VALUE
from taihu.scorer.notation import CONDITION_ORDER
from taihu.scorer.rulesets import RULESETS, get, players_words
from taihu.scorer.rulesets.interface import SCOPE_WORDS

ROOT = Path(__file__).resolve().parent.parent
WIDTH = 80  # the width the CLI outputs are shown at: a terminal's default
BLOCK = re.compile(
    r"(?P<begin><!-- begin generated \(make docs\): (?P<spec>.*?) -->\n)(?P<body>.*?)(?P<end><!-- end generated -->)",
    re.DOTALL,
)
# What runs the CLI sees: a plain terminal of WIDTH columns with no colour, whatever the caller's is.
# the docs' transcripts are the English ones whatever the locale of the machine making them (docs/languages.md)
CLI_ENV = {"COLUMNS": str(WIDTH), "LINES": "50", "TERM": "xterm", "NO_COLOR": "1", "FORCE_COLOR": None}
CLI_ENV |= {"LC_ALL": None, "LC_MESSAGES": None, "LANG": None}


def pages(root: Path = ROOT) -> list[Path]:
    """The README and the pages of docs/: the pages that may hold generated parts."""
    docs = root / "docs"
    return [root / "README.md", *sorted([*docs.glob("*.md"), *docs.glob("rules/*.md")])]


def cell(text: object) -> str:
    """A markdown table cell: `|` would end the cell, a newline the row."""
    return str(text).replace("|", "\\|").replace("\n", " ")


def table(header: tuple[str, ...], rows: Iterable[Sequence[object]]) -> list[str]:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(map(cell, row)) + " |" for row in rows]
    return lines


def items_block(name: str) -> str:
    """The item table, the house options and the exclusions of a rule set, from its own data."""
    info = get(name).info()
    lines = [
        f"Unit: **{info.unit}**. The items in the order the scorer evaluates them; *for* says whose hand"
        " counts the item (a declared win: nothing else counts).",
        "",
    ]
    lines += table(
        ("key", "中文", "English", "value", "for"),
        [(f"`{i.key}`", i.name, i.name_en, i.value, SCOPE_WORDS.get(i.scope, i.scope)) for i in info.items],
    )
    lines.append("")
    if info.options:
        lines += [
            "House options (`-o NAME=VALUE` on the command line, `options` in JSON); any whole number from 0 to"
            f" {MAX_OPTION_VALUE} is taken, the seed's alternatives are what the rules' source names:",
            "",
        ]
        lines += table(
            ("option", "default", "the seed's alternatives", "meaning"),
            [(f"`{o.name}`", o.default, ", ".join(map(str, o.alternatives)), o.description) for o in info.options],
        )
    else:
        lines.append("House options: none.")
    lines.append("")
    if info.exclusions:
        lines += [
            "Exclusions (when the first item is scored, the others are not), each with the rule it comes from:",
            "",
        ]
        lines += [
            f"- {cell(line)} — {cell(rule)}" for line, rule in zip(info.exclusions, info.exclusion_rules, strict=True)
        ]
    else:
        lines.append("Exclusions: none.")
    return "\n".join(lines) + "\n"


def conditions_block() -> str:
    """Which rule set takes which condition, from each rule set's own list of the conditions it knows."""
    rows = []
    for condition in CONDITION_ORDER:
        row: list[object] = [f"`{condition}`"]
        for rule_set in RULESETS.values():
            taken = condition in rule_set.conditions
            declares = rule_set.declared_wins if condition == "declare" else ()
            row.append(", ".join(f"`{d}`" for d in sorted(declares)) if taken and declares else "✓" if taken else "—")
        rows.append(tuple(row))
    return "\n".join(table(("condition", *RULESETS), rows)) + "\n"


def events_block() -> str:
    """Which rule set's settlement takes which side event, from each rule set's own list (`RuleSet.events`)."""
    known = {name: rule_set.events for name, rule_set in RULESETS.items()}
    events = list(dict.fromkeys(event for names in known.values() for event in names))
    rows = [(f"`{event}`", *("✓" if event in names else "—" for names in known.values())) for event in events]
    return "\n".join(table(("event", *known), rows)) + "\n"


def words_block() -> str:
    """The players' words by what they read as (the other direction of docs/notation.md's table): the shared
    ones of `forms` and each rule set's own (`rulesets.Words.players_words`), from the data the parser folds by."""
    from taihu.scorer import tiles as T
    from taihu.scorer.forms import DEALER_WORDS, NUMERALS, SUIT_WORDS, VALUE_WORDS, WORDS

    by_reading: dict[tuple[str, str], list[str]] = {}

    def add(reading: str, word: str, rule_set: str = "") -> None:
        by_reading.setdefault((reading, rule_set), []).append(word)

    numerals = " ".join(n for n in NUMERALS if not n.isdigit())
    for suit in "mps":
        add(
            f"1{suit}` … `9{suit}",
            " ".join(w for w, s in SUIT_WORDS.items() if s == suit) + f" after 1–9 or {numerals}",
        )
    for char, kind in T.CHINESE.items():
        add(T.name(kind), char)
    for word, reading in WORDS.items():
        add(reading, word)
    for word in DEALER_WORDS:
        add("seat:E", f"{word} (alone)")
    for word, condition in VALUE_WORDS.items():
        add(f"{condition}:", f"{word}:")
    for word, (reading, owner) in players_words().items():
        add(reading, word, owner)
    rows = [
        (f"`{reading}`", " ".join(found), rule_set or "every rule set")
        for (reading, rule_set), found in by_reading.items()
    ]
    return "\n".join(table(("notation", "players' words", "read by"), rows)) + "\n"


def units_block() -> str:
    """Each rule set's `unit` and what its items' values count, by kind, from the rule sets' own item data."""
    rows = []
    for name, rule_set in RULESETS.items():
        kinds = ", ".join(f"{kind} → `{unit}`" for kind, unit in rule_set.item_units().items())
        rows.append((name, f"`{rule_set.unit}`", kinds))
    return "\n".join(table(("rule set", "`unit` of the hand", "items: kind → `unit`"), rows)) + "\n"


def cli_block(command: str) -> str:
    """The command line and what `taihu` prints for it, as a terminal shows it."""
    from typer.testing import CliRunner

    from taihu.cli.main import app

    args = shlex.split(command)
    env = dict(CLI_ENV)
    if args[:1] and args[0].startswith("COLUMNS="):  # `COLUMNS=40 taihu …`: a narrower terminal (a phone's)
        env["COLUMNS"] = args.pop(0).partition("=")[2]
    stdin = None
    if args[-2:-1] == ["<"]:  # `taihu … < FILE`: the file (from the repo's root) on stdin
        stdin = (ROOT / args[-1]).read_text(encoding="utf-8")
        args = args[:-2]
    if args[:1] != ["taihu"]:
        raise ValueError(f"a generated command starts with 'taihu': {command}")
    result = CliRunner().invoke(app, args[1:], env=env, input=stdin)
    if result.exit_code not in (0, 2):
        raise RuntimeError(f"{command} exited {result.exit_code}: {result.output}")
    shown = "\n".join(line.rstrip() for line in result.output.splitlines())
    status = f"\n(exit status {result.exit_code})" if result.exit_code else ""
    return f"```console\n$ {command}\n{shown}{status}\n```\n"


def http_block(spec: str, root: Path = ROOT) -> str:
    """A request to the HTTP API and its answer: `GET /path`, `POST /path JSON` or `POST /path @FILE`."""
    with warnings.catch_warnings():  # starlette's TestClient warns about httpx itself; nothing of ours
        warnings.simplefilter("ignore")
        from fastapi.testclient import TestClient

    from taihu.api.app import create_app

    method, path, *rest = spec.split(" ", 2)
    client = TestClient(create_app(), base_url="http://localhost")  # a Host name the app answers by default
    if method == "GET" and not rest:
        request, answer = f"GET {path}", client.get(path)
    elif method == "POST" and rest:
        body = rest[0]
        text = (root / body[1:]).read_text(encoding="utf-8") if body.startswith("@") else body
        request, answer = f"POST {path}\n{body}", client.post(path, json=json.loads(text))
    else:
        raise ValueError(f"a generated request is GET /path, POST /path JSON or POST /path @FILE: {spec}")
    reply = json.dumps(answer.json(), ensure_ascii=False, indent=2)
    return f"```http\n{request}\n```\n\n{answer.status_code}:\n\n```json\n{reply}\n```\n"


def file_block(path: str, root: Path = ROOT) -> str:
    language = Path(path).suffix.lstrip(".") or "text"
    return f"```{language}\n{(root / path).read_text(encoding='utf-8').rstrip()}\n```\n"


def render(spec: str, root: Path = ROOT) -> str:
    """What belongs between the markers of one generated part."""
    kind, _, rest = spec.partition(" ")
    if kind == "items":
        return items_block(rest)
    if kind == "conditions":
        return conditions_block()
    if kind == "events":
        return events_block()
    if kind == "units":
        return units_block()
    if kind == "words":
        return words_block()
    if kind == "$":
        return cli_block(rest)
    if kind in ("GET", "POST"):
        return http_block(spec, root)
    if kind == "file":
        return file_block(rest, root)
    known = "items NAME, conditions, events, units, words, $ taihu …, GET /path, POST /path JSON|@FILE, file PATH"
    raise ValueError(f"unknown generated part '{spec}'; known: {known}")


def regenerate(text: str, root: Path = ROOT) -> str:
    """The page with every generated part made again."""
    return BLOCK.sub(lambda m: m["begin"] + render(m["spec"], root) + m["end"], text)


def generated_specs(text: str) -> Iterator[str]:
    for match in BLOCK.finditer(text):
        yield match["spec"]


def main(argv: list[str] | None = None) -> int:
    """Rewrites the generated parts of the pages in place; `--check` only reports the stale pages."""
    check = "--check" in (argv if argv is not None else sys.argv[1:])
    stale = []
    for page in pages():
        text = page.read_text(encoding="utf-8")
        made = regenerate(text)
        if made != text:
            stale.append(page)
            if not check:
                page.write_text(made, encoding="utf-8")
    for page in stale:
        print(f"{'stale' if check else 'regenerated'}: {page.relative_to(ROOT)}")
    return 1 if check and stale else 0


if __name__ == "__main__":
    sys.exit(main())
