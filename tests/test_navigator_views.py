"""navigator-api's model views (miners/navigator_views.py), mined through the CLI."""

from __future__ import annotations

from tests.conftest import mined_routes

HANDLERS = '''from navigator.views import ModelView, FormModel
from navigator.views import BaseView


class RewardHandler(ModelView):
    model = None
    pk: str = "reward_id"


class SurveyForm(FormModel):
    path = "/surveys/form"


class Plain(BaseView):
    pass
'''
ENGINE = '''from aiohttp import web
from ..handlers import RewardHandler, SurveyForm, Plain


class Engine:
    def setup(self, app: web.Application):
        RewardHandler.configure(app, "/rewards/api/v1/rewards")
        SurveyForm.configure(app, "/ignored")
        Plain.configure(app, "/plain")
        Unknown.configure(app, "/unknown")
'''


def test_a_navigator_model_view_configured_at_a_path_serves_its_bases_methods_there(tmp_path, capsys):
    routes = mined_routes(tmp_path, capsys, {
        "pyproject.toml": '[project]\nname = "rw"\nversion = "1.0"\ndependencies = ["navigator-api"]\n',
        "rw/__init__.py": "", "rw/handlers/__init__.py": HANDLERS,
        "rw/engine/__init__.py": "", "rw/engine/engine.py": ENGINE})
    base = "/rewards/api/v1/rewards"
    assert sorted(routes) == sorted(
        [f"{verb} {base}" for verb in ("GET", "POST", "PUT", "PATCH", "DELETE", "HEAD")]
        + [f"{verb} {base}/{{id}}" for verb in ("GET", "POST", "PUT", "PATCH", "DELETE", "HEAD")]
        # FormModel's own path wins; a BaseView has no model routes, an unknown class none
        + ["GET /surveys/form", "HEAD /surveys/form", "GET /surveys/form/{id}", "HEAD /surveys/form/{id}"]), \
        sorted(routes)
    assert routes[f"GET {base}"]["source"]["path"] == "rw/engine/engine.py"
