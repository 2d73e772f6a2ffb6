"""Saving and loading Block parameters: MXNet's three naming schemes, files written by MXNet
1.9, and bad files (clear errors, parameters unchanged)."""
import os

import numpy as np
import pytest

import gluonjax as mx
from gluonjax import gluon, nd
from gluonjax import name as mxname
from gluonjax.base import MXNetError
from gluonjax.gluon import nn

REF = os.path.join(os.path.dirname(__file__), 'data', 'mxnet_ref', 'gluon')


class Pair(gluon.HybridBlock):
    """Two Parameters of known shape and a child: names 'pair0_scale', 'pair0_child0_...'."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        with self.name_scope():
            self.scale = self.params.get('scale', shape=(2, 3))
            self.child = Child()

    def hybrid_forward(self, F, x, scale):
        return self.child(F.broadcast_mul(x, scale))


class Child(gluon.HybridBlock):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        with self.name_scope():
            self.offset = self.params.get('offset', shape=(3,))
            self.stat = self.params.get('stat', shape=(3,), grad_req='null')

    def hybrid_forward(self, F, x, offset, stat):
        return F.broadcast_add(x, offset) * 1


def make_pair(seed=0):
    mx.random.seed(seed)
    net = Pair()
    net.initialize(mx.init.Uniform(1.0))
    return net


def values(net):
    return {k: p.data().asnumpy().copy() for k, p in net.collect_params().items()}


def same_values(a, b):
    """Equal values in the same order (the names may differ in their global counter)."""
    assert len(a) == len(b)
    for (ka, va), vb in zip(a.items(), b.values()):
        np.testing.assert_array_equal(va, vb, err_msg=ka)


def test_save_parameters_round_trip_structural(tmp_path):
    src, dst = make_pair(0), make_pair(1)
    f = str(tmp_path / 'pair.params')
    src.save_parameters(f)
    assert sorted(nd.load(f)) == ['child.offset', 'child.stat', 'scale']
    dst.load_parameters(f)
    same_values(values(src), values(dst))


def test_load_prefixed_and_export_names_and_other_counters(tmp_path):
    src = make_pair(0)
    prefixed = str(tmp_path / 'prefixed.params')
    src.collect_params().save(prefixed)
    assert sorted(nd.load(prefixed)) == sorted(src.collect_params().keys())
    stripped = str(tmp_path / 'stripped.params')
    src.collect_params().save(stripped, strip_prefix=src.prefix)
    assert sorted(nd.load(stripped)) == ['child0_offset', 'child0_stat', 'scale']
    exported = str(tmp_path / 'export.params')
    nd.save(exported, {('aux:' if 'stat' in k else 'arg:') + k: v.data()
                       for k, v in src.collect_params().items()})
    for f in (prefixed, stripped, exported):
        dst = make_pair(1)    # built later: its global counter (pairN_) differs from the file's
        assert dst.prefix != src.prefix
        dst.load_parameters(f)
        same_values(values(src), values(dst))


def test_parameter_dict_save_load(tmp_path):
    src = make_pair(0)
    f = str(tmp_path / 'pd.params')
    src.collect_params().save(f)
    with mxname.NameManager():
        dst_net = Pair()
    with mxname.NameManager():
        again = Pair()
    src2 = again  # same names as dst_net: pair0_
    src2.initialize(mx.init.One())
    g = str(tmp_path / 'pd2.params')
    src2.collect_params().save(g)
    dst_net.collect_params().load(g)
    assert (dst_net.scale.data().asnumpy() == 1).all()
    with pytest.raises(AssertionError, match='restore_prefix'):
        dst_net.collect_params().load(g, restore_prefix='zzz_')


def test_missing_and_extra_names_are_reported_and_nothing_changes(tmp_path):
    net = make_pair(0)
    before = values(net)
    f = str(tmp_path / 'partial.params')
    nd.save(f, {'scale': nd.ones((2, 3)), 'child.offset': nd.ones((3,))})
    with pytest.raises(AssertionError) as info:
        net.load_parameters(f)
    msg = str(info.value)
    assert "'child.stat'" in msg and 'missing' in msg and net.name in msg and 'allow_missing' in msg
    same_values(before, values(net))
    net.load_parameters(f, allow_missing=True)
    assert (net.scale.data().asnumpy() == 1).all()
    np.testing.assert_array_equal(net.child.stat.data().asnumpy(), before[net.child.stat.name])

    net = make_pair(0)
    before = values(net)
    g = str(tmp_path / 'extra.params')
    arrays = {'scale': nd.ones((2, 3)), 'child.offset': nd.ones((3,)), 'child.stat': nd.ones((3,)),
              'child.unknown': nd.ones((1,))}
    nd.save(g, arrays)
    with pytest.raises(ValueError, match="'child.unknown'.*not present.*ignore_extra"):
        net.load_parameters(g)
    same_values(before, values(net))
    net.load_parameters(g, ignore_extra=True)
    assert (net.child.stat.data().asnumpy() == 1).all()


def test_wrong_shape_names_the_parameter_and_both_shapes(tmp_path):
    net = make_pair(0)
    before = values(net)
    f = str(tmp_path / 'shape.params')
    nd.save(f, {'scale': nd.ones((2, 3)), 'child.offset': nd.ones((4,)), 'child.stat': nd.ones((3,))})
    with pytest.raises(AssertionError) as info:
        net.load_parameters(f)
    msg = str(info.value)
    assert 'child0_offset' in msg and '(3,)' in msg and '(4,)' in msg
    same_values(before, values(net))


def test_dtype_mismatch_and_cast_dtype(tmp_path):
    net = make_pair(0)
    f = str(tmp_path / 'f64.params')
    nd.save(f, {'scale': nd.ones((2, 3), dtype='float64'), 'child.offset': nd.ones((3,)),
                'child.stat': nd.ones((3,))})
    with pytest.raises(AssertionError, match='dtype incompatible.*cast_dtype'):
        net.load_parameters(f)
    net.load_parameters(f, cast_dtype=True)
    assert net.scale.data().dtype == np.float32 and (net.scale.data().asnumpy() == 1).all()
    net.load_parameters(f, cast_dtype=True, dtype_source='saved')
    assert net.scale.data().dtype == np.float64


@pytest.mark.parametrize('content', [b'', b'not a parameter file at all', None])
def test_truncated_or_foreign_files(tmp_path, content):
    net = make_pair(0)
    before = values(net)
    good = str(tmp_path / 'good.params')
    net.save_parameters(good)
    bad = str(tmp_path / 'bad.params')
    data = open(good, 'rb').read()
    with open(bad, 'wb') as f:
        f.write(data[:len(data) // 2] if content is None else content)
    with pytest.raises(MXNetError, match="cannot read parameter file '.*bad.params'"):
        net.load_parameters(bad)
    same_values(before, values(net))
    with pytest.raises(MXNetError, match='does not exist'):
        net.load_parameters(str(tmp_path / 'nope.params'))


def test_deduplicated_save_of_shared_parameters(tmp_path):
    with mxname.NameManager():
        a = nn.Dense(3, in_units=2)
        b = nn.Dense(3, in_units=2, params=a.collect_params())
        net = nn.HybridSequential()
        net.add(a, b)
    net.initialize()
    assert b.weight is a.weight
    f = str(tmp_path / 'shared.params')
    net.save_parameters(f, deduplicate=True)
    assert list(nd.load(f)) == ['1.weight', '1.bias']  # MXNet keeps the last name of each
    with mxname.NameManager():
        c = nn.Dense(3, in_units=2)
        d = nn.Dense(3, in_units=2, params=c.collect_params())
        other = nn.HybridSequential()
        other.add(c, d)
    other.load_parameters(f)   # the shared Parameter needs one of its names
    np.testing.assert_array_equal(d.weight.data().asnumpy(), a.weight.data().asnumpy())


# ---- files written by MXNet 1.9 ---------------------------------------------------------------

def convnet():
    net = nn.HybridSequential()
    with net.name_scope():
        net.add(nn.Conv2D(4, 3, padding=1), nn.BatchNorm(), nn.Activation('relu'), nn.MaxPool2D(2),
                nn.Conv2D(6, 3, groups=2, activation='tanh'), nn.AvgPool2D(2, ceil_mode=True),
                nn.Flatten(), nn.Dense(8, activation='sigmoid'), nn.Dense(3))
    return net


@pytest.mark.parametrize('fname', ['convnet-structural.params', 'convnet-prefixed.params',
                                   'convnet-0000.params'])
def test_mxnet_written_parameter_files_load(fname):
    reference = {k[4:]: v.asnumpy() for k, v in nd.load(os.path.join(REF, 'convnet-0000.params')).items()}
    net = convnet()          # whatever its global counter says
    net.load_parameters(os.path.join(REF, fname))
    got = {k[len(net.prefix):]: p.data().asnumpy() for k, p in net.collect_params().items()}
    want = {k[len('hybridsequential0_'):]: v for k, v in reference.items()}
    assert got.keys() == want.keys()
    for k in got:
        np.testing.assert_array_equal(got[k], want[k], err_msg=k)


def test_block_save_load_restores_child_keys_made_from_names(tmp_path):
    """MXNet's Block.save/load: children keyed by their (counter-made) names load into a second
    Block built the same way, whose children got other names."""
    class Chain(mx.gluon.nn.Block):
        def add(self, block):
            self._children[block.name + str(len(self._children))] = block

        def forward(self, x):
            for block in self._children.values():
                x = block(x)
            return x

    def build():
        net = Chain()
        net.add(mx.gluon.nn.Dense(3))
        net.add(mx.gluon.nn.Dense(2))
        return net
    net1 = build()
    net1.initialize()
    net1.hybridize()
    x = mx.nd.ones((1, 4))
    out1 = net1(x)
    net1.save(str(tmp_path / 'm'))
    net2 = build()
    assert list(net2._children) != list(net1._children)
    net2.load(str(tmp_path / 'm'))
    assert list(net2._children) == list(net1._children)
    assert all(c._active for c in net2._children.values())
    np.testing.assert_allclose(net2(x).asnumpy(), out1.asnumpy(), rtol=1e-6)
