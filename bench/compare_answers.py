"""Every answer of this tree against an older commit's: the library, the API and the CLI, byte for byte.

Run with `make compare-answers REF=<commit>` (or `REF=<commit> .venv/bin/python bench/compare_answers.py`).
The commit is exported with `git archive` into a temporary folder. The inputs are made once, here,
then each tree answers them in fresh processes that import that tree's own code:

- the hands of examples/hands, the tables of examples/tables, and every `taihu score|settle|waits`
  line of README.md and docs/ (the lines tests/test_docs.py checks);
- `--hands` random hands of each rule set (default 20,000) from the tests' generators:
  `winning_hand` of tests/test_waits.py (sets and a pair, some tiles swapped for wildcards, taken
  whether they score or not, here and there a condition added), riichi's `riichi_cases` of
  tests/riichi_oracle.py; the same hands less one tile as waiting hands (`--waits` of them), and
  random tables of them (`--tables`).

The library's answers are `score_hand(...).to_dict()` (with `arithmetic`), `settle_table(...).to_dict()`,
`waits(...).to_dict()` and `rule_sets()`, as JSON in their key order, or the HandError's `as_dict()`.
The API's are the status and body of POST /score (with `?arithmetic=true`), /settle and /waits and of
GET /rules through Starlette's TestClient (`--api` hands a rule set). The CLI's are the exit status,
stdout and stderr of the `taihu` command in a child process: each example and documented command
alone, text and `--json`, and every random hand through `taihu score -` (one hand a line).

Each difference is printed with its input (the first few of each kind), then a count of the same
and the different answers by kind and rule set; the exit status is 1 when any answer differs.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import shlex
import subprocess
import sys
import tempfile
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
FENCE = re.compile(r"^```sh\n(?P<body>.*?)^```", re.MULTILINE | re.DOTALL)
COMMAND = re.compile(r"^taihu (?:score|settle|waits) ")
# the same terminal for both trees: its width, its language (English), no colour
CLI_ENV = {"COLUMNS": "100", "LINES": "50", "LANG": "C.UTF-8", "NO_COLOR": "1", "TERM": "dumb"}
LAUNCH = (
    "import sys; sys.path.insert(0, sys.argv.pop(1)); sys.argv[0] = 'taihu'; from taihu.cli.main import main; main()"
)

Input = dict[str, Any]


# -- the inputs (made once, by this tree) ---------------------------------------------------------


def example_hands() -> list[Input]:
    found = []
    for path in sorted((ROOT / "examples" / "hands").glob("*.txt")):
        for line in path.read_text(encoding="utf-8").splitlines():
            hand = line.split("#")[0].strip()
            if hand:
                found.append({"rules": path.stem, "hand": hand, "options": {}, "from": f"examples/hands/{path.name}"})
    return found


def example_tables() -> list[Input]:
    return [
        {"table": json.loads(path.read_text(encoding="utf-8")), "from": f"examples/tables/{path.name}"}
        for path in sorted((ROOT / "examples" / "tables").glob("*.json"))
    ]


def documented_commands() -> list[tuple[str, list[str]]]:
    """Every `taihu score|settle|waits` line of a ```sh block in README.md and docs/: (page:line, its arguments)."""
    found = []
    for page in [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]:
        text = page.read_text(encoding="utf-8")
        for fence in FENCE.finditer(text):
            first = text.count("\n", 0, fence.start("body")) + 1
            for offset, line in enumerate(fence["body"].splitlines()):
                if COMMAND.match(line):
                    found.append(
                        (f"{page.relative_to(ROOT)}:{first + offset}", shlex.split(line.partition("#")[0])[1:])
                    )
    return found


def command_input(where: str, args: list[str]) -> tuple[str, Input] | None:
    """A documented command as a library input: ("score"|"waits", {rules, hand, options}) or ("settle", {table})."""
    from taihu.scorer.rulesets import DEFAULT_RULES

    if args[0] == "settle":
        return "settle", {"table": json.loads((ROOT / args[1]).read_text(encoding="utf-8")), "from": where}
    found: Input = {"rules": DEFAULT_RULES, "hand": args[1], "options": {}, "from": where}
    rest = iter(args[2:])
    for flag in rest:
        if flag in ("-r", "--rules"):
            found["rules"] = next(rest)
        elif flag in ("-o", "--option"):
            name, _, number = next(rest).partition("=")
            found["options"][name] = int(number)
    return args[0], found


def random_lines(rules: str, count: int, rng: random.Random) -> list[tuple[list[int], str]]:
    """`count` hands of tests/test_waits.py's `winning_hand` as tiles and conditions, taken whether they score
    or not (its check by score_hand left out), a third of them with a condition of the notation added."""
    sys.path.insert(0, str(ROOT / "tests"))
    import test_waits

    from taihu.scorer.notation import FLAG_CONDITIONS

    checked, test_waits.score_hand = test_waits.score_hand, lambda *args, **kwargs: None
    try:
        made = [test_waits.winning_hand(rules, rng) for _ in range(count)]
    finally:
        test_waits.score_hand = checked
    hands = []
    for found in made:
        assert found is not None
        tiles, condition = found
        if rng.random() < 1 / 3:
            condition += f" {rng.choice(FLAG_CONDITIONS)}"
        hands.append((tiles, condition))
    return hands


def riichi_lines(count: int) -> list[tuple[str, dict[str, int]]]:
    """`count` riichi hands of tests/riichi_oracle.py's `riichi_cases`, drawn by hypothesis (derandomized)."""
    sys.path.insert(0, str(ROOT / "tests"))
    from hypothesis import HealthCheck, given, settings
    from riichi_oracle import riichi_cases

    cases: list[tuple[str, dict[str, int]]] = []

    @settings(
        max_examples=count, derandomize=True, database=None, deadline=None, suppress_health_check=list(HealthCheck)
    )
    @given(case=riichi_cases())
    def collect(case: Any) -> None:
        cases.append((case.line, dict(case.options)))

    collect()
    return cases


def waiting(line: str) -> str:
    """A winning line less its winning tile and how it was won (what /waits is given)."""
    from taihu.scorer.notation import FLAG_CONDITIONS

    return " ".join(w for w in line.split() if not w.startswith("+") and w not in FLAG_CONDITIONS)


def random_table(rules: str, lines: list[str], ready: list[str], rng: random.Random) -> dict[str, Any]:
    """A table of one rule set: a random winner (or a drawn deal) with a random hand, the others ready hands or
    counts; the hands' `wild:`/`flip:` moved to the table, their `seat:` dropped (the table seats them)."""
    seats = ["E", "S", "W", "N"]
    winner = rng.choice([*seats, None]) if rng.random() < 0.9 else None
    discarder = rng.choice([s for s in seats if s != winner] + [None]) if winner else None
    table: dict[str, Any] = {"rules": rules, "winner": winner, "discarder": discarder, "players": {}, "events": []}
    for seat in seats:
        line = rng.choice(lines) if seat == winner else rng.choice(ready)
        words = []
        for word in line.split():
            if word.startswith("wild:"):
                table["wild"] = word[5:].split(",")
            elif word.startswith("flip:"):
                table["flip"] = word[5:]
            elif not word.startswith("seat:"):
                words.append(word)
        if seat == winner and discarder is None and "self" not in words:
            words.append("self")
        if seat != winner and rules != "riichi" and rng.random() < 0.4:
            table["players"][seat] = {"total": rng.randrange(12)}
        elif seat != winner and rules == "riichi" and winner is None and rng.random() < 0.4:
            table["players"][seat] = {"tenpai": rng.random() < 0.5}
        else:
            table["players"][seat] = " ".join(words)
    if rules == "riichi":
        table |= {"honba": rng.randrange(4), "pot": rng.randrange(3)}
    return table


def make_inputs(hands: int, waits: int, tables: int, api: int, seed: int) -> dict[str, Any]:
    from taihu.scorer import tiles as T
    from taihu.scorer.rulesets import REGISTRY

    rng = random.Random(seed)
    score: list[Input] = example_hands()
    settle: list[Input] = example_tables()
    wait: list[Input] = [{**hand, "hand": waiting(hand["hand"])} for hand in score]
    documented = documented_commands()
    for where, args in documented:
        kind, found = command_input(where, args) or ("", {})
        {"score": score, "settle": settle, "waits": wait}[kind].append(found)
    random_score: dict[str, list[Input]] = {}
    for rules in REGISTRY:
        if rules == "riichi":
            made = riichi_lines(hands)
        else:
            made = []
            for tiles, condition in random_lines(rules, hands, rng):
                line = " ".join(T.name(k) for k in tiles[:-1]) + f" +{T.name(tiles[-1])} {condition}"
                made.append((line.strip(), {}))
        random_score[rules] = [{"rules": rules, "hand": h, "options": o, "from": "random"} for h, o in made]
    random_waits = {
        rules: [{**hand, "hand": waiting(hand["hand"])} for hand in found[:waits]]
        for rules, found in random_score.items()
    }
    random_tables = {
        rules: [
            {
                "table": random_table(
                    rules, [h["hand"] for h in found], [w["hand"] for w in random_waits[rules] or found], rng
                ),
                "from": "random",
            }
            for _ in range(tables)
        ]
        for rules, found in random_score.items()
    }
    fixed = {"score": score, "settle": settle, "waits": wait}
    every = {
        "score": score + [h for found in random_score.values() for h in found],
        "settle": settle + [t for found in random_tables.values() for t in found],
        "waits": wait + [w for found in random_waits.values() for w in found],
    }
    through_api = {
        kind: fixed[kind] + [x for found in by_rules.values() for x in found[:api]]
        for kind, by_rules in (("score", random_score), ("settle", random_tables), ("waits", random_waits))
    }
    return {"library": every, "api": through_api, "documented": documented, "random_score": random_score}


# -- the answers (in a child process, by the tree it was given) -----------------------------------


def as_json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def answered(call: Callable[[], Any]) -> str:
    from taihu.scorer import HandError

    try:
        return as_json(call())
    except HandError as exc:
        return as_json({"error": exc.as_dict()})
    except Exception as exc:  # a bug is an answer too: the difference is what this looks for
        return as_json({"crash": type(exc).__name__, "message": str(exc)})


def library_answers(inputs: dict[str, list[Input]]) -> dict[str, list[str]]:
    from taihu.scorer import rule_sets, score_hand, settle_table
    from taihu.scorer.arithmetic_lines import arithmetic
    from taihu.scorer.waiting import waits

    def scored(hand: Input) -> dict[str, Any]:
        score = score_hand(hand["hand"], rules=hand["rules"], options=hand["options"])
        return score.to_dict() | {"arithmetic": arithmetic(score)}

    return {
        "score": [answered(lambda h=h: scored(h)) for h in inputs["score"]],
        "settle": [answered(lambda t=t: settle_table(t["table"]).to_dict()) for t in inputs["settle"]],
        "waits": [
            answered(lambda h=h: waits(h["hand"], rules=h["rules"], options=h["options"]).to_dict())
            for h in inputs["waits"]
        ],
        "rules": [answered(lambda: [info.to_dict() for info in rule_sets()])],
    }


def api_answers(inputs: dict[str, list[Input]]) -> dict[str, list[str]]:
    import warnings

    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

    import taihu.api.app as api

    # a tree with the app factory makes its app; an older one has a module-level app
    client = TestClient(api.create_app() if hasattr(api, "create_app") else api.app, base_url="http://localhost")

    def asked(method: str, path: str, body: Any = None) -> str:
        reply = client.request(method, path, json=body)
        return f"{reply.status_code} {reply.content.decode('utf-8', 'replace')}"

    def hand(h: Input) -> dict[str, Any]:
        return {"rules": h["rules"], "hand": h["hand"], "options": h["options"]}

    return {
        "score": [asked("POST", "/score?arithmetic=true", hand(h)) for h in inputs["score"]],
        "settle": [asked("POST", "/settle", t["table"]) for t in inputs["settle"]],
        "waits": [asked("POST", "/waits", hand(h)) for h in inputs["waits"]],
        "rules": [asked("GET", "/rules")],
    }


def child(tree: str, what: str, inputs_path: str, out_path: str) -> None:
    sys.path.insert(0, tree)  # the tree's own code before the installed package
    import taihu

    assert Path(taihu.__file__).resolve().is_relative_to(Path(tree).resolve()), taihu.__file__
    inputs = json.loads(Path(inputs_path).read_text(encoding="utf-8"))
    answers = (library_answers if what == "library" else api_answers)(inputs[what])
    Path(out_path).write_text(json.dumps(answers, ensure_ascii=False), encoding="utf-8")


def answers_of(tree: str, what: str, inputs_path: str) -> dict[str, list[str]]:
    with tempfile.NamedTemporaryFile(suffix=".json") as out:
        subprocess.run(
            [sys.executable, __file__, "--child", tree, what, inputs_path, out.name],
            check=True,
            cwd=tempfile.gettempdir(),
        )
        found: dict[str, list[str]] = json.loads(Path(out.name).read_text(encoding="utf-8"))
        return found


def cli_answer(tree: str, args: list[str], stdin: str = "") -> str:
    """The `taihu` command of `tree`: exit status, stdout and stderr, run in the repository (its paths)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("LC_", "LANG", "TAIHU"))} | CLI_ENV
    run = subprocess.run(
        [sys.executable, "-c", LAUNCH, tree, *args], input=stdin, capture_output=True, text=True, env=env, cwd=ROOT
    )
    return as_json({"status": run.returncode, "stdout": run.stdout, "stderr": run.stderr})


def cli_runs(inputs: dict[str, Any]) -> list[tuple[str, str, list[str], str]]:
    """(kind, rule set, arguments, stdin) of every CLI run: the documented commands, the example hands alone
    (text and --json) and each rule set's random hands through `score -`."""
    runs = [("documented", "", args, "") for _, args in inputs["documented"]]
    for hand in example_hands():
        for extra in ([], ["--json"]):
            runs.append(("examples", hand["rules"], ["score", hand["hand"], "-r", hand["rules"], *extra], ""))
            runs.append(("examples", hand["rules"], ["waits", waiting(hand["hand"]), "-r", hand["rules"], *extra], ""))
    for path in sorted((ROOT / "examples" / "tables").glob("*.json")):
        for extra in ([], ["--json"]):
            runs.append(("examples", "", ["settle", str(path.relative_to(ROOT)), *extra], ""))
    for rules, found in inputs["random_score"].items():
        # options are given on the command line, so the batch takes the hands without options
        lines = "".join(f"{h['hand']}\n" for h in found if not h["options"])
        for extra in ([], ["--json"]):
            runs.append(("random", rules, ["score", "-", "-r", rules, *extra], lines))
    return runs


# -- the comparison -------------------------------------------------------------------------------


def rules_of(item: Input) -> str:
    return str(item.get("rules") or item.get("table", {}).get("rules", ""))


# What other issues changed on purpose since the older commit, each as what it makes of an older answer (a
# parsed JSON answer, changed in place); an answer is "the same but for" them when the older one, so
# changed and written back in its own layout, is this tree's byte for byte.
def waits_kind(answer: Any, item: Input) -> None:
    """A waits answer names its kind, `"kind": "waits"` or `"discards"`, after that list."""
    if not isinstance(answer, dict) or "hand" not in answer or "kind" in answer:
        return
    kind = "waits" if "waits" in answer and "ready" in answer else "discards" if "discards" in answer else ""
    if kind:
        fields = list(answer.items())
        answer.clear()
        for key, value in fields:
            answer[key] = value
            if key == kind:
                answer["kind"] = kind


def tenpai_kept(answer: Any, item: Input) -> None:
    """A seat given as `{"tenpai": ...}` keeps it in the settlement's `scores`."""
    table = item.get("table") or settled_table(item)
    if isinstance(answer, dict) and isinstance(answer.get("scores"), dict) and table:
        for seat, player in table.get("players", {}).items():
            if isinstance(player, dict) and "tenpai" in player and answer["scores"].get(seat) == {"total": 0}:
                answer["scores"][seat] = {"total": 0, "tenpai": player["tenpai"]}


KNOWN_CHANGES = (waits_kind, tenpai_kept)
LAYOUTS: tuple[dict[str, Any], ...] = (
    {"ensure_ascii": False},  # the library's (as compared here) and `score -`'s JSON lines
    {"ensure_ascii": False, "separators": (",", ":")},  # the API's bodies
    {"ensure_ascii": False, "indent": 2},  # the CLI's --json
)


def settled_table(item: Input) -> dict[str, Any] | None:
    """The table a CLI run settles, read from its file."""
    args = item.get("args") or []
    if len(args) > 1 and args[0] == "settle" and args[1] != "-":
        found: dict[str, Any] = json.loads((ROOT / args[1]).read_text(encoding="utf-8"))
        return found
    return None


def changed_json(text: str, item: Input) -> str:
    """A JSON text with KNOWN_CHANGES made, written in its own layout (unchanged if it is not JSON)."""
    try:
        answer = json.loads(text)
    except ValueError:
        return text
    layout = next((layout for layout in LAYOUTS if json.dumps(answer, **layout) == text.rstrip("\n")), None)
    if layout is None:
        return text
    for change in KNOWN_CHANGES:
        change(answer, item)
    return json.dumps(answer, **layout) + text[len(text.rstrip("\n")) :]


def changed(what: str, item: Input, old: str) -> str:
    """The older answer with the known changes made: what this tree answers if nothing else changed."""
    if what == "api":
        status, _, body = old.partition(" ")
        return f"{status} {changed_json(body, item)}"
    if what == "cli":
        run = json.loads(old)
        try:  # one --json answer, or JSON lines (`score - --json`), or text
            json.loads(run["stdout"])
            run["stdout"] = changed_json(run["stdout"], item)
        except ValueError:
            run["stdout"] = "".join(changed_json(line, item) for line in run["stdout"].splitlines(keepends=True))
        return as_json(run)
    return changed_json(old, item)


def trailing_spaces_only(ours: str, theirs: str) -> bool:
    """A wrapped `note:` line of the text table (the CLI on rich) may end in a space."""
    try:
        mine, old = json.loads(ours), json.loads(theirs)
    except ValueError:
        return False
    if not isinstance(mine, dict) or "stdout" not in mine:
        return False

    def stripped(run: dict[str, Any]) -> dict[str, Any]:
        return {
            k: "\n".join(line.rstrip(" ") for line in v.split("\n")) if isinstance(v, str) else v
            for k, v in run.items()
        }

    return stripped(mine) == stripped(old)


def how_different(what: str, item: Input, ours: str, theirs: str) -> str:
    """ "the same" or which known change makes the older answer this tree's, else "DIFFERENT"."""
    if ours == theirs:
        return "the same"
    expected = changed(what, item, theirs)
    if ours == expected:
        return "the same but for the documented changes of the API"
    if trailing_spaces_only(ours, expected):
        return "the same but for trailing spaces"
    return "DIFFERENT"


def refusal(answer: str) -> bool:
    """An answer that is an error: the library's HandError, an API 4xx, a CLI exit 2."""
    return answer.startswith(('{"error"', "4")) or answer.startswith('{"status": 2')


def report(
    name: str, items: list[Any], ours: list[str], theirs: list[str], shown: int, keyed: Callable[[Any], str]
) -> int:
    """Prints the differences (the first `shown` of each kind) and the counts by verdict and key; the count of
    answers DIFFERENT."""
    what = name.split()[0]
    counts: Counter[tuple[str, str]] = Counter()
    printed: Counter[str] = Counter()
    for item, mine, old in zip(items, ours, theirs, strict=True):
        verdict = how_different(what, item, mine, old)
        counts[keyed(item) or "-", verdict] += 1
        if verdict != "the same" and printed[verdict] < shown:
            printed[verdict] += 1
            print(f"  {verdict} — {name}: {json.dumps(item, ensure_ascii=False)[:300]}")
            print(f"    this tree: {mine[:600]}")
            print(f"    reference: {old[:600]}")
    verdicts = Counter[str]()
    for (_, verdict), count in counts.items():
        verdicts[verdict] += count
    refused = sum(1 for mine in ours if refusal(mine))
    print(
        f"{name}: "
        + ", ".join(f"{count} {verdict}" for verdict, count in sorted(verdicts.items()))
        + f" (this tree refused {refused} of the {len(ours)} inputs: an error answer, 4xx or exit 2)"
    )
    for (key, verdict), count in sorted(counts.items()):
        print(f"    {key}: {count} {verdict}")
    return verdicts["DIFFERENT"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--ref", default=os.environ.get("REF") or "527aaa9", help="the older commit (REF)")
    parser.add_argument("--hands", type=int, default=20000, help="random hands a rule set (library, CLI)")
    parser.add_argument("--waits", type=int, default=2000, help="of those, waiting hands a rule set (library)")
    parser.add_argument("--tables", type=int, default=2000, help="random tables a rule set (library)")
    parser.add_argument("--api", type=int, default=1000, help="random hands, waits and tables a rule set (API)")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--shown", type=int, default=3, help="differences printed of each kind")
    parser.add_argument("--skip", nargs="*", default=[], choices=["library", "api", "cli"])
    parser.add_argument("--child", nargs=4, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(*args.child)
        return
    print(f"load average (1, 5, 15 min): {', '.join(f'{x:.2f}' for x in os.getloadavg())}")
    inputs = make_inputs(args.hands, args.waits, args.tables, args.api, args.seed)
    differences = 0
    with tempfile.TemporaryDirectory() as old, tempfile.NamedTemporaryFile("w", suffix=".json") as stored:
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", args.ref], capture_output=True, check=True)
        subprocess.run(["tar", "-x", "-C", old], input=archive.stdout, check=True)
        stored.write(json.dumps(inputs, ensure_ascii=False))
        stored.flush()
        trees = {"this tree": str(ROOT), args.ref: old}
        print(f"this tree ({ROOT}) against {args.ref}")
        for what in ("library", "api"):
            if what in args.skip:
                continue
            ours, theirs = (answers_of(tree, what, stored.name) for tree in trees.values())
            for kind, items in inputs[what].items():
                differences += report(f"{what} {kind}", items, ours[kind], theirs[kind], args.shown, rules_of)
            differences += report(f"{what} rules", [{}], ours["rules"], theirs["rules"], args.shown, rules_of)
        if "cli" not in args.skip:
            runs = cli_runs(inputs)
            ours, theirs = ([cli_answer(tree, a, stdin) for _, _, a, stdin in runs] for tree in trees.values())
            differences += report(
                "cli",
                [{"kind": k, "rules": r, "args": a} for k, r, a, _ in runs],
                ours,
                theirs,
                args.shown,
                lambda run: f"{run['kind']} {run['rules']}".strip(),
            )
    print(f"load average (1, 5, 15 min): {', '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print("every answer the same" if not differences else f"{differences} answers DIFFERENT")
    sys.exit(1 if differences else 0)


if __name__ == "__main__":
    main()
