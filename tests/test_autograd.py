"""Autograd: record / backward with MXNet's semantics, checked against analytic gradients."""
import json

import numpy as np
import pytest

import gluonjax as mx
from gluonjax import autograd, nd
from gluonjax.base import MXNetError
from gluonjax.ops._registry import all_ops


def _var(values, req='write'):
    x = nd.array(values)
    x.attach_grad(req)
    return x


def test_modes():
    assert not autograd.is_recording() and not autograd.is_training()
    with autograd.record():
        assert autograd.is_recording() and autograd.is_training()
        with autograd.pause():
            assert not autograd.is_recording() and not autograd.is_training()
        with autograd.predict_mode():
            assert not autograd.is_training()
    with autograd.record(train_mode=False):
        assert autograd.is_recording() and not autograd.is_training()
    with autograd.train_mode():
        assert autograd.is_training() and not autograd.is_recording()
    assert not autograd.is_recording()
    prev = autograd.set_training(True)
    assert prev is False and autograd.is_training()
    autograd.set_training(False)


def test_simple_chain_gradients():
    a, b = _var([[1., 2.], [3., 4.]]), _var([[5., 6.], [7., 8.]])
    c = nd.ones((2, 2))
    for _ in range(3):  # one fused compiled backward, compiled at the first call
        with autograd.record():
            y = (a * b + c).sum()
        y.backward()
        np.testing.assert_array_equal(a.grad.asnumpy(), b.asnumpy())
        np.testing.assert_array_equal(b.grad.asnumpy(), a.asnumpy())


def test_math_gradients_match_analytic(rng):
    x0 = rng.uniform(0.5, 2.0, (3, 4)).astype(np.float32)
    cases = [
        (lambda x: nd.exp(x), np.exp),
        (lambda x: nd.log(x), lambda v: 1 / v),
        (lambda x: nd.sqrt(x), lambda v: 0.5 / np.sqrt(v)),
        (lambda x: nd.tanh(x), lambda v: 1 - np.tanh(v) ** 2),
        (lambda x: nd.sigmoid(x), lambda v: (1 / (1 + np.exp(-v))) * (1 - 1 / (1 + np.exp(-v)))),
        (lambda x: x ** 3, lambda v: 3 * v ** 2),
        (lambda x: 1 / x, lambda v: -1 / v ** 2),
        (lambda x: nd.square(x) * 2 - x, lambda v: 4 * v - 1),
    ]
    for f, df in cases:
        x = _var(x0)
        with autograd.record():
            y = f(x)
        y.backward()
        np.testing.assert_allclose(x.grad.asnumpy(), df(x0), rtol=1e-4, atol=1e-5)


def test_head_gradient_and_broadcast():
    x = _var([1., 2., 3.])
    w = _var([[1.], [2.]])
    with autograd.record():
        y = x * w  # (2, 3)
    y.backward(nd.array([[1, 1, 1], [2, 2, 2]]))
    np.testing.assert_allclose(x.grad.asnumpy(), [5, 5, 5])
    np.testing.assert_allclose(w.grad.asnumpy(), [[6], [12]])


def test_grad_req_add_and_null():
    x = _var([1., 2.], 'add')
    for _ in range(3):
        with autograd.record():
            y = (x * x).sum()
        y.backward()
    np.testing.assert_allclose(x.grad.asnumpy(), 3 * 2 * np.array([1., 2.]))
    z = _var([1., 2.], 'null')
    with autograd.record():
        y = (z * 3).sum()
    with pytest.raises(MXNetError, match='no inputs .* require gradients'):
        y.backward()  # as MXNet: nothing reached needs a gradient
    assert z.grad.asnumpy().sum() == 0
    with autograd.record():
        y = (z * 3 + x).sum()
    y.backward()
    assert z.grad is None  # as MXNet 1.9.1: a backward pass reaching a 'null' variable drops its buffer
    z.attach_grad()
    assert z.grad.asnumpy().tolist() == [0., 0.]


def test_grad_buffer_identity_kept():
    x = _var([1., 2.])
    g = x.grad
    with autograd.record():
        y = (x * 2).sum()
    y.backward()
    assert x.grad is g
    np.testing.assert_allclose(g.asnumpy(), [2, 2])


