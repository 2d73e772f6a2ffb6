"""KVStore on four CPU devices: the seeds' tutorials, every method, both key types, errors.

tests/conftest.py gives jax four CPU devices; mx.cpu(i) is device i.
"""
import contextlib
import io
import re

import jax
import numpy as np
import pytest

import gluonjax as mx
import kvstore
from gluonjax.base import MXNetError
from kvstore import _collective

CTXS = [mx.cpu(i) for i in range(4)]


def run_script(text):
    """Run a script with ``mx`` bound to gluonjax and return what it printed."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(text, '<seed>', 'exec'), {'__name__': '__seed__'})
    return out.getvalue()


# ---------------------------------------------------------------------------------------
# Seeds
# ---------------------------------------------------------------------------------------

# Seed 000 (a Japanese KVStore tutorial): its complete example, then the two list sections.
SEED_000_SCRIPT = '''
import mxnet as mx
kv = mx.kv.create('local')
shape = (3,3)
kv.init(3, mx.nd.ones(shape)*2)
a = mx.nd.zeros(shape)
kv.pull(3, out = a)
print(a.asnumpy())
kv.push(3, mx.nd.ones(shape)*8)
kv.pull(3, out = a) # pull out the value
print(a.asnumpy())
contexts = [mx.cpu(i) for i in range(4)]
b = [mx.nd.ones(shape, ctx) for ctx in contexts]
kv.push(3, b)
kv.pull(3, out = a)
print(a.asnumpy())
def update(key, input, stored):
   print("update on key: %d" % key)
   stored += input * 2
kv._set_updater(update)
kv.pull(3, out=a)
print(a.asnumpy())
kv.push(3, mx.nd.ones(shape))
kv.pull(3, out=a)
print(a.asnumpy())
b = [mx.nd.ones(shape, ctx) for ctx in contexts]
kv.pull(3, out = b)
print(b[1].asnumpy())
keys = [5, 7, 9]
kv.init(keys, [mx.nd.ones(shape)]*len(keys))
kv.push(keys, [mx.nd.ones(shape)]*len(keys))
b = [mx.nd.zeros(shape)]*len(keys)
kv.pull(keys, out = b)
print(b[1].asnumpy())
b = [[mx.nd.ones(shape, ctx) for ctx in contexts]] * len(keys)
kv.push(keys, b)
kv.pull(keys, out = b)
print(b[1][1].asnumpy())
'''

# The outputs the seed documents, in order. (The seed's first block lost the leading
# space of its second and third lines when it was copied; lines are compared stripped.)
SEED_000_OUTPUT = '''[[2. 2. 2.]
[2. 2. 2.]
[2. 2. 2.]]
[[8. 8. 8.]
 [8. 8. 8.]
 [8. 8. 8.]]
[[4. 4. 4.]
 [4. 4. 4.]
 [4. 4. 4.]]
[[4. 4. 4.]
 [4. 4. 4.]
 [4. 4. 4.]]
update on key: 3
[[6. 6. 6.]
 [6. 6. 6.]
 [6. 6. 6.]]
[[6. 6. 6.]
 [6. 6. 6.]
 [6. 6. 6.]]
update on key: 5
update on key: 7
update on key: 9
[[3. 3. 3.]
 [3. 3. 3.]
 [3. 3. 3.]]
update on key: 5
update on key: 7
update on key: 9
[[11. 11. 11.]
 [11. 11. 11.]
 [11. 11. 11.]]
'''


def _seed_000(contexts_expr):
    script = SEED_000_SCRIPT.replace('import mxnet as mx', 'import gluonjax as mx')
    return script.replace('[mx.cpu(i) for i in range(4)]', contexts_expr)


def test_seed_000_prints_what_it_documents():
    printed = run_script(_seed_000('[mx.cpu(i) for i in range(4)]'))
    assert [line.strip() for line in printed.splitlines()] == \
        [line.strip() for line in SEED_000_OUTPUT.splitlines()]
    assert printed.splitlines()[3:6] == ['[[8. 8. 8.]', ' [8. 8. 8.]', ' [8. 8. 8.]]']


@pytest.mark.skipif(mx.context.num_gpus() < 4, reason='the seed uses four GPUs')
def test_seed_000_on_gpus():
    printed = run_script(_seed_000('[mx.gpu(i) for i in range(4)]'))
    assert [line.strip() for line in printed.splitlines()] == \
        [line.strip() for line in SEED_000_OUTPUT.splitlines()]


# Seed 001 (a translation of MXNet's KVStore API page, Python 2 transcript, 2017).
SEED_001_TRANSCRIPT = '''
>>> kv = mx.kv.create('local') # create a local kv store.
>>> shape = (2,3)
>>> kv.init(3, mx.nd.ones(shape)*2)
>>> a = mx.nd.zeros(shape)
>>> kv.pull(3, out = a)
>>> print a.asnumpy()
[[ 2.  2.  2.]
 [ 2.  2.  2.]]
>>> kv.push(3, mx.nd.ones(shape)*8)
>>> kv.pull(3, out = a) # pull out the value
>>> print a.asnumpy()
[[ 8.  8.  8.]
 [ 8.  8.  8.]]
>>> gpus = [mx.gpu(i) for i in range(4)]
>>> b = [mx.nd.ones(shape, gpu) for gpu in gpus]
>>> kv.push(3, b)
>>> kv.pull(3, out = a)
>>> print a.asnumpy()
[[ 4.  4.  4.]
 [ 4.  4.  4.]]
>>> def update(key, input, stored):
>>>     print "update on key: %d" % key
>>>     stored += input * 2
>>> kv._set_updater(update)
>>> kv.pull(3, out=a)
>>> print a.asnumpy()
[[ 4.  4.  4.]
 [ 4.  4.  4.]]
>>> kv.push(3, mx.nd.ones(shape))
update on key: 3
>>> kv.pull(3, out=a)
>>> print a.asnumpy()
[[ 6.  6.  6.]
 [ 6.  6.  6.]]
>>> b = [mx.nd.ones(shape, gpu) for gpu in gpus]
>>> kv.pull(3, out = b)
>>> print b[1].asnumpy()
[[ 6.  6.  6.]
 [ 6.  6.  6.]]
>>> keys = [5, 7, 9]
>>> kv.init(keys, [mx.nd.ones(shape)]*len(keys))
>>> kv.push(keys, [mx.nd.ones(shape)]*len(keys))
update on key: 5
update on key: 7
update on key: 9
>>> b = [mx.nd.zeros(shape)]*len(keys)
>>> kv.pull(keys, out = b)
>>> print b[1].asnumpy()
[[ 3.  3.  3.]
 [ 3.  3.  3.]]
>>> b = [[mx.nd.ones(shape, gpu) for gpu in gpus]] * len(keys)
>>> kv.push(keys, b)
update on key: 5
update on key: 7
update on key: 9
>>> kv.pull(keys, out = b)
>>> print b[1][1].asnumpy()
[[ 11.  11.  11.]
 [ 11.  11.  11.]]
'''


def _numbers_layout(text):
    """Old numpy printed '[[ 2.  2.  2.]'; new numpy prints '[[2. 2. 2.]': compare without the padding."""
    return [re.sub(r'\s+', ' ', re.sub(r'\[\s+', '[', line)).strip() for line in text.splitlines()
            if line.strip()]


def test_seed_001_transcript():
    code, documented = ['import gluonjax as mx'], []
    for line in SEED_001_TRANSCRIPT.strip().splitlines():
        if line.startswith('>>> '):
            stmt = line[4:]
            stmt = re.sub(r'^(\s*)print (.*)$', r'\1print(\2)', stmt)  # Python 2 print statements
            code.append(stmt.replace('mx.gpu(i)', 'mx.cpu(i)'))
        else:
            documented.append(line)
    printed = run_script('\n'.join(code))
    assert _numbers_layout(printed) == _numbers_layout('\n'.join(documented))


# ---------------------------------------------------------------------------------------
# create and properties
# ---------------------------------------------------------------------------------------

@pytest.mark.parametrize('name, kind', [('local', 'local'), ('device', 'device'), ('nccl', 'nccl'),
                                        ('Local', 'local'), ('local_allreduce_device', 'local_allreduce_device')])
def test_create_names(name, kind):
    kv = mx.kv.create(name)
    assert isinstance(kv, kvstore.KVStore) and isinstance(kv, kvstore.KVStoreBase)
    assert kv.type == kind and kv.rank == 0 and kv.num_workers == 1
    assert kv.is_capable(kvstore.KVStoreBase.OPTIMIZER) and kv.is_capable('OPTIMIZER')
    assert type(kv).is_capable('optimizer')  # a static method, as in MXNet
    with pytest.raises(ValueError, match='Unknown capability'):
        kv.is_capable('sparse')
    assert mx.kvstore.create is mx.kv.create is kvstore.create
    assert kvstore.create().type == 'local'


@pytest.mark.parametrize('name, why', [('dist_async', 'asynchronous.*dist_sync'),
                                       ('dist_device_async', 'asynchronous'),
                                       ('horovod', "Horovod.*'device'"), ('byteps', 'BytePS')])
def test_unsupported_stores_say_why(name, why):
    with pytest.raises(MXNetError, match=why):
        mx.kv.create(name)


def test_create_needs_a_string_and_dist_needs_a_job(monkeypatch):
    with pytest.raises(TypeError, match='name must be a string'):
        mx.kv.create(3)
    for var in ('GLUONJAX_COORDINATOR', 'DMLC_PS_ROOT_URI'):
        monkeypatch.delenv(var, raising=False)
    with pytest.raises(MXNetError, match='kvstore.launch'):
        mx.kv.create('dist_sync')


def test_registered_store_class():
    @kvstore.KVStoreBase.register
    class MyTestStore(kvstore.KVStoreBase):
        pass
    try:
        assert type(mx.kv.create('MyTestStore')) is MyTestStore
    finally:
        del kvstore.KVStoreBase.kv_registry['myteststore']


# ---------------------------------------------------------------------------------------
# push, pull, pushpull, broadcast, row_sparse_pull
# ---------------------------------------------------------------------------------------

@pytest.mark.parametrize('keys', [[1, 2, 3], ['w', 'b', 'x']], ids=['int', 'str'])
def test_push_pull_lists_on_four_devices(keys, rng):
    kv = mx.kv.create('device')
    shapes = [(2, 3), (4,), ()]
    with mx.np_shape():  # a 0-d key: nd.zeros(()) is refused outside it, as in MXNet
        kv.init(keys, [mx.nd.zeros(s) for s in shapes])
        outs = [[mx.nd.zeros(s, ctx=c) for c in CTXS] for s in shapes]
    vals = [[rng.standard_normal(s).astype(np.float32) for _ in CTXS] for s in shapes]
    kv.push(keys, [[mx.nd.array(v, ctx=c) for v, c in zip(vs, CTXS)] for vs in vals])
    kv.pull(keys, out=outs)
    for vs, os_ in zip(vals, outs):
        for o, c in zip(os_, CTXS):
            assert o.context == c and next(iter(o._data.devices())) == c.jax_device
            np.testing.assert_allclose(o.asnumpy(), sum(vs), rtol=1e-6, atol=1e-6)
    # one key at a time, one value and one out
    kv.push(keys[0], mx.nd.ones((2, 3)) * 5)
    a = mx.nd.zeros((2, 3), ctx=mx.cpu(2))
    kv.pull(keys[0], out=a)
    assert (a.asnumpy() == 5).all() and a.context == mx.cpu(2)


def test_many_keys_take_one_collective():
    kv = mx.kv.create('device')
    keys = list(range(30))
    kv.init(keys, [mx.nd.array(np.zeros(k + 1, np.float32)) for k in keys])
    before = _collective.stats['collectives']
    kv.push(keys, [[mx.nd.array(np.full(k + 1, i + 1, np.float32), ctx=c) for i, c in enumerate(CTXS)]
                   for k in keys])
    assert _collective.stats['collectives'] - before == 1
    outs = [[mx.nd.array(np.zeros(k + 1, np.float32), ctx=c) for c in CTXS] for k in keys]
    kv.pull(keys, out=outs)
    assert all((o.asnumpy() == 10).all() for os_ in outs for o in os_)
    # float64 and int32 keys are summed in their own dtype, in the same collective
    kv.init([100, 101], [mx.nd.zeros((3,), dtype='float64'), mx.nd.zeros((3,), dtype='int32')])
    before = _collective.stats['collectives']
    kv.push([100, 101], [[mx.nd.ones((3,), ctx=c, dtype='float64') / 3 for c in CTXS],
                         [mx.nd.ones((3,), ctx=c, dtype='int32') * 7 for c in CTXS]])
    assert _collective.stats['collectives'] - before == 1
    f, i = mx.nd.zeros((3,), dtype='float64'), mx.nd.zeros((3,), dtype='int32')
    kv.pull([100, 101], out=[f, i])
    assert f.dtype == np.float64 and i.dtype == np.int32
    np.testing.assert_allclose(f.asnumpy(), 4 / 3, rtol=1e-15)
    assert (i.asnumpy() == 28).all()


def test_the_sum_is_a_psum_that_never_visits_the_host():
    kv = mx.kv.create('device')
    kv.init([1, 2], [mx.nd.zeros((3, 2)), mx.nd.zeros((4,))])
    vals = [[mx.nd.ones((3, 2), ctx=c) for c in CTXS], [mx.nd.ones((4,), ctx=c) for c in CTXS]]
    outs = [[mx.nd.zeros((3, 2), ctx=c) for c in CTXS], [mx.nd.zeros((4,), ctx=c) for c in CTXS]]
    for _ in range(2):  # the first round compiles
        kv.push([1, 2], vals)
        kv.pull([1, 2], out=outs)
        kv.pushpull(1, vals[0])
    # no transfer of any kind (host or device to device): the sum is on every device already
    with jax.transfer_guard('disallow_explicit'):
        kv.push([1, 2], vals)
        kv.pull([1, 2], out=outs)
        kv.pushpull(1, vals[0])
    assert (outs[1][3].asnumpy() == 4).all() and (vals[0][2].asnumpy() == 4 ** 3).all()
    devices = tuple(c.jax_device for c in CTXS)
    globs = [jax.make_array_from_single_device_arrays((len(devices) * v[0].shape[0],) + v[0].shape[1:],
                                                      _collective._sharded(devices), [a._data for a in v])
             for v in vals]
    hlo = _collective._psum_program(devices, 2).lower(*globs).compile().as_text()
    # XLA sums both keys in one all-reduce, read in place (no concatenation into one buffer first)
    assert hlo.count(' all-reduce(') == 1 and 'concatenate' not in hlo, hlo


def test_scalar_and_empty_keys():
    kv = mx.kv.create('device')
    with mx.np_shape():  # (outside it, nd.zeros refuses () and 0 sizes, as MXNet's)
        kv.init(['s', 'e', 'v'], [mx.nd.zeros(()), mx.nd.zeros((0, 3)), mx.nd.zeros((2,))])
        for keys in (['s'], ['e'], ['s', 'e', 'v']):
            kv.push(keys, [[mx.nd.ones(kv._store[k].value.shape, ctx=c) for c in CTXS] for k in keys])
        outs = [[mx.nd.zeros(kv._store[k].value.shape, ctx=c) for c in CTXS] for k in ('s', 'e', 'v')]
        kv.pull(['s', 'e', 'v'], out=outs)
    assert outs[0][2].shape == () and outs[0][2].asnumpy() == 4
    assert outs[1][1].shape == (0, 3) and (outs[2][3].asnumpy() == 4).all()


def test_same_device_values_and_repeated_keys_are_summed():
    kv = mx.kv.create('local')
    kv.init(0, mx.nd.zeros((2,)))
    kv.push(0, [mx.nd.ones((2,)), mx.nd.ones((2,)) * 2, mx.nd.ones((2,), ctx=mx.cpu(1)) * 4])
    a = mx.nd.zeros((2,))
    kv.pull(0, out=a)
    assert (a.asnumpy() == 7).all()
    kv.push([0, 0], [mx.nd.ones((2,)), mx.nd.ones((2,), ctx=mx.cpu(3))])  # one key listed twice
    kv.pull([0, 0], out=[a, a])
    assert (a.asnumpy() == 2).all()


def test_updater_order_and_key_types():
    calls = []

    def update(key, inp, stored):
        calls.append((key, float(inp.asnumpy().ravel()[0])))
        stored += inp

    kv = mx.kv.create('local')
    kv.init([9, 2, 5], [mx.nd.zeros((1,))] * 3)
    kv.set_updater(update)
    kv.push([9, 2, 5], [[mx.nd.ones((1,), ctx=c) for c in CTXS[:2]], mx.nd.ones((1,)) * 3,
                        mx.nd.ones((1,)) * 5])
    assert calls == [(2, 3.0), (5, 5.0), (9, 2.0)]  # MXNet updates keys in sorted order
    calls.clear()
    skv = mx.kv.create('local')
    skv.init(['zeta', 'alpha'], [mx.nd.zeros((1,))] * 2)
    skv._set_updater(update)
    skv.push(['alpha', 'zeta'], [mx.nd.ones((1,)), mx.nd.ones((1,)) * 2])
    assert calls == [('zeta', 2.0), ('alpha', 1.0)]  # str keys in the order they were initialised
    out = mx.nd.zeros((1,))
    skv.pull('zeta', out=out)
    assert out.asnumpy()[0] == 2
    skv.set_updater(None)  # back to assigning the sum
    skv.push('zeta', mx.nd.ones((1,)) * 9)
    skv.pull('zeta', out=out)
    assert out.asnumpy()[0] == 9


def test_updater_result_is_broadcast_to_every_device():
    kv = mx.kv.create('device')
    kv.init('w', mx.nd.ones((2, 2)))
    kv.set_updater(lambda key, g, w: w.__isub__(g * 0.5))
    kv.push('w', [mx.nd.ones((2, 2), ctx=c) for c in CTXS])
    outs = [mx.nd.zeros((2, 2), ctx=c) for c in CTXS]
    kv.pull('w', out=outs)
    for o, c in zip(outs, CTXS):
        assert o.context == c and (o.asnumpy() == -1).all()


def test_pushpull_in_place_and_into_out():
    kv = mx.kv.create('device')
    kv.init(4, mx.nd.zeros((3,)))
    grads = [mx.nd.ones((3,), ctx=c) * (i + 1) for i, c in enumerate(CTXS)]
    kv.pushpull(4, grads)
    assert all((g.asnumpy() == 10).all() and g.context == c for g, c in zip(grads, CTXS))
    out = mx.nd.zeros((3,), ctx=mx.cpu(1))
    kv.pushpull(4, [mx.nd.ones((3,), ctx=c) for c in CTXS], out=out)
    assert (out.asnumpy() == 4).all()
    kv.pushpull([4], [[mx.nd.ones((3,))]], out=[[out]])
    assert (out.asnumpy() == 1).all()


def test_broadcast_and_row_sparse_pull():
    kv = mx.kv.create('device')
    value = mx.nd.array(np.arange(12, dtype=np.float32).reshape(4, 3))
    outs = [mx.nd.zeros((4, 3), ctx=c) for c in CTXS]
    kv.broadcast('emb', value, out=outs)
    assert all((o.asnumpy() == value.asnumpy()).all() and o.context == c for o, c in zip(outs, CTXS))
    with pytest.raises(MXNetError, match='duplicate init'):
        kv.broadcast('emb', value, out=outs)
    # rows 0 and 2 (ids may repeat and come in any order); other rows become zeros
    expected = value.asnumpy().copy()
    expected[[1, 3]] = 0
    with pytest.raises(MXNetError, match='out must be row_sparse'):
        kv.row_sparse_pull('emb', out=mx.nd.ones((4, 3)), row_ids=mx.nd.array([1]))
    out = mx.nd.ones((4, 3)).tostype('row_sparse')
    kv.row_sparse_pull('emb', out=out, row_ids=mx.nd.array([2, 0, 2], dtype='int64'))
    np.testing.assert_array_equal(out.asnumpy(), expected)
    outs = [mx.nd.ones((4, 3), ctx=c).tostype('row_sparse') for c in CTXS[:2]]
    kv.row_sparse_pull('emb', out=outs, row_ids=[mx.nd.array([3]), mx.nd.array([1])])
    assert (outs[0].asnumpy()[3] == [9, 10, 11]).all() and (outs[0].asnumpy()[:3] == 0).all()
    assert (outs[1].asnumpy()[1] == [3, 4, 5]).all() and outs[1].asnumpy()[[0, 2, 3]].sum() == 0
    with pytest.raises(MXNetError, match='row_ids'):
        kv.row_sparse_pull('emb', out=outs, row_ids=[mx.nd.array([1])] * 3)


def test_init_copies_the_value():
    kv = mx.kv.create('local')
    v = mx.nd.ones((2,))
    kv.init(1, v)
    v += 5  # changing the caller's array afterwards does not change the store
    out = mx.nd.zeros((2,))
    kv.pull(1, out=out)
    assert (out.asnumpy() == 1).all()


def test_many_pushes_without_waiting_do_not_stall_the_cpu_devices():
    # Queued collectives on virtual CPU devices can starve XLA's rendezvous; the store bounds them.
    kv = mx.kv.create('device')
    kv.init(0, mx.nd.zeros((8,)))
    vals = [mx.nd.ones((8,), ctx=c) for c in CTXS]
    outs = [mx.nd.zeros((8,), ctx=c) for c in CTXS]
    for i in range(200):
        kv.pushpull(0, vals, out=outs)
    assert len(_collective._inflight) <= _collective.max_inflight('cpu')
    kv.barrier()
    assert not _collective._inflight
    assert all((o.asnumpy() == 4).all() for o in outs)


def _mlp_training(ctxs, steps=3):
    """A two-layer network trained data-parallel over ``ctxs`` with the store; returns its weights."""
    from gluonjax import autograd
    rng = np.random.default_rng(0)
    X, Y = rng.standard_normal((32, 8)).astype(np.float32), rng.integers(0, 4, 32).astype(np.float32)
    init = [rng.standard_normal((8, 16)).astype(np.float32) * 0.3,
            rng.standard_normal((16, 4)).astype(np.float32) * 0.3]
    kv = mx.kv.create('device')
    params = [[mx.nd.zeros(w.shape, ctx=c) for c in ctxs] for w in init]
    kv.broadcast([0, 1], [mx.nd.array(w, ctx=ctxs[0]) for w in init], out=params)
    share = len(X) // len(ctxs)
    xs = [mx.nd.array(X[i * share:(i + 1) * share], ctx=c) for i, c in enumerate(ctxs)]
    ys = [mx.nd.array(Y[i * share:(i + 1) * share], ctx=c) for i, c in enumerate(ctxs)]
    for copies in params:
        for w in copies:
            w.attach_grad()
    for _ in range(steps):
        for i, (x, y) in enumerate(zip(xs, ys)):
            with autograd.record():
                out = mx.nd.dot(mx.nd.relu(mx.nd.dot(x, params[0][i])), params[1][i])
                loss = (mx.nd.log(mx.nd.exp(out).sum(axis=1)) - mx.nd.pick(out, y, axis=1)).sum()
            loss.backward()
        grads = [[w.grad for w in copies] for copies in params]
        kv.pushpull([0, 1], grads)
        for copies in params:
            for w in copies:
                w -= w.grad * (0.5 / len(X))
    return [[w.asnumpy() for w in copies] for copies in params]


def test_data_parallel_training_matches_one_device():
    four, one = _mlp_training(CTXS), _mlp_training([mx.cpu(0)])
    for copies, (single,) in zip(four, one):
        for w in copies:  # every device holds the same weights, equal to the one-device run
            np.testing.assert_allclose(w, single, rtol=1e-5, atol=1e-6)
        assert np.abs(copies[0] - copies[3]).max() == 0


# ---------------------------------------------------------------------------------------
# Optimizers and their states
# ---------------------------------------------------------------------------------------

class _StatefulUpdater:
    """What an optimizer's Updater offers the store: a call, and states to save and load."""

    def __init__(self):
        self.steps = {}

    def __call__(self, key, grad, weight):
        self.steps[key] = self.steps.get(key, 0) + 1
        weight -= 0.1 * grad

    def get_states(self, dump_optimizer=False):
        return repr((sorted(self.steps.items()), dump_optimizer)).encode()

    def set_states(self, states):
        items, _ = eval(states.decode())
        self.steps = dict(items)


