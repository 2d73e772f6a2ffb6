"""Sums over devices as XLA all-reduces (``psum`` in ``shard_map``), batched over keys.

The values of one key live on several devices (one single-device jax array each).
They become the shards of one global array over a mesh of those devices, and a
compiled ``psum`` leaves the sum on every device: no copy through the host, and
each device's result is a buffer of that device, ready for ``pull``.

Many keys pushed together are reduced in few collectives: keys with the same
devices go to one program that sums them as a tuple (``psum``), which XLA runs as one
all-reduce of all of them, in place, without copying them into one buffer first
(buckets of up to 64 MiB, so that a bucket's sum overlaps the next one's launch).

Virtual CPU devices (``--xla_force_host_platform_device_count``) run a collective
as one thread per device meeting at a rendezvous; with few cores, many collectives
queued at once can starve it ("Expected 4 threads to join the rendezvous, but only
3 arrived" and an abort after 40 s). So at most ``max_inflight()`` collectives are
left running without waiting (2 on CPU, 16 on accelerators; environment variable
GLUONJAX_KV_MAX_INFLIGHT overrides): before launching another, the oldest is
awaited, which costs nothing when it has already finished.
"""
import collections
import functools
import math
import operator
import os

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

from gluonjax import _caches

__all__ = ['allreduce', 'reduce_on_mesh', 'copy_to_devices', 'stats']

AXIS = 'kv'
BUCKET_BYTES = 64 << 20
# Keys averaging at most this many bytes are packed into one buffer per device before their sum:
# each array given to the all-reduce costs ~30 us of host work (a global array made of its
# shards), more than copying a small key (a push and pull of 100 keys of 4 KB over 4 CPU
# devices, bench/bench_kvstore.py: best 9.1 -> 4.4 ms).
PACK_BYTES = 64 << 10

# Counters for tests and benchmarks: 'collectives' is the number of all-reduce programs launched.
stats = collections.Counter()


def device_of(x):
    """The device of a single-device jax array (the quick way: ``x.device`` is ten times slower,
    and a push or pull asks this of every array it is given)."""
    try:
        return x._sharding._device
    except AttributeError:
        return x.device


def device_sort_key(device):
    return (device.process_index, device.id)


@functools.lru_cache(maxsize=64)
def _mesh(devices):
    return Mesh(np.array(devices, dtype=object), (AXIS,))


@functools.lru_cache(maxsize=64)
def _sharded(devices):
    return NamedSharding(_mesh(devices), P(AXIS))


@functools.lru_cache(maxsize=256)
def _psum_program(devices, n_keys):
    """``n_keys`` arrays, each sharded along axis 0 over ``devices`` -> the sum of each one's
    shards, on every device: one all-reduce of the tuple.

    (The keys used to be concatenated on each device, summed by one psum and split back: two
    copies of every gradient. A push + pull of ResNet-18's 62 gradients, 45 MB, over 4 CPU
    devices took 1.6-2.7 s that way on a loaded 2-core machine, 0.06-0.32 s this way.)
    """
    sharded, replicated = (P(AXIS),) * n_keys, (P(),) * n_keys
    return jax.jit(jax.shard_map(lambda *xs: lax.psum(xs, AXIS), mesh=_mesh(devices),
                                 in_specs=sharded, out_specs=replicated))


@jax.jit
def _pack(*xs):
    """The keys' values on one device, flattened into one buffer."""
    return jnp.concatenate([x.reshape(-1) for x in xs])


@functools.partial(jax.jit, static_argnums=0)
def _unpack(shapes, flat):
    """:func:`_pack`'s buffer cut back into arrays of ``shapes``."""
    ends = np.cumsum([math.prod(s) for s in shapes])
    return tuple(flat[e - math.prod(s):e].reshape(s) for s, e in zip(shapes, ends))


@jax.jit
def _add_n(*xs):
    return functools.reduce(operator.add, xs)