def test_backward_errors():
    x = nd.array([1., 2.])
    with pytest.raises(MXNetError, match='not in a computational graph'):
        (x * 2).backward()
    v = _var([1., 2.])
    y = v * 2  # computed outside record()
    with pytest.raises(MXNetError, match='record'):
        y.backward()


def test_retain_graph():
    x = _var([1., 2.])
    with autograd.record():
        y = (x * x).sum()
    y.backward(retain_graph=True)
    y.backward()
    np.testing.assert_allclose(x.grad.asnumpy(), [2, 4])
    with pytest.raises(MXNetError, match='retain_graph'):
        y.backward()


def test_writes_under_record_are_refused_as_mxnet_refuses_them():
    """MXNet's two checks of an operator's output while recording (outputs checked against
    MXNet 1.9.1): an array already in the graph may not be written; an untracked array may not be
    written by an operator that reads it and a tracked input (x += w, x[i] = w)."""
    in_graph = 'Assigning to NDArrays that are already in a computational graph'
    inplace = r'Inplace operations \(\+=, -=, x\[:\]=, etc\) are not supported when recording'
    w = _var([1., 2.])
    with autograd.record():
        y = w * 2
        for write in (lambda: y.__iadd__(1), lambda: y.__setitem__(0, 5.), lambda: w.__isub__(1),
                      lambda: nd.relu(w, out=w), lambda: w.__setitem__(slice(None), nd.ones(2))):
            with pytest.raises(MXNetError, match=in_graph):
                write()
        for write in (lambda: nd.zeros(2).__iadd__(w), lambda: nd.zeros(2).__setitem__(slice(0, 1), w[0:1])):
            with pytest.raises(MXNetError, match=inplace):
                write()
    np.testing.assert_array_equal(w.asnumpy(), [1., 2.])


def test_writes_mxnet_records():
    """Writes MXNet records: a copy of a tracked array into an untracked one (x[:] = w),
    an operator's out= an untracked array, writes into untracked arrays from untracked values,
    and a write into an array whose graph a backward freed."""
    w = _var([1., 2.])
    with autograd.record():
        x = nd.zeros(2)
        x[:] = w * 3
        o = nd.zeros(2)
        nd.relu(w, out=o)
        free = nd.ones(2)
        free += nd.ones(2)
        free[1] = 7.
        z = (x * o).sum()
    z.backward()
    np.testing.assert_allclose(w.grad.asnumpy(), 6 * np.array([1., 2.]))
    np.testing.assert_array_equal(free.asnumpy(), [2., 7.])
    with autograd.record():
        y = w * 2
    y.backward()
    with autograd.record():
        y += 1  # its graph is freed: a constant now, as in MXNet
    np.testing.assert_array_equal(y.asnumpy(), [3., 5.])


def test_outside_record_update_keeps_variable():
    # The classic "w -= lr * w.grad" loop of MXNet tutorials
    w = _var([1., 1.])
    for _ in range(2):
        with autograd.record():
            loss = ((w * nd.array([1., 2.])) ** 2).sum()
        loss.backward()
        w[:] = w - 0.1 * w.grad
    assert w.grad is not None
    # grad = [2 w0, 8 w1]: w0 1 -> 0.8 -> 0.64, w1 1 -> 0.2 -> 0.04
    np.testing.assert_allclose(w.asnumpy(), [0.64, 0.04], rtol=1e-5)


def test_autograd_grad_and_create_graph():
    x = _var([1., 2., 3.])
    with autograd.record():
        y = x ** 3
        dy = autograd.grad(y, [x], create_graph=True)[0]
    np.testing.assert_allclose(dy.asnumpy(), 3 * np.array([1., 4., 9.]))
    dy.backward()
    np.testing.assert_allclose(x.grad.asnumpy(), 6 * np.array([1., 2., 3.]))


