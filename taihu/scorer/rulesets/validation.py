"""The checks a rule set's `prepare` makes of a hand, and the errors they raise: tile counts, copies, melds,
conditions that need a win or cannot stand together, conditions and declared wins of other rule sets.

A wrong tile count is raised without the search for its slip (`TileCountError`); `hints.with_hint` adds it
where a hand is scored.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping
from typing import NamedTuple

from .. import tiles as T
from ..engine import KONG, Group
from ..errors import HandError, Term, Text, quote
from ..notation import DECLARED_VALUES, NO_VALUES, Meld, ParsedHand, notation_error
from ..said import phrase
from . import REGISTRY, condition_word, owners_of, rules_word, rules_words
from .heuristics import likely_wait_kind

NO_SEAT_NOTE = phrase("note.no_seat")


def check_known_conditions(
    parsed: ParsedHand, rule_set: str, known: frozenset[str], hints: Mapping[str, Text] | None = None
) -> None:
    """A condition another rule set uses is an error naming it and this rule set."""
    _, _, _, seat, wild, flip, flags, declare, _, values = parsed  # unpacked: fields by name cost more each
    if (
        flags <= known
        and (seat is None or "seat" in known)
        and (wild is None or "wild" in known)
        and (flip is None or "flip" in known)
        and (declare is None or "declare" in known)
        and (values is NO_VALUES or _values_known(values, known))  # (`not values` is a call of its own)
    ):
        return  # all known: the common case, without listing the conditions
    for cond in parsed.conditions:
        if cond not in known:
            col = parsed.columns.get(cond, 0)
            hint: Text | str = (hints or {}).get(cond, "")
            owners = owners_of(cond)
            if not hint and owners:  # every rule set that reads it (there may be several), as a table field's
                hint = Text("error.condition.owner", owner=" / ".join(owners), name=rules_words(owners))
            raise HandError.of(
                "error.condition.not_used",
                code="unknown_condition",
                column=col or None,
                cond=condition_word(quote(cond)),
                at=col,
                rules=rules_word(rule_set),
                hint_part=hint,
            )


def _values_known(values: Iterable[str], known: frozenset[str]) -> bool:
    """Whether every declared value written (`round:E`) is a condition `known`: as `parsed.conditions` would
    list them, without the list (tests/test_validation_fast_paths.py)."""
    for word in values:
        if word in DECLARED_VALUES and word not in known:
            return False
    return True


def seat_or_dealer(parsed: ParsedHand, notes: list[str]) -> str:
    """The seat written, or E with a note: for rule sets whose score depends on the seat, as a missing wild: is."""
    if parsed.seat is not None:
        return parsed.seat
    notes.append(NO_SEAT_NOTE())
    return "E"


class Count(NamedTuple):
    """A wrong tile count as a rule set's `prepare` found it: what the error and the search for its slip read."""

    parsed: ParsedHand
    rule_set: str
    size: int  # the count as the rule set counts it (a kong as 3)
    hand_size: int  # a non-winner's (13 or 16)
    winner: bool
    set_aside: Collection[int]  # the kinds written bare that are not counted (白 where it is a flower)


class SlipSearch(NamedTuple):
    """How a count error finds its slip: the tiles whose removal leaves the best win, the tiles whose addition
    makes it, and the `+` to mark on a winner's count written with none (`slips`, through `hints.with_hint`)."""

    removals: Callable[[ParsedHand, str, Collection[int]], list[int]]
    additions: Callable[[ParsedHand, str], list[int]]
    mark: Callable[[ParsedHand, str, Collection[int]], int | None]


# No search: what `prepare` raises; scoring a hand adds the search's finding (`hints.with_hint`), while a
# caller that answers a count error its own way (`waits` lists the discards) or a candidate of the search
# itself keeps this one
NO_SEARCH = SlipSearch(
    removals=lambda parsed, rule_set, set_aside: [],
    additions=lambda parsed, rule_set: [],
    mark=lambda parsed, rule_set, set_aside: likely_wait_kind(parsed, set_aside),
)


class TileCountError(HandError):
    """A wrong tile count, its error built without the search for its slip; `count` is what the search reads."""

    count: Count

    @classmethod
    def of_count(cls, error: HandError, count: Count) -> TileCountError:
        """`error` as it is (its text, hint, column and all), carrying `count`: copied as `copy.copy` copies an
        error, so it is remade as a `HandError` is (`HandError.with_hint` copies it too)."""
        made = cls.__new__(cls)
        made.__dict__.update(vars(error))
        made.args = error.args
        made.count = count
        return made


