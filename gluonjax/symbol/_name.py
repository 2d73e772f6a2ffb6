"""Automatic names for symbols (MXNet's ``mx.name``): ``fullyconnected0``, ``_plus1``.

A NameManager counts, per hint (the operator's function name lowercased), how
many symbols it has named; ``with NameManager():`` starts fresh counters and
``with Prefix('net_'):`` puts a prefix before every name, given or generated.
"""
import threading

__all__ = ['NameManager', 'Prefix', 'current']

_state = threading.local()


class _NameManagerType(type):
    """MXNet's ``NameManager.current``: this thread's manager; assigning it sets this thread's."""

    @property
    def current(cls):
        return current()

    @current.setter
    def current(cls, manager):
        _state.value = manager


class NameManager(metaclass=_NameManagerType):
    """Generates ``<hint><count>`` names; a name given by the user is kept as is."""

    def __init__(self):
        self._counter = {}
        self._old_manager = None

    def get(self, name, hint):
        """The name to use: ``name`` when given, else the next ``hint<n>``."""
        if name:
            return name
        n = self._counter.get(hint, 0)
        self._counter[hint] = n + 1
        return '%s%d' % (hint, n)

    def __enter__(self):
        self._old_manager = current()
        _state.value = self
        return self

    def __exit__(self, *exc):
        _state.value = self._old_manager


class Prefix(NameManager):
    """A NameManager that puts ``prefix`` before every name."""

    def __init__(self, prefix):
        super().__init__()
        self._prefix = prefix

    def get(self, name, hint):
        return self._prefix + super().get(name, hint)


def current():
    """The NameManager in effect on this thread."""
    manager = getattr(_state, 'value', None)
    if manager is None:
        manager = _state.value = NameManager()
    return manager
