"""Exactly once: each ledger counts its changes (its ETag), and keeps the answers to Idempotency-Keys.

`ledgers.changes` goes up by one with every add and undo, so an ETag made of the deal count and it names
one state of the ledger. `idempotency` keeps, per ledger and key, a hash of the request and the first
answer for 24 hours: a retry with the key gets that answer and stores nothing.

Revision ID: 0003
Revises: 0002
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("ledgers", sa.Column("changes", sa.Integer, nullable=False, server_default="0"))
    op.create_table(
        "idempotency",
        sa.Column("ledger_id", sa.Integer, sa.ForeignKey("ledgers.id", ondelete="CASCADE"), nullable=False),
        sa.Column("key", sa.Text, nullable=False),
        sa.Column("request_sha256", sa.Text, nullable=False),
        sa.Column("answer", sa.Text, nullable=False),
        sa.Column("created", sa.Text, nullable=False),
        sa.PrimaryKeyConstraint("ledger_id", "key"),
    )
