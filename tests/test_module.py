"""mx.mod (Module, BucketingModule, SequentialModule), mx.model checkpoints, mx.callback, mx.monitor."""
import logging
import os

import numpy as np
import pytest

import gluonjax as mx
from gluonjax import autograd, gluon
from gluonjax.gluon import nn


def _data(n=400, dim=10, classes=3, seed=0):
    rs = np.random.RandomState(seed)
    x = rs.randn(n, dim).astype('float32')
    w = rs.randn(dim, classes)
    y = (x @ w).argmax(1).astype('float32')
    return x, y


def _mlp_sym(hidden=32, classes=3):
    data = mx.sym.var('data')
    net = mx.sym.FullyConnected(data, num_hidden=hidden, name='fc1')
    net = mx.sym.Activation(net, act_type='relu', name='relu1')
    net = mx.sym.FullyConnected(net, num_hidden=classes, name='fc2')
    return mx.sym.SoftmaxOutput(net, name='softmax')


def _initial_params(dim=10, hidden=32, classes=3, seed=1):
    rs = np.random.RandomState(seed)
    return {'fc1_weight': mx.nd.array(rs.uniform(-0.3, 0.3, (hidden, dim))),
            'fc1_bias': mx.nd.zeros((hidden,)),
            'fc2_weight': mx.nd.array(rs.uniform(-0.3, 0.3, (classes, hidden))),
            'fc2_bias': mx.nd.zeros((classes,))}


def _gluon_train(x, y, params, epochs, lr, batch_size):
    """The same MLP trained with Gluon (hybridized), same start, same batches."""
    net = nn.HybridSequential()
    net.add(nn.Dense(params['fc1_weight'].shape[0], activation='relu'),
            nn.Dense(params['fc2_weight'].shape[0]))
    net.initialize()
    net(mx.nd.array(x[:2]))
    for p, name in zip(net.collect_params().values(), ['fc1_weight', 'fc1_bias', 'fc2_weight', 'fc2_bias']):
        p.set_data(params[name])
    net.hybridize()
    loss_fn = gluon.loss.SoftmaxCrossEntropyLoss()
    trainer = gluon.Trainer(net.collect_params(), 'sgd', {'learning_rate': lr})
    for _ in range(epochs):
        for i in range(0, len(x), batch_size):
            xb, yb = mx.nd.array(x[i:i + batch_size]), mx.nd.array(y[i:i + batch_size])
            with autograd.record():
                loss = loss_fn(net(xb), yb)
            loss.backward()
            trainer.step(batch_size)
    pred = net(mx.nd.array(x)).asnumpy().argmax(1)
    return float((pred == y).mean())


def _fit_module(x, y, params, epochs, lr, batch_size, context, **kwargs):
    mod = mx.mod.Module(_mlp_sym(), context=context)
    it = mx.io.NDArrayIter(x, y, batch_size=batch_size)
    mod.fit(it, num_epoch=epochs, optimizer='sgd', optimizer_params={'learning_rate': lr},
            arg_params={k: v.copy() for k, v in params.items()}, **kwargs)
    return mod


@pytest.mark.parametrize('ndev', [1, 4])
def test_fit_reaches_gluon_accuracy(ndev):
    x, y = _data()
    params = _initial_params()
    gluon_acc = _gluon_train(x, y, params, epochs=4, lr=0.5, batch_size=40)
    mod = _fit_module(x, y, params, 4, 0.5, 40, [mx.cpu(i) for i in range(ndev)])
    (name, acc), = mod.score(mx.io.NDArrayIter(x, y, batch_size=40), 'acc')
    assert name == 'accuracy'
    assert gluon_acc > 0.85
    # same start, same batches, same SGD: the same model up to float rounding
    assert abs(acc - gluon_acc) <= 0.01, (acc, gluon_acc)
    pred = mod.predict(mx.io.NDArrayIter(x, y, batch_size=40)).asnumpy().argmax(1)
    assert abs(float((pred == y).mean()) - acc) < 1e-9


def test_module_parameters_match_gluon_after_one_step():
    x, y = _data(n=40)
    params = _initial_params()
    mod = _fit_module(x, y, params, 1, 0.5, 40, [mx.cpu(0), mx.cpu(1)])
    net = nn.HybridSequential()
    net.add(nn.Dense(32, activation='relu'), nn.Dense(3))
    net.initialize()
    net(mx.nd.array(x[:2]))
    names = ['fc1_weight', 'fc1_bias', 'fc2_weight', 'fc2_bias']
    for p, name in zip(net.collect_params().values(), names):
        p.set_data(params[name])
    trainer = gluon.Trainer(net.collect_params(), 'sgd', {'learning_rate': 0.5})
    with autograd.record():
        loss = gluon.loss.SoftmaxCrossEntropyLoss()(net(mx.nd.array(x)), mx.nd.array(y))
    loss.backward()
    trainer.step(40)
    arg, _ = mod.get_params()
    for p, name in zip(net.collect_params().values(), names):
        np.testing.assert_allclose(arg[name].asnumpy(), p.data().asnumpy(), rtol=1e-5, atol=1e-6)


