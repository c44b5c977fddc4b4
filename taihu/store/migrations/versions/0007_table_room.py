"""The table's room: scorer devices and the invites that make them, the owner token's rotation with a grace
period, each ledger's changes kept as events, and Idempotency-Keys for more than an add.

- `invites`: a join link the owner makes (its code kept as a SHA-256 only); a phone that sends the code gets a
  device of its own. `devices`: a scorer's token (hashed), named by the phone.
- `ledgers.old_token_sha256` / `old_token_until`: after a rotation the token before stays good until the new one
  is first used, or until the time given, so a rotation whose answer was lost cannot lock the owner out.
- `ledger_events`: one row per change of a ledger, numbered by the ledger's count of changes (`ledgers.changes`
  after it), so a stream that reconnects with `Last-Event-ID` is sent what it missed.
- `idempotency.action`: what a key was first sent with (an add, an undo, a rotation; null: an add, as before).
  `creation_keys`: the keys of `POST /ledgers`, which has no ledger yet.

Revision ID: 0007
Revises: 0006
"""

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def ledger_id() -> sa.Column[int]:
    return sa.Column("ledger_id", sa.Integer, sa.ForeignKey("ledgers.id", ondelete="CASCADE"), nullable=False)


def upgrade() -> None:
    op.add_column("ledgers", sa.Column("old_token_sha256", sa.Text))
    op.add_column("ledgers", sa.Column("old_token_until", sa.Text))
    op.add_column("idempotency", sa.Column("action", sa.Text))
    op.create_table(
        "invites",
        ledger_id(),
        sa.Column("public_id", sa.Text, nullable=False),
        sa.Column("code_sha256", sa.Text, nullable=False),
        sa.Column("name", sa.Text),
        sa.Column("created", sa.Text, nullable=False),
        sa.Column("expires", sa.Text, nullable=False),
        sa.PrimaryKeyConstraint("ledger_id", "public_id"),
    )
    op.create_index("invites_code", "invites", ["code_sha256"])
    op.create_table(
        "devices",
        ledger_id(),
        sa.Column("public_id", sa.Text, nullable=False),
        sa.Column("name", sa.Text, nullable=False),
        sa.Column("token_sha256", sa.Text, nullable=False),
        sa.Column("invite", sa.Text),
        sa.Column("created", sa.Text, nullable=False),
        sa.PrimaryKeyConstraint("ledger_id", "public_id"),
    )
    op.create_index("devices_token", "devices", ["token_sha256"], unique=True)
    op.create_table(
        "ledger_events",
        ledger_id(),
        sa.Column("number", sa.Integer, nullable=False),
        sa.Column("kind", sa.Text, nullable=False),
        sa.Column("body", sa.Text, nullable=False),
        sa.Column("created", sa.Text, nullable=False),
        sa.PrimaryKeyConstraint("ledger_id", "number"),
    )
    op.create_table(
        "creation_keys",
        sa.Column("key", sa.Text, primary_key=True),
        sa.Column("request_sha256", sa.Text, nullable=False),
        ledger_id(),
        sa.Column("answer", sa.Text, nullable=False),
        sa.Column("created", sa.Text, nullable=False),
    )