def test_nth_order_gradients_with_head_gradients_come_from_the_recorded_vjps():
    # as MXNet's test_higher_order_grad: each order's head gradient multiplies the result
    x = _var([0.5, -1.0, 2.0])
    heads = [nd.array([1.5, -0.5, 2.0]), nd.array([0.3, 2.0, -1.0]), nd.array([-2.0, 0.5, 1.0])]
    grads = []
    with autograd.record():
        y = nd.sin(x)
        for head in heads:
            y = autograd.grad(y, x, head_grads=head, create_graph=True, retain_graph=True)[0]
            grads.append(y.asnumpy())
    h = [a.asnumpy() for a in heads]
    xs = x.asnumpy()
    np.testing.assert_allclose(grads[0], np.cos(xs) * h[0], rtol=1e-6)
    np.testing.assert_allclose(grads[1], -np.sin(xs) * h[0] * h[1], rtol=1e-6)
    np.testing.assert_allclose(grads[2], -np.cos(xs) * h[0] * h[1] * h[2], rtol=1e-6)
    # the true second derivative of arcsinh (MXNet 1.9.1 gives it with the wrong sign)
    with autograd.record():
        g = autograd.grad(nd.arcsinh(x), x, create_graph=True, retain_graph=True)[0]
        g2 = autograd.grad(g, x)[0]
    np.testing.assert_allclose(g2.asnumpy(), -xs / (xs ** 2 + 1) ** 1.5, rtol=1e-6)

def test_autograd_grad_does_not_write_grad():
    x = _var([1., 2.])
    with autograd.record():
        y = (x * x).sum()
    g = autograd.grad(y, x)
    np.testing.assert_allclose(g[0].asnumpy(), [2, 4])
    assert x.grad.asnumpy().sum() == 0


def test_detach_and_blockgrad():
    x = _var([1., 2.])
    with autograd.record():
        y = x * x
        z = (y.detach() * x).sum() + nd.BlockGrad(x * 3).sum()
    z.backward()
    np.testing.assert_allclose(x.grad.asnumpy(), [1, 4])


def test_mark_variables():
    x = nd.array([1., 2.])
    g = nd.zeros((2,))
    autograd.mark_variables([x], [g])
    with autograd.record():
        y = (x * 5).sum()
    y.backward()
    np.testing.assert_allclose(g.asnumpy(), [5, 5])
    with pytest.raises(MXNetError, match='grad_req'):
        autograd.mark_variables([x], [g], 'bad')


def test_custom_function():
    class Sigmoid(autograd.Function):
        def forward(self, x):
            y = 1 / (1 + nd.exp(-x))
            self.save_for_backward(y)
            return y

        def backward(self, dy):
            y, = self.saved_tensors
            return dy * y * (1 - y) * 2  # deliberately twice the true gradient

    x = _var([0., 1.])
    with autograd.record():
        out = Sigmoid()(x)
        s = (out * 3).sum()
    s.backward()
    sig = 1 / (1 + np.exp(-np.array([0., 1.])))
    np.testing.assert_allclose(out.asnumpy(), sig, rtol=1e-6)
    np.testing.assert_allclose(x.grad.asnumpy(), 3 * 2 * sig * (1 - sig), rtol=1e-5)


def test_multiple_heads():
    x = _var([1., 2.])
    with autograd.record():
        a = (x * 2).sum()
        b = (x * x).sum()
    autograd.backward([a, b])
    np.testing.assert_allclose(x.grad.asnumpy(), [4, 6])


def test_shared_subexpression_accumulates():
    x = _var([3.])
    with autograd.record():
        y = x * x
        z = y * y + y  # x^4 + x^2
    z.backward()
    np.testing.assert_allclose(x.grad.asnumpy(), [4 * 27 + 6])


# ---- the tape keeps what backward needs ----------------------------------------------------

def test_backward_never_runs_a_forward_again():
    """The forward's side effect runs once per recorded pass: the backward (one fused function)
    uses the residuals kept by the forward."""
    import jax
    import jax.numpy as jnp
    from gluonjax.ndarray.ndarray import apply_fn
    runs = [0]

    def counted(v):
        jax.debug.callback(lambda: runs.__setitem__(0, runs[0] + 1))
        return (jnp.sin(v) * v,)
    x = _var([1., 2., 3.])
    want = 2 * (np.cos([1., 2., 3.]) * [1., 2., 3.] + np.sin([1., 2., 3.]))
    for i in range(3):
        with autograd.record():
            y = apply_fn(counted, ('counted_sin',), [x], name='counted_sin')[0]
            z = (y * 2).sum()
        z.backward()
        x.grad.wait_to_read()
        jax.effects_barrier()
        assert runs[0] == i + 1
        np.testing.assert_allclose(x.grad.asnumpy(), want, rtol=1e-5)


