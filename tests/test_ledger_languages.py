"""For the ledger: what a ledger answer shows a person follows the reader's language, as `POST /settle` does.

Each deal is stored with its texts' codes (`Settlement.to_dict(codes=True)`) and shown on every read in the
language asked for (`lang`, `Accept-Language`; the CLI's `--lang`): the same table settled by `POST /settle`
and read back from a ledger gives the same JSON in each language, on SQLite and on PostgreSQL. An answer in
Chinese has its own ETag, so no cache serves a Chinese reader the English one. The deals stored before the
codes were get them from revision 0006 where settling them again gives the settlement stored; the others
read as stored. A seat's error in a deal keyed by names names the player in its message.
"""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from alembic import command
from api_app import app
from english_words import english_in_json, keys
from fastapi.testclient import TestClient

from taihu.ledger import WINDS, shown_settlement
from taihu.messages import catalog
from taihu.scorer import HandError, settle_table
from taihu.scorer.rulesets import DEFAULT_RULES
from taihu.scorer.said import Said, as_code, code_in_lang
from taihu.store import LedgerStore, alembic_config, database_url, dispose_engines, newest_revision

ROOT = Path(__file__).resolve().parent.parent
TABLES = sorted((ROOT / "examples" / "tables").glob("*.json"))
PLAYERS = ["甲", "乙", "丙", "丁"]
ZH = {"Accept-Language": "zh-CN,zh;q=0.9,en;q=0.5"}