def test_optimizer_states_round_trip(tmp_path):
    kv = mx.kv.create('local')
    kv.init(0, mx.nd.ones((2,)))
    with pytest.raises(MXNetError, match='set_optimizer'):
        kv.save_optimizer_states(str(tmp_path / 'none'))
    upd = _StatefulUpdater()
    kv._set_updater(upd)
    kv.push(0, mx.nd.ones((2,)))
    kv.push(0, mx.nd.ones((2,)))
    fname = str(tmp_path / 'kv.states')
    kv.save_optimizer_states(fname, dump_optimizer=True)
    other = _StatefulUpdater()
    kv._set_updater(other)
    kv.load_optimizer_states(fname)
    assert other.steps == {0: 2}
    out = mx.nd.zeros((2,))
    kv.pull(0, out=out)
    np.testing.assert_allclose(out.asnumpy(), 0.8, rtol=1e-6)


def test_set_optimizer_uses_the_optimizer_updater(tmp_path):
    from gluonjax import optimizer as opt
    kv = mx.kv.create('device')
    weight = mx.nd.zeros((2, 2))
    kv.init(3, weight)
    kv.set_optimizer(opt.SGD(learning_rate=0.1))
    kv.push(3, [mx.nd.ones((2, 2), ctx=c) for c in CTXS])
    kv.pull(3, out=weight)
    np.testing.assert_allclose(weight.asnumpy(), -0.4, rtol=1e-6)
    # several keys in one push: the same result as MXNet's key-by-key updates
    keys = ['a', 'b']
    kv2 = mx.kv.create('device')
    kv2.init(keys, [mx.nd.ones((3,)), mx.nd.ones((2, 2))])
    kv2.set_optimizer(opt.SGD(learning_rate=0.5, momentum=0.9))
    for _ in range(2):
        kv2.push(keys, [[mx.nd.ones((3,), ctx=c) for c in CTXS], [mx.nd.ones((2, 2), ctx=c) for c in CTXS]])
    outs = [mx.nd.zeros((3,)), mx.nd.zeros((2, 2))]
    kv2.pull(keys, out=outs)
    # momentum SGD on a summed gradient of 4: v1 = -0.5*4, w1 = 1 + v1; v2 = 0.9*v1 - 0.5*4, w2 = w1 + v2
    for o in outs:
        np.testing.assert_allclose(o.asnumpy(), 1 - 2 + (0.9 * -2 - 2), rtol=1e-6)
    # the optimizer's states go through its Updater
    path = str(tmp_path / 'states')
    kv2.save_optimizer_states(path, dump_optimizer=True)
    kv2.load_optimizer_states(path)
    assert kv2._updater.optimizer.momentum == 0.9


