"""Random riichi winning hands written twice: as a taihu line and as the equivalent `mahjong` 2.1.0 call.

Used by tests/test_riichi_vs_mahjong.py (bounded) and `make riichi-check`
(20,000 hands). The generator never writes a line the page calls a
contradiction, and never a combination the page says `mahjong` scores
differently ("Agreement with mahjong"): `double_wind_fu` and
`yakuman_stacking` stay at their defaults, and `open_pinfu_fu=0` is not
used on an open self-drawn hand.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from hypothesis import assume
from hypothesis import strategies as st
from mahjong.constants import EAST, NORTH, SOUTH, WEST
from mahjong.hand_calculating.hand import HandCalculator
from mahjong.hand_calculating.hand_config import HandConfig, OptionalRules
from mahjong.meld import Meld

from taihu import score_hand
from taihu.scorer import tiles as T
from taihu.scorer.models import HandScore

WINDS = "ESWN"
MAHJONG_WIND = {"E": EAST, "S": SOUTH, "W": WEST, "N": NORTH}
# taihu numbers the dragons C F P (中 发 白) as 31 32 33; mahjong 白 发 中
TO_34 = {**{k: k for k in range(31)}, T.RED: 33, T.GREEN: 32, T.WHITE: 31}
KIND_NAME = {k: T.name(k) for k in range(T.PLAYABLE)}
ORPHANS = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)
FIVES = (4, 13, 22)
POOLS = {
    "any": tuple(range(34)),
    "simples": tuple(k for k in range(27) if k % 9 not in (0, 8)),
    "one suit": tuple(range(9)),
    "one suit and honors": tuple(range(9, 18)) + tuple(range(27, 34)),
    "terminals and honors": ORPHANS,
    "honors": tuple(range(27, 34)),
    "green": (19, 20, 21, 23, 25, T.GREEN),
    "winds and dragons": tuple(range(27, 34)) + (0, 8),
    "fives": (3, 4, 5, 12, 13, 14, 21, 22, 23),
    "terminals": (0, 8, 9, 17, 18, 26),
    "winds": (27, 28, 29, 30, 27, 28, 29, 30, 1, 10),
}
KEYS = {
    "Riichi": "riichi",
    "DaburuRiichi": "double_riichi",
    "Ippatsu": "ippatsu",
    "Tsumo": "menzen_tsumo",
    "Pinfu": "pinfu",
    "Tanyao": "tanyao",
    "Iipeiko": "iipeikou",
    "Haku": "yakuhai_haku",
    "Hatsu": "yakuhai_hatsu",
    "Chun": "yakuhai_chun",
    "Haitei": "haitei",
    "Houtei": "houtei",
    "Rinshan": "rinshan",
    "Chankan": "chankan",
    "Sanshoku": "sanshoku",
    "Ittsu": "ittsu",
    "Chantai": "chanta",
    "Chiitoitsu": "chiitoitsu",
    "Toitoi": "toitoi",
    "Sanankou": "sanankou",
    "SanshokuDoukou": "sanshoku_doukou",
    "SanKantsu": "sankantsu",
    "Honroto": "honroutou",
    "Shosangen": "shousangen",
    "Honitsu": "honitsu",
    "Junchan": "junchan",
    "Ryanpeikou": "ryanpeikou",
    "Chinitsu": "chinitsu",
    "Renhou": "renhou",
    "RenhouYakuman": "renhou",
    "KokushiMusou": "kokushi_musou",
    "DaburuKokushiMusou": "kokushi_musou_13",
    "Suuankou": "suuankou",
    "SuuankouTanki": "suuankou_tanki",
    "Daisangen": "daisangen",
    "Shousuushii": "shousuushii",
    "DaiSuushii": "daisuushii",
    "Tsuuiisou": "tsuuiisou",
    "Chinroutou": "chinroutou",
    "Ryuuiisou": "ryuuiisou",
    "ChuurenPoutou": "chuuren_poutou",
    "DaburuChuurenPoutou": "junsei_chuuren_poutou",
    "Suukantsu": "suukantsu",
    "Tenhou": "tenhou",
    "Chiihou": "chiihou",
    "Dora": "dora",
    "AkaDora": "aka_dora",
    "UraDora": "ura_dora",
}
KEYS.update({f"SeatWind{w}": "yakuhai_seat_wind" for w in ("East", "South", "West", "North")})
KEYS.update({f"RoundWind{w}": "yakuhai_round_wind" for w in ("East", "South", "West", "North")})


@dataclass
class Case:
    """One generated hand, in both forms."""

    line: str
    options: dict[str, int]
    tiles: list[int]  # 136-format, every tile of the hand
    win_tile: int
    melds: list[Meld]
    dora: list[int]
    ura: list[int]
    config: dict[str, Any] = field(default_factory=dict)

    def __repr__(self) -> str:
        return f"Case({self.line!r}, options={self.options})"


@dataclass
class Tile:
    kind: int
    red: bool = False


def _text(kinds: list[Tile]) -> str:
    """Tiles as taihu notation, a red five written 0."""
    return " ".join(("0" + KIND_NAME[t.kind][1]) if t.red else KIND_NAME[t.kind] for t in kinds)


def _set_tiles(shape: str, kind: int) -> list[int]:
    return {"chow": [kind, kind + 1, kind + 2], "pung": [kind] * 3, "kong": [kind] * 4, "pair": [kind] * 2}[shape]


@st.composite
def riichi_cases(draw: st.DrawFn) -> Case:
    counts: Counter[int] = Counter()
    groups: list[tuple[str, list[int], str]] = []  # (shape, kinds, how: hand / chi / pon / kan / added / closed)
    shape = draw(st.sampled_from(["standard"] * 12 + ["seven pairs"] * 2 + ["thirteen orphans", "nine gates"]))
    pool_name = draw(st.sampled_from(sorted(POOLS)))
    pool = POOLS[pool_name]
    if shape == "standard":
        opened = draw(st.booleans())
        for index in range(4):
            set_shape = draw(st.sampled_from(["chow"] * 5 + ["pung"] * 4 + ["kong"] * 2))
            if pool_name == "winds" and draw(st.booleans()):  # now and then all four winds: 大四喜
                set_shape = draw(st.sampled_from(["pung", "pung", "kong"]))
            kinds = [k for k in pool if set_shape != "chow" or (k < 27 and k % 9 <= 6)]
            assume(kinds)
            kind = draw(st.sampled_from(kinds))
            if pool_name == "winds" and set_shape != "chow" and draw(st.booleans()):
                kind = T.EAST + index
            tiles = _set_tiles(set_shape, kind)
            if set_shape == "kong":
                how = draw(st.sampled_from(["kan", "added", "closed"] if opened else ["closed"]))
            elif opened and draw(st.booleans()):
                how = "chi" if set_shape == "chow" else "pon"
            else:
                how = "hand"
            groups.append((set_shape, tiles, how))
            counts.update(tiles)
        pair = draw(st.sampled_from(pool))
        groups.append(("pair", [pair, pair], "hand"))
        counts.update([pair, pair])
    elif shape == "seven pairs":
        kinds = draw(st.lists(st.sampled_from(pool if len(pool) >= 7 else POOLS["any"]), min_size=7, max_size=7))
        assume(len(set(kinds)) == 7)
        for kind in kinds:
            groups.append(("pair", [kind, kind], "hand"))
            counts.update([kind, kind])
    elif shape == "nine gates":
        start = draw(st.sampled_from((0, 9, 18)))
        kinds = [start + r for r in (0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 8, 8)] + [start + draw(st.integers(0, 8))]
        groups.append(("nine gates", kinds, "hand"))
        counts.update(kinds)
    else:
        extra = draw(st.sampled_from(ORPHANS))
        groups.append(("orphans", [*ORPHANS, extra], "hand"))
        counts.update([*ORPHANS, extra])
    assume(max(counts.values()) <= 4)
    concealed = [k for shape_, kinds, how in groups if how == "hand" for k in kinds]
    win = draw(st.sampled_from(sorted(set(concealed))))
    melds = [(s, kinds, how) for s, kinds, how in groups if how != "hand"]
    closed = all(how == "closed" for _, _, how in melds)
    has_kong = any(s == "kong" for s, _, _ in melds)

    seat = draw(st.sampled_from(WINDS))
    round_wind = draw(st.sampled_from(WINDS))
    tsumo = draw(st.booleans())
    flags: list[str] = []
    blessing = None
    if not melds and draw(st.integers(0, 9)) == 0:
        blessing = ("heaven" if tsumo else None) if seat == "E" else ("earth" if tsumo else "human")
    if blessing:
        flags.append(blessing)
    riichi = None
    if closed and not blessing:
        riichi = draw(st.sampled_from([None, None, "riichi", "double-riichi"]))
    if riichi:
        flags.append(riichi)
    kong_draw = tsumo and has_kong and not blessing and draw(st.booleans())
    rob_kong = (
        not tsumo
        and not blessing
        and counts[win] == 1
        and not any(win in kinds for _, kinds, _ in melds)
        and draw(st.integers(0, 3)) == 0
    )
    if riichi and not kong_draw and draw(st.booleans()):
        flags.append("ippatsu")
    if kong_draw:
        flags.append("kong-draw")
    if rob_kong:
        flags.append("rob-kong")
    if not (blessing or kong_draw or rob_kong) and draw(st.integers(0, 4)) == 0:
        flags.append("last-tile")
    if tsumo and not blessing and not kong_draw:
        flags.append("self")
    if tsumo and draw(st.integers(0, 9)) == 0:
        flags.append("furiten")  # changes nothing on a self-draw

    indicator_kinds = [k for k in range(34) if not (rob_kong and k == win)]
    dora = draw(st.lists(st.sampled_from(indicator_kinds), max_size=5))
    ura = draw(st.lists(st.sampled_from(indicator_kinds), max_size=len(dora))) if riichi else []
    shown = counts + Counter(dora) + Counter(ura)
    assume(max(shown.values()) <= 4)

    options = {
        "kuitan": draw(st.integers(0, 1)),
        "aka_dora": draw(st.integers(0, 1)),
        "kiriage": draw(st.integers(0, 1)),
        "kazoe": draw(st.integers(0, 2)),
        "double_yakuman": draw(st.integers(0, 1)),
        "open_pinfu_fu": draw(st.integers(0, 1)) if closed or not tsumo else 1,
        "pinfu_tsumo": draw(st.integers(0, 1)),
        "renhou_yakuman": draw(st.integers(0, 1)),
    }
    honba = draw(st.integers(0, 4))
    sticks = draw(st.integers(0, 4))

    # every tile occurrence, so that red fives and 136-format copies can be given out
    hand_tiles = [Tile(k) for k in concealed]
    hand_tiles.remove(next(t for t in hand_tiles if t.kind == win))
    win_tile = Tile(win)
    meld_tiles = [[Tile(k) for k in kinds] for _, kinds, _ in melds]
    dora_tiles = [Tile(k) for k in dora]
    ura_tiles = [Tile(k) for k in ura]
    everything = hand_tiles + [win_tile] + [t for m in meld_tiles for t in m] + dora_tiles + ura_tiles
    if options["aka_dora"]:
        for five in FIVES:
            fives = [t for t in everything if t.kind == five]
            if fives and (len(fives) == 4 or draw(st.booleans())):
                draw(st.sampled_from(fives)).red = True
    copies: dict[int, list[int]] = {k: [4 * k + c for c in range(4)] for k in range(34)}
    for five in FIVES:  # the red five is copy 0 (mahjong's AKA_DORAS); a plain five takes another
        copies[five].append(copies[five].pop(0))

    def to_136(tile: Tile) -> int:
        kind = TO_34[tile.kind]
        if tile.red:
            copies[kind].remove(4 * kind)
            return 4 * kind
        return copies[kind].pop(0)

    hand_136 = [to_136(t) for t in hand_tiles]
    win_136 = to_136(win_tile)
    melds_136 = [[to_136(t) for t in m] for m in meld_tiles]
    dora_136 = [to_136(t) for t in dora_tiles]
    ura_136 = [to_136(t) for t in ura_tiles]
    meld_types = {"chi": Meld.CHI, "pon": Meld.PON, "kan": Meld.KAN, "added": Meld.SHOUMINKAN, "closed": Meld.KAN}
    mahjong_melds = [
        Meld(meld_type=meld_types[how], tiles=tiles, opened=how != "closed")
        for (_, _, how), tiles in zip(melds, melds_136, strict=True)
    ]

    parts = [_text(hand_tiles)]
    for (_, _, how), tiles in zip(melds, meld_tiles, strict=True):
        body = _text(tiles).replace(" ", "")
        parts.append(f"({body})" if how == "closed" else f"[{body}]")
    parts.append("+" + _text([win_tile]))
    parts += [f"seat:{seat}", f"round:{round_wind}"]
    if dora:
        parts.append("dora:" + ",".join(_text([t]) for t in dora_tiles))
    if ura:
        parts.append("ura:" + ",".join(_text([t]) for t in ura_tiles))
    parts += flags
    parts += [f"honba:{honba}", f"sticks:{sticks}"]
    config = {
        "is_tsumo": tsumo,
        "is_riichi": riichi == "riichi",
        "is_daburu_riichi": riichi == "double-riichi",
        "is_ippatsu": "ippatsu" in flags,
        "is_rinshan": kong_draw,
        "is_chankan": rob_kong,
        "is_haitei": "last-tile" in flags and tsumo,
        "is_houtei": "last-tile" in flags and not tsumo,
        "is_tenhou": blessing == "heaven",
        "is_chiihou": blessing == "earth",
        "is_renhou": blessing == "human",
        "player_wind": MAHJONG_WIND[seat],
        "round_wind": MAHJONG_WIND[round_wind],
        "tsumi_number": honba,
        "kyoutaku_number": sticks,
    }
    return Case(
        line=" ".join(parts),
        options=options,
        tiles=hand_136 + [win_136] + [t for m in melds_136 for t in m],
        win_tile=win_136,
        melds=mahjong_melds,
        dora=dora_136,
        ura=ura_136,
        config=config,
    )


def mahjong_answer(case: Case) -> dict[str, Any]:
    """What `mahjong` says, in taihu's terms (keys, limit names, payments)."""
    options = case.options
    rules = OptionalRules(
        has_open_tanyao=bool(options["kuitan"]),
        has_aka_dora=bool(options["aka_dora"]),
        kiriage=bool(options["kiriage"]),
        kazoe_limit=options["kazoe"],
        has_double_yakuman=bool(options["double_yakuman"]),
        fu_for_open_pinfu=bool(options["open_pinfu_fu"]),
        fu_for_pinfu_tsumo=not options["pinfu_tsumo"],
        renhou_as_yakuman=bool(options["renhou_yakuman"]),
    )
    config = HandConfig(options=rules, **case.config)  # a fresh config per hand: mahjong changes its yaku values
    result = HandCalculator.estimate_hand_value(
        case.tiles,
        case.win_tile,
        melds=case.melds,
        dora_indicators=case.dora,
        config=config,
        ura_dora_indicators=case.ura,
    )
    if result.error:
        return {"error": result.error}
    is_open = any(m.opened for m in case.melds)
    yaku = Counter()
    for item in result.yaku:
        han = item.han_open if is_open and item.han_open else item.han_closed
        yaku[KEYS[type(item).__name__], han] += 1
    cost = result.cost
    if not case.config["is_tsumo"]:
        payments = {"discarder": cost["main"] + cost["main_bonus"]}
    elif case.config["player_wind"] == EAST:
        payments = {"each": cost["main"] + cost["main_bonus"]}
    else:
        payments = {
            "dealer": cost["main"] + cost["main_bonus"],
            "non_dealer": cost["additional"] + cost["additional_bonus"],
        }
    yakuman = any(item.is_yakuman for item in result.yaku)
    return {
        "han": result.han,
        "fu": None if yakuman else result.fu,
        "yaku": yaku,
        "limit": _limit(cost["yaku_level"], result.han, result.fu, options["kiriage"]),
        "payments": payments,
        "total": cost["total"],
    }


