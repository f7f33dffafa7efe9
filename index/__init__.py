"""The store (SQLite), ingestion, and the documents published from it."""