def test_repeated_graph_gives_the_same_gradients(rng):
    """The same structure three times (the fused backward): equal numbers,
    with an unused output of a multi-output operator, an integer path and a 'add' variable."""
    xv = rng.uniform(0.5, 2, (4, 6)).astype(np.float32)
    wv = rng.uniform(-1, 1, (6,)).astype(np.float32)
    x, w = _var(xv), _var(wv, 'add')
    grads_x, grads_w = [], []
    for _ in range(3):
        with autograd.record():
            a, _unused = nd.split(x, num_outputs=2, axis=1)   # (4, 3), second output unused
            idx = nd.argmax(x, axis=1)                          # integer path from a variable
            picked = nd.pick(x, idx, axis=1)                    # max of each row
            y = (nd.exp(a) * w[:3]).sum() + (picked * picked).sum()
        y.backward()
        grads_x.append(x.grad.asnumpy().copy())
        grads_w.append(w.grad.asnumpy().copy())
    want_x = np.zeros_like(xv)
    want_x[:, :3] = np.exp(xv[:, :3]) * wv[:3]
    rows = np.arange(4)
    want_x[rows, xv.argmax(axis=1)] += 2 * xv.max(axis=1)
    want_w = np.zeros_like(wv)
    want_w[:3] = np.exp(xv[:, :3]).sum(axis=0)
    for i in range(3):
        np.testing.assert_allclose(grads_x[i], want_x, rtol=1e-5)
        np.testing.assert_allclose(grads_w[i], want_w * (i + 1), rtol=1e-5)  # grad_req 'add'


def test_a_fused_backward_run_optimised_is_found_again_by_its_inputs_avals(rng):
    from gluonjax import _tape
    from gluonjax.ops import _host
    xv, wv = rng.uniform(-1, 1, (3, 5)).astype(np.float32), rng.uniform(-1, 1, (3, 5)).astype(np.float32)
    x, w = _var(xv), _var(wv)

    def step():
        with autograd.record():
            y = (nd.tanh(x) * w + x).sum()
        y.backward()
        np.testing.assert_allclose(x.grad.asnumpy(), (1 - np.tanh(xv) ** 2) * wv + 1, rtol=1e-5)
        np.testing.assert_allclose(w.grad.asnumpy(), np.tanh(xv), rtol=1e-5)
    _host.forget()
    for _ in range(2 * _host.HOST_CALLS + 2):  # past the first calls of the nodes, then of the fused backward
        step()
    steady = [f for f in _tape._fused_cache.values() if f.steady]
    # tanh, *, + and sum: six inputs, each (3, 5)
    assert any(len(key) == 6 and all(a.shape == (3, 5) for a in key) for f in steady for key in f.steady)
    _host.forget()
    assert all(f.steady is None for f in _tape._fused_cache.values())
    step()  # counted anew, the same gradients


def test_operator_jax_cannot_differentiate_fails_only_in_backward():
    import jax
    from gluonjax.ndarray.ndarray import apply_fn

    def host_square(v):
        return (jax.pure_callback(lambda a: np.asarray(a) ** 2, jax.ShapeDtypeStruct(v.shape, v.dtype), v),)
    x = _var([1., 2.])
    with autograd.record():
        y = apply_fn(host_square, ('host_square',), [x], name='host_square')[0]
    assert y.asnumpy().tolist() == [1., 4.]  # the forward runs under record()
    with pytest.raises(MXNetError, match=r'backward: host_square cannot be differentiated \(inputs: \(2,\)\)'):
        y.backward()


def test_fresh_grad_flag():
    x = _var([1., 2.])
    assert x._fresh_grad is False
    with autograd.record():
        y = (x * x).sum()
    y.backward()
    assert x._fresh_grad is True and x.grad.asnumpy().tolist() == [2., 4.]
    x._fresh_grad = False
    assert x._fresh_grad is False
    plain = nd.array([1.])
    assert plain._fresh_grad is False
    with pytest.raises(MXNetError, match='not a variable'):
        plain._fresh_grad = True


