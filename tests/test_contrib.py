"""mx.contrib: the old autograd API (contrib.autograd), DataLoaderIter and the nd/sym aliases."""
import numpy as np

import gluonjax as mx
from gluonjax.contrib import autograd as cag


def test_contrib_aliases_are_the_front_ends_contrib_modules():
    assert mx.contrib.nd is mx.contrib.ndarray is mx.nd.contrib
    assert mx.contrib.sym is mx.contrib.symbol is mx.sym.contrib
    assert mx.contrib.nd.foreach is mx.nd.contrib.foreach
    # every _contrib_ operator of the table, under its short name
    names = [n[len('_contrib_'):] for n in mx.ops.all_ops() if n.startswith('_contrib_')]
    assert names and all(hasattr(mx.nd.contrib, n) and hasattr(mx.sym.contrib, n) for n in names)


def test_contrib_ndarray_and_symbol_import_by_path():
    # MXNet's contrib.ndarray / contrib.symbol are modules: the SSD chapter of "The Straight Dope"
    # writes `from mxnet.contrib.ndarray import MultiBoxPrior`
    from gluonjax.contrib.ndarray import MultiBoxPrior
    from gluonjax.contrib.symbol import MultiBoxPrior as SymPrior
    import gluonjax.contrib.ndarray as cnd
    assert cnd is mx.nd.contrib and SymPrior is mx.sym.contrib.MultiBoxPrior
    anchors = MultiBoxPrior(mx.nd.zeros((1, 3, 2, 2)), sizes=[.5], ratios=[1])
    # one box of half the image centred on each of the four pixels: centre (i + 0.5) / 2, half-width 0.25
    centres = (np.arange(2) + 0.5) / 2
    cy, cx = np.meshgrid(centres, centres, indexing='ij')
    expected = np.stack([cx - .25, cy - .25, cx + .25, cy + .25], axis=-1).reshape(1, 4, 4)
    np.testing.assert_allclose(anchors.asnumpy(), expected, rtol=1e-6)


def test_grad_and_loss_gives_analytic_gradients():
    x = mx.nd.array([[0.5, -1.0], [2.0, 3.0]])
    y = mx.nd.array([[1.5, 2.0], [-1.0, 0.25]])
    grads, loss = cag.grad_and_loss(lambda a, b: a * b + mx.nd.exp(a))(x, y)
    np.testing.assert_allclose(loss.asnumpy(), x.asnumpy() * y.asnumpy() + np.exp(x.asnumpy()), rtol=1e-6)
    np.testing.assert_allclose(grads[0].asnumpy(), y.asnumpy() + np.exp(x.asnumpy()), rtol=1e-6)
    np.testing.assert_allclose(grads[1].asnumpy(), x.asnumpy(), rtol=1e-6)
    only_b = cag.grad(lambda a, b, mode: a * b if mode else a + b, argnum=[1])(x, y, True)
    np.testing.assert_allclose(only_b[0].asnumpy(), x.asnumpy())


def test_sections_switch_training_and_recording_together():
    assert not mx.autograd.is_training() and not mx.autograd.is_recording()
    with cag.train_section():
        assert mx.autograd.is_training() and mx.autograd.is_recording()
        with cag.test_section():
            assert not mx.autograd.is_training() and not mx.autograd.is_recording()
        assert mx.autograd.is_training()
    assert not mx.autograd.is_training() and not mx.autograd.is_recording()


def test_backward_with_some_head_gradients_none():
    x = mx.nd.ones((3, 2))
    dx = mx.nd.zeros_like(x)
    cag.mark_variables([x], [dx])
    with cag.train_section():
        a, b, c = mx.nd.split(x * 2, axis=0, num_outputs=3, squeeze_axis=True)
        cag.backward([a, b, c], [None, mx.nd.array([1, 2]), mx.nd.array([3, 4])])
    np.testing.assert_array_equal(dx.asnumpy(), [[2, 2], [2, 4], [6, 8]])


def test_dataloader_iter_pads_the_last_batch():
    data = np.arange(20, dtype=np.float32).reshape(10, 2)
    label = np.arange(10, dtype=np.float32)
    loader = mx.gluon.data.DataLoader(mx.gluon.data.ArrayDataset(data, label), batch_size=4)
    it = mx.contrib.io.DataLoaderIter(loader, dtype='float64')
    assert it.provide_data[0].shape == (4, 2) and it.provide_label[0].name == 'softmax_label'
    batches = list(it)
    assert [b.pad for b in batches] == [0, 0, 2]
    last = batches[-1]
    assert last.data[0].dtype == np.float64
    np.testing.assert_array_equal(last.data[0].asnumpy()[:2], data[8:])
    np.testing.assert_array_equal(last.label[0].asnumpy()[:2], label[8:])
    it.reset()
    assert len(list(it)) == 3
