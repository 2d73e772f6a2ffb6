"""KVStore for the devices of one process: 'local', 'device' and 'nccl'.

Semantics follow MXNet 1.9.1's local store:

* ``init`` stores a copy of each value (a key may be initialised once).
* ``push`` sums the values given for a key (several devices, or the same key
  listed several times), then either calls the updater as
  ``updater(key, merged, stored)``, which changes ``stored`` in place, or, with no
  updater, makes ``stored`` the sum. Keys are handled in sorted order (string keys
  in the order they were initialised), so updaters see MXNet's order.
* ``pull`` copies the stored value into every output array, on its own device.

The sum is an XLA all-reduce (see ``_collective``). With no updater, every device
that pushed keeps its own copy of the sum, so a following pull onto those devices
moves no data. The stored value lives on the device of the array given to
``init``; pulls onto other devices are batched device-to-device copies.

Every call checks all its arguments (keys initialised, shapes and dtypes equal,
lists of matching lengths) before changing anything, so a failed call leaves the
store as it was.
"""
import numbers

import jax
import numpy as np

from gluonjax._files import atomic_write
from gluonjax._x64 import x64
from gluonjax.base import MXNetError, shape_str
from gluonjax.ndarray.ndarray import NDArray
from gluonjax.ndarray.sparse import BaseSparseNDArray
from gluonjax.ops import sparse as _sparse

from . import _collective
from ._collective import device_of
from .base import KVStoreBase

__all__ = ['KVStore']


class _Entry:
    """A stored value, and copies of it on other devices that are valid while it is unchanged.

    ``copies`` ({device: data}) come from the last all-reduce; they stand for the stored
    value while ``source`` is still its data (an updater that changes the value in place
    gives it new data, which retires them). ``home`` is the stored value's device.
    """
    __slots__ = ('value', 'home', 'copies', 'source', 'order', 'aval')

    def __init__(self, value, order):
        self.value = value
        self.home = device_of(value._data)
        self.copies = None
        self.source = None
        self.order = order
        self.aval = value._data.aval  # shape and dtype every value pushed or pulled must have


def _gradient(arrays, merged, ctx):
    """The pushed values' sum ``merged`` as the updater's gradient: row_sparse, holding the union
    of the values' rows, where every value pushed is row_sparse (MXNet sums them so), so that a
    lazy update (Adam, SGD with momentum) touches those rows only, as it does without a store."""
    if not all(a.stype == 'row_sparse' for a in arrays):
        return NDArray._from_jax(merged, ctx)
    rows = np.unique(np.concatenate([np.asarray(a._storage.indices) for a in arrays]))
    return BaseSparseNDArray._from_value(_sparse.rsp_rows(merged, rows), ctx)


def _is_array(x):
    return isinstance(x, NDArray) or isinstance(getattr(x, '_data', None), jax.Array)


def _desc(x):
    return '%s %s' % (shape_str(x.shape), np.dtype(x._data.dtype).name)


def _key_str(key):
    return repr(key) if isinstance(key, str) else str(key)


