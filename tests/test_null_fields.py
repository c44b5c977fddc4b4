"""Null as the schema says: every request field whose schema allows null takes it, and null means what leaving the
field out means, but where the field's description says what null does instead (PATCH's "null: no title").

The cases are read from the OpenAPI document itself: each operation's body example (the schema's own, else `{}`),
each field of it, and of the models inside it, whose schema allows null. A field added to a model is a case here
without anyone writing it.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import Any

import pytest
from api_app import app
from fastapi.testclient import TestClient

DOCUMENT = app.openapi()
Path = tuple[str | int, ...]
# the fields whose null is not "left out": their description says what null does (a PATCH clears with it)
NULL_CLEARS = {
    ("PATCH", "/v1/ledgers/{ledger_id}", ("title",)),
    ("PATCH", "/v1/ledgers/{ledger_id}", ("expires_in_hours",)),
}


def resolved(node: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in node:
        found: Any = DOCUMENT
        for part in node["$ref"].removeprefix("#/").split("/"):
            found = found[part]
        node = found
    return node


def allows_null(schema: dict[str, Any]) -> bool:
    schema = resolved(schema)
    return schema.get("type") == "null" or any(allows_null(s) for s in schema.get("anyOf", []))


def nullable(schema: dict[str, Any], example: Any, at: Path = ()) -> Iterator[Path]:
    """The places in `example` (a body) whose schema allows null: each property of each object, and the first
    item of each list the example holds."""
    schema = resolved(schema)
    for branch in schema.get("anyOf", []):
        yield from nullable(branch, example, at)
    if isinstance(example, dict):
        for name, field in schema.get("properties", {}).items():
            if allows_null(field):
                yield (*at, name)
            if name in example:
                yield from nullable(field, example[name], (*at, name))
    if isinstance(example, list) and example and "items" in schema:
        yield from nullable(schema["items"], example[0], (*at, 0))


def cases() -> Iterator[Any]:
    for route, operations in DOCUMENT["paths"].items():
        for method, operation in operations.items():
            if "requestBody" not in operation:
                continue
            schema = resolved(operation["requestBody"]["content"]["application/json"]["schema"])
            example = schema.get("examples", [{}])[0]
            for at in dict.fromkeys(nullable(schema, example)):  # once each (a field under anyOf's branches too)
                name = ".".join(map(str, at))
                yield pytest.param(method.upper(), route, example, at, id=f"{method} {route} {name}")


CASES = list(cases())


def placed(body: Any, at: Path, value: Any) -> Any:
    """`body` with the field at `at` set to `value`, or left out when `value` is `...`."""
    body = copy.deepcopy(body)
    holder = body
    for part in at[:-1]:
        holder = holder[part]
    if value is ...:
        holder.pop(at[-1], None)
    else:
        holder[at[-1]] = value
    return body


# what two new ledgers (and their invites, read links) answer apart, where they answer 2xx
VARYING = {"id", "token", "name", "created", "expires", "code"}


def sent(client: TestClient, method: str, route: str, body: Any) -> tuple[int, Any]:
    """The status and answer of `body` sent to `route` (a new ledger's id in it, and its owner token), without
    what differs between two ledgers."""
    headers: dict[str, str] = {}
    if "{ledger_id}" in route:
        keys = client.post("/v1/ledgers", json={"players": ["甲", "乙", "丙", "丁"]}).json()
        route, headers = route.replace("{ledger_id}", keys["id"]), {"Authorization": f"Bearer {keys['token']}"}
    reply = client.request(method, route, json=body, headers=headers)
    answer = reply.json()
    if isinstance(answer, dict) and reply.is_success:
        answer = {key: value for key, value in answer.items() if key not in VARYING}
    return reply.status_code, answer


def test_the_cases_were_found() -> None:
    """The fields a generated client may send as null, among them a ledger deal's `rules` and PATCH's."""
    found = {(method, route, at) for method, route, _, at in (case.values for case in CASES)}
    assert ("POST", "/v1/ledgers/{ledger_id}/deals", ("rules",)) in found
    assert ("POST", "/v1/settle/batch", ("tables", 0, "winner")) in found
    assert NULL_CLEARS <= found


@pytest.mark.parametrize(("method", "route", "example", "at"), CASES)
def test_null_is_taken_where_the_schema_allows_it(method: str, route: str, example: Any, at: Path) -> None:
    client = TestClient(app)
    status, answer = sent(client, method, route, placed(example, at, None))
    if (method, route, at) in NULL_CLEARS:
        assert status == 200, answer
        return
    if isinstance(answer, dict) and "table" in answer.get("deal", {}):  # a ledger's deal: its table, nulls as sent
        table = answer["deal"]["table"]
        if at[-1] in table and table[at[-1]] is None:
            del table[at[-1]]
    assert (status, answer) == sent(client, method, route, placed(example, at, ...)), "null is not left out"


def test_a_patch_sends_no_default() -> None:
    """A PATCH field left out stays as it is: its schema has no default, which a generated client would send."""
    edit = resolved(
        DOCUMENT["paths"]["/v1/ledgers/{ledger_id}"]["patch"]["requestBody"]["content"]["application/json"]["schema"]
    )
    assert edit["properties"] and all("default" not in field for field in edit["properties"].values())
    assert "required" not in edit
