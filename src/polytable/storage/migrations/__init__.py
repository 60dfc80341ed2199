"""Alembic migrations of polytable's tables (run by :func:`polytable.storage._migrate.upgrade`)."""