def _limit(level: str, han: int, fu: int, kiriage: int) -> str:
    """mahjong's tier names as taihu's: `2x yakuman` → `yakuman x2`; a counted yakuman is `yakuman` in both.

    With `kiriage=True`, mahjong 2.1.0 pays a 1–4 han hand over 2000 basic
    points as mangan but leaves its `yaku_level` empty (the `elif` that names
    it belongs to the kiriage test); its points are mangan, and so is the name.
    """
    if level.endswith("x yakuman"):
        return f"yakuman x{level[0]}"
    if not level and kiriage and han < 5 and fu * 2 ** (han + 2) > 2000:
        return "mangan"
    return level.removeprefix("kiriage ")


def taihu_answer(score: HandScore) -> dict[str, Any]:
    if not score.items:
        return {"error": "no_yaku"}
    yakuman = any(item.value >= 13 and item.key not in ("dora", "ura_dora", "aka_dora") for item in score.items)
    limit = score.extra["limit"] or ""
    if limit.startswith("kazoe yakuman"):
        limit = limit.removeprefix("kazoe ")
    return {
        "han": score.subtotal,
        "fu": None if yakuman else score.extra["fu"],
        "yaku": Counter((item.key, item.value) for item in score.items),
        "limit": limit,
        "payments": score.extra["payments"],
        "total": score.total,
    }


