"""Routes of a resource tree a package's router walks by `@child()` methods (GNU Mailman's REST
API), mined from a real tree through the CLI."""

from __future__ import annotations

from conftest import mined_routes

HELPERS = "def child(matcher=None):\n    def decorator(func):\n        return func\n    return decorator\n"

ROOT = '''from svc.helpers import child
from svc.addresses import AllAddresses, AnAddress


class Root:
    @child('3.0')
    def api_version_30(self, context, segments):
        return TopLevel()


class TopLevel:
    @child()
    def addresses(self, context, segments):
        if len(segments) == 0:
            return AllAddresses()
        email = segments.pop(0)
        return AnAddress(email), segments

    @child()
    def users(self, context, segments):
        segment = segments.pop(0)
        if segment == 'find':
            resource = FindUsers()
        else:
            resource = AUser(segment)
        return resource, segments

    @child()
    def system(self, context, segments):
        if segments[0] == 'versions':
            return Versions(), []
        return NotFound(), []


class FindUsers:
    def on_post(self, request, response):
        pass


class AUser:
    def on_get(self, request, response):
        pass


class Versions:
    def on_get(self, request, response):
        pass


class NotFound:
    def _oops(self, request, response):
        pass

    on_get = _oops


class Orphan:
    @child()
    def stray(self, context, segments):  # no router is handed this one: not a root
        return AUser('x')
'''

ADDRESSES = '''from svc.helpers import child


class _Base:
    def on_get(self, request, response):
        pass


class AllAddresses(_Base):
    def on_post(self, request, response):
        pass


class AnAddress:
    def on_delete(self, request, response):
        pass

    @child(r'^(?P<kind>[a-z]+)')
    def by_kind(self, context, segments):
        return AllAddresses(), []
'''


def test_a_child_tree_from_the_root_the_package_hands_its_router(tmp_path, capsys):
    routes = mined_routes(tmp_path, capsys, {
        "svc/__init__.py": "", "svc/helpers.py": HELPERS, "svc/root.py": ROOT, "svc/addresses.py": ADDRESSES,
        "svc/wsgiapp.py": "from svc.root import Root\n\n\ndef make_app():\n    return RootedAPI(Root())\n",
    })
    assert sorted(routes) == ["DELETE /3.0/addresses/{email}", "GET /3.0/addresses",
                              "GET /3.0/addresses/{email}/{kind}", "GET /3.0/system/versions",
                              "GET /3.0/users/{segment}", "POST /3.0/addresses",
                              "POST /3.0/addresses/{email}/{kind}", "POST /3.0/users/find"], sorted(routes)
