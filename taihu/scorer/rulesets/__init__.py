"""The rule sets by name, each module imported on its first use.

`taihu score -r luoshan` loads Luoshan's module and no other: `RULESETS` is
a mapping that imports a rule set's module the first time its value is read.
What must be known without importing them (the names, the Chinese names, the
hand sizes of "did you mean --rules …") is one registry line each
(`REGISTRY`); a test checks it against the modules. The CLI, the API, the page,
the docs generator and the tests take the rule sets from here.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, MutableMapping
from dataclasses import dataclass
from importlib import import_module
from typing import TYPE_CHECKING, TypeVar

from .. import memo as M
from ..errors import HandError, Term, Word, quote

if TYPE_CHECKING:
    from .base import RuleSet

V = TypeVar("V")


@dataclass(frozen=True)
class Registered:
    """One registry line: what must be known of a rule set without importing it.

    `name` is its folder under taihu/scorer/rulesets/, whose module holds the
    instance `RULE_SET` (`module` names the module instead for one defined
    elsewhere, as the tests' toy); `chinese` its Chinese names, simplified then traditional;
    `hand_size` a non-winning hand's tiles; `size_hint`: named in "did you
    mean --rules …" when a hand's count fits it (one of 13 tiles like Luoshan's
    may not be); `words` the condition words of the notation only it reads (any
    other rule set refuses them naming it), `declarations` those of them a
    player declares before the win, written right after `self`. `players_words`
    are the players' own words for its conditions (游金, 立直, 宝牌:), each with
    the notation it is read as: a word ending in `:` takes a value (`金:9m` is
    `wild:9m`), which only this rule set reads so; any other word reads the same
    under every rule set, and the one that has no use for it says so.
    """

    name: str
    chinese: tuple[str, ...]
    hand_size: int
    size_hint: bool = True
    words: tuple[str, ...] = ()
    declarations: tuple[str, ...] = ()
    players_words: tuple[tuple[str, str], ...] = ()
    module: str = ""

    def rule_set(self) -> RuleSet:
        found: RuleSet = import_module(self.module or f"{__name__}.{self.name}").RULE_SET
        return found


# The registry: adding a rule set is its folder plus one line here, in the order they are listed.
REGISTRY: dict[str, Registered] = {
    line.name: line
    for line in (
        Registered(
            "lingxi",
            ("灵溪", "靈溪"),
            16,
            players_words=(("杀猪", "declare:sha-zhu"), ("殺豬", "declare:sha-zhu"), ("花胡", "declare:hua-hu")),
        ),
        Registered("luoshan", ("螺山",), 13),
        Registered("guannan", ("灌南",), 13),
        Registered(
            "putian",
            ("莆田",),
            16,
            players_words=(
                ("金:", "wild:"),
                ("三金倒", "declare:san-jin-dao"),
                ("抢金", "declare:qiang-jin"),
                ("搶金", "declare:qiang-jin"),
                ("三金游", "declare:san-jin-you"),
                ("三金遊", "declare:san-jin-you"),
                ("游金", "declare:you-jin"),
                ("遊金", "declare:you-jin"),
                ("打金", "da-jin"),
            ),
        ),
        Registered("jinhua", ("金华", "金華"), 13),
        Registered(
            "mcr",
            ("国标", "國標", "国标麻将", "國標麻將", "竞技麻将", "競技麻將"),
            13,
            size_hint=False,
            words=("fourth-tile",),
            players_words=(
                ("妙手回春", "last-tile self"),
                ("妙手", "last-tile self"),
                ("河底捞鱼", "last-tile"),
                ("河底撈魚", "last-tile"),
                ("河底", "last-tile"),
                ("抢杠和", "rob-kong"),
                ("抢杠胡", "rob-kong"),
                ("搶槓和", "rob-kong"),
                ("搶槓胡", "rob-kong"),
                ("和绝张", "fourth-tile"),
                ("胡绝张", "fourth-tile"),
                ("和絕張", "fourth-tile"),
                ("胡絕張", "fourth-tile"),
                ("绝张", "fourth-tile"),
                ("絕張", "fourth-tile"),
                *((f"圈风{zh}", f"round:{w}") for zh, w in zip("东南西北", "ESWN", strict=True)),
                *((f"{zh}风圈", f"round:{w}") for zh, w in zip("东南西北", "ESWN", strict=True)),
                *((f"{zh}圈", f"round:{w}") for zh, w in zip("东南西北", "ESWN", strict=True)),
                *((f"门风{zh}", f"seat:{w}") for zh, w in zip("东南西北", "ESWN", strict=True)),
                *((f"{zh}家", f"seat:{w}") for zh, w in zip("东南西北", "ESWN", strict=True)),
                *((f"{zh}风位", f"seat:{w}") for zh, w in zip("东南西北", "ESWN", strict=True)),
            ),
        ),
        Registered(
            "riichi",
            ("立直",),
            13,
            size_hint=False,
            words=("round", "dora", "ura", "honba", "sticks", "ippatsu", "furiten"),
            declarations=("riichi", "double-riichi"),
            players_words=(
                ("两立直", "double-riichi"),
                ("兩立直", "double-riichi"),
                ("ダブルリーチ", "double-riichi"),
                ("ダブリー", "double-riichi"),
                ("立直", "riichi"),
                ("リーチ", "riichi"),
                ("一发", "ippatsu"),
                ("一發", "ippatsu"),
                ("一発", "ippatsu"),
                ("振听", "furiten"),
                ("振聽", "furiten"),
                ("里宝牌指示牌:", "ura:"),  # the indicator by its full name: 宝牌: names it too, as dora: does
                ("裏ドラ表示牌:", "ura:"),
                ("宝牌指示牌:", "dora:"),
                ("寶牌指示牌:", "dora:"),
                ("ドラ表示牌:", "dora:"),
                ("里宝牌:", "ura:"),
                ("裏宝牌:", "ura:"),
                ("裏寶牌:", "ura:"),
                ("裏ドラ:", "ura:"),
                ("宝牌:", "dora:"),
                ("寶牌:", "dora:"),
                ("ドラ:", "dora:"),
                ("场风:", "round:"),
                ("場風:", "round:"),
                ("本场:", "honba:"),
                ("本場:", "honba:"),
                ("供托:", "sticks:"),
                ("供託:", "sticks:"),
            ),
        ),
    )
}
DEFAULT_RULES = next(iter(REGISTRY))  # what `score_hand` scores by when no rule set is named


def hand_sizes() -> dict[str, int]:
    """The hand sizes "did you mean --rules …" names, by rule set."""
    return {name: line.hand_size for name, line in REGISTRY.items() if line.size_hint}


def declarations() -> tuple[str, ...]:
    """The flags a player declares before the win, of every rule set (the notation's words)."""
    return tuple(word for line in REGISTRY.values() for word in line.declarations)


def players_words() -> dict[str, tuple[str, str]]:
    """Every rule set's players' words (`Registered.players_words`): each word, what it reads as, and its rule set."""
    return {word: (reads_as, name) for name, line in REGISTRY.items() for word, reads_as in line.players_words}


def owner_of(word: str) -> str | None:
    """The rule set that alone reads this condition word, if one does."""
    return next((name for name, line in REGISTRY.items() if word in (*line.words, *line.declarations)), None)


def chinese_names() -> dict[str, str]:
    """Each Chinese name (simplified and traditional) and its rule set: `-r 灌南`, rules="灵溪"."""
    return {chinese: name for name, line in REGISTRY.items() for chinese in line.chinese}


def rules_word(name: str) -> Term:
    """A rule set's name as a message reads it: as written (`Lingxi`) in English, its Chinese name in Chinese."""
    line = REGISTRY.get(name.lower())
    return Term(name, line.chinese[0] if line is not None and line.chinese else name)


def rules_words(names: Iterable[str]) -> Term:
    """Several rule sets' names, `Luoshan / Guannan` (螺山 / 灌南)."""
    words = [rules_word(name) for name in names]
    return Term(" / ".join(w.en for w in words), " / ".join(w.zh for w in words))


def condition_word(word: str) -> Word:
    """A condition of the notation (`self`) as a message names it: as typed, with its Chinese name in Chinese."""
    return Word(word)


def register(line: Registered) -> None:
    """Adds a rule set to the registry (a test's, in the `module` its line names), or replaces one of its name."""
    REGISTRY[line.name] = line
    RULESETS.values_made[line.name] = None


def unregister(name: str) -> None:
    del REGISTRY[name]
    del RULESETS.values_made[name]


class Lazy(MutableMapping[str, V]):
    """A mapping of rule-set names whose values are made on first read (`load(name)`), then kept.

    Writable, so a test can add or replace an entry (`monkeypatch.setitem`) as it could in a dict.
    """

    def __init__(self, names: Iterable[str], load: Callable[[str], V]) -> None:
        self.load = load
        self.values_made: dict[str, V | None] = dict.fromkeys(names)

    def __getitem__(self, name: str) -> V:
        found = self.values_made[name]  # KeyError for an unknown name, as a dict
        if found is None:
            found = self.values_made[name] = self.load(name)
        return found

    def __setitem__(self, name: str, value: V) -> None:
        self.values_made[name] = value

    def __delitem__(self, name: str) -> None:
        del self.values_made[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self.values_made)

    def __len__(self) -> int:
        return len(self.values_made)

    def __contains__(self, name: object) -> bool:
        return name in self.values_made  # never loads

    def loaded(self) -> list[V]:
        """The values made so far, loading nothing."""
        return [value for value in self.values_made.values() if value is not None]

    def __repr__(self) -> str:
        return f"Lazy({list(self.values_made)})"


RULESETS: Lazy[RuleSet] = Lazy(REGISTRY, lambda name: REGISTRY[name].rule_set())


def get(name: str) -> RuleSet:
    """The rule set by its name in any case, or its Chinese name; the answer's `rules` is the canonical name."""
    if name in RULESETS:
        return RULESETS[name]
    canonical = name.strip().lower()
    canonical = canonical if canonical in RULESETS else chinese_names().get(name.strip(), "")
    if canonical not in RULESETS:
        raise HandError.of(
            "error.rules.unknown", code="unknown_rules", field="rules", name=quote(name), known=", ".join(RULESETS)
        )
    return RULESETS[canonical]


def _item_lines() -> int:
    return sum(len(item.lines) for rule_set in RULESETS.loaded() for item in rule_set.items)


def _clear_item_lines() -> None:
    for rule_set in RULESETS.loaded():
        for item in rule_set.items:
            item.lines.clear()


# each item's ScoreItem per (value, detail) scored so far (base.score_item)
M.register("rulesets.item_lines", _item_lines, _clear_item_lines, bytes_per_entry=700)
