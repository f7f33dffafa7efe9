"""Miners: evidence-backed candidate operations from repositories at pinned commits."""
