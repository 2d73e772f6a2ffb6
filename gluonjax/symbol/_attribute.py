"""Attribute scopes (MXNet's ``mx.AttrScope``): attributes given to every symbol made inside."""
import collections
import threading

__all__ = ['AttrScope', 'current_attrs']

_state = threading.local()


class _AttrScopeType(type):
    """MXNet's ``AttrScope.current``: this thread's scope (an empty one when none is active);
    assigning it sets this thread's."""

    @property
    def current(cls):
        scope = getattr(_state, 'value', None)
        if scope is None:
            scope = _state.value = cls()
        return scope

    @current.setter
    def current(cls, scope):
        _state.value = scope


class AttrScope(metaclass=_AttrScopeType):
    """``with AttrScope(ctx_group='dev1'):`` adds ``ctx_group`` to each symbol created inside.

    Values must be strings, as symbol attributes are; inner scopes extend outer ones.
    """
    # How many subgraphs of each name the control-flow operators have made (foreach0, ...).
    _subgraph_names = collections.defaultdict(int)

    def __init__(self, **kwargs):
        for key, value in kwargs.items():
            if not isinstance(value, str):
                raise ValueError('AttrScope: attribute %r must be a string, got %r' % (key, value))
        self._attr = kwargs
        self._old_scope = None

    def get(self, attr):
        """The scope's attributes updated with ``attr`` (the user's own win)."""
        merged = dict(self._attr)
        if attr:
            merged.update(attr)
        return merged

    def __enter__(self):
        self._old_scope = getattr(_state, 'value', None)
        if self._old_scope is not None:
            self._attr = dict(self._old_scope._attr, **self._attr)
        _state.value = self
        return self

    def __exit__(self, *exc):
        _state.value = self._old_scope


def current_attrs(attr=None):
    """The attributes of the current scope merged with ``attr``."""
    scope = getattr(_state, 'value', None)
    if scope is None:
        return dict(attr) if attr else {}
    return scope.get(attr)