# ---------------------------------------------------------------------------------------
# Bounding the collectives in flight
# ---------------------------------------------------------------------------------------

_inflight = collections.deque()


def max_inflight(platform):
    env = os.environ.get('GLUONJAX_KV_MAX_INFLIGHT')
    if env:
        return max(1, int(env))
    return 2 if platform == 'cpu' else 16


def _track(result, platform):
    _inflight.append(result)
    limit = max_inflight(platform)
    while len(_inflight) > limit:
        _inflight.popleft().block_until_ready()


def wait_all():
    """Wait for every collective launched here (a barrier for this process's devices)."""
    while _inflight:
        _inflight.popleft().block_until_ready()


# ---------------------------------------------------------------------------------------
# Reductions
# ---------------------------------------------------------------------------------------

@functools.lru_cache(maxsize=64)
def _local_devices(devices):
    """The devices of the mesh that belong to this process, in mesh order (the order of ``_arrays``)."""
    here = jax.process_index()
    return tuple(d for d in devices if d.process_index == here)


def _per_device(out, local):
    """{device: buffer} of a replicated result: its per-device buffers, without copies."""
    buffers = getattr(out, '_arrays', None)  # quicker than addressable_shards
    if buffers is None or len(buffers) != len(local) or any(
            device_of(b) != d for b, d in zip(buffers, local)):
        return {s.device: s.data for s in out.addressable_shards}
    return dict(zip(local, buffers))


_buckets = _caches.lru_cache('kvstore.bucket_plans', 1024)  # shape signature of a push


def _bucket_plan(signature):
    """The keys of a push of these (shape, dtype), in buckets of at most BUCKET_BYTES (a bigger
    key goes alone), each bucket with whether it is summed packed (:func:`_packable`); empty keys
    are left out. Cached: a training loop pushes the same keys every step."""
    plan = _buckets.get(signature)
    if plan is not None:
        return plan
    chunks, chunk, size = [], [], 0
    for k, (shape, dtype) in enumerate(signature):
        nbytes = _nbytes(shape, dtype)
        if not nbytes:
            continue
        if chunk and size + nbytes > BUCKET_BYTES:
            chunks.append(tuple(chunk))
            chunk, size = [], 0
        chunk.append(k)
        size += nbytes
    if chunk:
        chunks.append(tuple(chunk))
    plan = _buckets[signature] = [(c, _packable([signature[k] for k in c])) for c in chunks]
    return plan


def _nbytes(shape, dtype):
    return math.prod(shape) * np.dtype(dtype).itemsize


def _packable(keys):
    """Whether keys of these (shape, dtype) are summed packed (:data:`PACK_BYTES`): several keys
    of one dtype, small on average."""
    return (len(keys) > 1 and len({dtype for _, dtype in keys}) == 1
            and sum(_nbytes(*key) for key in keys) <= PACK_BYTES * len(keys))


def _global_array(devices, arrays):
    """One key's per-device values as the shards of one array over ``devices`` (no copy; a
    scalar is seen as one element)."""
    if not arrays[0].ndim:
        arrays = [a.reshape(1) for a in arrays]
    shape = arrays[0].shape
    return jax.make_array_from_single_device_arrays((len(devices) * shape[0],) + shape[1:],
                                                    _sharded(devices), arrays)


