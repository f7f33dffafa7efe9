"""The declared-contract formats capindex reads and the reader module of each (miners/<module>.py),
in the order they are tried. A module of its own so the CLI can name them at start-up without
loading any reader."""

READERS = {"capability": "native_manifest", "openapi": "openapi", "aip": "aip", "ampersand": "ampersand",
           "mcp": "mcp_static", "app": "app_capabilities"}