def test_create_kvstore_follows_mxnet_rules(monkeypatch):
    class Param:
        def __init__(self, *shape):
            self.shape = shape
    small, big = {'w': Param(3, 4)}, {'w': Param(5000, 4000)}
    assert kvstore._create_kvstore(None, 4, small) == (None, False)
    assert kvstore._create_kvstore('device', 1, small) == (None, False)  # one device needs no store
    kv, update = kvstore._create_kvstore('device', 4, small)
    assert kv.type == 'device' and update is True
    assert kvstore._create_kvstore(kv, 1, small) == (kv, True)
    assert kvstore._create_kvstore('local', 4, big)[1] is False  # MXNet: big params update locally
    monkeypatch.setenv('MXNET_UPDATE_ON_KVSTORE', '0')
    assert kvstore._create_kvstore('device', 4, small)[1] is False
    with pytest.raises(TypeError, match='kvstore must be'):
        kvstore._create_kvstore(3, 4, small)


def test_gradient_compression_is_a_clear_error():
    for name in ('local', 'device'):
        with pytest.raises(MXNetError, match='not supported.*all-reduce'):
            mx.kv.create(name).set_gradient_compression({'type': '2bit', 'threshold': 0.5})


# ---------------------------------------------------------------------------------------
# Bad input: clear errors, store unchanged
# ---------------------------------------------------------------------------------------