def compare(case: Case) -> tuple[dict[str, Any], dict[str, Any]]:
    """(taihu's answer, mahjong's answer) for one case; the hand is never a HandError."""
    score = score_hand(case.line, rules="riichi", options=case.options)
    ours = taihu_answer(score)
    if "error" in ours:
        assert not score.legal and score.subtotal == 0 and score.total == 0
    return ours, mahjong_answer(case)


def _closed_case(
    tiles: list[int], win: int, seat: str, round_wind: str, flags: list[str], options: dict[str, int]
) -> Case:
    """A closed hand of plain tiles (no melds, no indicators) in both forms."""
    rest = list(tiles)
    rest.remove(win)
    used: Counter[int] = Counter()
    ids = []
    for kind in rest + [win]:
        k34 = TO_34[kind]
        ids.append(4 * k34 + used[k34])
        used[k34] += 1
    tsumo = "self" in flags
    config = {
        **{
            key: False
            for key in ("is_ippatsu", "is_rinshan", "is_chankan", "is_haitei", "is_houtei", "is_daburu_riichi")
        },
        **{key: False for key in ("is_tenhou", "is_chiihou", "is_renhou")},
        "is_tsumo": tsumo,
        "is_riichi": "riichi" in flags,
        "player_wind": MAHJONG_WIND[seat],
        "round_wind": MAHJONG_WIND[round_wind],
        "tsumi_number": 0,
        "kyoutaku_number": 0,
    }
    line = f"{' '.join(KIND_NAME[k] for k in rest)} +{KIND_NAME[win]} seat:{seat} round:{round_wind} {' '.join(flags)}"
    return Case(line=line, options=options, tiles=ids, win_tile=ids[-1], melds=[], dora=[], ura=[], config=config)