def _device_nets(ctxs):
    from gluonjax import gluon
    net = gluon.nn.Sequential()
    net.add(gluon.nn.Dense(5, activation='tanh', in_units=4), gluon.nn.Dense(3, in_units=5))
    net.initialize(mx.init.Xavier(), ctx=ctxs)
    return net


def test_backward_over_heads_on_different_devices():
    """MXNet's multi-device pattern: split_and_load, a loss per device, autograd.backward(losses)."""
    from gluonjax import gluon
    ctxs = [mx.cpu(i) for i in range(4)]
    assert len({c.jax_device for c in ctxs}) == 4  # tests/conftest.py forces 4 CPU devices
    mx.random.seed(3)
    net = _device_nets(ctxs)
    params = list(net.collect_params().values())
    x = nd.array(np.random.RandomState(0).uniform(-1, 1, (8, 4)))
    y = nd.array([0, 1, 2, 0, 1, 2, 0, 1])
    loss_fn = gluon.loss.SoftmaxCrossEntropyLoss()
    xs, ys = gluon.utils.split_and_load(x, ctxs), gluon.utils.split_and_load(y, ctxs)

    def grads():
        return [[p.grad(c).asnumpy().copy() for c in ctxs] for p in params]
    together = []
    for _ in range(3):  # node walk first, then the fused backward per device
        with autograd.record():
            losses = [loss_fn(net(a), b) for a, b in zip(xs, ys)]
        autograd.backward(losses)
        together.append(grads())
        assert all(l.context == c for l, c in zip(losses, ctxs))
    with autograd.record():
        losses = [loss_fn(net(a), b) for a, b in zip(xs, ys)]
    for l in losses:
        l.backward()
    one_by_one = grads()
    # single-device reference: the same weights on cpu(0), each quarter of the batch
    ref = _device_nets([mx.cpu(0)])
    for p, q in zip(ref.collect_params().values(), params):
        p.set_data(q.data(ctxs[0]))
    for k, (a, b) in enumerate(zip(gluon.utils.split_and_load(x, [mx.cpu(0)] * 4),
                                   gluon.utils.split_and_load(y, [mx.cpu(0)] * 4))):
        with autograd.record():
            l = loss_fn(ref(a), b)
        l.backward()
        for i, p in enumerate(ref.collect_params().values()):
            want = p.grad().asnumpy()
            assert np.abs(want).sum() > 0
            for got in together:
                np.testing.assert_allclose(got[i][k], want, rtol=1e-5, atol=1e-7)
            np.testing.assert_allclose(one_by_one[i][k], want, rtol=1e-5, atol=1e-7)


def test_backward_through_a_copy_between_devices():
    """One graph spanning two devices (as_in_context under record) takes the node walk."""
    x = nd.array([1., 2., 3.], ctx=mx.cpu(0))
    x.attach_grad()
    for _ in range(2):
        with autograd.record():
            y = (x * x).as_in_context(mx.cpu(1))
            z0 = (x * 3).sum()
            z1 = (y * 2).sum()
        autograd.backward([z0, z1])
        assert x.grad.context == mx.cpu(0)
        np.testing.assert_allclose(x.grad.asnumpy(), 3 + 4 * np.array([1., 2., 3.]))


def test_backward_is_compiled_once_per_shape(rng, compiles):
    """A recorded computation seen again on a shape it met before compiles nothing: neither its
    forward nor its backward (the backward is not compiled a second time in another form)."""
    shapes = [(3, 5), (4, 7), (2, 9)]
    values = {s: rng.uniform(-1, 1, s).astype(np.float32) for s in shapes}
    for round_ in range(3):
        before = compiles[0]
        for shape in shapes:
            x, w = _var(values[shape]), _var(values[shape][::-1].copy())
            with autograd.record():
                y = (nd.tanh(x * w) + x).sum()
            y.backward()
            want = (1 - np.tanh(values[shape] * w.asnumpy()) ** 2) * w.asnumpy() + 1
            np.testing.assert_allclose(x.grad.asnumpy(), want, rtol=1e-5)
        if round_ > 0:
            assert compiles[0] == before, 'round %d compiled %d programs' % (round_, compiles[0] - before)