def test_score_and_predict_values():
    x, y = _data(n=50)
    params = _initial_params()
    mod = mx.mod.Module(_mlp_sym(), context=mx.cpu())
    mod.bind(data_shapes=[('data', (16, 10))], label_shapes=[('softmax_label', (16,))], for_training=False)
    mod.set_params(params, {})
    w1, b1, w2, b2 = (params[n].asnumpy() for n in ['fc1_weight', 'fc1_bias', 'fc2_weight', 'fc2_bias'])
    logits = np.maximum(x @ w1.T + b1, 0) @ w2.T + b2
    prob = np.exp(logits - logits.max(1, keepdims=True))
    prob /= prob.sum(1, keepdims=True)
    out = mod.predict(mx.io.NDArrayIter(x, y, batch_size=16))     # 50 = 3 * 16 + 2: last batch padded
    assert out.shape == (50, 3)
    np.testing.assert_allclose(out.asnumpy(), prob, rtol=1e-5, atol=1e-6)
    per_batch = mod.predict(mx.io.NDArrayIter(x, y, batch_size=16), merge_batches=False)
    assert [len(b) for b in per_batch] == [1, 1, 1, 1] and per_batch[-1][0].shape == (2, 3)
    res = dict(mod.score(mx.io.NDArrayIter(x, y, batch_size=10), ['acc', 'ce']))
    assert res['accuracy'] == pytest.approx(float((prob.argmax(1) == y).mean()))
    ce = -np.log(prob[np.arange(50), y.astype(int)]).mean()
    assert res['cross-entropy'] == pytest.approx(ce, rel=1e-5)
    outs = list(mod.iter_predict(mx.io.NDArrayIter(x, y, batch_size=16)))
    assert [o[1] for o in outs] == [0, 1, 2, 3] and outs[-1][0][0].shape == (2, 3)
    assert mod.output_shapes == [('softmax_output', (16, 3))]
    assert mod.data_shapes[0].name == 'data' and mod.data_shapes[0].shape == (16, 10)
    assert mod.label_shapes[0].shape == (16,)


def test_checkpoint_round_trip(tmp_path):
    x, y = _data(n=80)
    prefix = str(tmp_path / 'mlp')
    mod = _fit_module(x, y, _initial_params(), 2, 0.5, 20, mx.cpu(),
                      epoch_end_callback=mx.callback.do_checkpoint(prefix))
    assert os.path.exists(prefix + '-symbol.json') and os.path.exists(prefix + '-0002.params')
    sym, arg, aux = mx.model.load_checkpoint(prefix, 2)
    assert sym.tojson() == mod.symbol.tojson()
    assert sorted(arg) == ['fc1_bias', 'fc1_weight', 'fc2_bias', 'fc2_weight'] and aux == {}
    keys = sorted(mx.nd.load(prefix + '-0002.params'))
    assert keys == ['arg:fc1_bias', 'arg:fc1_weight', 'arg:fc2_bias', 'arg:fc2_weight']
    it = mx.io.NDArrayIter(x, y, batch_size=20)
    expected = mod.predict(it).asnumpy()
    mod2 = mx.mod.Module.load(prefix, 2, context=[mx.cpu(0), mx.cpu(1)])
    mod2.bind(data_shapes=it.provide_data, label_shapes=it.provide_label, for_training=False)
    np.testing.assert_allclose(mod2.predict(it).asnumpy(), expected, rtol=1e-6)
    # Module.save_checkpoint / save_params / load_params, with optimizer states
    mod.save_checkpoint(prefix + '-b', 7, save_optimizer_states=True)
    mod3 = mx.mod.Module(_mlp_sym())
    mod3.bind(data_shapes=it.provide_data, label_shapes=it.provide_label)
    mod3.load_params(prefix + '-b-0007.params')
    np.testing.assert_allclose(mod3.predict(it).asnumpy(), expected, rtol=1e-6)
    mod4 = mx.mod.Module.load(prefix + '-b', 7, load_optimizer_states=True)
    mod4.bind(data_shapes=it.provide_data, label_shapes=it.provide_label)
    mod4.init_optimizer(optimizer_params={'learning_rate': 0.5})
    assert mod4.optimizer_initialized
    # keys of another kind: skipped by mx.model.load_params, an error for a module (as in MXNet)
    mx.nd.save(prefix + '-bad-0001.params', {'weird:x': mx.nd.ones(2), 'arg:fc_bias': mx.nd.ones(2)})
    assert sorted(mx.model.load_params(prefix + '-bad', 1)[0]) == ['fc_bias']
    with pytest.raises(ValueError, match="Invalid param file .*'weird:x'"):
        mod4.load_params(prefix + '-bad-0001.params')
    mx.nd.save(prefix + '-nokind-0001.params', {'x': mx.nd.ones(2)})
    with pytest.raises(ValueError, match="Invalid param file .*'x'"):
        mx.model.load_params(prefix + '-nokind', 1)


