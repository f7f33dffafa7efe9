"""miners/netbox_plugin.py through `capindex mine`: a NetBox plugin's routes where NetBox serves
them, its API's viewsets registered on a NetBoxRouter, there or in a function handed the router."""

from __future__ import annotations

from tests.conftest import mined_routes

CONFIG = '''from netbox.plugins import PluginConfig


class CertificatesConfig(PluginConfig):
    name = "netbox_certs"
    base_url = "ssl-certificates"


config = CertificatesConfig
'''
UI = '''from django.urls import path
from . import views

urlpatterns = [path("dashboard/", views.DashboardView.as_view(), name="dashboard")]
'''
API = '''from django.urls import path
from netbox.api.routers import NetBoxRouter
from .register import register_routes
from .views import ServiceViewSet

router = NetBoxRouter()
router.register("services", ServiceViewSet)
register_routes(router)
urlpatterns = [path("activity/", ServiceViewSet.as_view({"get": "list"}))] + router.urls
'''
REGISTER = '''from .views import GroupViewSet


def register_routes(router):
    router.register("groups", GroupViewSet)
'''
VIEWS = '''from netbox.api.viewsets import NetBoxModelViewSet
from rest_framework.decorators import action
from .exports import ExportMixin


class ServiceViewSet(NetBoxModelViewSet):
    pass


class GroupViewSet(ExportMixin, NetBoxModelViewSet):
    pass
'''
EXPORTS = '''from rest_framework.decorators import action


class ExportMixin:
    @action(detail=False, methods=["get"], url_path="export-archive")
    def export_archive(self, request): ...
'''


def test_a_netbox_plugins_api_and_pages_are_served_under_its_base_url(tmp_path, capsys):
    files = {"netbox_certs/__init__.py": CONFIG, "netbox_certs/urls.py": UI,
             "netbox_certs/views.py": "from django.views.generic import TemplateView\n\n\n"
                                      "class DashboardView(TemplateView):\n    pass\n",
             "netbox_certs/api/__init__.py": "", "netbox_certs/api/urls.py": API,
             "netbox_certs/api/register.py": REGISTER, "netbox_certs/api/views.py": VIEWS,
             "netbox_certs/api/exports.py": EXPORTS}
    routes = mined_routes(tmp_path, capsys, files)
    api = "/api/plugins/ssl-certificates"
    assert {"GET /plugins/ssl-certificates/dashboard/", f"GET {api}", f"GET {api}/services/",
            f"POST {api}/services/", f"DELETE {api}/services/{{pk}}/", f"GET {api}/groups/",
            f"PATCH {api}/groups/{{pk}}/", f"GET {api}/groups/export-archive/",
            # NetBoxRouter's bulk operations on the list route
            f"PUT {api}/groups/", f"PATCH {api}/groups/", f"DELETE {api}/groups/"} <= set(routes), sorted(routes)
    assert not any(name.split(" ", 1)[1].startswith(("/services", "/groups", "/dashboard")) for name in routes)
    assert {"kind": "route", "path": "netbox_certs/__init__.py", "line": 4,
            "detail": "NetBox serves plugin 'ssl-certificates' API under /api/plugins/ssl-certificates/"} \
        in routes[f"GET {api}/groups/"]["evidence"]
    # without the plugin config, the routes keep their paths
    bare = mined_routes(tmp_path / "bare", capsys, {**files, "netbox_certs/__init__.py": ""})
    assert "GET /groups/" in bare and "GET /dashboard/" in bare


def test_a_nautobot_apps_api_is_served_under_its_base_url(tmp_path, capsys):
    """nautobot-contract-models: `class ContractsConfig(NautobotAppConfig)` with `base_url =
    "contracts"`, an OrderedDefaultRouter registering NautobotModelViewSets in api/urls.py."""
    config = ("from nautobot.apps import NautobotAppConfig\n\n\nclass ContractsConfig(NautobotAppConfig):\n"
              "    name = 'nautobot_contracts'\n    base_url = 'contracts'\n\n\nconfig = ContractsConfig\n")
    api = ("from nautobot.apps.api import OrderedDefaultRouter\nfrom .views import ContractViewSet\n\n"
           "router = OrderedDefaultRouter()\nrouter.register('contracts', ContractViewSet)\n"
           "urlpatterns = router.urls\n")
    views = ("from nautobot.apps.api import NautobotModelViewSet\n\n\n"
             "class ContractViewSet(NautobotModelViewSet):\n    pass\n")
    routes = mined_routes(tmp_path, capsys, {"nautobot_contracts/__init__.py": config,
                                             "nautobot_contracts/api/__init__.py": "",
                                             "nautobot_contracts/api/urls.py": api,
                                             "nautobot_contracts/api/views.py": views})
    assert {"GET /api/plugins/contracts/contracts/", "POST /api/plugins/contracts/contracts/",
            "DELETE /api/plugins/contracts/contracts/{pk}/", "DELETE /api/plugins/contracts/contracts/",
            # NautobotModelViewSet's notes @action (NotesViewSetMixin)
            "GET /api/plugins/contracts/contracts/{pk}/notes/", "POST /api/plugins/contracts/contracts/{pk}/notes/"} \
        <= set(routes), sorted(routes)


def test_a_viewset_a_star_import_brings_is_served(tmp_path, capsys):
    """netbox-lifecycle: api/urls.py has `from .views import *`, views/__init__.py `from .hardware
    import *`, and registers `router.register('hardwarelifecycle', HardwareLifecycleViewSet)`. A name
    no star import brings gives no route."""
    api = ("from netbox.api.routers import NetBoxRouter\n\nfrom .views import *\n\nrouter = NetBoxRouter()\n"
           "router.register('hardwarelifecycle', HardwareLifecycleViewSet)\n"
           "router.register('ghost', GhostViewSet)\nurlpatterns = router.urls\n")
    hardware = ("from netbox.api.viewsets import NetBoxModelViewSet\n\n__all__ = ('HardwareLifecycleViewSet',)\n\n\n"
                "class HardwareLifecycleViewSet(NetBoxModelViewSet):\n    pass\n")
    routes = mined_routes(tmp_path, capsys, {"netbox_certs/__init__.py": CONFIG,
                                             "netbox_certs/api/__init__.py": "", "netbox_certs/api/urls.py": api,
                                             "netbox_certs/api/views/__init__.py": "from .hardware import *\n",
                                             "netbox_certs/api/views/hardware.py": hardware})
    base = "/api/plugins/ssl-certificates/hardwarelifecycle"
    assert {f"GET {base}/", f"POST {base}/", f"GET {base}/{{pk}}/", f"DELETE {base}/"} <= set(routes), sorted(routes)
    assert not any("ghost" in name for name in routes)
