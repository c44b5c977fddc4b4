"""MCR 国标麻将 (Mahjong Competition Rules): the 81 fan of docs/rules/mcr.md, the 8-fan minimum, flowers apart.

Every reading of the hand is scored (sets and a pair, the 组合龙 shape, 七对,
十三幺, 全不靠) and the one with the most fan kept (就高不就低); the fan that
one fan of it implies are not counted (不重复), from the highest fan down.

The folder, one concern a file: `hand.py` the hand (`McrHand`, built and validated by `prepare`) and its
waits; `shapes.py` the winning shapes apart from sets and a pair; `facts.py` what the fan read of one
reading, the fan between sets among them; `items.py` the fan, their exclusions and the house option, as
data in the rules page's order; `settlement.py` its payments, `arithmetic.py` its arithmetic lines; this
module the `RuleSet` that reaches them, with its scoring loop (`Mcr.valued`: the fan between sets read off
the reading, a fan of the hand looked for only where the hand has what it needs).
"""

from __future__ import annotations

from functools import cached_property
from operator import itemgetter

from ... import tiles as T
from ...engine import GROUP_TEXTS, PAIR, Group, ReadingFacts, kinds_readings
from ...errors import HandError
from ...said import phrase
from .. import base as B
from .. import interface as I
from . import shapes as S
from .facts import HONORS_AND_KNITTED, KNITTED, ORPHANS, SEVEN_PAIRS, STANDARD, McrFacts, tie_order
from .hand import CONDITIONS, MINIMUM, McrHand, prepare
from .items import EXCLUSIONS, HAND_NEEDS, ITEMS, LINKED, OPTIONS, READING_NEEDS, hand_facts

TOO_FEW = phrase("note.mcr.below_minimum", "fan", "minimum")
FLOWERS = "hua_pai"
NO_FAN = "wu_fan_he"
APART = frozenset({FLOWERS, NO_FAN})
# a tie between readings of one total: a standard reading before 七对, then one with either of these
TIE_FANS = frozenset({"yi_se_san_tong_shun", "san_tong_ke"})