def test_bind_errors_name_arguments_and_shapes():
    conv = mx.sym.Convolution(mx.sym.var('data'), kernel=(3, 3), num_filter=2, name='conv')
    bad = mx.mod.Module(conv, label_names=None)
    with pytest.raises(ValueError, match=r"data: \(4, 10\)\) do not fit the symbol.*conv"):
        bad.bind(data_shapes=[('data', (4, 10))])
    assert not bad.binded
    mod = mx.mod.Module(_mlp_sym())
    with pytest.raises(ValueError, match="don't match names"):
        mod.bind(data_shapes=[('input', (4, 10))])
    with pytest.raises(ValueError, match="data_names=\\['x'\\]"):
        mx.mod.Module(_mlp_sym(), data_names=['x'])
    mod.bind(data_shapes=[('data', (4, 10))], label_shapes=[('softmax_label', (4,))])
    mod.init_params()
    with pytest.raises(ValueError, match='2 data arrays'):
        mod.forward(mx.io.DataBatch([mx.nd.ones((4, 10)), mx.nd.ones((4, 10))]))


def test_forward_backward_input_grads_and_reshape():
    data = mx.sym.var('data')
    sym = mx.sym.FullyConnected(data, num_hidden=3, name='fc')
    mod = mx.mod.Module(sym, label_names=None, context=[mx.cpu(0), mx.cpu(1)])
    mod.bind(data_shapes=[('data', (4, 5))], inputs_need_grad=True)
    mod.init_params(mx.init.One())
    x = mx.nd.array(np.arange(20).reshape(4, 5))
    mod.forward(mx.io.DataBatch([x]), is_train=True)
    np.testing.assert_allclose(mod.get_outputs()[0].asnumpy(), np.tile(x.asnumpy().sum(1, keepdims=True), 3))
    head = mx.nd.array(np.arange(12).reshape(4, 3))
    mod.backward([head])
    np.testing.assert_allclose(mod.get_input_grads()[0].asnumpy(), np.tile(head.asnumpy().sum(1, keepdims=True), 5))
    # a batch of another size rebinds (reshape), keeping the parameters
    mod.forward(mx.io.DataBatch([mx.nd.ones((6, 5))]), is_train=False)
    assert mod.get_outputs()[0].shape == (6, 3) and mod.data_shapes[0].shape == (6, 5)
    np.testing.assert_allclose(mod.get_outputs()[0].asnumpy(), 5.0)
    outs = mod.get_outputs(merge_multi_context=False)
    assert [o.shape for o in outs[0]] == [(3, 3), (3, 3)]


def test_fixed_params_are_not_updated():
    x, y = _data(n=40)
    params = _initial_params()
    mod = mx.mod.Module(_mlp_sym(), fixed_param_names=['fc1_weight'])
    mod.fit(mx.io.NDArrayIter(x, y, batch_size=20), num_epoch=1,
            arg_params={k: v.copy() for k, v in params.items()}, optimizer_params={'learning_rate': 0.5})
    arg, _ = mod.get_params()
    np.testing.assert_array_equal(arg['fc1_weight'].asnumpy(), params['fc1_weight'].asnumpy())
    assert not np.allclose(arg['fc2_weight'].asnumpy(), params['fc2_weight'].asnumpy())


