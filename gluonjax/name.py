"""``mx.name``: automatic names for Symbols and Blocks (``NameManager``, ``Prefix``).

MXNet names an unnamed thing after a *hint* (the operator or Block class in lower case)
and a counter per hint: ``fullyconnected0``, ``dense1``. The counters live in the current
NameManager, a thread-local scope entered with ``with``; a :class:`Prefix` manager puts a
prefix before every name it makes. A Gluon Block's ``name_scope()`` enters one, so the
Symbols made inside ``hybrid_forward`` are called ``dense0_fwd`` and so on.

The implementation lives with the Symbol API (``gluonjax.symbol._name``); this module is
its public name, so Symbols and Blocks share one set of counters.

Example::

    with mx.name.Prefix('mynet_'):
        fc = mx.sym.FullyConnected(data, num_hidden=10)   # 'mynet_fullyconnected0'
"""
from .symbol._name import NameManager, Prefix, current  # noqa: F401

__all__ = ['NameManager', 'Prefix', 'current']