def _stored(kv, key, shape):
    out = mx.nd.zeros(shape)
    kv.pull(key, out=out)
    return out.asnumpy()


def test_errors_name_the_key_and_shapes_and_change_nothing():
    kv = mx.kv.create('local')
    kv.init([1, 2], [mx.nd.ones((2, 3)), mx.nd.ones((4,))])
    with pytest.raises(MXNetError, match=r"pull: key 8 has not been initialised"):
        kv.pull(8, out=mx.nd.zeros((2, 3)))
    with pytest.raises(MXNetError, match=r"push: key 8 has not been initialised"):
        kv.push([1, 8], [mx.nd.ones((2, 3)), mx.nd.ones((2, 3))])
    with pytest.raises(MXNetError, match=r"duplicate init of key 1: .*\[2,3\] float32"):
        kv.init(1, mx.nd.zeros((2, 3)))
    with pytest.raises(MXNetError, match=r"duplicate init of key 6: .*twice"):
        kv.init([6, 6], [mx.nd.zeros((1,))] * 2)
    with pytest.raises(MXNetError, match=r"push: key 2 holds \[4\] float32 but value 1 of 2 is \[5\] float32"):
        kv.push([1, 2], [mx.nd.ones((2, 3)) * 7, [mx.nd.ones((4,)), mx.nd.ones((5,))]])
    with pytest.raises(MXNetError, match=r"key 1 holds \[2,3\] float32 but value 0 of 1 is \[2,3\] float16"):
        kv.push(1, mx.nd.ones((2, 3), dtype='float16'))
    with pytest.raises(MXNetError, match=r"pull: key 2 holds \[4\] float32 but out 0 of 1 is \[2,2\] float32"):
        kv.pull([1, 2], out=[mx.nd.zeros((2, 3)), mx.nd.zeros((2, 2))])
    with pytest.raises(AssertionError, match=r"push: 2 keys \[1, 2\] but 3 values"):
        kv.push([1, 2], [mx.nd.ones((2, 3))] * 3)
    with pytest.raises(MXNetError, match=r"mixed int and str keys"):
        kv.push([1, 'b'], [mx.nd.ones((2, 3))] * 2)
    with pytest.raises(MXNetError, match=r"uses int keys, got str key 'w'"):
        kv.init('w', mx.nd.ones((1,)))
    with pytest.raises(MXNetError, match=r"keys must be int or str, got float"):
        kv.push(1.5, mx.nd.ones((2, 3)))
    with pytest.raises(MXNetError, match=r"key 1: expected an NDArray.*got list"):
        kv.push(1, [])
    with pytest.raises(MXNetError, match='out must be given'):
        kv.pull(1)
    with pytest.raises(MXNetError, match=r"init takes one value per key"):
        kv.init(11, [mx.nd.ones((1,)), mx.nd.ones((1,))])
    # pushpull checks its outs before pushing
    with pytest.raises(MXNetError, match=r"pushpull: key 1 holds \[2,3\] float32 but out 0 of 1 is \[3\]"):
        kv.pushpull(1, mx.nd.ones((2, 3)) * 9, out=mx.nd.zeros((3,)))
    assert (_stored(kv, 1, (2, 3)) == 1).all() and (_stored(kv, 2, (4,)) == 1).all()
    assert sorted(kv._store) == [1, 2]