def tile_count_error(
    parsed: ParsedHand, rule_set: str, size: int, hand_size: int, winner: bool, set_aside: Collection[int] = ()
) -> TileCountError:
    """The wrong-count error of every rule set's `prepare`, without the search for its slip (`count_error`)."""
    count = Count(parsed, rule_set, size, hand_size, winner, set_aside)
    return TileCountError.of_count(count_error(count, NO_SEARCH), count)


def count_error(count: Count, search: SlipSearch) -> HandError:
    """The wrong-count error, with the likely slip named and its fix.

    The hints, most particular first: four alike left unmarked (a kong); for
    a winner with a tile too many, the tile whose removal leaves the best win
    (`search.removals`: the winning tile written twice only if it is that
    tile), for one a tile short the tile that completes it; a winner's count
    with no `+` (a tile of the hand as the `+` to write); and a count that
    fits another rule set.
    """
    parsed, rule_set, size, hand_size, winner, set_aside = count
    name = rules_word(rule_set.capitalize())
    needed = hand_size + 1 if winner else hand_size
    if winner:
        problem = Text("error.tile_count.winner", size=size, rules=name, needed=needed, hand_size=hand_size)
    else:
        problem = Text("error.tile_count.non_winner", size=size, rules=name, hand_size=hand_size)
    fours = sorted({k for k in parsed.tiles if k not in set_aside and parsed.tiles.count(k) >= 4})
    if fours and size - needed == len(fours):
        first = T.name(fours[0])[0] * 4 + T.name(fours[0])[1:]
        return HandError.of(
            "error.tile_count.unmarked_kong",
            code="unmarked_kong",
            column=parsed.tile_column(fours[0]),
            hint=Text("error.hint.write_kong", kong=first),
            problem=problem,
            tiles=" ".join(T.name(k) for k in fours),
        )
    # one tile too many for a winner: the tile whose removal leaves a win is named, the `+` tile only if it is one
    strays = search.removals(parsed, rule_set, set_aside) if winner and size - 1 == needed else []
    if winner and parsed.win is not None and parsed.win in strays:
        return HandError.of(
            "error.tile_count.winning_tile_twice",
            code="winning_tile_twice",
            column=parsed.columns.get("+"),
            hint=Text("error.hint.winning_tile_once"),
            problem=problem,
            tile=T.name(parsed.win),
        )
    if strays:
        return stray_tile_error(problem, parsed, strays)
    # one tile short of a win: the tile that makes the best win, where one does
    missing = search.additions(parsed, rule_set) if winner and size + 1 == needed else []
    if missing:
        return notation_error("error.notation.missing_tile", code="tile_count", problem=problem, tiles=either(missing))
    if not winner and size == hand_size + 1:
        mark = search.mark(parsed, rule_set, set_aside)
        return HandError.of(
            "error.tile_count.no_winning_tile",
            code="no_winning_tile",
            hint=Text("error.hint.mark_the_win.tile", tile=T.said(13 if mark is None else mark)),  # 13: 5p
            problem=problem,
            size=size,
        )
    others = [other for other, other_size in hand_sizes().items() if other_size != hand_size]
    other_size = hand_sizes()[others[0]] if others else 0
    if others and size in (other_size + winner, other_size + 1):
        unmarked = "" if winner or size == other_size else Text(MARK_THE_WIN)
        return HandError.of(
            "error.tile_count.other_rules",
            code="tile_count",
            hint=Text("error.hint.other_rules", names=" / ".join(others), unmarked=unmarked),
            problem=problem,
            size=size,
            others=rules_words([o.capitalize() for o in others]),
        )
    return HandError.of("error.tile_count.plain", code="tile_count", problem=problem)


# a winning size of another rule set, typed without +: the hint says to mark the win (waits leaves it out)
MARK_THE_WIN = "error.hint.other_rules.mark_the_win"


def stray_tile_error(problem: Text, parsed: ParsedHand, strays: list[int]) -> HandError:
    """A winner's tile too many, named: the tiles whose removal leaves the best winning hand (`slips`), where the
    `+` tile's kind is none of them; a wind may be a seat word left among the tiles. It points at the last copy
    of the tile it names first (the wind, where it names one)."""
    wind = next((k for k in strays if T.is_wind(k)), None) if parsed.seat is None else None
    return notation_error(
        "error.notation.stray_tile" if wind is None else "error.notation.stray_tile.seat",
        code="stray_tile",
        column=parsed.tile_column(strays[0] if wind is None else wind, -1),
        problem=problem,
        tiles=either(strays),
        wind=None if wind is None else T.name(wind),
        chinese=None if wind is None else T.CHINESE_NAME[wind],
    )


