"""Persistence: SQLAlchemy 2 models, engine and sessions, Alembic migrations. No HTTP here."""
