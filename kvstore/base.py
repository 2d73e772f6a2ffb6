"""KVStoreBase and the registry of store classes (``create`` is in ``kvstore/_factory.py``).

MXNet matches a store name by substrings of its lower-cased form: ``dist`` makes a
multi-machine store, ``device`` reduces on the devices, ``nccl`` uses NCCL, ``_async``
(with ``dist``) updates asynchronously, and any other name is a local store whose
``type`` is the name itself. We follow the same rules. Here every reduction is an
XLA all-reduce, so 'local', 'device' and 'nccl' are one store that differs only in
its ``type``; 'dist_sync' and 'dist_device_sync' join the processes of a job through
``jax.distributed`` (see ``kvstore.dist``).
"""
import warnings

from gluonjax.base import MXNetError

__all__ = ['KVStoreBase', 'TestStore']


class KVStoreBase:
    """The interface every key-value store offers to data-parallel training."""

    OPTIMIZER = 'optimizer'
    kv_registry = {}

    def broadcast(self, key, value, out, priority=0):
        """Store ``value`` under ``key`` (rank 0's value across workers) and copy it into ``out``."""
        raise NotImplementedError()

    def pushpull(self, key, value, out=None, priority=0):
        """Sum ``value`` over devices and workers, then write the result to ``out`` (or ``value``)."""
        raise NotImplementedError()

    def set_optimizer(self, optimizer):
        """Run ``optimizer`` on every push (update on the store)."""
        raise NotImplementedError()

    @staticmethod
    def is_capable(capability):
        """Whether the store supports ``capability`` (only 'optimizer' is defined)."""
        raise NotImplementedError()

    def save_optimizer_states(self, fname, dump_optimizer=False):
        raise NotImplementedError()

    def load_optimizer_states(self, fname):
        raise NotImplementedError()

    @property
    def type(self):
        raise NotImplementedError()

    @property
    def rank(self):
        raise NotImplementedError()

    @property
    def num_workers(self):
        raise NotImplementedError()

    @staticmethod
    def register(klass):
        """Register a store class; ``create(name)`` then builds it for its lower-cased class name."""
        if not isinstance(klass, type):
            raise TypeError('KVStoreBase.register takes a class, not %r' % (klass,))
        name = klass.__name__.lower()
        if name in KVStoreBase.kv_registry:
            old = KVStoreBase.kv_registry[name]
            warnings.warn('New kvstore %s.%s is overriding existing kvstore %s.%s'
                          % (klass.__module__, klass.__name__, old.__module__, old.__name__))
        KVStoreBase.kv_registry[name] = klass
        return klass


def _per_key(key, value, out):
    """(key, values, outputs) triples for one key or a list of keys."""
    if isinstance(key, (list, tuple)):
        return zip(key, value, out)
    return [(key, value, out)]


def _as_list(x):
    return list(x) if isinstance(x, (list, tuple)) else [x]


@KVStoreBase.register
class TestStore(KVStoreBase):
    """A store of one process that sums with plain NDArray arithmetic, as MXNet's 'teststore'
    (the example of a store written in Python). It cannot run an optimizer, so a Trainer
    updates on the devices and ``update_on_kvstore=True`` is refused."""

    def broadcast(self, key, value, out, priority=0):
        for _k, v, o in _per_key(key, value, out):
            for dst in _as_list(o):
                v.copyto(dst)

    def pushpull(self, key, value, out=None, priority=0):
        for _k, v, o in _per_key(key, value, value if out is None else out):
            values = _as_list(v)
            total = values[0].copy()
            for x in values[1:]:
                total += x.as_in_context(total.context)
            for dst in _as_list(o):
                total.copyto(dst)

    @staticmethod
    def is_capable(capability):
        if capability.lower() == KVStoreBase.OPTIMIZER:
            return False
        raise ValueError('Unknown capability: {}'.format(capability))

    @property
    def type(self):
        return 'teststore'

    @property
    def rank(self):
        return 0

    @property
    def num_workers(self):
        return 1
