"""Alembic's entry: runs the revisions on the connection that `taihu.store` hands it, inside its transaction.

The store takes the lock first (SQLite's BEGIN IMMEDIATE, PostgreSQL's advisory lock), so that hosts
starting at once migrate one after the other; no alembic.ini, no URL here.
"""

from alembic import context

context.configure(connection=context.config.attributes["connection"], target_metadata=None)
with context.begin_transaction():  # the store's transaction is already open: Alembic joins it
    context.run_migrations()