def test_bucketing_module_two_buckets_share_parameters(tmp_path):
    def sym_gen(seq_len):
        data = mx.sym.var('data')
        pooled = mx.sym.mean(data, axis=1)                    # (batch, seq, 4) -> (batch, 4)
        fc = mx.sym.FullyConnected(pooled, num_hidden=2, name='fc')
        return mx.sym.SoftmaxOutput(fc, name='softmax'), ('data',), ('softmax_label',)

    rs = np.random.RandomState(0)
    batches = []
    for seq in (5, 3, 5, 3):
        d = rs.randn(8, seq, 4).astype('float32')
        lab = (d.mean(1)[:, 0] > 0).astype('float32')
        batches.append(mx.io.DataBatch([mx.nd.array(d)], [mx.nd.array(lab)], bucket_key=seq,
                                       provide_data=[mx.io.DataDesc('data', (8, seq, 4))],
                                       provide_label=[mx.io.DataDesc('softmax_label', (8,))]))
    mod = mx.mod.BucketingModule(sym_gen, default_bucket_key=5)
    mod.bind(data_shapes=batches[0].provide_data, label_shapes=batches[0].provide_label)
    mod.init_params(mx.init.Xavier())
    mod.init_optimizer(optimizer_params={'learning_rate': 0.1})
    before = mod.get_params()[0]['fc_weight'].asnumpy().copy()
    metric = mx.metric.Accuracy()
    for b in batches:
        mod.forward_backward(b)
        mod.update()
        mod.update_metric(metric, b.label)
    assert sorted(mod._buckets) == [3, 5]
    w5 = mod._buckets[5]._exec_group.param_arrays[0][0]
    w3 = mod._buckets[3]._exec_group.param_arrays[0][0]
    assert w5 is w3                                           # one parameter array, two graphs
    after = mod.get_params()[0]['fc_weight'].asnumpy()
    assert not np.allclose(before, after)
    np.testing.assert_array_equal(after, w5.asnumpy())
    assert metric.num_inst == 32
    assert mod._buckets[3].get_outputs()[0].shape == (8, 2)
    # each bucket compiled its fused forward+backward once
    for key in (3, 5):
        assert list(mod._buckets[key]._exec_group.execs[0]._jit) == ['fused']
    # checkpoint: one symbol file per bucket, the shared parameters once
    prefix = str(tmp_path / 'bucket')
    mod.save_checkpoint(prefix, 3)
    assert os.path.exists(prefix + '-3-symbol.json') and os.path.exists(prefix + '-5-symbol.json')
    assert sorted(mx.nd.load(prefix + '.buckets')[0].asnumpy().tolist()) == [3, 5]
    mod2 = mx.mod.BucketingModule.load(prefix, 3, sym_gen=sym_gen, default_bucket_key=5)
    mod2.bind(data_shapes=batches[0].provide_data, label_shapes=batches[0].provide_label, for_training=False)
    np.testing.assert_array_equal(mod2.get_params()[0]['fc_weight'].asnumpy(), after)
    mod2.forward(batches[1])
    mod.forward(batches[1], is_train=False)
    np.testing.assert_allclose(mod2.get_outputs()[0].asnumpy(), mod.get_outputs()[0].asnumpy(), rtol=1e-6)


def test_sequential_module():
    x, y = _data(n=60)
    net1 = mx.sym.Activation(mx.sym.FullyConnected(mx.sym.var('data'), num_hidden=16, name='fc1'),
                             act_type='relu')
    net2 = mx.sym.SoftmaxOutput(mx.sym.FullyConnected(mx.sym.var('data'), num_hidden=3, name='fc2'),
                                name='softmax')
    seq = mx.mod.SequentialModule()
    seq.add(mx.mod.Module(net1, label_names=None)).add(mx.mod.Module(net2), take_labels=True, auto_wiring=True)
    with pytest.raises(AssertionError, match='Unknown meta'):
        seq.add(mx.mod.Module(net2), take_lables=True)
    seq = mx.mod.SequentialModule()
    seq.add(mx.mod.Module(net1, label_names=None)).add(mx.mod.Module(net2), take_labels=True, auto_wiring=True)
    it = mx.io.NDArrayIter(x, y, batch_size=20)
    seq.fit(it, num_epoch=6, optimizer_params={'learning_rate': 0.5}, initializer=mx.init.Xavier())
    (_, acc), = seq.score(it, 'acc')
    assert acc > 0.7
    arg, _ = seq.get_params()
    assert sorted(arg) == ['fc1_bias', 'fc1_weight', 'fc2_bias', 'fc2_weight']
    assert seq.output_shapes == [('softmax_output', (20, 3))]


