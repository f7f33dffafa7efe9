"""Binders: tie candidates to exact, verified, immutable artifacts."""
