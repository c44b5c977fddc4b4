"""The table's room: the owner's invites (join links) and the scorer devices they make (docs/ledger.md, "Who may
do what").

The owner makes an invite; its `code` (shown once, kept as a hash) goes into the join link the page shows as a
QR code. A phone that opens it sends the code and a name (its player's, or the phone's) and gets a scorer token
of its own: it adds and undoes deals, and nothing else. The owner lists the invites and the devices and revokes
either; a revoked device's token answers 403 from then on, and a revoked invite makes no more devices. A device
joined or revoked and a read link made or revoked are events of the ledger's stream (taihu/api/events.py).

The id alone reads the ledger unless the owner makes it private (PATCH `{"private": true}`). A read link is a
code the owner makes and revokes apart from the ledger: `?read=<code>` reads it, private or not, until revoked
(taihu/api/ledger.py, `readable`).
"""

from __future__ import annotations

from fastapi import APIRouter, Depends, Request
from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict, Field

from taihu.api.headers import LOCATION, declared
from taihu.api.language import request_language
from taihu.api.ledger import changed, edit_token, found, kept, problems
from taihu.api.responses import JSON, WITH_BODY, Refusal, hand_error_answer
from taihu.api.settings import Settings, settings_of
from taihu.ledger import MAX_NAME, LedgerFull
from taihu.store import INVITE_HOURS, MAX_INVITE_HOURS, LedgerStore

router = APIRouter(tags=["ledgers"])


class NewInvite(BaseModel):
    """An invite to make: a label for the owner's list, and how long it answers."""

    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [{"name": "乙", "expires_in_hours": 4}]})
    name: str | None = Field(None, description=f"a label for the owner's list (1 to {MAX_NAME} printable characters)")
    expires_in_hours: int = Field(INVITE_HOURS, ge=1, le=MAX_INVITE_HOURS, description="how long phones may join by it")


class Invite(BaseModel):
    id: str = Field(description="the invite's id, for the owner's list and its revocation")
    name: str | None = Field(description="its label, or null")
    created: str = Field(description="when it was made (ISO 8601, UTC)")
    expires: str = Field(description="when it stops answering (ISO 8601, UTC)")


class NewInviteAnswer(Invite):
    code: str = Field(description="the code a phone sends to join (shown once): the join link carries it")


class Invites(BaseModel):
    invites: list[Invite] = Field(description="the open invites, oldest first (never their codes)")


class Join(BaseModel):
    """A phone joining the ledger: the invite's code from the join link, and the name it goes by."""

    model_config = ConfigDict(
        extra="forbid", json_schema_extra={"examples": [{"invite": "the code of the join link", "name": "乙的手机"}]}
    )
    invite: str = Field(max_length=200, description="the invite's code")
    name: str = Field(description=f"the device's name: its player's, or the phone's (1 to {MAX_NAME} characters)")


class Device(BaseModel):
    id: str = Field(description="the device's id, for the owner's list and its revocation")
    name: str = Field(description="the name it joined with")
    role: str = Field(description="`scorer`: it adds and undoes deals")
    invite: str | None = Field(description="the id of the invite it joined by")
    created: str = Field(description="when it joined (ISO 8601, UTC)")


class Joined(BaseModel):
    device: Device
    token: str = Field(description="the device's own token, shown once: Authorization: Bearer <token>")


class Devices(BaseModel):
    devices: list[Device] = Field(description="the scorer devices, oldest first (never their tokens)")


class NewReadLink(BaseModel):
    """A read link to make: a label for the owner's list."""

    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [{"name": "the club's screen"}]})
    name: str | None = Field(None, description=f"a label for the owner's list (1 to {MAX_NAME} printable characters)")


class ReadLink(BaseModel):
    id: str = Field(description="the read link's id, for the owner's list and its revocation")
    name: str | None = Field(description="its label, or null")
    created: str = Field(description="when it was made (ISO 8601, UTC)")


class NewReadLinkAnswer(ReadLink):
    code: str = Field(description="the code that reads the ledger (shown once): `?read=<code>`")


class ReadLinks(BaseModel):
    private: bool = Field(description="whether the ledger is private: the id alone does not read it")
    read_links: list[ReadLink] = Field(description="the read links, oldest first (never their codes)")


def made_at(http: Request, path: str) -> dict[str, str]:
    return {"Location": f"{http.scope.get('root_path', '')}/v1{path}"}


@router.post(
    "/ledgers/{ledger_id}/invites",
    operation_id="new_invite",
    status_code=201,
    response_model=NewInviteAnswer,
    responses={
        201: {"description": "The invite", "headers": declared(LOCATION)},
        **problems(401, 403, 404, 409, *WITH_BODY),
    },
)
def new_invite(
    ledger_id: str,
    invite: NewInvite,
    http: Request,
    token: str = Depends(edit_token),
    settings: Settings = Depends(settings_of),
) -> Response:
    """Make an invite: its `code` goes into the join link a phone opens. The owner's token only."""
    try:
        with LedgerStore(settings.db) as store:
            made = store.invite(kept(store, ledger_id, token), invite.name, invite.expires_in_hours)
    except LedgerFull as exc:
        return hand_error_answer(exc, request_language(http), 409)
    return JSON(made, status_code=201, headers=made_at(http, f"/ledgers/{ledger_id}/invites/{made['id']}"))


@router.get(
    "/ledgers/{ledger_id}/invites",
    operation_id="list_invites",
    response_model=Invites,
    responses=problems(401, 403, 404),
)
def list_invites(
    ledger_id: str, token: str = Depends(edit_token), settings: Settings = Depends(settings_of)
) -> Invites:
    """The open invites. The owner's token only."""
    with LedgerStore(settings.db) as store:
        return Invites.model_validate({"invites": store.invites_of(kept(store, ledger_id, token))})