def reduce_on_mesh(devices, items):
    """Sum several keys over the devices of a mesh.

    ``devices`` is the mesh (a tuple of jax devices, possibly of several processes);
    ``items[k]`` holds key k's value on each of this process's devices in ``devices``,
    in that order. Returns, for each key, ``{device: sum}`` on this process's devices.
    """
    results = [None] * len(items)
    plan = _bucket_plan(tuple((arrays[0].shape, arrays[0].dtype) for arrays in items))
    platform = devices[0].platform
    local_devices = _local_devices(devices)
    for chunk, packed in plan:
        stats['collectives'] += 1
        if packed:
            for k, per_device in _packed_sum(devices, local_devices, items, chunk).items():
                results[k] = per_device
            continue
        sums = _psum_program(devices, len(chunk))(*[_global_array(devices, items[k]) for k in chunk])
        _track(sums[0], platform)
        for k, out in zip(chunk, sums):
            per_device = _per_device(out, local_devices)
            if not items[k][0].ndim:
                per_device = {d: b.reshape(()) for d, b in per_device.items()}
            results[k] = per_device
    for k, r in enumerate(results):
        if r is None:  # an empty key: nothing to add
            results[k] = {device_of(a): a for a in items[k]}
    return results


def _packed_sum(devices, local_devices, items, chunk):
    """{key: {device: sum}} of the small keys ``chunk``: packed into one buffer per device, one
    all-reduce of it, cut back on each device."""
    shapes = tuple(items[k][0].shape for k in chunk)
    flat = [_pack(*[items[k][i] for k in chunk]) for i in range(len(local_devices))]
    total = _psum_program(devices, 1)(_global_array(devices, flat))[0]
    _track(total, devices[0].platform)
    per_device = {d: _unpack(shapes, buf) for d, buf in _per_device(total, local_devices).items()}
    return {k: {d: parts[j] for d, parts in per_device.items()} for j, k in enumerate(chunk)}


_plans = _caches.lru_cache('kvstore.device_plans', 64)  # the devices of a push


def _plan(devices):
    """How to reduce values on ``devices`` (in push order): (mesh devices, order of the values).

    None when a device repeats (those values are added on their device first).
    """
    plan = _plans.get(devices)
    if plan is None:
        if len(set(devices)) < len(devices):
            plan = False
        else:
            mesh = tuple(sorted(devices, key=device_sort_key))
            perm = tuple(devices.index(d) for d in mesh)
            plan = (mesh, None if perm == tuple(range(len(devices))) else perm)
        _plans[devices] = plan
    return plan


def allreduce(groups):
    """Sum each group of single-device arrays (one key's values) over its devices.

    Returns, for each group, ``{device: sum}`` for every device that held a value.
    Values on the same device are added there first; groups over the same devices
    are reduced together (see ``reduce_on_mesh``).
    """
    results = [None] * len(groups)
    by_mesh = {}
    for g, arrays in enumerate(groups):
        if len(arrays) == 1:
            results[g] = {device_of(arrays[0]): arrays[0]}
            continue
        plan = _plan(tuple(map(device_of, arrays)))
        if plan is False:
            by_dev = {}
            for a in arrays:
                by_dev.setdefault(device_of(a), []).append(a)
            by_dev = {d: xs[0] if len(xs) == 1 else _add_n(*xs) for d, xs in by_dev.items()}
            if len(by_dev) == 1:
                results[g] = by_dev
                continue
            mesh = tuple(sorted(by_dev, key=device_sort_key))
            ordered = [by_dev[d] for d in mesh]
        else:
            mesh, perm = plan
            ordered = arrays if perm is None else [arrays[i] for i in perm]
        by_mesh.setdefault(mesh, []).append((g, ordered))
    for mesh, entries in by_mesh.items():
        sums = reduce_on_mesh(mesh, [arrays for _, arrays in entries])
        for (g, _), s in zip(entries, sums):
            results[g] = s
    return results


def copy_to_devices(arrays, devices):
    """Copy ``arrays[i]`` to ``devices[i]`` in one batched transfer (device to device)."""
    if not arrays:
        return []
    return jax.device_put(list(arrays), list(devices))


# Device tuples (a few per job) and shape signatures key these; bounded all the same.
_caches.register_function('kvstore.mesh', _mesh)
_caches.register_function('kvstore.sharded', _sharded)
_caches.register_function('kvstore.psum_program', _psum_program)
_caches.register_function('kvstore.local_devices', _local_devices)