def test_speedometer_and_callbacks_log_lines(caplog):
    x, y = _data(n=400)
    caplog.set_level(logging.INFO)
    mod = mx.mod.Module(_mlp_sym())
    it = mx.io.NDArrayIter(x, y, batch_size=10)
    mod.fit(it, eval_data=mx.io.NDArrayIter(x, y, batch_size=10), num_epoch=1,
            batch_end_callback=[mx.callback.Speedometer(10, 20), mx.callback.log_train_metric(20)],
            eval_end_callback=mx.callback.LogValidationMetricsCallback(),
            optimizer_params={'learning_rate': 0.5}, initializer=mx.init.Xavier())
    lines = [r.getMessage() for r in caplog.records]
    speed = [ln for ln in lines if 'Speed' in ln]
    assert len(speed) == 1                                     # batches 0..39: a line at 20 only
    import re
    assert re.fullmatch(r'Epoch\[0\] Batch \[0-20\]\tSpeed: \d+\.\d\d samples/sec\taccuracy=0\.\d{6}', speed[0])
    assert any(re.fullmatch(r'Iter\[0\] Batch\[0\] Train-accuracy=\d\.\d{6}', ln) for ln in lines)
    assert any(re.fullmatch(r'Epoch\[0\] Train-accuracy=0\.\d{6}', ln) for ln in lines)
    assert any(re.fullmatch(r'Epoch\[0\] Time cost=\d+\.\d{3}', ln) for ln in lines)
    assert sum(bool(re.fullmatch(r'Epoch\[0\] Validation-accuracy=0\.\d{6}', ln)) for ln in lines) == 2
    caplog.clear()
    mx.callback.ProgressBar(total=4, length=8)(mx.model.BatchEndParam(0, 2, None, {}))
    assert caplog.records[-1].getMessage() == '[====----] 50%\r'
    speedo = mx.callback.Speedometer(10, 2, auto_reset=False)
    metric = mx.metric.Accuracy()
    metric.update([mx.nd.array([1, 0])], [mx.nd.array([[0, 1], [0, 1]])])
    for n in range(3):
        speedo(mx.model.BatchEndParam(1, n, metric, {}))
    assert re.fullmatch(r'Epoch\[1\] Batch \[0-2\]\tSpeed: \d+\.\d\d samples/sec\taccuracy=0\.500000',
                        caplog.records[-1].getMessage())


def test_monitor_collects_outputs_and_parameters(caplog):
    x, y = _data(n=20)
    mod = mx.mod.Module(_mlp_sym())
    mod.bind(data_shapes=[('data', (20, 10))], label_shapes=[('softmax_label', (20,))])
    mod.init_params(arg_params=_initial_params())
    mon = mx.monitor.Monitor(2, pattern='fc.*', sort=True)
    mod.install_monitor(mon)
    batch = mx.io.DataBatch([mx.nd.array(x)], [mx.nd.array(y)])
    mon.tic()
    mod.forward_backward(batch)
    res = mon.toc()
    names = [k for _, k, _ in res]
    grads = ['fc%d_backward_output%d' % (i, k) for i in (1, 2) for k in range(3)]
    assert names == sorted(['fc1_output', 'fc2_output', 'fc1_weight', 'fc1_bias', 'fc2_weight', 'fc2_bias'] + grads)
    assert all(step == 1 for step, _, _ in res)
    rms = float(np.sqrt((_initial_params()['fc1_weight'].asnumpy() ** 2).mean()))
    assert float(dict((k, v) for _, k, v in res)['fc1_weight']) == pytest.approx(rms, rel=1e-5)
    mon.tic()                      # step 1: not a multiple of the interval, nothing collected
    mod.forward_backward(batch)
    assert mon.toc() == []
    caplog.set_level(logging.INFO)
    mon.tic()
    mod.forward(batch, is_train=False)
    mon.toc_print()
    assert any(r.getMessage().startswith('Batch:       3 fc1_bias') for r in caplog.records)
    with pytest.raises(ValueError, match='interval'):
        mx.monitor.Monitor(0)


def test_update_without_kvstore_and_optimizer_object_warns():
    mod = mx.mod.Module(_mlp_sym(), context=[mx.cpu(0), mx.cpu(1)])
    mod.bind(data_shapes=[('data', (4, 10))], label_shapes=[('softmax_label', (4,))])
    mod.init_params()
    with pytest.warns(UserWarning, match='rescale_grad'):
        mod.init_optimizer(kvstore=None, optimizer=mx.optimizer.SGD(learning_rate=0.1))
    assert mod._kvstore is None and mod._updater is not None
    x, y = _data(n=4)
    mod.forward_backward(mx.io.DataBatch([mx.nd.array(x)], [mx.nd.array(y)]))
    execs = mod._exec_group.execs
    before = [e.arg_dict['fc1_weight'].asnumpy() for e in execs]
    grads = [e.grad_dict['fc1_weight'].asnumpy() for e in execs]
    mod.update()
    # no store: each device steps with its own slice's gradient, as MXNet 1.9.1 does
    for e, w, g in zip(execs, before, grads):
        np.testing.assert_allclose(e.arg_dict['fc1_weight'].asnumpy(), w - 0.1 * g, rtol=1e-5, atol=1e-7)
    assert not np.allclose(execs[0].arg_dict['fc1_weight'].asnumpy(), execs[1].arg_dict['fc1_weight'].asnumpy())