@st.composite
def flush_cases(draw: st.DrawFn) -> Case:
    """Another generator: 14 tiles drawn one by one from one suit (and some honors) until they win.

    Such hands group in many ways, so the best interpretation and its tie-break are tried hard.
    """
    rng = draw(st.randoms(use_true_random=False))
    seat, round_wind = draw(st.sampled_from(WINDS)), draw(st.sampled_from(WINDS))
    flags = [f for f in ("self", "riichi") if draw(st.booleans())]
    options = {
        "kuitan": 0,
        "aka_dora": 0,
        "kiriage": draw(st.integers(0, 1)),
        "kazoe": draw(st.integers(0, 2)),
        "double_yakuman": draw(st.integers(0, 1)),
        "open_pinfu_fu": 1,
        "pinfu_tsumo": draw(st.integers(0, 1)),
        "renhou_yakuman": 0,
    }
    while True:
        suit = rng.randrange(3) * 9
        pool = [suit + r for r in range(9)] * 4 + ([27, 28, 31, 32, 33] * 4 if rng.random() < 0.3 else [])
        rng.shuffle(pool)
        tiles = sorted(pool[:14])
        case = _closed_case(tiles, rng.choice(tiles), seat, round_wind, flags, options)
        if mahjong_answer(case).get("error") != HandCalculator.ERR_HAND_NOT_WINNING:
            return case