@router.delete(
    "/ledgers/{ledger_id}/invites/{invite_id}",
    operation_id="revoke_invite",
    status_code=204,
    responses=problems(401, 403, 404),
)
def revoke_invite(
    ledger_id: str, invite_id: str, token: str = Depends(edit_token), settings: Settings = Depends(settings_of)
) -> Response:
    """End an invite: no phone joins by it from now on (the devices it made stay). The owner's token only."""
    with LedgerStore(settings.db) as store:
        if not store.revoke_invite(kept(store, ledger_id, token), invite_id):
            raise Refusal(404, "api.error.invite_not_found", id=invite_id)
    return Response(status_code=204)


@router.post(
    "/ledgers/{ledger_id}/devices",
    operation_id="join_ledger",
    status_code=201,
    response_model=Joined,
    responses={
        201: {"description": "The device and its token", "headers": declared(LOCATION)},
        **problems(403, 404, 409, *WITH_BODY),
    },
)
def join_ledger(ledger_id: str, join: Join, http: Request, settings: Settings = Depends(settings_of)) -> Response:
    """Join the ledger as a scorer device by an invite's code (no Authorization: the code is the key); answers
    the device and its own token."""
    try:
        with LedgerStore(settings.db) as store:
            ledger = found(store, ledger_id)
            joined = store.join(ledger, join.invite, join.name)
    except LedgerFull as exc:
        return hand_error_answer(exc, request_language(http), 409)
    if joined is None:
        raise Refusal(403, "api.error.invite_wrong")
    changed(http, settings, ledger)
    device, device_token = joined
    answer = {"device": device, "token": device_token}
    return JSON(answer, status_code=201, headers=made_at(http, f"/ledgers/{ledger_id}/devices/{device['id']}"))


@router.get(
    "/ledgers/{ledger_id}/devices",
    operation_id="list_devices",
    response_model=Devices,
    responses=problems(401, 403, 404),
)
def list_devices(
    ledger_id: str, token: str = Depends(edit_token), settings: Settings = Depends(settings_of)
) -> Devices:
    """The scorer devices. The owner's token only."""
    with LedgerStore(settings.db) as store:
        return Devices.model_validate({"devices": store.devices_of(kept(store, ledger_id, token))})


@router.delete(
    "/ledgers/{ledger_id}/devices/{device_id}",
    operation_id="revoke_device",
    status_code=204,
    responses=problems(401, 403, 404),
)
def revoke_device(
    ledger_id: str,
    device_id: str,
    http: Request,
    token: str = Depends(edit_token),
    settings: Settings = Depends(settings_of),
) -> Response:
    """Revoke a device: its token answers 403 from now on, and a stream it opened ends. The owner's token only."""
    with LedgerStore(settings.db) as store:
        ledger = kept(store, ledger_id, token)
        if not store.revoke_device(ledger, device_id):
            raise Refusal(404, "api.error.device_not_found", id=device_id)
    changed(http, settings, ledger)
    return Response(status_code=204)


@router.post(
    "/ledgers/{ledger_id}/read-links",
    operation_id="new_read_link",
    status_code=201,
    response_model=NewReadLinkAnswer,
    responses={
        201: {"description": "The read link", "headers": declared(LOCATION)},
        **problems(401, 403, 404, 409, *WITH_BODY),
    },
)
def new_read_link(
    ledger_id: str,
    link: NewReadLink,
    http: Request,
    token: str = Depends(edit_token),
    settings: Settings = Depends(settings_of),
) -> Response:
    """Make a read link: `?read=<code>` reads the ledger (and only reads it), private or not, until it is
    revoked; a ledger keeps at most 16. The owner's token only."""
    try:
        with LedgerStore(settings.db) as store:
            ledger = kept(store, ledger_id, token)
            made = store.new_read_link(ledger, link.name)
    except LedgerFull as exc:
        return hand_error_answer(exc, request_language(http), 409)
    changed(http, settings, ledger)
    return JSON(made, status_code=201, headers=made_at(http, f"/ledgers/{ledger_id}/read-links/{made['id']}"))


@router.get(
    "/ledgers/{ledger_id}/read-links",
    operation_id="list_read_links",
    response_model=ReadLinks,
    responses=problems(401, 403, 404),
)
def list_read_links(
    ledger_id: str, token: str = Depends(edit_token), settings: Settings = Depends(settings_of)
) -> ReadLinks:
    """The read links, and whether the ledger is private. The owner's token only."""
    with LedgerStore(settings.db) as store:
        ledger = kept(store, ledger_id, token)
        return ReadLinks.model_validate({"private": ledger.private, "read_links": store.read_links_of(ledger)})


@router.delete(
    "/ledgers/{ledger_id}/read-links/{link_id}",
    operation_id="revoke_read_link",
    status_code=204,
    responses=problems(401, 403, 404),
)
def revoke_read_link(
    ledger_id: str,
    link_id: str,
    http: Request,
    token: str = Depends(edit_token),
    settings: Settings = Depends(settings_of),
) -> Response:
    """Revoke a read link: its code answers 403 `read_link_wrong` from now on, and a stream it opened ends. The
    owner's token only."""
    with LedgerStore(settings.db) as store:
        ledger = kept(store, ledger_id, token)
        if not store.revoke_read_link(ledger, link_id):
            raise Refusal(404, "api.error.read_link_not_found", id=link_id)
    changed(http, settings, ledger)
    return Response(status_code=204)
