"""Alembic's environment for polytable's tables: always run on a connection the storage hands over."""

from __future__ import annotations

from alembic import context

from polytable.storage._schema import VERSION_TABLE, metadata

connection = context.config.attributes["connection"]
context.configure(connection=connection, target_metadata=metadata, version_table=VERSION_TABLE)
with context.begin_transaction():
    context.run_migrations()
