"""The multi-process store ('dist_sync', 'dist_device_sync') on ``jax.distributed``.

Every worker is one process of a ``jax.distributed`` job. A push first sums the
values of this worker's devices (as the local store does), then sums across the
workers with one all-reduce over a mesh made of one device per worker; every
worker then holds the same sum and applies the same updater (or optimizer) to its
copy of the stored value, which gives what MXNet's servers give in sync mode.
``init`` (and ``broadcast``) store rank 0's values on every worker.

All workers must make the same calls in the same order (same keys, shapes and
dtypes), as with MXNet's dist_sync; a worker that pushes what the others do not
leaves them waiting in the collective.

The job is described by environment variables, which ``python -m kvstore.launch``
sets (MXNet's DMLC_* and MPI's names are read when ours are absent):

==========================  ===============================================  =====================
GLUONJAX_COORDINATOR        host:port of rank 0 (jax's coordination service)  DMLC_PS_ROOT_URI/PORT
GLUONJAX_NUM_WORKERS        number of worker processes                        DMLC_NUM_WORKER,
                                                                              OMPI_COMM_WORLD_SIZE, PMI_SIZE
GLUONJAX_RANK               this worker's rank, 0 .. N-1                      DMLC_WORKER_ID,
                                                                              OMPI_COMM_WORLD_RANK, PMI_RANK
GLUONJAX_RENDEZVOUS_PORT    port of the workers' roll call (default: the      -
                            coordinator's port + 1)
GLUONJAX_DIST_TIMEOUT       seconds to wait for every worker (default 60)     -
==========================  ===============================================  =====================

jax.distributed must start before jax makes any array, so when
GLUONJAX_COORDINATOR is set, ``import gluonjax`` joins the job at once; otherwise
the job is joined when the first dist store is created.
"""
import os

import jax
import jax.numpy as jnp

from gluonjax.base import MXNetError

from . import _collective
from ._local import KVStore
from ._rendezvous import Roll

__all__ = ['DistKVStore', 'config_from_env', 'join', 'join_from_environment']

DEFAULT_TIMEOUT = 60.0

_ENV_NAMES = {
    'num_workers': ('GLUONJAX_NUM_WORKERS', 'DMLC_NUM_WORKER', 'OMPI_COMM_WORLD_SIZE', 'PMI_SIZE'),
    'rank': ('GLUONJAX_RANK', 'DMLC_WORKER_ID', 'OMPI_COMM_WORLD_RANK', 'PMI_RANK', 'PMIX_RANK'),
}

_state = {'roll': None, 'joined': False}


def _first(environ, names):
    for name in names:
        value = environ.get(name)
        if value not in (None, ''):
            return name, value
    return None, None


def _int(name, value):
    try:
        return int(value)
    except ValueError:
        raise MXNetError('dist: environment variable %s=%r is not an integer' % (name, value)) from None


def config_from_env(environ=None):
    """The job this process belongs to, from the environment: a dict, or None when none is set.

    Keys: coordinator ('host:port'), host, port, num_workers, rank, rendezvous_port, timeout.
    """
    environ = os.environ if environ is None else environ
    coordinator = environ.get('GLUONJAX_COORDINATOR')
    if not coordinator and environ.get('DMLC_PS_ROOT_URI') and environ.get('DMLC_PS_ROOT_PORT'):
        coordinator = '%s:%s' % (environ['DMLC_PS_ROOT_URI'], environ['DMLC_PS_ROOT_PORT'])
    if not coordinator:
        return None
    host, sep, port = coordinator.rpartition(':')
    if not sep or not host or not port.isdigit():
        raise MXNetError('dist: GLUONJAX_COORDINATOR must be host:port, got %r' % coordinator)
    n_name, n_value = _first(environ, _ENV_NAMES['num_workers'])
    r_name, r_value = _first(environ, _ENV_NAMES['rank'])
    if n_value is None or r_value is None:
        raise MXNetError('dist: the coordinator is %s but %s is not set (GLUONJAX_NUM_WORKERS and '
                         'GLUONJAX_RANK); start workers with python -m kvstore.launch -n N ...'
                         % (coordinator, 'the number of workers' if n_value is None else "this worker's rank"))
    num_workers, rank = _int(n_name, n_value), _int(r_name, r_value)
    if num_workers < 1 or not 0 <= rank < num_workers:
        raise MXNetError('dist: rank %d is not in 0..%d (%s=%s, %s=%s)'
                         % (rank, num_workers - 1, r_name, r_value, n_name, n_value))
    rdv = environ.get('GLUONJAX_RENDEZVOUS_PORT') or str(int(port) + 1)
    timeout = environ.get('GLUONJAX_DIST_TIMEOUT') or DEFAULT_TIMEOUT
    try:
        timeout = float(timeout)
    except ValueError:
        raise MXNetError('dist: GLUONJAX_DIST_TIMEOUT=%r is not a number of seconds' % timeout) from None
    return {'coordinator': coordinator, 'host': host.strip('[]'), 'port': int(port),
            'num_workers': num_workers, 'rank': rank, 'rendezvous_port': _int('GLUONJAX_RENDEZVOUS_PORT', rdv),
            'timeout': timeout}


