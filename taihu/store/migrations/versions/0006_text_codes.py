"""Each deal's settlement keeps its texts' codes beside them (`reason_code`, `notes_code`, `detail_code`,
`limit_code`: `Settlement.to_dict(codes=True)`), so a ledger is read in the reader's language.

The deals stored before held the English texts only. Each is settled again from its stored table (in winds,
with the ledger's rule set, options and counters: what was settled then); where that gives exactly the
settlement stored, the row takes the same JSON with the codes beside it. Where it does not (a deal settled
by a taihu that counted or worded it otherwise) the row is left as it is, and its texts are shown as stored,
in English, in every language. The answers kept for an Idempotency-Key (24 hours) are left as they are too.

Revision ID: 0006
Revises: 0005
"""

import json

import sqlalchemy as sa
from alembic import op

from taihu.scorer import HandError, settle_table

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None

deals = sa.table(
    "deals",
    sa.column("ledger_id", sa.Integer),
    sa.column("number", sa.Integer),
    sa.column("deal_table", sa.Text),
    sa.column("settlement", sa.Text),
)
ledgers = sa.table("ledgers", sa.column("id", sa.Integer))


def with_codes(table_text: str, settlement_text: str) -> str | None:
    """The stored settlement with its texts' codes, or None where settling the table again gives another."""
    try:
        settled = settle_table(json.loads(table_text))
    except (HandError, ValueError, TypeError, KeyError):
        return None
    if json.loads(json.dumps(settled.to_dict())) != json.loads(settlement_text):
        return None
    return json.dumps(settled.to_dict(codes=True), ensure_ascii=False)


def upgrade() -> None:
    bind = op.get_bind()
    for (key,) in bind.execute(sa.select(ledgers.c.id).order_by(ledgers.c.id)).all():
        query = sa.select(deals.c.number, deals.c.deal_table, deals.c.settlement).where(deals.c.ledger_id == key)
        for number, table_text, settlement_text in bind.execute(query).all():
            upgraded = with_codes(table_text, settlement_text)
            if upgraded is not None:
                bind.execute(
                    deals.update().where(deals.c.ledger_id == key, deals.c.number == number).values(settlement=upgraded)
                )