def either(kinds: list[int]) -> Text:
    """Up to three tiles as alternatives: `1s or one 4s`."""
    names = [T.said(k) for k in kinds[:3]]
    return Text(EITHER[len(names) - 1], **dict(zip("abc", names, strict=False)))


EITHER = ("error.notation.either.1", "error.notation.either.2", "error.notation.either.3")


def hand_sizes() -> dict[str, int]:
    """Each rule set's non-winning hand size; looked up when an error is built, as the rule sets import this module."""
    from . import hand_sizes

    return hand_sizes()


def check_win_conditions(
    parsed: ParsedHand,
    winner: bool,
    win_conditions: Iterable[str],
    conflicts: Iterable[tuple[str, str, str]],
    declared_wins: bool = False,
) -> None:
    """How-it-was-won conditions need a win, and some cannot stand together."""
    flags = parsed.flags
    if not winner:
        for cond in win_conditions:
            if cond in flags:
                alternative = Text("error.condition.or_declared") if declared_wins else ""
                raise HandError.of(
                    "error.condition.needs_winning_tile",
                    code="needs_winning_tile",
                    column=parsed.columns.get(cond),
                    cond=condition_word(cond),
                    alternative=alternative,
                )
    for a, b, why in conflicts:
        if a in flags and b in flags:
            raise HandError.of(
                "error.condition.contradict",
                code="conditions_contradict",
                column=parsed.columns.get(b),
                first=condition_word(a),
                second=condition_word(b),
                why=Text(why),
            )


def not_a_declared_win(parsed: ParsedHand, rules: str, known: Iterable[str]) -> HandError:
    """A `declare:` of a win the rule set does not know; `known` are those it does. Another rule set's declared
    win names that rule set, as another rule set's condition does."""
    col = parsed.columns.get("declare", 0)
    reading = f"declare:{parsed.declare}"
    owner = next((name for name, line in REGISTRY.items() if reading in dict(line.words.players_words).values()), None)
    return HandError.of(
        "error.declare.not_of",
        code="unknown_declare",
        column=col or None,
        declare=declared_win_word(str(parsed.declare)),
        at=col,
        rules=rules_word(rules),
        known=declared_wins_word(known),
        owner=""
        if owner is None or owner == rules.lower()
        else Text(DECLARE_OWNER, name=rules_word(owner.capitalize()), owner=owner),
    )


DECLARE_OWNER = "error.declare.owner"  # `; it is a NAME declared win: score the hand with --rules NAME`


def declared_wins_word(known: Iterable[str]) -> Term:
    """Declared wins as a message lists them, by their keys; in Chinese each with the name players write first
    (the first players' word of the registry that reads as it)."""
    names = _declared_names()
    keys = list(known)
    return Term(", ".join(keys), "、".join(f"{names[key]} {key}" if key in names else key for key in keys))


def declared_win_word(key: str) -> Term:
    """One declared win as a message names it: its key; in Chinese `KEY（NAME）`, NAME the players' word for it."""
    name = _declared_names().get(key)
    return Term(key, key if name is None else f"{key}（{name}）")


def _declared_names() -> dict[str, str]:
    """Each declared win's key and the first players' word of the registry that reads as it."""
    prefix = "declare:"
    found: dict[str, str] = {}
    for line in REGISTRY.values():
        for word, reads_as in line.words.players_words:
            if reads_as.startswith(prefix):
                found.setdefault(reads_as.removeprefix(prefix), word)
    return found


def too_many_copies(parsed: ParsedHand, kind: int, seen: int, limit: int, why: Text | str = "") -> HandError:
    """A hand holding more of a tile than exist (`why`: the rule set's reason for a lower limit), pointing at the
    first copy over the limit ("1m appears 5 times": the fifth)."""
    return HandError.of(
        "error.tiles.too_many",
        code="tile_copies",
        column=parsed.tile_column(kind, limit + 1),
        hint=Text("error.hint.fewer_copies", tile=T.said(kind), most=limit),
        tile=T.name(kind),
        count=seen,
        most=limit,
        why=why,
    )


