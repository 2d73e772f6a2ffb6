"""``kvstore.create``: MXNet's store names mapped onto our stores.

It lives above base.py and the store modules (which import base.py for KVStoreBase),
so that no store module imports another in a circle.
"""
from gluonjax.base import MXNetError

from .base import KVStoreBase

__all__ = ['create']


_NOT_HERE = {
    'horovod': "Horovod's ring all-reduce",
    'byteps': "BytePS's parameter servers",
}


def create(name='local'):
    """Create a KVStore.

    Parameters
    ----------
    name : str
        'local', 'device' or 'nccl' for the devices of one process (all three sum
        with an XLA all-reduce and keep the result on the devices), 'dist_sync' or
        'dist_device_sync' for several processes started by ``python -m kvstore.launch``.
        Names are matched as MXNet matches them (lower-cased substrings).

    Returns
    -------
    KVStoreBase
    """
    if not isinstance(name, str):
        raise TypeError('name must be a string')
    name = name.lower()
    if name in KVStoreBase.kv_registry:
        return KVStoreBase.kv_registry[name]()
    if name in _NOT_HERE:
        raise MXNetError(
            "kvstore '%s' is not available in gluonjax: %s is replaced by XLA collectives "
            "(psum) and jax.distributed. Use kvstore='device' on one machine, or 'dist_sync' "
            "with workers started by `python -m kvstore.launch -n N python train.py`."
            % (name, _NOT_HERE[name]))
    if 'dist' in name:
        if '_async' in name:
            raise MXNetError(
                "kvstore '%s' is not supported: asynchronous updates need parameter servers that "
                "apply each worker's push as it arrives, and gluonjax's distributed store is a "
                "synchronous all-reduce over jax.distributed. Use 'dist_sync' (or "
                "'dist_device_sync'), which gives every worker the same summed gradients." % name)
        from .dist import DistKVStore
        return DistKVStore(name)
    from ._local import KVStore
    return KVStore(name)