class KVStore(KVStoreBase):
    """A key-value store that sums values over the devices of this process.

    Create it with ``kvstore.create('local' | 'device' | 'nccl')``. Keys are all int or
    all str. ``priority`` arguments are accepted and ignored: XLA orders the work.
    """

    def __init__(self, name='local'):
        self._type = name
        self._store = {}
        self._key_kind = None
        self._updater = None
        self._batch_updates = False
        self._n_str = 0

    def __repr__(self):
        return '<%s %r: %d keys>' % (type(self).__name__, self._type, len(self._store))

    # ---- properties ------------------------------------------------------------------
    @property
    def type(self):
        """The store's type: the name given to ``create``, lower-cased."""
        return self._type

    @property
    def rank(self):
        """This worker's rank: 0 for a single-process store."""
        return 0

    @property
    def num_workers(self):
        """The number of workers: 1 for a single-process store."""
        return 1

    @staticmethod
    def is_capable(capability):
        """Whether the store supports ``capability``; it can run an optimizer ('optimizer')."""
        if capability.lower() == KVStoreBase.OPTIMIZER:
            return True
        raise ValueError('Unknown capability: {}'.format(capability))

    # ---- argument handling -----------------------------------------------------------
    def _pairs(self, op, keys, values, what='value'):
        """(key, [arrays]) for each key, as MXNet reads keys and values; checks key types."""
        if isinstance(keys, (list, tuple)):
            if not isinstance(values, (list, tuple)) or len(values) != len(keys):
                got = len(values) if isinstance(values, (list, tuple)) else 'one %s' % type(values).__name__
                # AssertionError: the type MXNet raises for this, which scripts may catch
                raise AssertionError('%s: %d keys %s but %s %ss were given; pass one %s (or one list of '
                                     'per-device %ss) per key' % (op, len(keys), list(keys), got, what, what, what))
            pairs = [(self._key(op, k), self._arrays(op, k, v)) for k, v in zip(keys, values)]
        else:
            pairs = [(self._key(op, keys), self._arrays(op, keys, values))]
        kind = type(pairs[0][0]) if pairs else None
        for k, _ in pairs:
            if type(k) is not kind:
                raise MXNetError('%s: mixed int and str keys in one call (%s); a KVStore uses one key '
                                 'type' % (op, [k for k, _ in pairs]))
        if kind is not None and self._key_kind is not None and kind is not self._key_kind:
            raise MXNetError('%s: this KVStore uses %s keys, got %s key %s; mixed key types are not '
                             'allowed' % (op, self._key_kind.__name__, kind.__name__,
                                          _key_str(pairs[0][0])))
        return pairs

    @staticmethod
    def _key(op, key):
        kind = type(key)
        if kind is int or kind is str:
            return key
        if isinstance(key, str):
            return str(key)
        if isinstance(key, numbers.Integral) and not isinstance(key, bool):
            return int(key)
        raise MXNetError('%s: keys must be int or str, got %s %r' % (op, kind.__name__, key))

    @staticmethod
    def _arrays(op, key, values):
        if isinstance(values, NDArray):
            return [values]
        if isinstance(values, (list, tuple)) and values:
            for v in values:
                if not isinstance(v, NDArray) and not _is_array(v):
                    break
            else:
                return list(values)
        elif _is_array(values):
            return [values]
        raise MXNetError('%s: key %s: expected an NDArray or a non-empty list of NDArrays '
                         '(one per device), got %s' % (op, _key_str(key), _describe(values)))

    def _grouped(self, op, pairs, what='value'):
        """Merge the arrays given for the same key and order keys as MXNet does; check keys exist."""
        store = self._store
        groups = []
        for key, arrays in pairs:
            entry = store.get(key)
            if entry is None:
                raise MXNetError('%s: key %s has not been initialised; call init(%s, value) first'
                                 % (op, _key_str(key), _key_str(key)))
            groups.append((key, entry, arrays))
        if len({key for key, _, _ in groups}) < len(groups):
            merged = {}
            for key, entry, arrays in groups:
                merged.setdefault(key, (key, entry, []))[2].extend(arrays)
            groups = list(merged.values())
        orders = [entry.order for _, entry, _ in groups]
        if any(a > b for a, b in zip(orders, orders[1:])):
            groups.sort(key=lambda g: g[1].order)
        for key, entry, arrays in groups:
            aval = entry.aval
            for i, a in enumerate(arrays):
                got = a._data.aval
                # avals are interned, so `is` settles the common case without comparing shapes
                if got is not aval and (got.shape != aval.shape or got.dtype != aval.dtype):
                    raise MXNetError('%s: key %s holds %s but %s %d of %d is %s'
                                     % (op, _key_str(key), _desc(entry.value), what, i, len(arrays), _desc(a)))
        return groups

    # ---- init --------------------------------------------------------------------------
    @x64  # sums and copies of float64/int64 values (see gluonjax/_x64.py)
    def init(self, key, value):
        """Initialise one key or a list of keys with their values (one value per key)."""
        items = self._init_items('init', key, value)
        self._store_initial(items)

    def _init_items(self, op, key, value):
        pairs = self._pairs(op, key, value)
        seen = set()
        for k, arrays in pairs:
            if len(arrays) != 1:
                raise MXNetError('%s: key %s was given %d values; init takes one value per key'
                                 % (op, _key_str(k), len(arrays)))
            if k in self._store or k in seen:
                raise MXNetError('%s: duplicate init of key %s: it is already initialised (%s)'
                                 % (op, _key_str(k), _desc(self._store[k].value) if k in self._store
                                    else 'twice in this call'))
            seen.add(k)
        return [(k, arrays[0]) for k, arrays in pairs]

    def _initial_values(self, items):
        """The data each key starts with: the given values (dist stores take rank 0's)."""
        return [v._data for _, v in items]

    def _store_initial(self, items):
        datas = self._initial_values(items)
        for (k, v), data in zip(items, datas):
            if self._key_kind is None:
                self._key_kind = type(k)
            if isinstance(k, str):
                order = self._n_str
                self._n_str += 1
            else:
                order = k
            # jax arrays are immutable: sharing the buffer is a copy the caller cannot change
            self._store[k] = _Entry(NDArray._from_jax(data, v.context), order)

    # ---- push ------------------------------------------------------------------------
    @x64
    def push(self, key, value, priority=0):
        """Push values: the values of each key are summed, then merged into the store.

        With no updater the stored value becomes the sum; with one, the store calls
        ``updater(key, sum, stored)``. ``value`` is an NDArray, a list of NDArrays
        (one per device) for one key, or a list of those for a list of keys.
        """
        groups = self._grouped('push', self._pairs('push', key, value))
        self._push_groups(groups)

    def _reduce(self, groups):
        """{device: sum} for each group (local: over this process's devices)."""
        return _collective.allreduce([[a._data for a in arrays] for _, _, arrays in groups])

    def _push_groups(self, groups):
        sums = self._reduce(groups)
        merged = [copies.get(entry.home) for (_, entry, _), copies in zip(groups, sums)]
        missing = [i for i, m in enumerate(merged) if m is None]
        if missing:
            # the sum is not on the stored value's device: one batched copy brings them all
            moved = _collective.copy_to_devices([next(iter(sums[i].values())) for i in missing],
                                                [groups[i][1].home for i in missing])
            for i, m in zip(missing, moved):
                merged[i] = m
        if self._updater is not None and self._batch_updates:
            # an optimizer's Updater takes lists and updates them all in one compiled call
            self._updater([key for key, _, _ in groups],
                          [_gradient(arrays, m, entry.value.context) for (_, entry, arrays), m in zip(groups, merged)],
                          [entry.value for _, entry, _ in groups])
            for _, entry, _ in groups:
                entry.copies = entry.source = None
            return
        for (key, entry, arrays), m, copies in zip(groups, merged, sums):
            self._merge(key, entry, m, copies, arrays)

    def _merge(self, key, entry, merged, copies, arrays):
        stored = entry.value
        if self._updater is None:
            stored._set_data(merged)
            entry.copies, entry.source = copies, merged
        else:
            self._updater(key, _gradient(arrays, merged, stored.context), stored)
            entry.copies = entry.source = None

    # ---- pull ------------------------------------------------------------------------
    @x64
    def pull(self, key, out=None, priority=0, ignore_sparse=True):
        """Copy the stored values into ``out`` (an NDArray, a list per device, or a list per key).
        With ``ignore_sparse`` (the default) sparse arrays in ``out`` are left as they are, as in
        MXNet: their rows are pulled with ``row_sparse_pull``."""
        if out is None:
            raise MXNetError('pull: out must be given (the arrays to copy the stored values into)')
        groups = self._grouped('pull', self._pairs('pull', key, out, 'out'), 'out')
        if ignore_sparse:
            groups = [(k, entry, [o for o in outs if o.stype == 'default']) for k, entry, outs in groups]
        self._pull_groups(groups)

    def _pull_groups(self, groups):
        pending, targets = [], []
        for _, entry, outs in groups:
            data = entry.value._data
            copies = entry.copies if entry.source is data else None
            for o in outs:
                device = device_of(o._data)
                if copies is not None:
                    local = copies.get(device)
                else:
                    local = data if device == entry.home and device_of(data) == device else None
                if local is None:
                    pending.append((data, device))
                    targets.append(o)
                else:
                    o._set_data(local)
        if pending:
            moved = _collective.copy_to_devices([d for d, _ in pending], [dev for _, dev in pending])
            for o, data in zip(targets, moved):
                o._set_data(data)

    # ---- pushpull, broadcast, row_sparse_pull ----------------------------------------
    @x64
    def pushpull(self, key, value, out=None, priority=0):
        """Push ``value`` then pull into ``out`` (into ``value`` itself when ``out`` is None)."""
        push_groups = self._grouped('pushpull', self._pairs('pushpull', key, value))
        if out is None:
            pull_groups = push_groups
        else:
            pull_groups = self._grouped('pushpull', self._pairs('pushpull', key, out, 'out'), 'out')
        self._push_groups(push_groups)
        self._pull_groups(pull_groups)

    @x64
    def broadcast(self, key, value, out, priority=0):
        """Initialise ``key`` with ``value`` (rank 0's across workers) and copy it into ``out``."""
        items = self._init_items('broadcast', key, value)
        out_pairs = self._pairs('broadcast', key, out, 'out')
        given = {k: v for k, v in items}
        for k, outs in out_pairs:
            for i, o in enumerate(outs):
                if o.shape != given[k].shape or o._data.dtype != given[k]._data.dtype:
                    raise MXNetError('broadcast: key %s value is %s but out %d of %d is %s'
                                     % (_key_str(k), _desc(given[k]), i, len(outs), _desc(o)))
        self._store_initial(items)
        self._pull_groups(self._grouped('broadcast', out_pairs, 'out'))

    @x64
    def row_sparse_pull(self, key, out=None, priority=0, row_ids=None):
        """Pull only the rows ``row_ids`` of each value into row_sparse arrays ``out``, which
        then hold exactly those rows (sorted, without repeats), as in MXNet (a dense ``out`` is
        refused, as MXNet does). ``row_ids`` is one NDArray (used for every output) or one per output.
        """
        if out is None or row_ids is None:
            raise MXNetError('row_sparse_pull: out and row_ids must be given')
        groups = self._grouped('row_sparse_pull', self._pairs('row_sparse_pull', key, out, 'out'), 'out')
        outs = [o for _, _, os_ in groups for o in os_]
        for o in outs:
            if o.stype != 'row_sparse':
                raise MXNetError("row_sparse_pull: out must be row_sparse arrays, got storage type %r "
                                 "(use pull for dense arrays)" % o.stype)
        ids = row_ids if isinstance(row_ids, (list, tuple)) else [row_ids]
        if any(isinstance(i, (list, tuple)) for i in ids):  # one list per key: flatten as outs
            ids = [i for per_key in ids for i in (per_key if isinstance(per_key, (list, tuple)) else [per_key])]
        if len(ids) == 1:
            ids = ids * len(outs)
        if len(ids) != len(outs):
            raise MXNetError('row_sparse_pull: %d row_ids for %d outputs; give one row_ids array, '
                             'or one per output' % (len(ids), len(outs)))
        self._pull_groups(groups)
        for o, rid in zip(outs, ids):
            rows = np.unique(np.asarray(rid._data if _is_array(rid) else rid).astype(np.int64))
            o._set_storage(_sparse.rsp_rows(o._data, rows))

    # ---- updaters and optimizers -----------------------------------------------------
    def _set_updater(self, updater):
        """Set ``updater(key, input, stored)``, called on each push to merge ``input`` into ``stored``."""
        if updater is not None and not callable(updater):
            raise MXNetError('set_updater: the updater must be callable as updater(key, input, stored)')
        self._updater = updater
        self._batch_updates = False

    set_updater = _set_updater

    def set_optimizer(self, optimizer):
        """Update the stored values with ``optimizer`` on every push (gradients in, weights stored)."""
        try:
            from gluonjax import optimizer as opt
        except ImportError as err:
            raise MXNetError('set_optimizer: gluonjax.optimizer is not available (%s)' % err) from None
        self._set_updater(opt.get_updater(optimizer))
        # MXNet calls the updater key by key; gluonjax's Updater also takes lists of keys,
        # which gives the same result in one compiled update for all the keys of a push
        self._batch_updates = isinstance(self._updater, getattr(opt, 'Updater', ()))

    def _states_updater(self, op):
        if self._updater is None or not hasattr(self._updater, 'get_states'):
            raise MXNetError('%s: this KVStore has no optimizer; call set_optimizer(optimizer) first'
                             % op)
        return self._updater

    def save_optimizer_states(self, fname, dump_optimizer=False):
        """Save the optimizer's states (and the optimizer itself with ``dump_optimizer``) to ``fname``."""
        states = self._states_updater('save_optimizer_states').get_states(dump_optimizer)
        atomic_write(fname, states)

    def load_optimizer_states(self, fname):
        """Load optimizer states saved by ``save_optimizer_states``."""
        updater = self._states_updater('load_optimizer_states')
        with open(fname, 'rb') as fin:
            updater.set_states(fin.read())

    def set_gradient_compression(self, compression_params):
        """Not supported: gradients are summed at full precision by an XLA all-reduce."""
        raise MXNetError(
            'set_gradient_compression(%r): gradient compression is not supported by gluonjax\'s '
            'KVStore (%s): gradients are summed at full precision by an XLA all-reduce. Remove '
            'the call (or compression_params=... from Trainer).' % (compression_params, self._type))

    # ---- synchronisation -------------------------------------------------------------
    def barrier(self):
        """Wait for this process's pending collectives (a global barrier for dist stores)."""
        _collective.wait_all()

    _barrier = barrier


def _describe(x):
    if isinstance(x, (list, tuple)):
        return '%s of %s' % (type(x).__name__, sorted({type(v).__name__ for v in x}) or 'nothing')
    return type(x).__name__