class Mcr(B.RuleSet):
    name = "mcr"
    chinese = "国标"
    unit = "fan"
    items = ITEMS
    exclusions = EXCLUSIONS
    options = OPTIONS
    conditions = CONDITIONS
    tiles = (*I.SUITED_TILES, *I.HONOUR_TILES, *I.FLOWER_TILES)
    events = ("false-win", "foul")  # the side events its settlement takes
    examples = (
        {"hand": "234567m 23456p 55s +7p seat:W"},
        {"hand": "[1111m] (5555p) 234s 789p C +C seat:W", "options": {"ming_an_gang": 6}},
    )
    example_table = {
        "rules": "mcr",
        "winner": "N",
        "discarder": "E",
        "players": {
            "E": {"total": 0},
            "S": {"total": 0},
            "W": {"total": 0},
            "N": "[123m] [345m] 678p 56s WW +7s seat:N",
        },
    }
    subtotal_unit = "fan"

    prepare = staticmethod(prepare)

    def readings(self, hand: McrHand) -> list[McrFacts]:
        """Every reading, the standard ones first in rule 6's order, then 七对 and the other shapes."""
        win, drawn, melds, kinds = hand.win, hand.self_drawn, hand.melds, hand.concealed
        found = [McrFacts(melds + g, STANDARD, win, drawn) for g in kinds_readings(kinds, 4 - len(melds), True)]
        # a shape other than sets and a pair is looked for only where the kinds held allow it: all nine of a
        # knitted straight, seven kinds at most (七对), the thirteen orphans, fourteen kinds (全不靠)
        held = hand.held
        different = held.bit_count()
        if different >= 9 and len(melds) <= 1:
            # a knitted straight holds 147, 258 or 369 of each suit: bit k of `triples` is kinds k, k + 3 and k + 6
            # held, so each suit's three lowest bits (an octal digit of three) must hold one first
            triples = held & (held >> 3) & (held >> 6)
            if triples & 0o7 and triples & 0o7000 and triples & 0o7000000:
                for bits in S.KNIT_BITS:
                    if held & bits == bits:
                        for knit, groups in S.knitted_readings(kinds, len(melds)):
                            found.append(McrFacts(melds + groups, KNITTED, win, drawn, knit))
                        break
        if len(found) > 1:
            found.sort(key=_order)
        if melds:
            return found
        # 七对 (`shapes.seven_pairs`): the sorted kinds pair off, four alike as two pairs
        if different <= 7 and kinds[::2] == kinds[1::2]:
            found.append(McrFacts(tuple([Group(PAIR, k) for k in kinds[::2]]), SEVEN_PAIRS, win, drawn))
        if held == S.ORPHAN_BITS and S.thirteen_orphans(kinds):
            found.append(McrFacts((), ORPHANS, win, drawn))
        if different == 14:
            knitted = S.honors_and_knitted(kinds)
            if knitted is not None:
                found.append(McrFacts((), HONORS_AND_KNITTED, win, drawn, knitted))
        return found

    def best_reading(self, hand: McrHand, readings: object = None) -> I.Chosen | None:
        """The reading with the most fan; of readings of one total, the first that has 一色三同顺 or 三同刻
        (rule 6: a standard reading comes before 七对, and the readings come in its order).

        Overrides the shared loop's step (`ScoringLoop.best_reading`), valuing each reading with `valued` in
        place of the shared `_valued`; `RuleSet.score` around it is the shared one."""
        fixed = self._fixed_entries(hand)
        found = []
        for facts in self.readings(hand) if readings is None else readings:  # type: ignore[attr-defined]
            items, outcome = self.valued(hand, facts, fixed)
            found.append((items, outcome, facts))
        if not found:
            return None
        if len(found) == 1:  # most hands: one reading, no tie to break
            items, outcome, facts = found[0]
            return items, outcome, facts, facts
        best = max(I.rank(o) for _, o, _ in found)
        tied = [f for f in found if I.rank(f[1]) == best]
        kept = next((f for f in tied if any(i.key in TIE_FANS for i, _, _ in f[0])), tied[0])
        return kept[0], kept[1], kept[2], kept[2]

    # -- the scoring loop, MCR's way: the same fan as every finder run plainly (tests/test_mcr_fast_paths.py)

    def valued(self, hand: McrHand, facts: McrFacts, fixed: list[Entry]) -> tuple[I.Found, I.Outcome]:
        """One reading's fan, valued, in table order: the hand's own (`fixed`, found once per hand), the fan
        between sets read straight off `facts.linked` (most readings make none or one, so their 23 finders
        are not run), and the other reading fan whose gate the reading opens and whose needs it holds."""
        entries = fixed.copy()
        linked = self._linked_items
        for key, details in facts.linked.items():
            at, item, points = linked[key]
            entries += [(at, item, points, detail) for detail in details]
        options = hand.options
        runs = self._reading_runs.get(facts.present)
        if runs is None:
            runs = self._reading_runs[facts.present] = {}
        run = runs.get(facts.holds)
        if run is None:  # (not `or`: many runs are empty)
            run = self._run_for(runs, facts.present, facts.holds)
        for at, item, rows in run:
            for variant, subject in item.find(hand, facts):
                entries.append((at, item, item.points(variant, options) if rows is None else rows[variant], subject))
        entries.sort(key=_AT)
        found = self._kept(entries)
        if len(found) == len(hand.flowers):  # no fan but flowers: 无番和, which the plans leave out
            found.insert(0, self._no_fan)
        return found, self.finish(hand, found)

    def _fixed_entries(self, hand: McrHand) -> list[Entry]:
        """The fan that read no reading, found once per hand (as `_fixed_found`), each with its place in the table;
        a fan only where the hand has what it needs (`items.HAND_NEEDS`)."""
        facts = hand_facts(hand)
        options = hand.options
        entries: list[Entry] = []
        plan = self._fixed_plans.get(facts)
        for at, item, rows in self._fixed_plan_for(facts) if plan is None else plan:
            for variant, subject in item.find(hand, None):
                entries.append((at, item, item.points(variant, options) if rows is None else rows[variant], subject))
        return entries

    @cached_property
    def _fixed_plans(self) -> dict[int, tuple[tuple[int, I.Item, I.Rows | None], ...]]:
        """By the hand's facts (`items.hand_facts`): the fan of the hand it may have. A few dozen at most."""
        return {}

    def _fixed_plan_for(self, facts: int) -> tuple[tuple[int, I.Item, I.Rows | None], ...]:
        plan = self._fixed_plans[facts] = tuple(
            (self._places[item.key], item, item.plain_rows)
            for item in self._fixed
            if HAND_NEEDS.get(item.key, 0) & facts == HAND_NEEDS.get(item.key, 0) and item.key != NO_FAN
        )
        return plan

    @cached_property
    def _no_fan(self) -> tuple[I.Item, int, str]:
        """无番和, found on every win and kept only where no other fan is but flowers: `valued` adds it there,
        so the plans of the hand's fan (`_fixed_plan_for`) leave it out. It excludes nothing."""
        item = next(item for item in self.items if item.key == NO_FAN)
        assert NO_FAN not in self._removes
        return item, item.rows[I.ONE], ""

    @cached_property
    def _places(self) -> dict[str, int]:
        """Each fan's place in the table, the order the fan are counted and excluded in."""
        return {item.key: at for at, item in enumerate(self.items)}

    @cached_property
    def _linked_items(self) -> dict[str, tuple[int, I.Item, int]]:
        """The fan made between sets (`items.LINKED`), by key: its place, the item, its value."""
        return {item.key: (self._places[item.key], item, item.rows[I.ONE]) for item in self.items if item.key in LINKED}

    @cached_property
    def _open_reading_items(self) -> dict[frozenset[str], tuple[tuple[int, I.Item, I.Rows | None, int], ...]]:
        """By the gate facts a reading has: the other reading fan whose gate is open, each with what it needs the
        reading to hold (`items.READING_NEEDS`, 0: nothing). Few distinct ones."""
        return {}

    def _open_for(self, present: frozenset[str]) -> tuple[tuple[int, I.Item, I.Rows | None, int], ...]:
        opened = self._open_reading_items[present] = tuple(
            (self._places[item.key], item, item.plain_rows, READING_NEEDS.get(item.key, 0))
            for item in self._plan[I.WINNER_ONLY]
            if item.reads and item.key not in LINKED and (not item.gate or not present.isdisjoint(item.gate))
        )
        return opened

    @cached_property
    def _reading_runs(self) -> dict[frozenset[str], dict[int, tuple[tuple[int, I.Item, I.Rows | None], ...]]]:
        """By the gate facts a reading has, then by what it holds (`McrFacts.holds`): the other reading fan the
        loop runs, those of `_open_for` whose needs the reading holds one of. A few hundred at most."""
        return {}

    def _run_for(
        self, runs: dict[int, tuple[tuple[int, I.Item, I.Rows | None], ...]], present: frozenset[str], holds: int
    ) -> tuple[tuple[int, I.Item, I.Rows | None], ...]:
        opened = self._open_reading_items.get(present) or self._open_for(present)
        # a fan whose needs the reading holds none of cannot be found in it (`items.READING_NEEDS`)
        run = runs[holds] = tuple((at, item, rows) for at, item, rows, needs in opened if not needs or holds & needs)
        return run

    def ledger_round(self, deal: int) -> str | None:
        """A 16-deal match: E for deals 1–4, S for 5–8, W for 9–12, N for 13–16, then E again."""
        return "ESWN"[(deal - 1) // 4 % 4]

    def facts_of(self, reading: object) -> ReadingFacts:
        assert isinstance(reading, McrFacts)
        return reading

    def _exclude(self, found: I.Found) -> I.Found:
        """不重复: from the highest fan down (the table's order), a fan not itself excluded excludes its list;
        无番和 (found on every win) stays only where no other fan does, flowers apart."""
        kept = self._kept([(0, item, points, detail) for item, points, detail in found])
        for item, _, _ in kept:  # loops, not generators: a generator is a call per step
            if item.key not in APART:
                return [entry for entry in kept if entry[0].key != NO_FAN]
        return kept

    def _kept(self, entries: list[Entry]) -> I.Found:
        """The fan found (`Entry`, in the table's order) that no fan kept before excludes (不重复)."""
        removes = self._removes
        gone: set[str] = set()
        kept: I.Found = []
        for _, item, points, detail in entries:
            key = item.key
            if key in gone:
                continue
            kept.append((item, points, detail))
            if key in removes:
                gone |= removes[key]
        if gone:
            kept = [entry for entry in kept if entry[0].key not in gone]
        return kept

    def finish(self, hand: McrHand, found: I.Found) -> I.Outcome:
        total = sum(map(_POINTS, found))
        fan = total - sum([value for item, value, _ in found if item.key == FLOWERS]) if hand.flowers else total
        if fan >= MINIMUM:
            return I.Outcome(fan, False, total)
        return I.Outcome(fan, False, total, legal=False, notes=[TOO_FEW(fan, MINIMUM)])

    def arrangement(self, hand: McrHand, reading: McrFacts) -> list[str]:
        """Melds first, the knitted straight as one group, then the sets and the pair; a shape of single tiles
        (十三幺, 全不靠) as its tiles."""
        if reading.shape in (ORPHANS, HONORS_AND_KNITTED):
            return [T.group_text(list(hand.concealed))]
        # as `RuleSet.arrangement` lays out `reading.groups` (tests/test_shell_fast.py), read off the facts: the
        # melds are the first of the sets, as a reading puts them, and the pairs are apart
        sets, melds = reading.sets, len(hand.melds)
        if melds:
            shown = list(map(GROUP_TEXTS.__getitem__, sets[:melds]))
            sets = sets[melds:]
        else:
            shown = []
        if reading.knit:
            shown.append(T.group_text(reading.knit))
        shown += map(GROUP_TEXTS.__getitem__, sorted(sets, key=B.BY_KIND) if len(sets) > 1 else sets)
        shown += map(GROUP_TEXTS.__getitem__, reading.pairs)
        return shown

    def no_shape_error(self, hand: McrHand) -> HandError:
        return HandError.of("error.shape.mcr", code="no_winning_shape")


Entry = tuple[int, I.Item, int, object]  # a fan found: its place in the table, the item, its points, its detail
_AT = itemgetter(0)
_POINTS = itemgetter(1)  # of a fan found: (item, points, detail)


def _order(facts: McrFacts) -> tuple[int, ...]:
    return tie_order(facts.shape, facts.groups, facts.knit)


RULE_SET = Mcr()
