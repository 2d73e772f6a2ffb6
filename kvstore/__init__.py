"""KVStore: MXNet's key-value store for data-parallel training, on XLA collectives (``mx.kv``).

    kv = mx.kv.create('device')               # or 'local', 'nccl', 'dist_sync', 'dist_device_sync'
    kv.init(3, mx.nd.ones((2, 3)))
    kv.push(3, [mx.nd.ones((2, 3), ctx) for ctx in ctxs])   # summed over devices by one psum
    kv.pull(3, out=[mx.nd.zeros((2, 3), ctx) for ctx in ctxs])

Values pushed from several devices are summed by an XLA all-reduce (``psum`` in
``shard_map`` over a mesh of those devices); the sum stays on every device, so no
data goes through the host. Across processes ('dist_sync', 'dist_device_sync') the
processes form one ``jax.distributed`` job started by the launcher:

    python -m kvstore.launch -n 2 [--launcher local|ssh|mpi] [-H hostfile] python train.py

Modules: ``base`` (KVStoreBase, ``create``), ``_local`` (the single-process store),
``_collective`` (the batched all-reduces), ``dist`` (the multi-process store and the
environment it reads), ``launch`` (the launcher), ``_rendezvous`` (the workers' roll
call and watchdog).

Interface for ``gluon.Trainer`` (what it may rely on):

* ``create(name)`` -> store; ``_create_kvstore(kvstore, num_device, arg_params)`` ->
  ``(kv or None, update_on_kvstore)`` follows MXNet's ``model._create_kvstore``.
* ``kv.broadcast(i, param.data(ctx0), out=param.list_data())`` at set-up (weights
  start equal on every device, rank 0's across workers), or ``kv.init(i, w)``.
* Per step, one call for all parameters reduces them in a few collectives:
  ``kv.pushpull(keys, [param.list_grad() for ...])`` (sum in place, update locally),
  or with ``update_on_kvstore``: ``kv.set_optimizer(opt)`` once, then
  ``kv.push(keys, grads)`` and ``kv.pull(keys, out=[param.list_data() ...])``.
  Calling per key works too, but costs one collective per key.
* ``kv.num_workers``, ``kv.rank``, ``kv.type`` (``'dist' in kv.type``),
  ``kv.is_capable(KVStoreBase.OPTIMIZER)``, ``kv.save_optimizer_states(f, dump_optimizer)``,
  ``kv.load_optimizer_states(f)``, ``kv._updater`` (the optimizer's Updater),
  ``kv.set_gradient_compression`` (raises MXNetError: not supported).
"""
import importlib as _importlib
import math as _math
import os as _os

__all__ = ['KVStoreBase', 'KVStore', 'create']

# Loaded on first use, so that `python -m kvstore.launch` starts without importing jax.
_LAZY = {'create': '_factory', 'KVStoreBase': 'base', 'KVStore': '_local'}


def __getattr__(name):
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError("module 'kvstore' has no attribute %r" % name)
    value = getattr(_importlib.import_module('.' + module, __name__), name)
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(_LAZY))


def _create_kvstore(kvstore, num_device, arg_params):
    """The store a Trainer uses, and whether it should update on the store (MXNet's rules).

    ``kvstore``: a KVStoreBase, a name or None; ``num_device``: devices per worker;
    ``arg_params``: {name: array} of the parameters. A single device with a non-dist
    name needs no store. ``MXNET_UPDATE_ON_KVSTORE=0`` turns updating on the store off,
    and so do parameters over 16M elements with the 'local' store, as in MXNet.
    """
    from .base import KVStoreBase
    from ._factory import create
    update_on_kvstore = bool(int(_os.getenv('MXNET_UPDATE_ON_KVSTORE', '1')))
    if kvstore is None:
        kv = None
    elif isinstance(kvstore, KVStoreBase):
        kv = kvstore
    elif isinstance(kvstore, str):
        if num_device == 1 and 'dist' not in kvstore:
            kv = None
        else:
            kv = create(kvstore)
            if kvstore == 'local' and arg_params:
                biggest = max(_math.prod(p.shape) for p in arg_params.values())
                if biggest > 1024 * 1024 * 16:
                    update_on_kvstore = False
    else:
        raise TypeError('kvstore must be KVStore, str or None')
    if kv is None:
        update_on_kvstore = False
    else:
        update_on_kvstore &= kv.is_capable(KVStoreBase.OPTIMIZER)
    return kv, update_on_kvstore