def test_teststore_sums_on_the_host_and_refuses_store_updates():
    x = mx.gluon.Parameter('x', shape=(3,))
    x.initialize(ctx=[mx.cpu(0), mx.cpu(1)], init='zeros')
    kv = mx.kv.create('teststore')
    assert (kv.type, kv.rank, kv.num_workers, kv.is_capable('optimizer')) == ('teststore', 0, 1, False)
    assert type(kv).is_capable('optimizer') is False
    trainer = mx.gluon.Trainer([x], 'sgd', {'learning_rate': 1.0, 'momentum': 0.5}, kvstore=kv)
    with mx.autograd.record():
        for w in x.list_data():
            (w + 1).backward()
    trainer.step(1)
    assert trainer._update_on_kvstore is False
    assert x.data(mx.cpu(1)).asnumpy().tolist() == [-2.0, -2.0, -2.0]  # both devices' ones, summed
    with pytest.raises(ValueError, match='update_on_kvstore=False'):
        mx.gluon.Trainer([x], 'sgd', kvstore=kv, update_on_kvstore=True)._init_kvstore()


@pytest.mark.parametrize('n_devices', [1, 2])
def test_row_sparse_push_updates_lazily_as_without_a_store(n_devices):
    """A store running Adam on row_sparse gradients updates only the rows pushed (their union over
    the devices), as MXNet's does and as the optimizer does without a store: the other rows keep
    their values despite weight decay and the moments."""
    w0 = np.arange(15, dtype=np.float32).reshape(5, 3) / 10
    grads = [mx.nd.sparse.row_sparse_array((np.full((1, 3), 1.0 + d, np.float32), np.array([2 * d])),
                                           shape=(5, 3), ctx=mx.cpu(d)) for d in range(n_devices)]
    kv = mx.kv.create('local')
    kv.set_optimizer(mx.optimizer.Adam(learning_rate=0.1, wd=0.01))
    kv.init(0, mx.nd.array(w0).tostype('row_sparse'))
    direct = mx.nd.array(w0).tostype('row_sparse')
    update = mx.optimizer.get_updater(mx.optimizer.Adam(learning_rate=0.1, wd=0.01))
    summed = mx.nd.sparse.row_sparse_array((np.stack([np.full(3, 1.0 + d, np.float32) for d in range(n_devices)]),
                                            np.arange(n_devices) * 2), shape=(5, 3))
    for _ in range(2):
        kv.push(0, grads if n_devices > 1 else grads[0])
        update(0, summed, direct)
    out = mx.nd.sparse.zeros('row_sparse', (5, 3))
    kv.row_sparse_pull(0, out=out, row_ids=mx.nd.arange(5))
    got = out.asnumpy()
    np.testing.assert_allclose(got, direct.asnumpy(), rtol=1e-6)
    untouched = [r for r in range(5) if r not in range(0, 2 * n_devices, 2)]
    np.testing.assert_array_equal(got[untouched], w0[untouched])
    assert not np.allclose(got[0], w0[0])
