"""Each ledger's rule set by its canonical name (lower case, not upper case or Chinese), as the registry names it.

Older taihu stored the rules as typed; every later comparison with them (the counters, a table's
own `rules`) wants one spelling. A name no rule set of this taihu knows is left as it is (refused when a
deal is added).

Revision ID: 0002
Revises: 0001
"""

import sqlalchemy as sa
from alembic import op

from taihu.scorer import HandError
from taihu.scorer.rulesets import get

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    bind = op.get_bind()
    ledgers = sa.table("ledgers", sa.column("id", sa.Integer), sa.column("rules", sa.Text))
    for key, rules in bind.execute(sa.select(ledgers.c.id, ledgers.c.rules)).all():
        try:
            name = get(rules).name
        except HandError:
            continue
        if name != rules:
            bind.execute(ledgers.update().where(ledgers.c.id == key).values(rules=name))
