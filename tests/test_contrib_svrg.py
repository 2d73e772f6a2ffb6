"""mx.contrib.svrg_optimization: _SVRGOptimizer's key routing and SVRGModule's update rule,
checked against the SVRG formula computed with NumPy."""
import numpy as np
import pytest

import gluonjax as mx
from gluonjax.contrib.svrg_optimization.svrg_module import SVRGModule
from gluonjax.contrib.svrg_optimization.svrg_optimizer import _SVRGOptimizer


def test_svrg_optimizer_routes_full_gradient_keys_to_assignment():
    opt = _SVRGOptimizer(default_optimizer='sgd', param_idx2name={0: 'w', 1: 'w_full'}, learning_rate=0.5)
    assert opt.default_opt.lr == 0.5 and type(opt.default_opt).__name__ == 'SGD'
    kv = mx.kv.create('local')
    kv.set_optimizer(opt)
    kv.init(0, mx.nd.array([1, 1]))
    kv.init(1, mx.nd.array([1, 1]))
    kv.push(0, mx.nd.array([2, 4]))
    kv.push(1, mx.nd.array([3, 5]))
    w, w_full = mx.nd.zeros(2), mx.nd.zeros(2)
    kv.pull(0, w)
    kv.pull(1, w_full)
    np.testing.assert_allclose(w.asnumpy(), [0, -1])      # sgd: 1 - 0.5 * grad
    np.testing.assert_allclose(w_full.asnumpy(), [3, 5])  # assignment: the pushed value
    with pytest.raises(TypeError, match='default_optimizer'):
        _SVRGOptimizer(default_optimizer=3)


def _linear_module(batch, lr):
    rs = np.random.RandomState(0)
    x = rs.randint(1, 5, (8, 2)).astype('float32')
    y = x @ np.array([1.0, 2.0], 'float32')
    it = mx.io.NDArrayIter(x, y, batch_size=batch, label_name='lin_reg_label')
    net = mx.sym.LinearRegressionOutput(mx.sym.FullyConnected(mx.sym.var('data'), num_hidden=1, no_bias=True,
                                                              name='fc'),
                                        mx.sym.var('lin_reg_label'), name='lro')
    mod = SVRGModule(net, data_names=['data'], label_names=['lin_reg_label'], update_freq=2)
    mod.bind(data_shapes=it.provide_data, label_shapes=it.provide_label)
    mod.init_params(initializer=mx.init.One())
    mod.init_optimizer(kvstore='local', optimizer='sgd', optimizer_params={'learning_rate': lr})
    return mod, it, x, y


def test_svrg_module_update_is_batch_grad_minus_snapshot_grad_plus_full_grad():
    batch, lr = 4, 0.01
    mod, it, x, y = _linear_module(batch, lr)
    assert isinstance(mod._optimizer, _SVRGOptimizer) and mod._mod_aux.binded

    def grad(w, xb, yb):  # LinearRegressionOutput's gradient, summed over the batch
        return ((xb @ w - yb)[:, None] * xb).sum(0)

    w0 = np.ones(2, 'float32')
    mod.update_full_grads(it)
    full = np.mean([grad(w0, x[i:i + batch], y[i:i + batch]) for i in range(0, 8, batch)], axis=0)
    np.testing.assert_allclose(mod._param_dict[0]['fc_weight'].asnumpy().ravel(), full, rtol=1e-5)
    it.reset()
    w = w0
    for b in it:
        mod.forward_backward(b)
        mod.update()
        xb, yb = b.data[0].asnumpy(), b.label[0].asnumpy()
        w = w - lr / batch * (grad(w, xb, yb) - grad(w0, xb, yb) + full)
        np.testing.assert_allclose(mod.get_params()[0]['fc_weight'].asnumpy().ravel(), w, rtol=1e-5)


def test_svrg_module_fit_takes_snapshots_and_lowers_the_loss():
    mod, it, x, y = _linear_module(4, 0.01)
    metric = mx.metric.create('mse')
    mod.fit(it, eval_metric=metric, optimizer='sgd', optimizer_params={'learning_rate': 0.01}, num_epoch=3)
    w = mod.get_params()[0]['fc_weight'].asnumpy().ravel()
    assert np.mean((x @ w - y) ** 2) < np.mean((x @ np.ones(2) - y) ** 2) / 4


def test_svrg_module_update_freq_is_checked():
    net = mx.sym.FullyConnected(mx.sym.var('data'), num_hidden=1)
    with pytest.raises(TypeError, match='update_freq'):
        SVRGModule(net, label_names=None, update_freq=None)
    with pytest.raises(ValueError, match='positive'):
        SVRGModule(net, label_names=None, update_freq=0)
