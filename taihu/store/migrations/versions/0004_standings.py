"""Each deal row keeps the standings after it: the running totals, the next dealer, the honba and pot where they carry.

An add or an undo then reads the last row alone instead of summing every deal (flat from deal 1 to
1,000). The existing deals are filled here, ledger by ledger, summed in order as `taihu.ledger.standing_of`
sums them; `next_honba` and `next_pot` are the settlement's `next_honba` and `pot_after` (none for a rule set
whose tables carry no counters).

Revision ID: 0004
Revises: 0003
"""

import json

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None

COLUMNS = (("totals", sa.Text), ("next_dealer", sa.Text), ("next_honba", sa.Integer), ("next_pot", sa.Integer))
ledgers = sa.table("ledgers", sa.column("id", sa.Integer), sa.column("players", sa.Text))
deals = sa.table(
    "deals",
    sa.column("ledger_id", sa.Integer),
    sa.column("number", sa.Integer),
    sa.column("seats", sa.Text),
    sa.column("settlement", sa.Text),
    sa.column("totals", sa.Text),
    sa.column("next_dealer", sa.Text),
    sa.column("next_honba", sa.Integer),
    sa.column("next_pot", sa.Integer),
)


def upgrade() -> None:
    for name, kind in COLUMNS:
        op.add_column("deals", sa.Column(name, kind))
    bind = op.get_bind()
    for key, players in bind.execute(sa.select(ledgers.c.id, ledgers.c.players)).all():
        totals = dict.fromkeys(json.loads(players), 0)
        query = (
            sa.select(deals.c.number, deals.c.seats, deals.c.settlement)
            .where(deals.c.ledger_id == key)
            .order_by(deals.c.number)
        )
        for number, seats_text, settlement_text in bind.execute(query).all():
            seats, settlement = json.loads(seats_text), json.loads(settlement_text)
            for wind, amount in settlement["net"].items():
                totals[seats[wind]] += amount
            bind.execute(
                deals.update()
                .where(deals.c.ledger_id == key, deals.c.number == number)
                .values(
                    totals=json.dumps(totals, ensure_ascii=False),
                    next_dealer=seats[settlement["next_dealer"]],
                    next_honba=settlement.get("next_honba"),
                    next_pot=settlement.get("pot_after"),
                )
            )