def test_new_graph_of_familiar_nodes_walks_them(rng):
    """A structure never seen, made of nodes seen before (a network whose structure follows its
    input), takes the node-by-node backward and gives the same gradients as the fused one."""
    xv = rng.uniform(0.5, 2, (4,)).astype(np.float32)
    for depth in (2, 3, 4, 3):  # 3 and 4 are new structures of familiar nodes
        x = _var(xv)
        with autograd.record():
            y = x
            for _ in range(depth):
                y = nd.sin(y)
            z = y.sum()
        z.backward()
        want, v = np.ones_like(xv), xv.astype(np.float64)
        for _ in range(depth):
            want, v = want * np.cos(v), np.sin(v)
        np.testing.assert_allclose(x.grad.asnumpy(), want, rtol=1e-5)


def test_unrolled_loop_compiles_each_step_pullback_once(rng, compiles):
    """A new graph that repeats its nodes (a loop unrolled step by step, an RNN cell's unroll)
    takes the node walk: its step's pullbacks compile once and serve any length (one fused
    program would compile every step over again, for every length)."""
    xv, wv = rng.uniform(-1, 1, (3, 13)).astype(np.float32), rng.uniform(-1, 1, (3, 13)).astype(np.float32)
    for steps in (40, 50):
        x, w = _var(xv), _var(wv)
        with autograd.record():
            y = x
            for _ in range(steps):
                y = nd.tanh(y * w)
            z = y.sum()
        before = len(compiles[1])
        z.backward()
        if steps == 50:
            # The 49 additions of w's gradient may compile `elemwise_add` for its shape: an eager
            # operator met often enough compiles (ops/_host.py's first calls, a budget in time, so
            # on a slow machine sooner); that is not a pullback.
            ops = all_ops()
            new = [name for name in compiles[1][before:] if name[4:-1] not in ops]
            assert not new, 'a longer unroll compiled %s' % new
        want, v, ys = np.ones_like(xv, dtype=np.float64), xv.astype(np.float64), []
        for _ in range(steps):
            ys.append(v)
            v = np.tanh(v * wv)
        for y_in in reversed(ys):
            want = want * (1 - np.tanh(y_in * wv) ** 2) * wv
        np.testing.assert_allclose(x.grad.asnumpy(), want, rtol=1e-4, atol=1e-6)


def test_star_import_brings_mxnets_names():
    # MXNet's autograd module has no __all__: its tests use NDArray after `from mxnet.autograd import *`
    scope = {}
    exec('from gluonjax.autograd import *', scope)
    assert scope['NDArray'] is nd.NDArray
    for name in ('record', 'pause', 'backward', 'grad', 'mark_variables', 'Function', 'get_symbol'):
        assert name in scope
    x = _var([1.0, 2.0])
    with scope['record']():
        y = x * x
    scope['backward']([y])
    assert x.grad.asnumpy().tolist() == [2.0, 4.0]


def test_np_shape_switches_at_top_level():
    assert not mx.is_np_shape()
    with mx.np_shape(True):
        assert mx.is_np_shape()
    assert not mx.is_np_shape() and mx.util.np_shape is mx.np_shape


def test_get_symbol_writes_the_tape_as_mxnet_names_it():
    x, z = mx.nd.array([1.5]), mx.nd.array([2.0])
    x.attach_grad()
    z.attach_grad()
    const = mx.nd.array([3.0])
    with autograd.record():
        y = x * x + 2 * z - 1 + const
        out = mx.nd.FullyConnected(y.reshape((1, 1)), mx.nd.ones((2, 1)), num_hidden=2, no_bias=True)
    sym = autograd.get_symbol(out)
    assert sym.list_arguments() == ['var0', 'var1', 'null2', 'null3']  # MXNet 1.9.1's names
    nodes = json.loads(sym.tojson())['nodes']
    assert [n['op'] for n in nodes if n['op'] != 'null'] == [
        'broadcast_mul', '_mul_scalar', 'broadcast_add', '_minus_scalar', 'broadcast_add', 'Reshape', 'FullyConnected']
    assert nodes[3]['attrs'] == {'scalar': '2.0'} and nodes[-1]['attrs'] == {'no_bias': 'True', 'num_hidden': '2'}
    value = sym.eval(var0=x, var1=z, null2=const, null3=mx.nd.ones((2, 1)))[0]
    np.testing.assert_allclose(value.asnumpy(), out.asnumpy())


