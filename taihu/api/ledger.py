"""`/ledgers`: the evening's ledger over HTTP (issue 16, docs/api.md).

Reading needs only the ledger's id (≥ 128 random bits), so the link can be
shared with the table; adding or undoing a deal needs the edit token that
`POST /ledgers` answered once (`Authorization: Bearer <token>`: 401 without
it, 403 with a wrong one, and nothing changes). Each deal is validated and
settled exactly as `POST /settle` does. The database is `$TAIHU_DB` (`taihu
serve --db PATH|URL` sets it: a SQLite file, or PostgreSQL for several hosts)
or the user data dir's file; each request takes a connection from the pool.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Body, Depends, HTTPException
from fastapi.responses import Response
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from pydantic import BaseModel, ConfigDict, Field

from taihu.ledger import Ledger, token_matches
from taihu.store import LedgerStore

router = APIRouter(tags=["ledgers"])
bearer = HTTPBearer(auto_error=False, description="the edit token that POST /ledgers answered")


class LedgerProblem(BaseModel):
    """An error answer: one readable string, as every error of the API."""

    detail: str


class NewLedger(BaseModel):
    model_config = ConfigDict(extra="forbid")
    rules: str = Field(default="lingxi", max_length=40)
    players: list[str] = Field(max_length=8, description="four names in table order; the first deals first")
    options: dict[str, int] = Field(default_factory=dict, description="house options of the rule set")


class Keys(BaseModel):
    id: str = Field(description="the ledger's id: reading needs only this")
    token: str = Field(description="the edit token, shown once: adding or undoing a deal needs it")


class LedgerDeal(BaseModel):
    dealer: str
    seats: dict[str, str] = Field(description="wind → player for this deal (E deals)")
    table: dict[str, Any] = Field(description="the Table as settled, in winds")
    settlement: dict[str, Any] = Field(description="the Settlement JSON of the deal")


class LedgerAnswer(BaseModel):
    name: str
    rules: str
    players: list[str]
    deals: list[LedgerDeal]
    totals: dict[str, int] = Field(description="each player's total, summed from the deals")
    next_dealer: str
    # riichi only (absent for the other rule sets)
    next_honba: int | None = Field(None, description="riichi: the honba (本场) the next deal starts with")
    next_pot: int | None = Field(None, description="riichi: the riichi sticks in the pot the next deal starts with")


def problems(*codes: int) -> dict[int | str, dict[str, Any]]:
    described = {
        401: "No edit token (Authorization: Bearer <token>)",
        403: "Wrong edit token",
        404: "No ledger with this id",
        413: "The request body is over 64 KB",
        422: "Bad input: the library's message",
    }
    return {code: {"model": LedgerProblem, "description": described[code]} for code in codes}


def found(store: LedgerStore, ledger_id: str) -> tuple[Ledger, str | None]:
    """The ledger behind an id, and its token's hash."""
    shared = store.shared(ledger_id)
    if shared is None:
        raise HTTPException(404, f"no ledger with id '{ledger_id}'")
    return shared


def edit_token(credentials: HTTPAuthorizationCredentials | None = Depends(bearer)) -> str:
    """The request's edit token; checked before the body, so a request without one is a 401 whatever it sends."""
    if credentials is None:
        raise HTTPException(
            401, "changing a ledger needs its edit token: Authorization: Bearer <token>", {"WWW-Authenticate": "Bearer"}
        )
    return credentials.credentials


def kept(store: LedgerStore, ledger_id: str, token: str) -> Ledger:
    """The ledger, if the token is its edit token."""
    ledger, token_sha256 = found(store, ledger_id)
    if not token_matches(token, token_sha256):
        raise HTTPException(403, "this is not the edit token of this ledger; nothing was changed")
    return ledger


@router.post("/ledgers", status_code=201, response_model=Keys, responses=problems(413, 422))
def new_ledger(request: NewLedger) -> Keys:
    """Start a ledger: answers its id (share it to let others read) and the edit token (keep it)."""
    with LedgerStore() as store:
        ledger_id, token = store.create_shared(request.rules, request.players, request.options)
    return Keys(id=ledger_id, token=token)


@router.get(
    "/ledgers/{ledger_id}.csv",
    response_class=Response,
    responses={200: {"content": {"text/csv": {}}, "description": "one row per deal and player"}, **problems(404)},
)
def ledger_csv(ledger_id: str) -> Response:
    """The ledger as CSV: one row per deal and player, a header row first."""
    with LedgerStore() as store:
        text = store.view(found(store, ledger_id)[0]).to_csv()
    return Response(text, media_type="text/csv; charset=utf-8")


# riichi's next_honba / next_pot only where the ledger's JSON has them (the other rule sets' answer is unchanged)
ANSWER: dict[str, Any] = {"response_model": LedgerAnswer, "response_model_exclude_unset": True}


@router.get("/ledgers/{ledger_id}", **ANSWER, responses=problems(404))
def show_ledger(ledger_id: str) -> dict[str, Any]:
    """The deals, who sat where, each player's total and who deals next."""
    with LedgerStore() as store:
        return store.view(found(store, ledger_id)[0]).to_json()


@router.post(
    "/ledgers/{ledger_id}/deals",
    status_code=201,
    **ANSWER,
    responses=problems(401, 403, 404, 413, 422),
)
def add_deal(
    ledger_id: str,
    table: dict[str, Any] = Body(description="a Table; seats may be players' names or winds"),
    token: str = Depends(edit_token),
) -> dict[str, Any]:
    """Settle a deal with the seats as they stand and record it; answers the ledger."""
    with LedgerStore() as store:
        ledger = kept(store, ledger_id, token)
        store.add(ledger, table)
        return store.view(ledger).to_json()


@router.delete("/ledgers/{ledger_id}/deals/last", **ANSWER, responses=problems(401, 403, 404, 422))
def undo_deal(ledger_id: str, token: str = Depends(edit_token)) -> dict[str, Any]:
    """Remove the last deal; answers the ledger."""
    with LedgerStore() as store:
        ledger = kept(store, ledger_id, token)
        store.undo(ledger)
        return store.view(ledger).to_json()