def test_monitor_reports_backward_gradients():
    x = mx.sym.FullyConnected(mx.sym.var('data'), num_hidden=2, name='fc')
    x = mx.sym.LinearRegressionOutput(x, name='out')
    mod = mx.mod.Module(x, label_names=['out_label'])
    mod.bind(data_shapes=[('data', (1, 2))], label_shapes=[('out_label', (1, 2))])
    mod.init_params(mx.init.One())
    mon = mx.monitor.Monitor(1, stat_func=lambda a: a.sum(), pattern='.*backward', sort=True)
    mod.install_monitor(mon)
    mon.tic()
    mod.forward_backward(mx.io.DataBatch([mx.nd.array([[1., 2.]])], [mx.nd.array([[0., 1.]])]))
    res = {k: float(v) for _, k, v in mon.toc()}
    # out = x.W^T + b = [3, 3]; LinearRegressionOutput's gradient (out - label) / 2 outputs = [1.5, 1]
    # MXNet 1.9.1 names a backward node's outputs output0, output1, ... (its data and label
    # gradients here are what its unused buffers hold; gluonjax gives the true gradients)
    assert res == {'fc_backward_output0': 5.0, 'fc_backward_output1': 7.5, 'fc_backward_output2': 2.5,
                   'out_backward_output0': 2.5, 'out_backward_output1': 0.0}


def test_monitor_orders_backward_nodes_last_operator_first_as_mxnet():
    # what MXNet 1.9.1 prints for this network: forward outputs, backward nodes from the
    # loss back to the first layer (one-input operators' output unnumbered), then arguments
    x = mx.sym.FullyConnected(mx.sym.var('data'), num_hidden=2, name='fc')
    x = mx.sym.Activation(x, act_type='relu', name='act')
    x = mx.sym.LinearRegressionOutput(x, name='out')
    mod = mx.mod.Module(x, label_names=['out_label'])
    mod.bind(data_shapes=[('data', (1, 2))], label_shapes=[('out_label', (1, 2))])
    mod.init_params(mx.init.One())
    mon = mx.monitor.Monitor(1, stat_func=lambda a: a.sum())
    mod.install_monitor(mon)
    mon.tic()
    mod.forward_backward(mx.io.DataBatch([mx.nd.array([[1., 2.]])], [mx.nd.array([[0., 1.]])]))
    res = [(k, float(v)) for _, k, v in mon.toc()]
    assert [k for k, _ in res] == [
        'fc_output', 'act_output', 'out_output', 'out_backward_output0', 'out_backward_output1',
        'act_backward_output', 'fc_backward_output0', 'fc_backward_output1', 'fc_backward_output2',
        'data', 'fc_weight', 'fc_bias', 'out_label']
    values = dict(res)
    assert (values['out_output'], values['act_backward_output'], values['fc_backward_output1'],
            values['fc_backward_output2'], values['fc_weight']) == (6.0, 2.5, 7.5, 2.5, 4.0)
    with pytest.raises(TypeError, match='data shape'):
        mx.mod.Module(x, label_names=None).bind(data_shapes=[('data', mx.nd.array([10, 10]))])


def test_time_major_layout_and_float16_split_on_batch_axis():
    sym = mx.sym.Activation(mx.sym.var('data'), act_type='relu', attr={'__layout__': 'TNC'})
    assert sym.attr('__layout__') == 'TNC'
    mod = mx.mod.Module(sym, ('data',), None, context=[mx.cpu(0), mx.cpu(1)])
    mod.bind(data_shapes=[mx.io.DataDesc('data', (3, 8, 7), np.float16, layout='TNC')])
    mod.init_params()
    x = np.random.RandomState(0).randn(3, 8, 7).astype(np.float16)
    mod.forward(mx.io.DataBatch([mx.nd.array(x, dtype=np.float16)]), is_train=True)
    mod.backward([mx.nd.ones((3, 8, 7), dtype=np.float16)])
    out, = mod.get_outputs()
    assert out.dtype == np.float16 and out.shape == (3, 8, 7)
    np.testing.assert_array_equal(out.asnumpy(), np.maximum(x, 0))
    assert [o.shape for o in mod.get_outputs(merge_multi_context=False)[0]] == [(3, 4, 7), (3, 4, 7)]
    assert mod.output_shapes == [(mod.output_names[0], (3, 8, 7))]


@pytest.mark.parametrize('kvstore,ndev,on_kvstore', [
    ('store', 1, '1'), ('device', 2, '1'), ('device', 2, '0'), ('local', 4, '1')])
def test_update_paths_give_the_same_weights(monkeypatch, kvstore, ndev, on_kvstore):
    """Optimizer on the store or on the devices, 1, 2 or 4 devices: the same SGD-momentum
    trajectory as one device without a store (several devices without a store each step with
    their own gradient, as in MXNet: test_update_without_kvstore_and_optimizer_object_warns)."""
    x, y = _data(n=80)

    def train(kv, contexts):
        mod = mx.mod.Module(_mlp_sym(), context=contexts)
        mod.fit(mx.io.NDArrayIter(x, y, batch_size=20), num_epoch=2, kvstore=kv,
                arg_params={k: v.copy() for k, v in _initial_params().items()},
                optimizer_params={'learning_rate': 0.2, 'momentum': 0.9, 'wd': 1e-3})
        return mod
    reference = train(None, [mx.cpu(0)]).get_params()[0]
    monkeypatch.setenv('MXNET_UPDATE_ON_KVSTORE', on_kvstore)
    kv = mx.kv.create('local') if kvstore == 'store' else kvstore
    mod = train(kv, [mx.cpu(i) for i in range(ndev)])
    assert mod._update_on_kvstore == (kvstore is not None and on_kvstore == '1')
    for name, value in mod.get_params()[0].items():
        np.testing.assert_allclose(value.asnumpy(), reference[name].asnumpy(), rtol=1e-4, atol=1e-5)


