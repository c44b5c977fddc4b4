"""`/ledgers`: the evening's ledger over HTTP.

Reading needs only the ledger's id (≥ 128 random bits), so the link can be
shared with the table; or, once the owner makes the ledger private, one of its
tokens or a read link's code (`?read=`, taihu/api/room.py), which the owner
revokes apart from the ledger (`readable`). Adding or undoing a deal needs a token
(`Authorization: Bearer <token>`: 401 without it, 403 with a wrong one, and
nothing changes): the owner token `POST /ledgers` answered once, or a scorer
device's (taihu/api/room.py); renaming, deleting and rotating need the
owner's (403 `owner_only` for a scorer's). Each deal is validated and
settled exactly as `POST /settle` does. The database is the settings' `db`
(`taihu serve --db PATH|URL`: a SQLite file, or PostgreSQL for several hosts)
or the user data dir's file; each request takes a connection from the pool.

Bounded (docs/limits.md): a ledger at its most deals, or a database at its
most ledgers, is a 409; a client (by address) creating ledgers or adding
deals faster than `CREATE_RATE` / `ADD_RATE` gets a 429 with `Retry-After`.
The rate limiters belong to the app (`app.state.ledger_rates`), so two apps
keep apart and a test makes its own. An add or an undo answers the deal and
the standings, not the ledger (`Change`); GET answers the whole ledger, or
without its deals (`?deals=none`), and `/deals?after=N&limit=M` pages them;
both answer 304 to the ETag held (`If-None-Match`). The owner also gives a
title or an expiry (PATCH), deletes the ledger, or takes a new token. Each
change wakes this process's streams of the ledger (taihu/api/events.py).
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote as percent_encoded

from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import Response
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from pydantic import BaseModel, ConfigDict, Field

from taihu.api.headers import ETAG, IDEMPOTENCY_KEY, IF_MATCH, IF_NONE_MATCH, LOCATION, declared
from taihu.api.language import request_language
from taihu.api.responses import JSON, WITH_BODY, Refusal, errors, hand_error_answer
from taihu.api.schemas import TABLE_EXAMPLES, HouseOptions, LedgerEvent, Settlement, Table, TableFields, rules_field
from taihu.api.settings import Settings, settings_of
from taihu.ledger import (
    ADD_RATE,
    CREATE_RATE,
    MAX_EXPIRY_HOURS,
    MAX_PAGE,
    PAGE_LIMIT,
    Ledger,
    LedgerFull,
    export_filename,
    shown_change,
)
from taihu.messages import Language
from taihu.ratelimit import RateLimiter, client_key, retry_after
from taihu.scorer.limits import MAX_TOTAL
from taihu.scorer.rulesets import DEFAULT_RULES
from taihu.store import OWNER, SCORER, DealConflict, LedgerStore, etag_in, hours_from_now, split_tags

router = APIRouter(tags=["ledgers"])
bearer = HTTPBearer(
    auto_error=False,
    description="the owner token that POST /ledgers answered, or a scorer device's token (POST /ledgers/{id}/devices)",
)


class NewLedger(BaseModel):
    """A new ledger: its rule set, the four players in table order, house options."""

    model_config = ConfigDict(
        extra="forbid", json_schema_extra={"examples": [{"rules": DEFAULT_RULES, "players": ["甲", "乙", "丙", "丁"]}]}
    )
    rules: str = rules_field("the rule set of every deal")
    players: list[str] = Field(max_length=8, description="four names in table order; the first deals first")
    options: HouseOptions = Field(default_factory=dict, description="house options of the rule set")


class Keys(BaseModel):
    id: str = Field(description="the ledger's id: reading needs only this, unless the owner makes the ledger private")
    token: str = Field(
        description="the owner token, shown once: it adds and undoes deals, and alone renames, deletes, rotates "
        "and manages devices"
    )


class LedgerTable(TableFields[str, LedgerEvent]):
    """A deal to add: a Table whose seats (the keys of `players`, `winner`, `discarder`, each event's `seat`) may
    be the players' names instead of winds (a wind: the seat as it stands this deal), and `deal`, the number it
    is to get (optional: a 409 if another deal got in first). The ledger turns names into winds."""

    model_config = ConfigDict(json_schema_extra={"examples": [{**TABLE_EXAMPLES[0], "deal": 1}]})
    # a deal may leave its rule set out (the ledger's is meant), where a Table names one
    rules: str | None = Field(None, description="the ledger's rule set, if given (it must agree)")  # type: ignore[assignment]
    deal: int | None = Field(default=None, ge=1, strict=True, description="the number this deal is to get (1, 2, …)")


class LedgerDeal(BaseModel):
    """One deal of the ledger."""

    number: int = Field(description="the deal's number in the ledger, from 1")
    dealer: str = Field(description="the player who dealt (sat E)")
    seats: dict[str, str] = Field(description="wind → player for this deal (E deals)")
    table: Table = Field(description="the Table as settled, in winds")
    settlement: Settlement = Field(description="the deal's Settlement")


class Standings(BaseModel):
    """Where the evening stands: the keys of the ledger's JSON other than its name, rules, players and deals."""

    totals: dict[str, int] = Field(description="each player's total, summed from the deals")
    next_dealer: str
    # rule sets with honba only (absent for the others)
    next_honba: int | None = Field(None, description="the honba (本场) the next deal starts with")
    next_pot: int | None = Field(None, description="the sticks in the pot the next deal starts with")
    deal_count: int = Field(description="the number of deals in the ledger")


class LedgerDeals(BaseModel):
    name: str = Field(description="the ledger's id (a ledger made over HTTP is named by it)")
    title: str | None = Field(description="a display name its keeper gave it (PATCH), or null")
    expires: str | None = Field(description="when the ledger is removed (ISO 8601, UTC), or null: kept until deleted")
    rules: str
    players: list[str]
    deals: list[LedgerDeal] = Field(
        default_factory=list, description="every deal, in order; absent with `?deals=none` (page them instead)"
    )


class DealsPage(BaseModel):
    """One page of a ledger's deals: GET /ledgers/{id}/deals?after=N&limit=M."""

    deals: list[LedgerDeal] = Field(description="the deals numbered after `after`, in order, at most `limit`")
    deal_count: int = Field(description="the number of deals in the ledger")
    next_after: int | None = Field(description="the `after` of the next page; null: this page ends the ledger")


class LedgerAnswer(Standings, LedgerDeals):
    """The whole ledger: its deals, then the standings' keys (pydantic takes the last base's fields first)."""


class LedgerChange(BaseModel):
    """The answer to an add or an undo: the size of one deal, however long the ledger."""

    deal: LedgerDeal = Field(description="the deal added (or removed by an undo)")
    standings: Standings = Field(description="the standings after the change")


def problems(*codes: int) -> dict[int | str, dict[str, Any]]:
    return errors(*codes)


@dataclass
class LedgerRates:
    """The per-client rate limiters of one app: creating ledgers, adding deals."""

    creates: RateLimiter = field(default_factory=lambda: RateLimiter(CREATE_RATE))
    adds: RateLimiter = field(default_factory=lambda: RateLimiter(ADD_RATE))


_rates_made = threading.Lock()


def rates_of(request: Request) -> LedgerRates:
    """The app's rate limiters (`app.state.ledger_rates`), made on first use."""
    state = request.app.state
    with _rates_made:
        rates = getattr(state, "ledger_rates", None)
        if rates is None:
            rates = state.ledger_rates = LedgerRates()
    return rates


def within(limiter: RateLimiter, request: Request, key: str) -> None:
    """A 429 with Retry-After when this client has used up its rate (`key`: the catalog entry that says of what);
    nothing is changed."""
    wait = limiter.take(client_key(request.client.host if request.client else None))
    if wait > 0:
        rate, seconds = limiter.rate, retry_after(wait)
        headers = {"Retry-After": seconds}
        raise Refusal(
            429, key, code="rate_limited", headers=headers, burst=rate.burst, every=f"{rate.every_s:g}", seconds=seconds
        )


def attachment(name: str) -> str:
    """`Content-Disposition` for a download named `name`: an ASCII `filename`, and RFC 5987's `filename*` in UTF-8."""
    ascii_name = "".join(c if c.isascii() and (c.isalnum() or c in "._-") else "_" for c in name)
    return f"attachment; filename=\"{ascii_name}\"; filename*=UTF-8''{percent_encoded(name, safe='')}"


def found(store: LedgerStore, ledger_id: str) -> Ledger:
    """The ledger behind an id."""
    shared = store.shared(ledger_id)
    if shared is None:
        raise Refusal(404, "api.error.ledger_not_found", id=ledger_id)
    return shared[0]


def edit_token(credentials: HTTPAuthorizationCredentials | None = Depends(bearer)) -> str:
    """The request's token; checked before the body, so a request without one is a 401 whatever it sends."""
    if credentials is None:
        raise Refusal(401, "api.error.token_missing", headers={"WWW-Authenticate": "Bearer"})
    return credentials.credentials


def kept(store: LedgerStore, ledger_id: str, token: str, *roles: str) -> Ledger:
    """The ledger, if the token gives one of `roles` (by default the owner's alone): 403 `token_wrong` for a token
    that is none of the ledger's, `owner_only` for a scorer's where the owner's is needed."""
    ledger = found(store, ledger_id)
    role = store.role(ledger, token)
    if role is None:
        raise Refusal(403, "api.error.token_wrong")
    if role not in (roles or (OWNER,)):
        raise Refusal(403, "api.error.owner_only")
    return ledger


SCORING = (OWNER, SCORER)  # who adds and undoes deals
# a query parameter, not a header, so that a link carries it (a code that only reads, and the owner revokes)
READ_CODE = Query(
    None,
    max_length=200,
    description="a read link's code (POST /ledgers/{id}/read-links): reads the ledger, private or not; "
    "a revoked one is a 403 `read_link_wrong`",
)


def readable(
    store: LedgerStore, ledger_id: str, read: str | None, credentials: HTTPAuthorizationCredentials | None
) -> Ledger:
    """The ledger, if this request may read it: by a read link's code when one is given (403 `read_link_wrong`
    if it is none of the ledger's: mistyped or revoked); else by the id alone, unless the ledger is private, when
    one of its tokens is needed (403 `ledger_private` without one, `token_wrong` for another's)."""
    ledger = found(store, ledger_id)
    if read is not None:
        if not store.reads_by(ledger, read):
            raise Refusal(403, "api.error.read_link_wrong")
        return ledger
    if not ledger.private:
        return ledger
    if credentials is None:
        raise Refusal(403, "api.error.ledger_private")
    if store.role(ledger, credentials.credentials) is None:
        raise Refusal(403, "api.error.token_wrong")
    return ledger


@router.post(
    "/ledgers",
    operation_id="new_ledger",
    status_code=201,
    response_model=Keys,
    responses={
        201: {"description": "The ledger is made", "headers": declared(LOCATION)},
        200: {"model": Keys, "description": "The ledger an `Idempotency-Key` made first, again: nothing is made"},
        **problems(409, 429, *WITH_BODY),
    },
)
def new_ledger(
    request: NewLedger,
    http: Request,
    settings: Settings = Depends(settings_of),
    idempotency_key: str | None = IDEMPOTENCY_KEY,
) -> Response:
    """Start a ledger: answers its id (share it to let others read) and the owner token (keep it).

    With an Idempotency-Key, a repeat within the hour answers the first ledger's id and token (200) and makes
    none: the key is then as secret as the token, so make it random (a UUID)."""
    within(rates_of(http).creates, http, "api.error.rate_limited_ledgers")
    try:
        with LedgerStore(settings.db) as store:
            ledger_id, token, replayed = store.create_once(
                request.rules, request.players, request.options, key=idempotency_key
            )
    except LedgerFull as exc:
        return hand_error_answer(exc, request_language(http), 409)
    where = f"{http.scope.get('root_path', '')}/v1/ledgers/{ledger_id}"
    answer = Keys(id=ledger_id, token=token).model_dump()
    return JSON(answer, status_code=200 if replayed else 201, headers={"Location": where})


@router.get(
    "/ledgers/{ledger_id}.csv",
    operation_id="ledger_csv",
    response_class=Response,
    responses={
        200: {
            "content": {"text/csv": {"schema": {"type": "string"}}},
            "description": "one row per deal and player, a header row first (UTF-8); the header is the same in "
            "every language, the `result` cells are in the request's language",
        },
        **problems(403, 404),
    },
)
def ledger_csv(
    ledger_id: str,
    http: Request,
    settings: Settings = Depends(settings_of),
    read: str | None = READ_CODE,
    credentials: HTTPAuthorizationCredentials | None = Depends(bearer),
) -> Response:
    """The ledger as CSV, to download: one row per deal and player, a header row first (docs/ledger.md)."""
    with LedgerStore(settings.db) as store:
        view = store.view(readable(store, ledger_id, read, credentials))
    return Response(
        view.to_csv(request_language(http)),
        media_type="text/csv; charset=utf-8",
        headers={"Content-Disposition": attachment(export_filename(view.ledger.name))},
    )


# next_honba / next_pot only where the ledger's JSON has them (the other rule sets' answer is unchanged)
ANSWER: dict[str, Any] = {"response_model": LedgerAnswer, "response_model_exclude_unset": True}
NOT_MODIFIED: dict[int | str, dict[str, Any]] = {
    304: {"description": "Not modified: the ledger is as the ETag says", "headers": declared(ETAG)}
}
TAGGED: dict[int | str, dict[str, Any]] = {200: {"description": "Successful Response", "headers": declared(ETAG)}}


def unchanged(tag: str, if_none_match: str | None) -> Response | None:
    """A 304 (with the ETag) when the client holds this answer of the ledger (`*`, or one of its tags)."""
    if if_none_match is None or (if_none_match.strip() != "*" and tag not in split_tags(if_none_match)):
        return None
    return Response(status_code=304, headers={"ETag": tag})


@router.get(
    "/ledgers/{ledger_id}",
    operation_id="show_ledger",
    **ANSWER,
    responses=TAGGED | problems(403, 404) | NOT_MODIFIED,
)
def show_ledger(
    ledger_id: str,
    http: Request,
    settings: Settings = Depends(settings_of),
    deals: str = Query("all", pattern="^(all|none)$", description="`none`: the standings and deal count alone"),
    if_none_match: str | None = IF_NONE_MATCH,
    read: str | None = READ_CODE,
    credentials: HTTPAuthorizationCredentials | None = Depends(bearer),
) -> Response:
    """The deals, who sat where, each player's total and who deals next; its ETag (for If-Match, If-None-Match).

    `?deals=none` leaves the deals out: what an app polls (docs/ledger.md, "What to poll"). The deals' texts
    (reasons, notes, details) are in the request's language, and so is the ETag (`"3.5"`, `"3.5.zh"`)."""
    lang = request_language(http)
    with LedgerStore(settings.db) as store:
        ledger = readable(store, ledger_id, read, credentials)
        standing, state = store.state(ledger)  # read first: a change meanwhile makes it older, never newer
        tag = etag_in(state, lang)
        answer = unchanged(tag, if_none_match)
        if answer is not None:
            return answer
        if deals == "none":
            return JSON(ledger.heading() | standing.to_json(), headers={"ETag": tag})
        return JSON(store.view(ledger).to_json(lang), headers={"ETag": tag})


@router.get(
    "/ledgers/{ledger_id}/deals",
    operation_id="deals_page",
    response_model=DealsPage,
    responses=TAGGED | problems(403, 404) | NOT_MODIFIED,
)
def deals_page(
    ledger_id: str,
    http: Request,
    settings: Settings = Depends(settings_of),
    after: int = Query(  # bounded: a number past SQLite's integers was a 500
        0, ge=0, le=MAX_TOTAL, description="the number of the last deal the client holds (0: from the first)"
    ),
    limit: int = Query(PAGE_LIMIT, ge=1, le=MAX_PAGE, description=f"the most deals in the page (at most {MAX_PAGE})"),
    if_none_match: str | None = IF_NONE_MATCH,
    read: str | None = READ_CODE,
    credentials: HTTPAuthorizationCredentials | None = Depends(bearer),
) -> Response:
    """A page of the deals: those numbered after `after`, at most `limit`, their texts in the request's
    language; its ETag is the ledger's in that language."""
    lang = request_language(http)
    with LedgerStore(settings.db) as store:
        ledger = readable(store, ledger_id, read, credentials)
        page, standing, state = store.page(ledger, after, limit)
    tag = etag_in(state, lang)
    answer = unchanged(tag, if_none_match)
    if answer is not None:
        return answer
    count = standing.deal_count
    last = page[-1].number if page else after
    deals = [d.to_json(lang) for d in page]
    shown = {"deals": deals, "deal_count": count, "next_after": last if last < count else None}
    return JSON(shown, headers={"ETag": tag})


def expected_number(table: dict[str, Any]) -> tuple[dict[str, Any], int | None]:
    """The table without `deal`, and `deal`: the number the client expects this deal to get."""
    rest = dict(table)
    expect: int | None = rest.pop("deal", None)  # a number ≥ 1, as LedgerTable validated it
    return rest, expect


# next_honba / next_pot only where the standings have them
CHANGE: dict[str, Any] = {"response_model": LedgerChange, "response_model_exclude_unset": True}
REPLAYED = "The first answer to this `Idempotency-Key` again: nothing more is changed"


def changed(http: Request, settings: Settings, ledger: Ledger) -> None:
    """Wakes this process's streams of the ledger at once (other hosts hear of it from the database)."""
    from taihu.api.events import hub_for  # the stream's module imports this one

    hub_for(http, settings.db).changed(ledger.key)


def conflict(exc: DealConflict, lang: Language) -> Response:
    """A stale `deal` (409) or an undo's stale If-Match (412): the current count in `deal`, the ETag beside it."""
    tag = etag_in(exc.etag, lang)
    answer = hand_error_answer(exc.tagged(tag), lang, 412 if exc.precondition else 409, deal=exc.current)
    answer.headers["ETag"] = tag
    return answer


@router.post(
    "/ledgers/{ledger_id}/deals",
    operation_id="add_deal",
    status_code=201,
    **CHANGE,
    responses={
        201: {"description": "The deal is added", "headers": declared(ETAG)},
        200: {"model": LedgerChange, "description": REPLAYED, "headers": declared(ETAG)},
        **problems(401, 403, 404, 409, 429, *WITH_BODY),
    },
)
def add_deal(
    ledger_id: str,
    http: Request,
    table: LedgerTable,
    token: str = Depends(edit_token),
    settings: Settings = Depends(settings_of),
    idempotency_key: str | None = IDEMPOTENCY_KEY,
    if_match: str | None = IF_MATCH,
) -> Response:
    """Settle a deal with the seats as they stand and record it; answers the deal and the standings.

    The owner's token or a scorer's. Safe to retry (docs/ledger.md): with an Idempotency-Key, a repeat answers
    200 with the first answer and stores nothing; with `deal` or If-Match, a deal that another client got in
    first is a 409."""
    rest, expect = expected_number(table.model_dump(exclude_unset=True))
    lang = request_language(http)
    with LedgerStore(settings.db) as store:
        ledger = kept(store, ledger_id, token, *SCORING)
        # counted once the token is this ledger's: a client with no token cannot spend its address's rate
        within(rates_of(http).adds, http, "api.error.rate_limited_deals")
        try:
            added = store.add_once(ledger, rest, expect=expect, if_match=if_match, key=idempotency_key)
        except LedgerFull as exc:
            return hand_error_answer(exc, lang, 409)
        except DealConflict as exc:
            return conflict(exc, lang)
    if not added.replayed:
        changed(http, settings, ledger)
    shown = shown_change(added.answer, lang)  # a replay too: the first answer, in this request's language
    return JSON(shown, status_code=200 if added.replayed else 201, headers={"ETag": etag_in(added.etag, lang)})


@router.delete(
    "/ledgers/{ledger_id}/deals/last",
    operation_id="undo_deal",
    **CHANGE,
    responses={
        200: {
            "description": "The deal is removed; or, to a repeated `Idempotency-Key`, the first answer again",
            "headers": declared(ETAG),
        },
        **problems(401, 403, 404, 409, 412, 428),
    },
)
def undo_deal(
    ledger_id: str,
    http: Request,
    token: str = Depends(edit_token),
    settings: Settings = Depends(settings_of),
    deal: int | None = Query(
        None,
        ge=1,
        le=MAX_TOTAL,
        description="the number of the deal to remove, the last: a 409 if it is not. This or If-Match "
        "is needed: an undo that names no deal is a 428",
    ),
    idempotency_key: str | None = IDEMPOTENCY_KEY,
    if_match: str | None = IF_MATCH,
) -> Response:
    """Remove the last deal; answers the deal removed and the standings. The owner's token or a scorer's.

    Safe to retry (docs/ledger.md): `?deal=N` names the deal it removes (409 if another is last now), or
    If-Match the ledger's ETag (412 if it changed); with an Idempotency-Key, a repeat answers the first answer
    and removes nothing more. An undo that names no deal (neither `?deal=N` nor If-Match, or `If-Match: *`, which
    any state matches) is a 428 and removes nothing: a retry of it, or two phones at once, would remove a deal no
    one meant."""
    lang = request_language(http)
    with LedgerStore(settings.db) as store:
        ledger = kept(store, ledger_id, token, *SCORING)
        if deal is None and (if_match is None or if_match.strip() == "*"):
            raise Refusal(428, "api.error.precondition_required", hint="api.hint.name_the_deal")
        try:
            undone = store.undo_once(ledger, expect=deal, if_match=if_match, key=idempotency_key)
        except DealConflict as exc:
            return conflict(exc, lang)
    if not undone.replayed:
        changed(http, settings, ledger)
    return JSON(shown_change(undone.answer, lang), headers={"ETag": etag_in(undone.etag, lang)})


def left_out_unchanged(schema: dict[str, Any]) -> None:
    """A PATCH field's schema without a default: left out, the field stays as it is, so a client generated from the
    document must not send one (a default there is what such a client sends in every request)."""
    schema.pop("default", None)


class LedgerEdit(BaseModel):
    """What a keeper changes: a field left out stays as it is (there is no default); null clears the title or the
    expiry."""

    model_config = ConfigDict(extra="forbid")
    title: str | None = Field(
        None,
        description="a display name (1 to 100 printable characters); null: no title; left out: unchanged",
        json_schema_extra=left_out_unchanged,
    )
    expires_in_hours: int | None = Field(
        None,
        ge=1,
        le=MAX_EXPIRY_HOURS,
        description="remove the ledger this many hours from now; null: no expiry, kept until deleted; "
        "left out: unchanged",
        json_schema_extra=left_out_unchanged,
    )
    private: bool = Field(
        False,
        strict=True,
        description="true: the id alone no longer reads, only the tokens and read links do; false: the id reads "
        "it; left out: unchanged",
        json_schema_extra=left_out_unchanged,
    )


@router.patch(
    "/ledgers/{ledger_id}",
    operation_id="edit_ledger",
    **ANSWER,
    responses=TAGGED | problems(401, 403, 404, *WITH_BODY),
    summary="Rename, set the expiry, or make the ledger private",
)
def edit_ledger(
    ledger_id: str,
    http: Request,
    edit: LedgerEdit,
    token: str = Depends(edit_token),
    settings: Settings = Depends(settings_of),
) -> Response:
    """Give the ledger a title (a display name apart from its id) or an expiry, or make it private (the id
    alone no longer reads it); answers it without its deals. The owner's token only."""
    with LedgerStore(settings.db) as store:
        ledger = kept(store, ledger_id, token)
        given = edit.model_fields_set
        title = edit.title if "title" in given else ledger.title
        expires = ledger.expires
        if "expires_in_hours" in given:
            expires = hours_from_now(edit.expires_in_hours) if edit.expires_in_hours is not None else None
        if "private" in given:  # first: the edit's event finds the ledger private, and its streams see it so
            ledger = store.set_private(ledger, edit.private)
        ledger = store.retitle(ledger, title, expires)
        standing, state = store.state(ledger)
    changed(http, settings, ledger)
    return JSON(ledger.heading() | standing.to_json(), headers={"ETag": etag_in(state, request_language(http))})


@router.delete("/ledgers/{ledger_id}", operation_id="delete_ledger", status_code=204, responses=problems(401, 403, 404))
def delete_ledger(
    ledger_id: str, http: Request, token: str = Depends(edit_token), settings: Settings = Depends(settings_of)
) -> Response:
    """Remove the ledger, its deals and devices; its id answers 404 from now on. The owner's token only."""
    with LedgerStore(settings.db) as store:
        ledger = kept(store, ledger_id, token)
        store.delete(ledger)
    changed(http, settings, ledger)
    return Response(status_code=204)


@router.post(
    "/ledgers/{ledger_id}/token",
    operation_id="rotate_token",
    response_model=Keys,
    responses={
        200: {"description": "A new owner token; or, to a repeated `Idempotency-Key`, the same one again"},
        **problems(401, 403, 404),
    },
)
def rotate_token(
    ledger_id: str,
    token: str = Depends(edit_token),
    settings: Settings = Depends(settings_of),
    idempotency_key: str | None = IDEMPOTENCY_KEY,
) -> Keys:
    """A new owner token (shown once). The token before stays good until the new one is first used, or for an
    hour, so a rotation whose answer is lost cannot lock the owner out; an Idempotency-Key sent again within
    that hour answers the same new token. The owner's token only; the devices' tokens are not changed."""
    with LedgerStore(settings.db) as store:
        new, _ = store.rotate(kept(store, ledger_id, token), key=idempotency_key)
    return Keys(id=ledger_id, token=new)
