"""What GluonNLP 0.10 and Sockeye 2 need from mxnet beside the layers: mx.registry factories,
the Gluon repository URL helpers, and contrib AdamW (expected numbers from MXNet 1.9.1)."""
import io
import pickle
import warnings

import numpy as np
import pytest

import gluonjax as mx
from gluonjax.gluon.utils import _get_repo_file_url, _get_repo_url


class _Base:
    def __init__(self, size=1):
        self.size = size


def test_registry_register_alias_create():
    register = mx.registry.get_register_func(_Base, 'thing')
    alias = mx.registry.get_alias_func(_Base, 'thing')
    create = mx.registry.get_create_func(_Base, 'thing')

    @alias('big', 'Large')
    @register
    class Wide(_Base):
        pass

    assert set(mx.registry.get_registry(_Base)) == {'wide', 'big', 'large'}
    assert create('WIDE', 3).size == 3
    assert create('large', size=4).size == 4
    assert create(thing='big').size == 1
    assert create('["wide", {"size": 5}]').size == 5
    assert create('{"thing": "wide", "size": 6}').size == 6
    assert create({'thing': 'wide', 'size': 7}).size == 7
    made = Wide(2)
    assert create(made) is made
    with pytest.raises(AssertionError, match='not registered'):
        create('narrow')
    with pytest.raises(AssertionError, match='subclass'):
        register(int)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter('always')
        register(type('Other', (_Base,), {}), 'wide')
    assert 'overriding' in str(caught[0].message)


def test_repo_url(monkeypatch):
    monkeypatch.delenv('MXNET_GLUON_REPO', raising=False)
    assert _get_repo_url() == 'https://apache-mxnet.s3-accelerate.dualstack.amazonaws.com/'
    monkeypatch.setenv('MXNET_GLUON_REPO', 'http://mirror/x')
    assert _get_repo_file_url('gluon/dataset', 'a.zip') == 'http://mirror/x/gluon/dataset/a.zip'


# MXNet 1.9.1: w=[1,2,-3], g=[.5,-1,2], mean=[.1,.2,.3], var=[.4,.5,.6],
# adamw_update(rescale_grad=2, lr=.1, eta=.5, wd=.01, clip_gradient=1.5, out=w)
_W = [0.9799904227256775, 1.987882375717163, -3.0120737552642822]
_MEAN = [0.1900000274181366, 0.029999956488609314, 0.4200000464916229]
_VAR = [0.40059998631477356, 0.5017499923706055, 0.6016499996185303]
_ARGS = dict(lr=0.1, eta=0.5, wd=0.01, clip_gradient=1.5)


def _state():
    return (mx.nd.array([1., 2., -3.]), mx.nd.array([.5, -1., 2.]), mx.nd.array([.1, .2, .3]),
            mx.nd.array([.4, .5, .6]))


def test_adamw_update_matches_mxnet():
    w, g, m, v = _state()
    mx.nd.contrib.adamw_update(w, g, m, v, rescale_grad=2.0, out=w, **_ARGS)
    np.testing.assert_allclose(w.asnumpy(), _W, rtol=1e-6)
    np.testing.assert_allclose(m.asnumpy(), _MEAN, rtol=1e-6, atol=1e-7)
    np.testing.assert_allclose(v.asnumpy(), _VAR, rtol=1e-6, atol=1e-7)


@pytest.mark.parametrize('scale', [np.inf, np.nan, 0.0])
def test_adamw_skips_step_on_zero_or_nonfinite_scale(scale):
    w, g, m, v = _state()
    mx.nd.contrib.adamw_update(w, g, m, v, rescale_grad=mx.nd.array([scale]), out=w, **_ARGS)
    np.testing.assert_array_equal(w.asnumpy(), [1., 2., -3.])
    np.testing.assert_array_equal(m.asnumpy(), np.float32([.1, .2, .3]))


def test_multi_mp_adamw_update():
    w, g, m, v = _state()
    w16 = w.astype('float16')
    mx.nd.contrib.multi_mp_adamw_update([w16], [g.astype('float16')], [m], [v], [w], 2.0, lrs=[.1],
                                        wds=[.01], etas=[.5], clip_gradient=1.5, out=[w16])
    np.testing.assert_allclose(w.asnumpy(), _W, rtol=1e-6)
    np.testing.assert_allclose(w16.asnumpy(), np.float16(_W), rtol=1e-3)
    assert w16.dtype == np.float16


def test_dataloader_forking_pickler_round_trip():
    from gluonjax.gluon.data.dataloader import ForkingPickler
    buf = io.BytesIO()
    ForkingPickler(buf, pickle.HIGHEST_PROTOCOL).dump([mx.nd.array([[1, 2], [3, 4]]), 5])
    arr, num = pickle.loads(buf.getvalue())
    np.testing.assert_array_equal(arr.asnumpy(), [[1, 2], [3, 4]])
    assert num == 5