def test_several_devices_run_one_program_with_per_device_results(monkeypatch):
    """The one-program (shard_map) training step equals one program per device."""
    x, y = _data(n=40)
    bn = mx.sym.BatchNorm(mx.sym.FullyConnected(mx.sym.var('data'), num_hidden=8, name='fc1'), name='bn')
    sym = mx.sym.SoftmaxOutput(mx.sym.FullyConnected(bn, num_hidden=3, name='fc2'), name='softmax')
    results = []
    for one_program in (True, False):
        monkeypatch.setattr(mx.mod.DataParallelExecutorGroup, 'one_program', one_program)
        mod = mx.mod.Module(sym, context=[mx.cpu(0), mx.cpu(1), mx.cpu(2), mx.cpu(3)])
        mod.bind(data_shapes=[('data', (40, 10))], label_shapes=[('softmax_label', (40,))])
        mx.random.seed(3)
        mod.init_params(mx.init.Xavier())
        mod.init_optimizer(kvstore=None, optimizer_params={'learning_rate': 0.3})
        mod.forward_backward(mx.io.DataBatch([mx.nd.array(x)], [mx.nd.array(y)]))
        mod.update()
        mod.forward_backward(mx.io.DataBatch([mx.nd.array(x)], [mx.nd.array(y)]))
        group = mod._exec_group
        assert (group._spmd not in (None, False)) == one_program
        grads = [e.grad_dict['fc1_weight'].asnumpy() for e in group.execs]   # before the sum
        assert not np.allclose(grads[0], grads[1])          # each device its own slice
        # BatchNorm's moving statistics: each device's own, as MXNet keeps them
        means = [e.aux_dict['bn_moving_mean'].asnumpy() for e in group.execs]
        assert not np.allclose(means[0], means[1])
        outputs = mod.get_outputs()[0].asnumpy()
        mod.update()
        results.append((outputs, grads, means, mod.get_params()))
    (o1, g1, m1, p1), (o2, g2, m2, p2) = results
    np.testing.assert_allclose(o1, o2, rtol=1e-5, atol=1e-6)
    for a, b in zip(g1 + m1, g2 + m2):
        np.testing.assert_allclose(a, b, rtol=1e-4, atol=1e-6)
    for name in p1[0]:
        np.testing.assert_allclose(p1[0][name].asnumpy(), p2[0][name].asnumpy(), rtol=1e-5, atol=1e-6)


def test_module_group2ctxs_places_each_group_and_matches_one_device():
    with mx.AttrScope(ctx_group='dev1'):
        a = mx.sym.var('a') * 2
    with mx.AttrScope(ctx_group='dev2'):
        c = a + mx.sym.var('b')
    shape = (2, 3)
    batch = mx.io.DataBatch(data=[mx.nd.ones(shape), mx.nd.ones(shape) * 3])
    grads = []
    for group2ctxs in ({'dev1': mx.cpu(1), 'dev2': [mx.cpu(2)]}, None):
        mod = mx.mod.Module(c, data_names=['a', 'b'], label_names=None, group2ctxs=group2ctxs)
        mod.bind(data_shapes=[('a', shape), ('b', shape)], inputs_need_grad=True)
        mod.init_params()
        mod.forward(batch, is_train=True)
        np.testing.assert_allclose(mod.get_outputs()[0].asnumpy(), np.full(shape, 5.0))
        mod.backward([mx.nd.ones(shape)])
        grads.append(mod.get_input_grads())
    assert [g.context for g in grads[0]] == [mx.cpu(1), mx.cpu(2)]
    for g_split, g_one in zip(*grads):
        np.testing.assert_allclose(g_split.asnumpy(), g_one.asnumpy())
    np.testing.assert_allclose(grads[0][0].asnumpy(), np.full(shape, 2.0))


