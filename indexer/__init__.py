"""Crawlers that bring documents into the store, and the `capindex` command line."""
