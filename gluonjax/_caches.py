"""Every module-level cache of the package, by name, with its bound.

A cache that can grow with user input (shapes, attributes, index plans) is an
:class:`LRUCache` with a maximum size, so a long-running process that sees ever new
shapes keeps a bounded amount of compiled code. ``gluonjax.clear_caches()`` empties
them all, and jax's own compilation caches with them.
"""
import collections
import threading

import jax

__all__ = ['LRUCache', 'lru_cache', 'register', 'registered', 'clear_caches']

_REGISTRY = {}  # name -> (cache, bound); bound None: not grown by user input


class LRUCache:
    """A mapping of at most ``maxsize`` entries; adding one more drops the least recently used.

    ``get`` counts as a use. Thread-safe: DataLoader workers and the main thread share caches.
    """

    def __init__(self, maxsize):
        if maxsize < 1:
            raise ValueError('LRUCache: maxsize must be at least 1, not %r' % (maxsize,))
        self.maxsize = maxsize
        self._data = collections.OrderedDict()
        self._lock = threading.Lock()

    def get(self, key, default=None):
        with self._lock:
            try:
                self._data.move_to_end(key)
            except KeyError:
                return default
            return self._data[key]

    def __setitem__(self, key, value):
        with self._lock:
            self._data[key] = value
            self._data.move_to_end(key)
            while len(self._data) > self.maxsize:
                self._data.popitem(last=False)

    def __contains__(self, key):
        return key in self._data

    def __len__(self):
        return len(self._data)

    def clear(self):
        with self._lock:
            self._data.clear()


def register(name, cache, bound):
    """Put ``cache`` (anything with ``clear()`` and ``len()``) under ``name``; returns it.

    ``bound`` is its maximum size, or None for a cache whose keys come from a fixed set
    (devices, a few flags) rather than from user input."""
    if name in _REGISTRY and _REGISTRY[name][0] is not cache:
        raise ValueError('a cache named %r is already registered' % name)
    _REGISTRY[name] = (cache, bound)
    return cache


def lru_cache(name, maxsize):
    """A new registered :class:`LRUCache`."""
    return register(name, LRUCache(maxsize), maxsize)


class _FunctionCache:
    """A ``functools.lru_cache``-wrapped function seen as a cache (clear and size)."""

    def __init__(self, fn):
        self._fn = fn

    def clear(self):
        self._fn.cache_clear()

    def __len__(self):
        return self._fn.cache_info().currsize


def register_function(name, fn):
    """Register a ``functools.lru_cache`` function; its ``maxsize`` is its bound. Returns ``fn``."""
    register(name, _FunctionCache(fn), fn.cache_info().maxsize)
    return fn


def registered():
    """``{name: (cache, bound)}`` of every registered cache."""
    return dict(_REGISTRY)


def clear_caches():
    """Empty every registered cache and jax's compilation caches.

    Compiled functions are rebuilt on next use, so everything keeps working, only the
    first call of each shape compiles again."""
    for cache, _ in _REGISTRY.values():
        cache.clear()
    jax.clear_caches()
