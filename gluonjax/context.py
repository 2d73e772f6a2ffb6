"""Contexts: MXNet's names for devices, mapped onto jax devices.

``cpu(i)`` is jax CPU device ``i`` when that many exist (for example with
``XLA_FLAGS=--xla_force_host_platform_device_count=4``) and CPU device 0
otherwise, as MXNet lets any ``cpu(i)`` stand for the host. ``gpu(i)`` must
name a real GPU.
"""
import threading

import jax

from . import _caches
from .base import MXNetError

__all__ = ['Context', 'cpu', 'gpu', 'cpu_pinned', 'current_context', 'num_gpus']

_state = threading.local()


class _ContextType(type):
    """Gives the class MXNet's deprecated ``Context.default_ctx``: reading it is
    current_context(), assigning it sets this thread's default context (not other threads')."""

    @property
    def default_ctx(cls):
        return current_context()

    @default_ctx.setter
    def default_ctx(cls, ctx):
        if not isinstance(ctx, Context):
            raise TypeError('Context.default_ctx must be a Context, got %s' % type(ctx).__name__)
        _state.ctx = ctx


class Context(metaclass=_ContextType):
    """A device: ``Context('cpu', 0)``, ``Context('gpu', 1)``; also a ``with`` scope
    that sets the default context of array creation."""

    devtype2str = {1: 'cpu', 2: 'gpu', 3: 'cpu_pinned', 5: 'cpu_shared'}
    devstr2type = {v: k for k, v in devtype2str.items()}
    __slots__ = ('device_type', 'device_id', '_old')

    def __init__(self, device_type, device_id=0):
        if isinstance(device_type, Context):
            device_type, device_id = device_type.device_type, device_type.device_id
        if device_type not in self.devstr2type:
            raise MXNetError("Context: unknown device type %r (expected 'cpu' or 'gpu')" % (device_type,))
        self.device_type = device_type
        self.device_id = int(device_id)
        self._old = None

    @property
    def device_typeid(self):
        return self.devstr2type[self.device_type]

    @property
    def jax_device(self):
        return _jax_device(self.device_type, self.device_id)

    def __hash__(self):
        return hash((self.device_type, self.device_id))

    def __eq__(self, other):
        return (isinstance(other, Context) and self.device_type == other.device_type
                and self.device_id == other.device_id)

    def __repr__(self):
        return '%s(%d)' % (self.device_type, self.device_id)

    def __enter__(self):
        # The context to restore goes on this thread's stack, not on the object: one Context
        # object is entered again while already entered (nested Blocks running on an array's
        # context), and by several threads.
        stack = getattr(_state, 'stack', None)
        if stack is None:
            stack = _state.stack = []
        stack.append(getattr(_state, 'ctx', None))
        _state.ctx = self
        return self

    def __exit__(self, *exc):
        _state.ctx = _state.stack.pop()

    def empty_cache(self):
        """Kept for MXNet compatibility; XLA manages its own memory pools."""


# (device type, id) -> jax device: as many entries as the machine has devices.
_device_cache = _caches.register('context.devices', {}, None)


def _jax_device(device_type, device_id):
    key = (device_type, device_id)
    dev = _device_cache.get(key)
    if dev is None:
        dev = _device_cache[key] = _find_device(device_type, device_id)
    return dev


def _find_device(device_type, device_id):
    if device_type == 'gpu':
        gpus = _gpu_devices()
        if device_id >= len(gpus):
            raise MXNetError(
                'gpu(%d) was requested but %s. Use mx.cpu() or check mx.context.num_gpus().'
                % (device_id, 'no GPU is visible to jax' if not gpus else 'only %d GPU(s) exist' % len(gpus)))
        return gpus[device_id]
    cpus = jax.local_devices(backend='cpu')  # this process's devices (a jax.distributed job has more)
    return cpus[device_id] if device_id < len(cpus) else cpus[0]


def _gpu_devices():
    try:
        return jax.local_devices(backend='gpu')
    except RuntimeError:
        return []


def context_of_device(device):
    """The Context naming a jax device."""
    if device.platform in ('gpu', 'cuda', 'rocm'):
        return Context('gpu', _gpu_devices().index(device))
    cpus = jax.local_devices(backend='cpu')
    return Context('cpu', cpus.index(device) if device in cpus else device.id)


_HOST_ALIASES = ('cpu_shared', 'cpu_pinned')


def on_host_cpu(ctx):
    """``ctx`` with the host's aliases (a DataLoader worker's ``cpu_shared`` batch, pinned memory)
    read as ``cpu``, as MXNet's operators place their outputs and key a Parameter's copies."""
    return ctx if ctx.device_type not in _HOST_ALIASES else Context('cpu', ctx.device_id)


def cpu(device_id=0):
    return Context('cpu', device_id)


def cpu_pinned(device_id=0):
    return Context('cpu_pinned', device_id)


def gpu(device_id=0):
    """A GPU context. Creating it always works, as in MXNet; using it without such a GPU raises."""
    return Context('gpu', device_id)


def num_gpus():
    return len(_gpu_devices())


def gpu_memory_info(device_id=0):
    stats = _jax_device('gpu', device_id).memory_stats() or {}
    total = stats.get('bytes_limit', 0)
    return total - stats.get('bytes_in_use', 0), total


def current_context():
    ctx = getattr(_state, 'ctx', None)
    return ctx if ctx is not None else _DEFAULT


_DEFAULT = Context('cpu', 0)
Context._default_ctx = _state