def test_module_keeps_the_storage_type_declared_on_a_variable():
    data = mx.sym.var('data')
    v = mx.sym.var('v', shape=(4, 1), init=mx.init.Constant(0.5), stype='row_sparse')
    net = mx.sym.LinearRegressionOutput(mx.sym.dot(data, v), mx.sym.var('label'), name='out')
    mod = mx.mod.Module(net, data_names=['data'], label_names=['label'])
    mod.bind(data_shapes=[('data', (2, 4))], label_shapes=[('label', (2, 1))])
    mod.init_params()
    weight = mod._arg_params['v']
    assert weight.stype == 'row_sparse'
    np.testing.assert_array_equal(weight.asnumpy(), np.full((4, 1), 0.5, np.float32))
    mod.forward(mx.io.DataBatch([mx.nd.ones((2, 4))], [mx.nd.zeros((2, 1))]), is_train=False)
    np.testing.assert_allclose(mod.get_outputs()[0].asnumpy(), np.full((2, 1), 2.0))


@pytest.mark.parametrize('dense_lookup', [False, True])
def test_module_embedding_gradients_are_row_sparse_and_updated_lazily(dense_lookup):
    # MXNet stores the gradient of a SparseEmbedding (or Embedding(sparse_grad=True)) weight
    # row_sparse with the rows the batch looked up, zero rows among them; SGD's lazy update then
    # decays and moves only those rows
    w0 = (np.arange(12, dtype=np.float32).reshape(6, 2) - 5) / 4
    weight = mx.sym.var('emb_weight', stype='row_sparse')  # wd applies to '*_weight'
    if dense_lookup:
        emb = mx.sym.Embedding(mx.sym.var('idx'), weight=weight, input_dim=6, output_dim=2, sparse_grad=True)
    else:
        emb = mx.sym.contrib.SparseEmbedding(mx.sym.var('idx'), weight=weight, input_dim=6, output_dim=2)
    # relu zeroes the gradient of looked-up rows whose values are negative
    net = mx.sym.LinearRegressionOutput(mx.sym.sum(mx.sym.relu(emb), axis=1), mx.sym.var('label'))
    mod = mx.mod.Module(net, data_names=['idx'], label_names=['label'])
    mod.bind(data_shapes=[('idx', (3,))], label_shapes=[('label', (3,))])
    mod.init_params(arg_params={'emb_weight': mx.nd.array(w0).tostype('row_sparse')})
    lr, wd = 0.1, 0.5
    mod.init_optimizer(optimizer='sgd', optimizer_params={'learning_rate': lr, 'wd': wd, 'rescale_grad': 1.0})
    idx = np.array([1, 4, 1], np.float32)
    mod.forward_backward(mx.io.DataBatch([mx.nd.array(idx)], [mx.nd.zeros((3,))]))
    grad = mod._exec_group.grad_arrays[0][0]
    assert grad.stype == 'row_sparse'
    assert grad.indices.asnumpy().tolist() == [1, 4]
    # d/dw of sum((sum(relu(w[i])) - 0)^2 / 2) per looked-up row, summed over repeats
    pred = np.maximum(w0[idx.astype(int)], 0).sum(1)
    expected = np.zeros_like(w0)
    for i, p in zip(idx.astype(int), pred):
        expected[i] += p * (w0[i] > 0)
    np.testing.assert_allclose(grad.asnumpy(), expected, rtol=1e-6)
    assert not expected[1].any()  # row 1 is all negative: a zero row that is still stored
    mod.update()
    after = mod.get_params()[0]['emb_weight'].asnumpy()
    rows = [1, 4]
    np.testing.assert_allclose(after[rows], w0[rows] - lr * (expected[rows] + wd * w0[rows]), rtol=1e-6)
    others = [0, 2, 3, 5]
    np.testing.assert_array_equal(after[others], w0[others])


def test_label_names_that_match_no_input_warn_and_bind_as_mxnet():
    # MXNet 1.9.1 (example/python-howto/debug_conv.py): a Module over a symbol without a label
    # keeps its default label_names with two warnings, the first in red, and binds
    conv = mx.sym.Convolution(mx.sym.var('data'), kernel=(3, 3), pad=(1, 1), num_filter=1, name='conv')
    with pytest.warns(UserWarning) as record:
        mod = mx.mod.Module(conv)
    assert str(record[0].message) == (
        "\033[91mYou created Module with Module(..., label_names=['softmax_label']) but input with "
        "name 'softmax_label' is not found in symbol.list_arguments(). Did you mean one of:\n\tdata\033[0m")
    with pytest.warns(UserWarning) as record:
        mod.bind(data_shapes=[('data', (1, 3, 5, 5))])
    assert [str(r.message) for r in record] == [
        "Data provided by label_shapes don't match names specified by label_names ([] vs. ['softmax_label'])"]
    mod.init_params(mx.init.One())
    mod.forward(mx.io.DataBatch([mx.nd.ones((1, 3, 5, 5))]), is_train=False)
    assert mod.get_outputs()[0].asnumpy()[0, 0, 2, 2] == 27.0