def _backends_started():
    try:
        from jax._src import xla_bridge
        return xla_bridge.backends_are_initialized()
    except (ImportError, AttributeError):
        return False


def join(config):
    """Join the job described by ``config``: the roll call, then ``jax.distributed.initialize``."""
    if _state['joined']:
        return
    if jax.distributed.is_initialized():
        _state['joined'] = True  # the program started jax.distributed itself
        return
    if _backends_started():
        raise MXNetError(
            'dist: jax has already started its devices in this process, and jax.distributed must be '
            'joined before that. Start the workers with `python -m kvstore.launch -n N python script.py` '
            '(gluonjax then joins at import), or create the dist KVStore before making any array.')
    roll = Roll(config['host'], config['rendezvous_port'], config['rank'], config['num_workers'],
                config['timeout']).join()
    if getattr(jax.config, 'jax_cpu_collectives_implementation', 'gloo') in (None, 'none', ''):
        jax.config.update('jax_cpu_collectives_implementation', 'gloo')  # CPU sums across processes
    jax.distributed.initialize(config['coordinator'], config['num_workers'], config['rank'],
                               initialization_timeout=max(1, int(config['timeout'])))
    _state['roll'] = roll
    _state['joined'] = True
    # Processes this worker starts (data loaders) must not join the job again.
    os.environ.pop('GLUONJAX_COORDINATOR', None)
    os.environ['GLUONJAX_JOINED_COORDINATOR'] = config['coordinator']


def join_from_environment(required=False):
    """Join the job named by the environment, if any (``import gluonjax`` calls this)."""
    if _state['joined']:
        return True
    config = config_from_env()
    if config is None:
        if required and not jax.distributed.is_initialized():
            raise MXNetError(
                "dist: no distributed job is set up for this process. Start the workers with "
                "`python -m kvstore.launch -n N python script.py` (or set GLUONJAX_COORDINATOR=host:port, "
                "GLUONJAX_NUM_WORKERS and GLUONJAX_RANK); for one process use kvstore 'local' or 'device'.")
        if jax.distributed.is_initialized():
            _state['joined'] = True
        return _state['joined']
    join(config)
    return True


def _lead_devices():
    """One device per process (its first), in process order: the mesh of the cross-worker sum."""
    firsts = {}
    for d in jax.devices():
        p = d.process_index
        if p not in firsts or _collective.device_sort_key(d) < _collective.device_sort_key(firsts[p]):
            firsts[p] = d
    return tuple(firsts[p] for p in sorted(firsts))


class DistKVStore(KVStore):
    """A KVStore whose pushes are summed over all workers of a ``jax.distributed`` job."""

    def __init__(self, name='dist_sync'):
        join_from_environment(required=True)
        super().__init__(name)
        self._leads = _lead_devices()
        self._lead = self._leads[jax.process_index()]

    @property
    def rank(self):
        """This worker's rank, 0 .. num_workers - 1."""
        return jax.process_index()

    @property
    def num_workers(self):
        """The number of worker processes in the job."""
        return jax.process_count()

    def _across(self, op, arrays):
        """Sum ``arrays`` (one per key, on this worker's lead device) over all workers."""
        if len(self._leads) == 1:
            return arrays
        try:
            sums = _collective.reduce_on_mesh(self._leads, [[a] for a in arrays])
        except Exception as err:  # a lost peer makes the collective fail
            roll = _state['roll']
            raise MXNetError('%s: the sum across workers failed%s: %s'
                             % (op, roll.describe_lost() if roll else '', err)) from None
        return [s[self._lead] for s in sums]

    def _to_lead(self, arrays_by_device):
        out, moves = [], []
        for i, copies in enumerate(arrays_by_device):
            data = copies.get(self._lead)
            if data is None:
                moves.append(i)
                data = next(iter(copies.values()))
            out.append(data)
        if moves:
            moved = _collective.copy_to_devices([out[i] for i in moves], [self._lead] * len(moves))
            for i, data in zip(moves, moved):
                out[i] = data
        return out

    def _reduce(self, groups):
        local = super()._reduce(groups)
        return [{self._lead: s} for s in self._across('push', self._to_lead(local))]

    def _initial_values(self, items):
        """Rank 0's values, on every worker (each on the device of this worker's value)."""
        datas = [v._data for _, v in items]
        if len(self._leads) == 1:
            return datas
        mine = self._to_lead([{_collective.device_of(d): d} for d in datas])
        if self.rank != 0:
            mine = [jnp.zeros_like(d) for d in mine]
        summed = self._across('init', mine)
        homes = [_collective.device_of(d) for d in datas]
        return _collective.copy_to_devices(summed, homes)

    def barrier(self):
        """Wait until every worker reaches this barrier."""
        _collective.wait_all()
        if len(self._leads) > 1:
            one = jax.device_put(jnp.ones((1,), jnp.int32), self._lead)
            self._across('barrier', [one])[0].block_until_ready()

    _barrier = barrier
