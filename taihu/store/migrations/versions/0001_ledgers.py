"""Ledgers and their deals; a file of the hand-written migrations (`schema_version`) is taken over in place.

Before Alembic, taihu kept `schema_version` (1: ledgers and deals; 2: public_id, token_sha256 and
deals.taihu_version; 3: rule-set names canonical, which revision 0002 does again). Such a file is
brought to version 2's tables and loses `schema_version`: from here on `alembic_version` says where a
database stands. A new database gets the same tables.

Revision ID: 0001
Revises:
"""

import sqlalchemy as sa
from alembic import op

from taihu.store import LAST_HAND_WRITTEN

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    bind = op.get_bind()
    tables = set(sa.inspect(bind).get_table_names())
    if "schema_version" in tables:
        version = bind.execute(sa.text("SELECT version FROM schema_version")).scalar() or 0
        assert version <= LAST_HAND_WRITTEN, version  # the store refused a newer one before this
        if version < 1:  # the hand-written steps ran in the transaction that set the version: nothing was made
            create_tables()
        elif version < 2:
            add_keepers()
        op.drop_table("schema_version")
    else:
        create_tables()


def create_tables() -> None:
    op.create_table(
        "ledgers",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("name", sa.Text, nullable=False, unique=True),
        sa.Column("rules", sa.Text, nullable=False),
        sa.Column("players", sa.Text, nullable=False),  # JSON text: the key order is kept as written
        sa.Column("options", sa.Text, nullable=False),
        sa.Column("created", sa.Text, nullable=False),
        sa.Column("public_id", sa.Text),
        sa.Column("token_sha256", sa.Text),
    )
    op.create_index("ledgers_public_id", "ledgers", ["public_id"], unique=True)
    op.create_table(
        "deals",
        sa.Column("ledger_id", sa.Integer, sa.ForeignKey("ledgers.id", ondelete="CASCADE"), nullable=False),
        sa.Column("number", sa.Integer, nullable=False),
        sa.Column("seats", sa.Text, nullable=False),
        sa.Column("deal_table", sa.Text, nullable=False),
        sa.Column("settlement", sa.Text, nullable=False),
        sa.Column("added", sa.Text, nullable=False),
        sa.Column("taihu_version", sa.Text),
        sa.PrimaryKeyConstraint("ledger_id", "number"),  # one deal N per ledger, whatever the hosts do
    )


def add_keepers() -> None:
    """Hand-written step 2: keepers over HTTP (a public id, the edit token's hash), the taihu of each deal."""
    op.add_column("ledgers", sa.Column("public_id", sa.Text))
    op.add_column("ledgers", sa.Column("token_sha256", sa.Text))
    op.create_index("ledgers_public_id", "ledgers", ["public_id"], unique=True)
    op.add_column("deals", sa.Column("taihu_version", sa.Text))
