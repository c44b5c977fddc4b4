"""Read links the owner revokes, and private ledgers.

- `read_links`: a code that reads the ledger (kept as a SHA-256 only), named for the owner's list; revoking one
  removes its row.
- `ledgers.private`: when true the id alone no longer reads; only the ledger's tokens and its read links do.

Revision ID: 0008
Revises: 0007
"""

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("ledgers", sa.Column("private", sa.Boolean, nullable=False, server_default=sa.false()))
    op.create_table(
        "read_links",
        sa.Column("ledger_id", sa.Integer, sa.ForeignKey("ledgers.id", ondelete="CASCADE"), nullable=False),
        sa.Column("public_id", sa.Text, nullable=False),
        sa.Column("code_sha256", sa.Text, nullable=False),
        sa.Column("name", sa.Text),
        sa.Column("created", sa.Text, nullable=False),
        sa.PrimaryKeyConstraint("ledger_id", "public_id"),
    )
    op.create_index("read_links_code", "read_links", ["code_sha256"], unique=True)
