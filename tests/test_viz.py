"""mx.viz: plot_network draws what MXNet draws (nodes, labels, colours, edges, shape labels) and
print_summary prints MXNet's table; the seed's matrix factorisation example; rendering with dot."""
import json
import os
import shutil
import sys

import pytest

import gluonjax as mx
from gluonjax.ops import find_op

REF = os.path.join(os.path.dirname(__file__), 'data', 'mxnet_ref')
SYM = os.path.join(REF, 'symbol')
sys.path.insert(0, REF)
from symbol_nets import NETS, record_plot  # noqa: E402

graphviz = pytest.importorskip('graphviz')

with open(os.path.join(SYM, 'plot.json')) as _f:
    PLOTS = json.load(_f)
with open(os.path.join(SYM, 'summary.json')) as _f:
    SUMMARIES = json.load(_f)

SHAPES = {'mf': {'user': (32,), 'item': (32,), 'score': (32,)}, 'lenet': {'data': (64, 1, 28, 28)},
          'bnnet': {'data': (2, 3, 6, 6)}, 'mlp': {'data': (3, 5)}, 'multi': {'data': (4, 5)},
          'arith': {'a': (2, 3), 'b': (2, 3)}, 'wide': {'x': (2, 3)}}
NN_OPS = {'mf': ('Embedding', 'Flatten', 'LinearRegressionOutput'),
          'lenet': ('Convolution', 'Activation', 'Pooling', 'Flatten', 'FullyConnected', 'SoftmaxOutput'),
          'bnnet': ('Convolution', 'BatchNorm', 'Activation', 'Pooling', 'Flatten', 'FullyConnected'),
          'mlp': ('FullyConnected', 'Activation', 'SoftmaxOutput'),
          'multi': ('FullyConnected', 'SliceChannel', 'Activation', 'BlockGrad'), 'arith': (), 'wide': ()}


def build(name):
    missing = [o for o in NN_OPS[name] if find_op(o) is None]
    if missing:
        pytest.skip('operators not registered yet: %s' % ', '.join(missing))
    return NETS[name](mx)


def record(symbol, **kwargs):
    return record_plot(mx, symbol, **kwargs)


@pytest.mark.parametrize('variant', ['plain', 'shape', 'weights', 'dtype'])
@pytest.mark.parametrize('name', sorted(PLOTS))
def test_plot_network_draws_what_mxnet_draws(name, variant):
    sym = build(name)
    kwargs = {'plain': {}, 'shape': {'shape': SHAPES[name]}, 'weights': {'hide_weights': False},
              'dtype': {'shape': SHAPES[name], 'dtype': {k: 'float32' for k in SHAPES[name]}}}[variant]
    assert record(sym, **kwargs) == PLOTS[name][variant]


def test_seed_matrix_factorisation_graph():
    """The seed's example (k=64, 100 users, 50 items): nodes and edges as real MXNet draws them."""
    net = build('mf')
    got = record(net, shape=SHAPES['mf'])
    box, oval, other, shape_ops, data = 'box', 'oval', '#fccde5', '#fdb462', '#8dd3c7'
    assert got['nodes'] == [
        ['user', 'user', data, oval], ['embedding0', 'embedding0', other, box],
        ['item', 'item', data, oval], ['embedding1', 'embedding1', other, box],
        ['_mul0', '_mul0', other, box], ['sum_axis0', 'sum_axis0', other, box],
        ['flatten0', 'flatten0', shape_ops, box], ['score', 'score', data, oval],
        ['linearregressionoutput0', 'linearregressionoutput0', other, box]]
    assert got['edges'] == [
        ['embedding0', 'user', ''], ['embedding1', 'item', ''], ['_mul0', 'embedding0', '64'],
        ['_mul0', 'embedding1', '64'], ['sum_axis0', '_mul0', '64'], ['flatten0', 'sum_axis0', ''],
        ['linearregressionoutput0', 'flatten0', '1'], ['linearregressionoutput0', 'score', '']]
    # without hiding, the embedding weights are edge ends (graphviz draws them as plain ovals)
    shown = record(net, hide_weights=False)
    assert ['embedding0', 'embedding0_weight', ''] in shown['edges']
    assert 'embedding0_weight' not in [n[0] for n in shown['nodes']]