def table_of(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


@pytest.fixture
def client() -> TestClient:
    return TestClient(app)


def new_ledger(client: TestClient, rules: str = "lingxi", options: dict[str, int] | None = None) -> tuple[str, Any]:
    reply = client.post("/ledgers", json={"rules": rules, "players": PLAYERS, "options": options or {}})
    assert reply.status_code == 201, reply.text
    keys_ = reply.json()
    return keys_["id"], {"Authorization": f"Bearer {keys_['token']}"}


# -- the same texts as POST /settle, in each language, on both stores -------------------------------------


@pytest.mark.parametrize("path", TABLES, ids=[p.stem for p in TABLES])
def test_a_deal_reads_as_settle_answers_it_in_each_language(
    path: Path, store_db: Path | str, client: TestClient
) -> None:
    table = table_of(path)
    ledger_id, keeper = new_ledger(client, table.get("rules", DEFAULT_RULES), table.get("options"))
    added = {
        lang: client.post(
            f"/ledgers/{ledger_id}/deals?lang={lang}", json=table, headers=keeper | {"Idempotency-Key": "k"}
        )
        for lang in ("zh", "en")  # the second is the first's replay, shown in its own language
    }
    assert [r.status_code for r in added.values()] == [201, 200], added["zh"].text
    for lang, header in (("zh", {"Accept-Language": "zh-CN"}), ("en", {"Accept-Language": "en-GB"})):
        settled = client.post("/settle", json=table, headers=header)
        assert settled.status_code == 200, settled.text
        expected = settled.json()
        by_query = client.get(f"/ledgers/{ledger_id}?lang={lang}").json()
        by_header = client.get(f"/ledgers/{ledger_id}", headers=header).json()
        page = client.get(f"/ledgers/{ledger_id}/deals", headers=header).json()
        assert by_query["deals"][0]["settlement"] == expected
        assert by_header["deals"][0]["settlement"] == expected
        assert page["deals"][0]["settlement"] == expected
        assert added[lang].json()["deal"]["settlement"] == expected
    english, chinese = (client.post(f"/settle?lang={lang}", json=table).json() for lang in ("en", "zh"))
    if english != chinese:  # a table with texts: the two readings differ, and the ledger's too
        assert client.get(f"/ledgers/{ledger_id}?lang=zh").json() != client.get(f"/ledgers/{ledger_id}").json()
    undone = client.delete(f"/ledgers/{ledger_id}/deals/last?deal=1", headers=keeper | ZH)
    assert undone.status_code == 200 and undone.json()["deal"]["settlement"] == chinese


def test_the_cli_shows_a_deal_as_settle_json_does_in_each_language(store_db: Path | str) -> None:
    """`ledger show --json` and `export` (through the store's view) in each language: `settle --json`'s texts."""
    with LedgerStore(store_db) as store:
        for number, path in enumerate(TABLES):
            table = table_of(path)
            ledger = store.create(f"l{number}", table.get("rules", DEFAULT_RULES), PLAYERS, table.get("options", {}))
            store.add(ledger, table)
            view = store.view(ledger)
            for lang in ("zh", "en"):
                assert view.to_json(lang)["deals"][0]["settlement"] == settle_table(table).to_dict(lang), path.name


# -- no English word in a Chinese answer -----------------------------------------------------------------


def table_words(answer: Any) -> list[str]:
    """What an answer echoes of the client's own input: each deal's table (hands, event types, tiles)."""
    deals = answer.get("deals", []) + ([answer["deal"]] if isinstance(answer.get("deal"), dict) else [])
    return [json.dumps(deal["table"], ensure_ascii=False) for deal in deals]


# what a message names as the client writes it: HTTP's methods, header names and words (`Authorization: Bearer`),
# and the query parameter an undo names its deal with (`?deal=N`)
HTTP_WORDS = ["GET", "Authorization", "Bearer", "If-Match", "If-None-Match", "Idempotency-Key", "ETag", "deal"]
EVENING = {
    "lingxi": ["normal-win", "drawn", "false-win", "liable-si-feng-qi", "sha-zhu"],
    "riichi": ["riichi-win", "riichi-drawn"],
    "luoshan": ["luoshan-win", "luoshan-drawn"],
    "putian": ["putian-hands", "putian-you-jin", "putian-false-win"],
    "jinhua": ["jinhua-win", "jinhua-liable", "jinhua-self-drawn"],
    "guannan": ["guannan-win", "guannan-drawn"],
}


def by_names(table: dict[str, Any]) -> dict[str, Any]:
    """The table keyed by player names, as the first deal seats them (甲 at E …), its counters the ledger's."""
    name = dict(zip(WINDS, PLAYERS, strict=True))
    out = {k: v for k, v in table.items() if k not in ("honba", "pot")}
    out["players"] = {name[w]: hand for w, hand in table["players"].items()}
    for field in ("winner", "discarder"):
        if out.get(field) is not None:
            out[field] = name[out[field]]
    out["events"] = [{**e, "seat": name[e["seat"]]} for e in table.get("events", [])]
    return out


@pytest.mark.parametrize("rules", sorted(EVENING))
def test_every_ledger_answer_in_chinese_has_no_english_word(rules: str, client: TestClient) -> None:
    """Every route of a ledger under `Accept-Language: zh-CN`: its texts are Chinese, but for the keys, the codes,
    the rule set's item keys and words of the notation, and what the client's own tables hold."""
    ledger_id, keeper = new_ledger(client, rules)
    answers = []
    for number, stem in enumerate(EVENING[rules]):
        table = table_of(ROOT / "examples" / "tables" / f"{stem}.json")
        table.pop("options", None)  # the ledger's options (the rule set's defaults) for every deal
        deal = by_names(table) if number == 0 else {k: v for k, v in table.items() if k not in ("honba", "pot")}
        added = client.post(f"/ledgers/{ledger_id}/deals", json=deal, headers=keeper | ZH)
        assert added.status_code == 201, added.text
        answers.append(added.json())
    answers.append(client.get(f"/ledgers/{ledger_id}", headers=ZH).json())
    answers.append(client.get(f"/ledgers/{ledger_id}?deals=none", headers=ZH).json())
    answers.append(client.get(f"/ledgers/{ledger_id}/deals?limit=2", headers=ZH).json())
    answers.append(client.patch(f"/ledgers/{ledger_id}", json={"title": "周五"}, headers=keeper | ZH).json())
    undone = client.delete(f"/ledgers/{ledger_id}/deals/last?deal={len(EVENING[rules])}", headers=keeper | ZH)
    assert undone.status_code == 200, undone.text
    answers.append(undone.json())
    refusals = [
        client.get("/ledgers/no-such-ledger", headers=ZH),  # 404
        client.delete(f"/ledgers/{ledger_id}/deals/last", headers=ZH),  # 401
        client.delete(f"/ledgers/{ledger_id}/deals/last", headers=ZH | {"Authorization": "Bearer wrong"}),  # 403
        client.delete(f"/ledgers/{ledger_id}/deals/last", headers=keeper | ZH),  # 428: no deal named
        client.post(f"/ledgers/{ledger_id}/deals", json={"winner": "戊", "players": {}}, headers=keeper | ZH),  # 422
        client.post(f"/ledgers/{ledger_id}/deals", json={"deal": 1, "players": {}}, headers=keeper | ZH),  # 409
    ]
    assert [r.status_code for r in refusals] == [404, 401, 403, 428, 422, 409]
    answers += [r.json() for r in refusals]
    reasons = [p["reason"] for a in answers for d in a.get("deals", []) for p in d["settlement"]["payments"]]
    assert reasons, "the answers hold payments' reasons"
    quoted = [ledger_id, "no-such-ledger", "戊"]  # what the messages quote of the request: the ids, a name
    quoted += HTTP_WORDS
    for answer in answers:
        assert english_in_json(answer, keys(rules), table_words(answer), quoted) == set(), answer


def test_the_check_sees_an_english_answer(client: TestClient) -> None:
    ledger_id, keeper = new_ledger(client)
    client.post(f"/ledgers/{ledger_id}/deals", json=table_of(ROOT / "examples/tables/normal-win.json"), headers=keeper)
    answer = client.get(f"/ledgers/{ledger_id}").json()
    assert "difference" in english_in_json(answer, keys("lingxi"), table_words(answer))  # `difference 2; …`


# -- the ETag of each language ---------------------------------------------------------------------------


def test_a_chinese_answer_has_its_own_etag_and_a_change_takes_either(client: TestClient) -> None:
    ledger_id, keeper = new_ledger(client)
    client.post(f"/ledgers/{ledger_id}/deals", json=table_of(ROOT / "examples/tables/normal-win.json"), headers=keeper)
    english = client.get(f"/ledgers/{ledger_id}")
    chinese = client.get(f"/ledgers/{ledger_id}", headers=ZH)
    assert english.headers["ETag"] == '"1.1"' and chinese.headers["ETag"] == '"1.1.zh"'
    assert client.get(f"/ledgers/{ledger_id}?lang=zh").headers["ETag"] == '"1.1.zh"'
    assert "Accept-Language" in chinese.headers["Vary"] and chinese.headers["Content-Language"] == "zh"
    # the English answer's tag does not stand for the Chinese one, nor the other way round
    assert client.get(f"/ledgers/{ledger_id}", headers=ZH | {"If-None-Match": '"1.1"'}).status_code == 200
    assert client.get(f"/ledgers/{ledger_id}", headers={"If-None-Match": '"1.1.zh"'}).status_code == 200
    held = client.get(f"/ledgers/{ledger_id}/deals", headers=ZH | {"If-None-Match": '"1.1.zh"'})
    assert held.status_code == 304 and held.headers["ETag"] == '"1.1.zh"' and "Accept-Language" in held.headers["Vary"]
    # If-Match names the ledger's state: the tag of either language's answer
    table = table_of(ROOT / "examples/tables/drawn.json")
    added = client.post(f"/ledgers/{ledger_id}/deals", json=table, headers=keeper | ZH | {"If-Match": '"1.1.zh"'})
    assert added.status_code == 201 and added.headers["ETag"] == '"2.2.zh"'
    stale = client.post(f"/ledgers/{ledger_id}/deals", json=table, headers=keeper | ZH | {"If-Match": '"1.1.zh"'})
    assert stale.status_code == 409 and stale.headers["ETag"] == '"2.2.zh"'
    assert '"2.2.zh"' in stale.json()["message"]  # the tag the message names is the header's
    again = client.post(f"/ledgers/{ledger_id}/deals", json=table, headers=keeper | {"If-Match": '"2.2"'})
    assert again.status_code == 201 and again.headers["ETag"] == '"3.3"'


# -- rows stored before the codes ------------------------------------------------------------------------


def at_revision(where: Path | str, revision: str) -> sa.Engine:
    """A database brought to `revision` only, as an older taihu left it."""
    engine = sa.create_engine(database_url(where))
    with engine.begin() as db:
        config = alembic_config()
        config.attributes["connection"] = db
        command.upgrade(config, revision)
        del config.attributes["connection"]
    return engine


def test_deals_stored_in_english_get_their_codes_where_settling_again_agrees(store_db: Path | str) -> None:
    """Revision 0006: a deal stored before the codes (English texts only) gets them where its table settles to the
    settlement stored, and reads in Chinese; one that does not (worded by another taihu) reads as stored."""
    normal, drawn = (
        table_of(ROOT / "examples/tables/normal-win.json"),
        table_of(ROOT / "examples/tables/false-win.json"),
    )
    old_words = settle_table(drawn).to_dict()
    old_words["payments"][0]["reason"] = "false win; dealer x2 (as an older taihu said it)"
    rows = [(normal, settle_table(normal).to_dict()), (drawn, old_words)]
    engine = at_revision(store_db, "0005")
    seats = json.dumps(dict(zip(WINDS, PLAYERS, strict=True)), ensure_ascii=False)
    with engine.begin() as db:
        db.execute(
            sa.text(
                "INSERT INTO ledgers (name, rules, players, options, created, changes) "
                "VALUES ('old', 'lingxi', :players, '{}', '', 0)"
            ),
            {"players": json.dumps(PLAYERS, ensure_ascii=False)},
        )
        for number, (table, settlement) in enumerate(rows, 1):
            db.execute(
                sa.text(
                    "INSERT INTO deals (ledger_id, number, seats, deal_table, settlement, added, totals, next_dealer) "
                    "VALUES (1, :number, :seats, :table, :settlement, '', '{}', :dealer)"
                ),
                {
                    "number": number,
                    "seats": seats,
                    "table": json.dumps({**table, "rules": "lingxi", "options": {}}),
                    "settlement": json.dumps(settlement, ensure_ascii=False),
                    "dealer": PLAYERS[0],
                },
            )
    engine.dispose()
    dispose_engines()
    with LedgerStore(store_db) as store:
        assert store.revision() == newest_revision() == "0008"
        view = store.view(store.ledger("old"))
    upgraded, kept = view.deals
    assert upgraded.settlement == settle_table(normal).to_dict(codes=True)
    assert upgraded.to_json("zh")["settlement"] == settle_table(normal).to_dict("zh")
    assert kept.settlement == old_words  # left as it was: shown as stored, in English, in every language
    assert kept.to_json("zh")["settlement"] == kept.to_json("en")["settlement"] == old_words


def test_a_stored_text_whose_code_no_longer_renders_shows_as_stored() -> None:
    """A code whose parameters the catalog no longer names (a newer catalog's, an edited row) is no 500."""
    stored = settle_table(table_of(ROOT / "examples/tables/normal-win.json")).to_dict(codes=True)
    difference = stored["payments"][3]["reason_code"]  # `difference 2; dealer x2`: a text with parameters
    assert difference["params"]
    stored["payments"][0]["reason_code"] = {"code": "reason.no.such.code", "params": {}}
    stored["payments"][1]["reason_code"] = {"code": 7, "params": {}}
    stored["payments"][3]["reason_code"] = {"code": difference["code"], "params": {}}
    shown = shown_settlement(stored, "zh")
    assert [shown["payments"][i]["reason"] for i in (0, 1, 3)] == [stored["payments"][i]["reason"] for i in (0, 1, 3)]
    assert shown["payments"][2]["reason"] == "和牌者"  # the others still in Chinese
    assert "reason_code" not in json.dumps(shown)


def test_a_text_s_code_gives_the_text_back() -> None:
    """`code_in_lang` of `as_code` is the text in each language, for every text of the examples' settlements
    (word parameters and all), after a round trip through JSON as the store makes."""
    texts = [
        value
        for path in TABLES
        for payment in settle_table(table_of(path)).payments
        for value in [payment.reason]
        if isinstance(value, Said)
    ]
    assert len(texts) > 20
    for text in texts:
        stored = json.loads(json.dumps(as_code(text)))
        assert code_in_lang(stored, "en") == text and code_in_lang(stored, "zh") == text.in_lang("zh") != text
    with pytest.raises(KeyError):
        code_in_lang({"code": "no.such.code", "params": {}}, "zh")


# -- a seat's error in a deal keyed by names -------------------------------------------------------------


@pytest.mark.parametrize(
    ("deal", "code"),
    [
        (
            {"players": {"甲": {"total": 0}, "乙": "123m 5Q", "丙": {"total": 0}, "丁": {"total": 0}}},
            "suit_letter_missing",
        ),
        (
            {"winner": "乙", "players": {"甲": {"total": 0}, "乙": "123m", "丙": {"total": 0}, "丁": {"total": 0}}},
            "bad_winner",
        ),
    ],
    ids=["a hand's error", "the winner's"],
)
def test_a_seat_s_error_names_the_player_as_written_in_both_languages(
    deal: dict[str, Any], code: str, client: TestClient
) -> None:
    ledger_id, keeper = new_ledger(client)
    for lang, header in (("en", {}), ("zh", ZH)):
        refused = client.post(f"/ledgers/{ledger_id}/deals", json=deal, headers=keeper | header)
        assert refused.status_code == 422, refused.text
        error = refused.json()
        assert (error["code"], error["seat"], error["player"], error["field"]) == (code, "S", "乙", "players.乙")
        assert error["message"].startswith("乙：" if lang == "zh" else "players.乙"), (lang, error["message"])
        assert "players.S" not in error["message"]
    by_winds = {**deal, "players": dict(zip(WINDS, deal["players"].values(), strict=True))}
    by_winds |= {"winner": "S"} if "winner" in deal else {}
    refused = client.post(f"/ledgers/{ledger_id}/deals", json=by_winds, headers=keeper)
    assert refused.json()["message"].startswith("players.S")  # keyed by winds: the wind, as written


W_WINS = "555m 222p 777p 333s 888s 9m f1 f2 P P +9m"  # 乙's winning hand of docs/ledger.md's deal 1
NIL = {"total": 0}
# each error kind that names its seat, raised by a deal keyed by names: (rules, deal, the player at that seat)
SEAT_ERRORS = {
    "error.table.seat_disagrees": ("lingxi", {"players": {"甲": NIL, "乙": "123m seat:W", "丙": NIL, "丁": NIL}}, "乙"),
    "error.table.disagrees": (
        "lingxi",
        {"players": {"甲": NIL, "乙": "123m wild:5m", "丙": "123m wild:6m", "丁": NIL}},
        "丙",
    ),
    "error.winner.none_but_win": (
        "lingxi",
        {"winner": None, "players": {"甲": NIL, "乙": W_WINS, "丙": NIL, "丁": NIL}},
        "乙",
    ),
    "error.winner.other_wins": (
        "lingxi",
        {"winner": "甲", "players": {"甲": W_WINS, "乙": "12m +3m", "丙": NIL, "丁": NIL}},
        "乙",
    ),
    "error.winner.no_win": (
        "lingxi",
        {"winner": "乙", "players": {"甲": NIL, "乙": "123m", "丙": NIL, "丁": NIL}},
        "乙",
    ),
    "error.table.others_tenpai": (
        "lingxi",
        {"winner": None, "players": {"甲": NIL, "乙": {"tenpai": True}, "丙": NIL, "丁": NIL}},
        "乙",
    ),
    "error.total.winner": (
        "luoshan",
        {"winner": "乙", "players": {"甲": NIL, "乙": {"total": 10}, "丙": NIL, "丁": NIL}},
        "乙",
    ),
    "error.total.putian_winner": (
        "putian",
        {"winner": "乙", "players": {"甲": NIL, "乙": {"total": 10}, "丙": NIL, "丁": NIL}},
        "乙",
    ),
    "error.total.jinhua_zero": (
        "jinhua",
        {"winner": "乙", "discarder": "丙", "players": {"甲": NIL, "乙": NIL, "丙": NIL, "丁": NIL}},
        "乙",
    ),
    "error.total.non_winner": (
        "jinhua",
        {"winner": "乙", "discarder": "丙", "players": {"甲": {"total": 3}, "乙": W_WINS, "丙": NIL, "丁": NIL}},
        "甲",
    ),
    "error.total.riichi_winner": (
        "riichi",
        {"winner": "乙", "discarder": "丙", "players": {"甲": NIL, "乙": {"total": 10}, "丙": NIL, "丁": NIL}},
        "乙",
    ),
    "error.total.riichi_drawn": (
        "riichi",
        {"winner": None, "players": {"甲": {"total": 3}, "乙": NIL, "丙": NIL, "丁": NIL}},
        "甲",
    ),
}


@pytest.mark.parametrize("key", sorted(SEAT_ERRORS))
def test_each_error_that_names_its_seat_names_the_player_as_written(key: str, ledger_db: Path) -> None:
    rules, deal, player = SEAT_ERRORS[key]
    with LedgerStore(ledger_db) as store:
        ledger = store.create("names", rules, PLAYERS)
        with pytest.raises(HandError) as refused:
            store.add(ledger, deal)
    error = refused.value
    wind = WINDS[PLAYERS.index(player)]  # the first deal seats 甲 at E, 乙 at S …
    assert (error.key, error.seat, error.player, error.field) == (key, wind, player, f"players.{player}")
    # English opens with the field, as written; Chinese with the player, the field being the error's `field`
    assert error.message_in("en").startswith(f"players.{player}"), error.message_in("en")
    assert error.message_in("zh").startswith(f"{player}："), error.message_in("zh")


def declared_seat_params() -> dict[str, set[str]]:
    """Each catalog key the core raises (`HandError.of("error.…", …)`, `HandError.at_seat`) and the `seat_params`
    declared there (`at_seat`'s `named`)."""
    found: dict[str, set[str]] = {}
    for path in sorted((ROOT / "taihu").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr in ("of", "at_seat")
            ):
                key = node.args[0] if node.args else None
                if isinstance(key, ast.Constant) and isinstance(key.value, str):
                    declared = next((k.value for k in node.keywords if k.arg == "seat_params"), None)
                    names = ast.literal_eval(declared) if declared is not None else ()
                    if node.func.attr == "at_seat":  # `named` is its one seat parameter
                        names = [ast.literal_eval(k.value) for k in node.keywords if k.arg == "named"]
                    found.setdefault(key.value, set()).update(names)
    return found


def test_every_error_at_a_seat_s_field_declares_the_parameter_that_names_the_seat() -> None:
    """The catalog check of the declarations: a message that starts at `players.{name}` (the seat's own field)
    is raised with `name` among its `seat_params`, and no other parameter is declared so."""
    starts_at_seat = re.compile(r"players\.\{(\w+)\}:")
    declared = declared_seat_params()
    for key, params in declared.items():
        at_seat = starts_at_seat.match(catalog("en").gettext(key))
        assert params == ({at_seat.group(1)} if at_seat else set()), key
    assert set(SEAT_ERRORS) <= {key for key, params in declared.items() if params}


# -- a ledger's events name players ----------------------------------------------------------------------


def test_a_deal_s_events_may_name_players_as_the_schema_says(client: TestClient) -> None:
    schemas = client.get("/openapi.json").json()["components"]["schemas"]
    event = schemas["LedgerTable"]["properties"]["events"]["items"]["$ref"].rsplit("/", 1)[1]
    assert "enum" not in schemas[event]["properties"]["seat"]  # a name or a wind
    assert schemas["Event"]["properties"]["seat"]["enum"] == list(WINDS)  # POST /settle: winds only
    table_fields = set(schemas["Table"]["properties"])
    assert set(schemas["LedgerTable"]["properties"]) == table_fields | {"deal"}
    ledger_id, keeper = new_ledger(client)
    deal = by_names(table_of(ROOT / "examples/tables/false-win.json"))
    assert deal["events"] and all(e["seat"] in PLAYERS for e in deal["events"])
    added = client.post(f"/ledgers/{ledger_id}/deals", json=deal, headers=keeper)
    assert added.status_code == 201, added.text
    assert added.json()["deal"]["table"]["events"] == table_of(ROOT / "examples/tables/false-win.json")["events"]