def test_get_symbol_shows_a_hybridized_call_inline_or_as_one_cached_op():
    """MXNet's CachedOp inlines a graph of at most inline_limit operators into the recorded
    graph; a larger one is one _CachedOp node (whose graph still computes the output)."""
    net = mx.gluon.nn.HybridSequential()
    for _ in range(3):
        net.add(mx.gluon.nn.Dense(4))
    net.initialize()
    x = mx.nd.array(np.arange(6.0).reshape(2, 3))
    ops = {}
    for limit in (3, 2):
        net.hybridize(inline_limit=limit)
        with autograd.record():
            y = net(x)
        sym = autograd.get_symbol(y)
        ops[limit] = [n['op'] for n in json.loads(sym.tojson())['nodes'] if n['op'] != 'null']
        assert sym.list_arguments() == ['null0'] + ['var%d' % i for i in range(1, 7)]
        params = [p.data() for p in net.collect_params().values()]
        value = sym.eval(**dict(zip(sym.list_arguments(), [x] + params)))[0]
        np.testing.assert_allclose(value.asnumpy(), y.asnumpy(), rtol=1e-6)
        y.backward()
    assert ops == {3: ['FullyConnected'] * 3, 2: ['_CachedOp']}
    loaded = mx.sym.load_json(sym.tojson())  # the node keeps its graph through JSON
    value = loaded.eval(**dict(zip(loaded.list_arguments(), [x] + params)))[0]
    np.testing.assert_allclose(value.asnumpy(), y.asnumpy(), rtol=1e-6)
    with pytest.raises(MXNetError, match="_CachedOp: required parameter 'subgraph' is missing"):
        mx.nd._CachedOp(x)


def test_get_symbol_leaves_out_what_an_inlined_graph_computes_from_untracked_inputs():
    """As MXNet records an inlined CachedOp: relu of an untracked input is not recorded (its output
    is a null input), and a later graph's constant branch (b * 2) neither; the structure is the one
    MXNet 1.9.1 prints for the same calls."""
    x, w, a, b = (mx.sym.var(n) for n in 'xwab')
    first = mx.nd.CachedOp(mx.sym.FullyConnected(mx.sym.relu(x), w, num_hidden=2, no_bias=True))
    second = mx.nd.CachedOp(mx.sym.relu(a) + b * 2, [('inline_limit', '3')])
    weight = mx.nd.ones((2, 3))
    weight.attach_grad()
    with autograd.record():
        y = second(first(mx.nd.ones((1, 3)), weight), mx.nd.ones((1, 2)))
    nodes = json.loads(autograd.get_symbol(y).tojson())['nodes']
    assert [(n['op'], [i[0] for i in n['inputs']]) for n in nodes] == [
        ('null', []), ('null', []), ('FullyConnected', [0, 1]), ('relu', [2]), ('null', []), ('elemwise_add', [3, 4])]


def test_an_operator_on_a_new_shape_compiles_its_forward_and_backward_only(compiles):
    """attach_grad's buffer and the head gradient of ones are made on the host: a recorded
    operator on a new shape compiles its vjp form and its backward, no fill programs (they
    were 2-3 more compiles per shape)."""
    for shape in [(4, 7), (3, 0, 2), (5,)]:
        x = nd.array(np.arange(int(np.prod(shape)), dtype=np.float64).reshape(shape), dtype='float64')
        before = compiles[0]
        x.attach_grad()
        with autograd.record():
            y = nd.transpose(x) if len(shape) > 1 else x * 2
        y.backward()
        assert compiles[0] - before <= 2, compiles[0] - before
        expected = np.ones(shape) if len(shape) > 1 else np.full(shape, 2.0)
        assert x.grad.dtype == np.float64 and np.array_equal(x.grad.asnumpy(), expected)
