"""A ledger's title (a display name apart from its id) and its expiry, both optional.

`expires` is a time as the store writes times (ISO 8601, UTC, to the second: it sorts as text); a ledger past
it is removed when it is next touched, or when a ledger is made over HTTP (docs/ledger.md, "Owner actions").

Revision ID: 0005
Revises: 0004
"""

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("ledgers", sa.Column("title", sa.Text))
    op.add_column("ledgers", sa.Column("expires", sa.Text))
    op.create_index("ledgers_expires", "ledgers", ["expires"])
