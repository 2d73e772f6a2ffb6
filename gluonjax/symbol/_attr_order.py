"""The order in which MXNet 1.9 lists a node's attributes (``list_attr``, ``attr_dict``).

MXNet keeps a node's attributes in a C++ ``std::unordered_map`` and lists them in
that map's iteration order, which depends only on the keys and the order they were
inserted in. This module replays that container (libstdc++ as MXNet 1.9.1's
release builds use it: string hash ``_Hash_bytes`` with seed 0xc70f6907, a map
created with 11 buckets, prime bucket counts when it grows, each new key placed
first in its bucket or, in an empty bucket, first in the whole list), so printed
attribute dictionaries come out as MXNet prints them.
"""
import bisect
import functools

from .. import _caches

__all__ = ['mxnet_order']

_MASK = (1 << 64) - 1
_MUL = 0xc6a4a7935bd1e995
_SEED = 0xc70f6907
_INITIAL_BUCKETS = 11
_PRIMES = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53, 59, 61, 67, 71, 73, 79, 83, 89, 97,
           103, 109, 113, 127, 137, 139, 149, 157, 167, 179, 193, 199, 211, 227, 241, 257, 277, 293, 313,
           337, 359, 383, 409, 439, 467, 503, 541, 577, 619, 661, 709, 761, 823, 887, 953, 1031, 1109,
           1187, 1277, 1361, 1459, 1567, 1693, 1823, 1931, 2053)


def _shift_mix(v):
    return v ^ (v >> 47)


def string_hash(key):
    """libstdc++'s ``std::hash<std::string>`` on 64-bit Linux (a MurmurHash2 variant)."""
    data = key.encode('utf-8')
    n = len(data)
    h = (_SEED ^ (n * _MUL)) & _MASK
    aligned = n & ~7
    for i in range(0, aligned, 8):
        word = int.from_bytes(data[i:i + 8], 'little')
        h ^= (_shift_mix((word * _MUL) & _MASK) * _MUL) & _MASK
        h = (h * _MUL) & _MASK
    if n & 7:
        h ^= int.from_bytes(data[aligned:], 'little')
        h = (h * _MUL) & _MASK
    h = (_shift_mix(h) * _MUL) & _MASK
    return _shift_mix(h)


def _place(order, key, hashes, buckets):
    """Insert ``key`` as libstdc++ does: before the first key of its bucket, else at the front."""
    b = hashes[key] % buckets
    for i, other in enumerate(order):
        if hashes[other] % buckets == b:
            order.insert(i, key)
            return
    order.insert(0, key)


@functools.lru_cache(maxsize=4096)
def mxnet_order(keys):
    """The iteration order of a map into which ``keys`` (a tuple) were inserted in turn."""
    hashes = {k: string_hash(k) for k in keys}
    buckets = next_resize = _INITIAL_BUCKETS
    order = []
    for key in keys:
        if key in order:
            continue
        if len(order) + 1 > next_resize:  # grow, then re-thread the list bucket by bucket
            want = max(len(order) + 2, buckets * 2)
            buckets = next_resize = _PRIMES[min(bisect.bisect_left(_PRIMES, want, lo=6), len(_PRIMES) - 1)]
            old, order = order, []
            for k in old:
                _place(order, k, hashes, buckets)
        _place(order, key, hashes, buckets)
    return tuple(order)


_caches.register_function('symbol.attr_order', mxnet_order)