def test_lenet_labels():
    got = record(build('lenet'))
    labels = {n[0]: n[1] for n in got['nodes']}
    assert labels['convolution0'] == 'Convolution\n5x5/1, 20'
    assert labels['pooling0'] == 'Pooling\nmax, 2x2/2x2'
    assert labels['fullyconnected0'] == 'FullyConnected\n500'
    assert labels['activation0'] == 'Activation\ntanh'


def test_digraph_object_and_node_attrs():
    sym = NETS['arith'](mx)
    dot = mx.viz.plot_network(sym, title='arith', save_format='svg', node_attrs={'shape': 'oval', 'fixedsize': 'false'})
    assert isinstance(dot, graphviz.Digraph)
    assert dot.name == 'arith' and dot.format == 'svg'
    body = '\n'.join(dot.body)
    assert 'fixedsize=false' in body and 'shape=box' not in body
    assert '_plus0 -> a' in body and 'arrowtail=open' in body and 'dir=back' in body


def test_plot_network_errors():
    with pytest.raises(TypeError, match='Symbol'):
        mx.viz.plot_network('net')
    with pytest.raises(ValueError, match='Input shape is incomplete'), pytest.warns(UserWarning, match='b: '):
        mx.viz.plot_network(mx.sym.broadcast_add(mx.sym.var('a'), mx.sym.var('b')), shape={'a': (2, 3)})
    with pytest.warns(RuntimeWarning, match='Repeated names: x'):
        mx.viz.plot_network(mx.sym.var('x') + mx.sym.var('x'))


@pytest.mark.skipif(shutil.which('dot') is None, reason='graphviz dot program not installed')
@pytest.mark.parametrize('fmt', ['svg', 'png'])
def test_render(tmp_path, fmt):
    dot = mx.viz.plot_network(NETS['arith'](mx), shape=SHAPES['arith'], save_format=fmt)
    out = dot.render(filename='arith', directory=str(tmp_path))
    assert os.path.exists(out) and out.endswith('.' + fmt)
    data = open(out, 'rb').read()
    if fmt == 'svg':
        assert b'_rpower_scalar0' in data and b'<svg' in data
    else:
        assert data[:8] == b'\x89PNG\r\n\x1a\n'


# ---- print_summary --------------------------------------------------------------------------------

@pytest.mark.parametrize('variant', ['shape', 'noshape'])
@pytest.mark.parametrize('name', sorted(n for n in SUMMARIES if n in SHAPES))
def test_print_summary_prints_mxnets_table(name, variant, capsys):
    sym = build(name)
    expected = SUMMARIES[name][variant]
    if expected is None:  # MXNet itself fails on this one (1-D inputs); ours must print a table
        mx.viz.print_summary(sym, shape=SHAPES[name])
        out = capsys.readouterr().out
        assert 'Total params: %d' % (100 * 64 + 50 * 64) in out
        return
    mx.viz.print_summary(sym, shape=SHAPES[name] if variant == 'shape' else None)
    assert capsys.readouterr().out == expected


def test_print_summary_narrow_columns(capsys):
    mx.viz.print_summary(build('lenet'), shape=SHAPES['lenet'], line_length=80, positions=[30, 50, 60, 80])
    assert capsys.readouterr().out == SUMMARIES['lenet_narrow']


def test_print_summary_errors():
    with pytest.raises(TypeError, match='Symbol'):
        mx.viz.print_summary(3)
    with pytest.raises(ValueError, match='Input shape is incomplete'), pytest.warns(UserWarning, match='b: '):
        mx.viz.print_summary(mx.sym.broadcast_add(mx.sym.var('a'), mx.sym.var('b')), shape={'a': (2, 3)})


def test_mx_viz_is_the_viz_package():
    import viz
    assert mx.viz is viz and mx.viz.plot_network is viz.plot_network
