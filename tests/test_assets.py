"""Routes whose handler only hands out a file are assets: served, reported internal with the
reason, unless the documentation names them. Mined from real trees through the CLI."""

from __future__ import annotations

from conftest import mined_routes
from miners.assets import ASSET


def test_python_and_javascript_handlers_that_only_send_a_file(tmp_path, capsys):
    routes = mined_routes(tmp_path, capsys, {
        "pyproject.toml": '[project]\nname = "svc"\nversion = "1"\ndependencies = ["bottle", "flask"]\n',
        "README.md": "Open `/favicon.ico` to check it runs; the API is at /api/v1/<service>/<action>.\n",
        "svc/__init__.py": "",
        "svc/server.py": (
            "import os\nfrom bottle import route, static_file\n\n"
            "@route('/api/v1/<service>/<action>')\ndef action(service, action):\n    return {'ok': True}\n\n"
            "@route('/css/<file>')\ndef css(file):\n    '''A stylesheet.'''\n    return static_file(file, root='css')\n\n"
            "@route('/favicon.ico')\ndef favicon():\n    return static_file('favicon.ico', root='img')\n\n"
            "@route('/report/<name>')\ndef report(name):\n    check(name)\n"
            "    return static_file(name, root='reports')\n"),  # it does more than hand out the file
        "svc/web.py": (
            "from flask import Flask, send_from_directory\napp = Flask(__name__)\n\n"
            "@app.route('/static/<path:p>')\nasync def static(p):\n    return await send_from_directory('s', p)\n"),
        "package.json": '{"name": "ui", "version": "1.0.0", "main": "index.js"}',
        "index.js": (
            "const express = require('express');\nconst app = express();\n"
            "app.get('/', (req, res) => res.sendFile(__dirname + '/index.html'));\n"
            "app.get('/download/:id', async (req, res) => {\n  await res.download(file(req.params.id));\n});\n"
            "app.get('/api/items', (req, res) => { res.json(items()); });\n"),
    })
    visibility = {name: c["visibility"] for name, c in routes.items()}
    assert visibility == {
        "GET /api/v1/<service>/<action>": "public", "GET /report/<name>": "public", "GET /api/items": "public",
        "GET /css/<file>": "internal", "GET /static/<path:p>": "internal", "GET /": "internal",
        "GET /download/:id": "internal",
        "GET /favicon.ico": "public",  # the documentation names it
    }
    assert ASSET in routes["GET /css/<file>"]["unknowns"] and ASSET not in routes["GET /favicon.ico"]["unknowns"]