def heaven_needs_dealer(parsed: ParsedHand) -> HandError:
    """天胡 is the dealer's win."""
    return HandError.of(
        "error.condition.heaven_seat",
        code="condition_not_met",
        column=parsed.columns.get("heaven"),
        cond=condition_word("heaven"),
    )


def needs_non_dealer(parsed: ParsedHand, cond: str) -> HandError:
    """地胡 / 人胡 are a non-dealer's wins."""
    return HandError.of(
        "error.condition.non_dealer",
        code="condition_not_met",
        column=parsed.columns.get(cond),
        cond=condition_word(cond),
    )


def meld_place(meld: Meld) -> Text:
    """What a meld is, as an error names it: a concealed kong or an exposed meld."""
    return Text("error.meld.concealed_kong" if meld.concealed else "error.meld.exposed")


def holds_kind(parsed: ParsedHand, kind: int) -> bool:
    """Whether a tile of `kind` is anywhere in a line: in hand, in a meld, or the winning tile."""
    return kind in parsed.tiles or parsed.win == kind or any(kind in meld.tiles for meld in parsed.melds)


def wildcard_in_meld(kind: int, meld: Meld, why: Text | str = "", key: str = "error.meld.wildcard") -> HandError:
    """A wildcard written inside a meld, where the rule set lets none (`why`: its rule; `key`: a rule set's own
    wording, with the parameters `tile`, `where`, `meld`)."""
    return HandError.of(
        key,
        code="wild_in_meld",
        column=meld.column or None,
        tile=T.name(kind),
        where=meld_place(meld),
        meld=meld.source or meld.text(),
        why=why,
    )


def not_a_tile_of(parsed: ParsedHand, kind: int, rules: str, what: Text) -> HandError:
    """A tile the rule set does not play (a flower where there are none), pointing at its first copy; `what`
    says what the set is."""
    return HandError.of(
        "error.tiles.not_played",
        code="tile_not_played",
        column=parsed.tile_column(kind),
        hint=Text("error.hint.leave_out", tile=T.said(kind)),
        tile=T.name(kind),
        rules=rules_word(rules),
        what=what,
    )


def check_won_on_wildcard(parsed: ParsedHand, rule_set: str, self_drawn: Collection[str]) -> None:
    """Where a wildcard is never discarded nor claimed (`claims_wildcards` False), a win on one is on the
    player's own turn (one of `self_drawn`): a line won on one with none of them is an error naming `self`.
    Called by the rule set's `prepare`, so the score and the settlement (which scores each hand) say what
    `waits` says, which lists such a tile self-drawn only."""
    if parsed.declare is not None or not parsed.flags.isdisjoint(self_drawn) or parsed.win is None:
        return
    column = parsed.columns.get("+")
    raise notation_error(
        "error.notation.wildcard_on_discard.at" if column else "error.notation.wildcard_on_discard",
        code="wildcard_won_on_discard",
        column=column,
        tile=T.name(parsed.win),
        at=column,
        rules=rules_word(rule_set),
    )


def check_kong_draw(flags: Iterable[str], melds: Iterable[Group]) -> None:
    """杠开 is won on a kong's replacement tile, so the hand must show a kong."""
    if "kong-draw" in flags and not any(g.shape == KONG for g in melds):
        raise HandError.of(
            "error.condition.kong_draw_needs_kong",
            code="condition_not_met",
            hint=Text("error.hint.write_kong", kong="5555p"),
            cond=condition_word("kong-draw"),
        )


# Conditions that cannot stand together, with the reason (its msgid in the catalog), as several rule sets word them.
Conflict = tuple[str, str, str]
ROB_KONG_NOT_SELF: Conflict = ("rob-kong", "self", "error.conflict.rob_kong_self")
ROB_KONG_OR_KONG_DRAW: Conflict = (
    "rob-kong",
    "kong-draw",
    "error.conflict.rob_kong_kong_draw",
)
KONG_DRAW_NOT_LAST_TILE: Conflict = ("kong-draw", "last-tile", "error.conflict.kong_draw_last_tile")
HEAVEN_OR_EARTH: Conflict = ("heaven", "earth", "error.conflict.heaven_earth")


def on_dealt_hand(*others: str) -> tuple[Conflict, ...]:
    """天胡 is won on the dealt hand, so with none of `others`."""
    return tuple(("heaven", other, "error.conflict.on_dealt_hand") for other in others)


def on_first_discard(*others: str) -> tuple[Conflict, ...]:
    """地胡 is won on the dealer's first discard, so with none of `others`."""
    return tuple(("earth", other, "error.conflict.on_first_discard") for other in others)
