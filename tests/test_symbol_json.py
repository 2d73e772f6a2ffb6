"""Symbol JSON: byte-for-byte equality with MXNet 1.9's tojson, round trips (ours -> ours, MXNet's
files -> ours), MXNet 0.x files, validation errors, atomic save, and (when the reference MXNet is
installed) our files loading in MXNet."""
import json
import os
import subprocess
import sys

import pytest

import gluonjax as mx
from gluonjax.base import MXNetError

REF = os.path.join(os.path.dirname(__file__), 'data', 'mxnet_ref')
SYM = os.path.join(REF, 'symbol')
sys.path.insert(0, REF)
from symbol_nets import NETS  # noqa: E402

MXREF = '/tmp/mxref/bin/python'


def _net_file(name):
    return os.path.join(SYM, '%s-symbol.json' % name)


@pytest.mark.parametrize('name', sorted(NETS))
def test_tojson_matches_mxnet_byte_for_byte(name):
    with open(_net_file(name)) as f:
        expected = f.read()
    assert NETS[name](mx).tojson() == expected


@pytest.mark.parametrize('name', sorted(NETS))
def test_mxnet_file_loads_and_writes_back_identically(name, tmp_path):
    path = _net_file(name)
    with open(path) as f:
        text = f.read()
    sym = mx.sym.load(path)
    assert sym.tojson() == text
    assert mx.sym.fromjson(text).tojson() == text
    out = tmp_path / 'again-symbol.json'
    sym.save(str(out))
    assert out.read_text() == text
    assert os.listdir(tmp_path) == ['again-symbol.json']  # no temporary file left behind


def test_round_trip_keeps_structure_attributes_and_shapes():
    x = mx.sym.var('x', shape=(2, 3), dtype='float16', lr_mult=0.5, init='["zero", {}]')
    with mx.name.NameManager():
        y = mx.sym.Group([mx.sym.exp(x) * 2, mx.sym.sum(x, axis=1, keepdims=True), x])
    y[0]._set_attr(ctx_group='dev1')
    z = mx.sym.fromjson(y.tojson())
    assert z.tojson() == y.tojson()
    assert z.list_outputs() == ['_mulscalar0_output', 'sum0_output', 'x']
    assert z.attr_dict() == y.attr_dict()
    assert z[1].shape == (2, 1) and z[2].dtype is not None
    assert z.infer_shape() == y.infer_shape()


def test_json_layout_follows_mxnet_writer():
    x = mx.sym.var('x')
    text = mx.sym.exp(x, name='e').tojson()
    assert text == (
        '{\n  "nodes": [\n    {\n      "op": "null", \n      "name": "x", \n      "inputs": []\n    }, \n'
        '    {\n      "op": "exp", \n      "name": "e", \n      "inputs": [[0, 0, 0]]\n    }\n  ], \n'
        '  "arg_nodes": [0], \n  "node_row_ptr": [0, 1, 2], \n  "heads": [[1, 0, 0]], \n'
        '  "attrs": {"mxnet_version": ["int", 10901]}\n}')


# ---- MXNet 0.x files ----------------------------------------------------------------------------

OLD_ELEMWISE = {
    "nodes": [
        {"op": "null", "param": {}, "name": "data", "inputs": [], "backward_source_id": -1,
         "attr": {"ctx_group": "stage1", "lr_mult": "0.2"}},
        {"op": "_mul_scalar", "param": {"scalar": "3"}, "name": "triple", "inputs": [[0, 0]],
         "backward_source_id": -1},
        {"op": "exp", "param": {}, "name": "e", "inputs": [[1, 0]], "backward_source_id": -1,
         "attr": {"ctx_group": "stage2"}},
    ],
    "arg_nodes": [0],
    "heads": [[2, 0]],
}


def test_mxnet_0x_file_with_param_and_attr_keys():
    sym = mx.sym.fromjson(json.dumps(OLD_ELEMWISE))
    assert sym.list_arguments() == ['data'] and sym.list_outputs() == ['e_output']
    assert sym.attr_dict()['data'] == {'__ctx_group__': 'stage1', '__lr_mult__': '0.2', 'ctx_group': 'stage1',
                                       'lr_mult': '0.2'}
    assert sym.get_internals()['triple_output'].attr('scalar') == '3'
    out = sym.eval(data=mx.nd.array([0.0, 1.0]))[0].asnumpy()
    assert out.tolist() == pytest.approx([1.0, float(__import__('numpy').exp(3.0))], rel=1e-6)
    # written back in the 1.x format
    again = json.loads(sym.tojson())
    assert again['nodes'][1]['attrs'] == {'scalar': '3'} and again['nodes'][1]['inputs'] == [[0, 0, 0]]


def test_mxnet_08_file_without_aux_state_nodes():
    """MXNet < 0.9 did not list BatchNorm's moving statistics; they are added as <name>_<aux>."""
    old = {"nodes": [
        {"op": "null", "param": {}, "name": "data", "inputs": [], "backward_source_id": -1},
        {"op": "null", "param": {}, "name": "bn_gamma", "inputs": [], "backward_source_id": -1},
        {"op": "null", "param": {}, "name": "bn_beta", "inputs": [], "backward_source_id": -1},
        {"op": "BatchNorm", "param": {"eps": "0.001", "fix_gamma": "True", "momentum": "0.9",
                                      "use_global_stats": "False"},
         "name": "bn", "inputs": [[0, 0], [1, 0], [2, 0]], "backward_source_id": -1}],
        "arg_nodes": [0, 1, 2], "heads": [[3, 0]]}
    sym = mx.sym.fromjson(json.dumps(old))
    assert sym.list_arguments() == ['data', 'bn_gamma', 'bn_beta']
    assert sym.list_auxiliary_states() == ['bn_moving_mean', 'bn_moving_var']


# ---- bad input --------------------------------------------------------------------------------------

def _graph(nodes, heads=((1, 0, 0),)):
    return json.dumps({'nodes': nodes, 'arg_nodes': [0], 'heads': [list(h) for h in heads],
                       'attrs': {'mxnet_version': ['int', 10901]}})


VAR = {'op': 'null', 'name': 'x', 'inputs': []}


@pytest.mark.parametrize('text, message', [
    ('{"nodes": [', 'not valid JSON'),
    ('[1, 2, 3]', 'not a symbol graph'),
    ('{"foo": 1}', 'not a symbol graph'),
    ('{"nodes": [], "heads": []}', '"nodes" must be a non-empty list'),
    (_graph([VAR, {'op': 'NoSuchOp', 'name': 'mystery', 'inputs': [[0, 0, 0]]}]),
     "node 1 \\('mystery'\\): unknown operator 'NoSuchOp'"),
    (_graph([VAR, {'op': 'exp', 'name': 'loop', 'inputs': [[1, 0, 0]]}]),
     "node 1 \\('loop'\\).*cycle"),
    (_graph([VAR, {'op': 'exp', 'name': 'fwd', 'inputs': [[2, 0, 0]]}, {'op': 'exp', 'name': 'b', 'inputs': []}]),
     "node 1 \\('fwd'\\).*cycle"),
    (_graph([VAR, {'op': 'exp', 'name': 'far', 'inputs': [[7, 0, 0]]}]),
     "node 1 \\('far'\\): input refers to node 7, which does not exist"),
    (_graph([VAR, {'op': 'exp', 'name': 'idx', 'inputs': [[0, 3, 0]]}]),
     "node 1 \\('idx'\\): input refers to output 3 of node 0"),
    (_graph([VAR, {'name': 'noop', 'inputs': [[0, 0, 0]]}]), "node 1 \\('noop'\\): missing or invalid field \"op\""),
    (_graph([VAR, {'op': 'exp', 'inputs': [[0, 0, 0]]}]), 'node 1: missing or invalid field "name"'),
    (_graph([VAR, {'op': 'exp', 'name': 'e', 'inputs': [[0, 0, 0]], 'attrs': {'x': 1}}]),
     "node 1 \\('e'\\): \"attrs\" must map names to strings"),
    (_graph([VAR, {'op': 'clip', 'name': 'c', 'inputs': [[0, 0, 0]],
                   'attrs': {'a_min': '0', 'a_max': '1', 'bogus': '1'}}]),
     "node 1 \\('c'\\): clip: unknown parameter 'bogus'"),
    (_graph([VAR, {'op': 'clip', 'name': 'c', 'inputs': [[0, 0, 0]], 'attrs': {'a_min': '0'}}]),
     "node 1 \\('c'\\): clip: required parameter 'a_max' is missing"),
    (_graph([VAR, {'op': 'clip', 'name': 'c', 'inputs': [[0, 0, 0]], 'attrs': {'a_min': 'x', 'a_max': '1'}}]),
     "node 1 \\('c'\\): clip: invalid value 'x' for parameter 'a_min'"),
    (_graph([VAR, {'op': 'exp', 'name': 'e', 'inputs': [0]}]), "node 1 \\('e'\\): input entry 0"),
    (_graph([VAR, {'op': 'exp', 'name': 'e', 'inputs': [[0, 0, 0], [0, 0, 0]]}]),
     "node 1 \\('e'\\): operator exp takes 1 inputs"),
    (_graph([VAR, {'op': 'broadcast_add', 'name': 'add', 'inputs': [[0, 0, 0]]}]),
     "node 1 \\('add'\\): operator broadcast_add takes inputs lhs, rhs but the file gives 1"),
    (_graph([{'op': 'null', 'name': 'x', 'inputs': [[0, 0, 0]]}], heads=[(0, 0, 0)]),
     "node 0 \\('x'\\): a variable cannot have inputs"),
    (_graph([VAR, {'op': 'exp', 'name': 'e', 'inputs': [[0, 0, 0]]}], heads=[(5, 0, 0)]),
     'head \\[5, 0, 0\\] refers to node 5'),
    (_graph([VAR, {'op': 'exp', 'name': 'e', 'inputs': [[0, 0, 0]]}], heads=[(1, 1, 0)]),
     "head \\[1, 1, 0\\]: node 1 \\('e'\\) has 1 outputs"),
    (_graph([VAR, {'op': 'exp', 'name': 'e', 'inputs': [[0, 0, 0]]}], heads=[]), '"heads" must be a non-empty'),
])
def test_bad_json_gives_an_error_naming_the_problem(text, message):
    with pytest.raises(MXNetError, match=message):
        mx.sym.fromjson(text)


def test_load_errors(tmp_path):
    with pytest.raises(MXNetError, match='cannot read symbol file'):
        mx.sym.load(str(tmp_path / 'missing-symbol.json'))
    bad = tmp_path / 'bad-symbol.json'
    bad.write_text('{"nodes": 3, "heads": []}')
    with pytest.raises(MXNetError, match='bad-symbol.json.*"nodes" must be a non-empty list'):
        mx.sym.load(str(bad))
    with pytest.raises(TypeError):
        mx.sym.fromjson(b'{}')


def test_save_is_atomic(tmp_path, monkeypatch):
    sym = mx.sym.exp(mx.sym.var('x'), name='e')
    target = tmp_path / 'net-symbol.json'
    target.write_text('previous content')

    def broken(self):
        raise RuntimeError('disk full')
    from gluonjax.symbol import symbol as symbol_module
    monkeypatch.setattr(symbol_module.Symbol, 'tojson', broken)
    with pytest.raises(RuntimeError):
        sym.save(str(target))
    assert target.read_text() == 'previous content'
    assert os.listdir(tmp_path) == ['net-symbol.json']
    monkeypatch.undo()
    sym.save(str(target))
    assert mx.sym.load(str(target)).tojson() == sym.tojson()
    with pytest.raises(TypeError):
        sym.save(3)


# ---- our files in MXNet ----------------------------------------------------------------------------

@pytest.mark.skipif(not os.path.exists(MXREF), reason='reference MXNet not installed at /tmp/mxref')
def test_our_json_loads_in_mxnet(tmp_path):
    written = {}
    for name in sorted(NETS):
        sym = NETS[name](mx)
        path = tmp_path / ('%s-symbol.json' % name)
        sym.save(str(path))
        written[str(path)] = [sym.list_arguments(), sym.list_auxiliary_states(), sym.list_outputs()]
    script = (
        'import json, sys\n'
        'import mxnet as mx\n'
        'out = {}\n'
        'for path in json.loads(sys.argv[1]):\n'
        '    s = mx.sym.load(path)\n'
        '    out[path] = [s.list_arguments(), s.list_auxiliary_states(), s.list_outputs(),\n'
        '                 s.tojson() == open(path).read()]\n'
        'print(json.dumps(out))\n')
    res = subprocess.run([MXREF, '-c', script, json.dumps(sorted(written))], capture_output=True, text=True,
                         timeout=120)
    assert res.returncode == 0, res.stderr[-2000:]
    loaded = json.loads(res.stdout.strip().splitlines()[-1])
    for path, lists in written.items():
        assert loaded[path][:3] == lists
        assert loaded[path][3], 'MXNet writes %s back differently' % path


def test_np_shape_flag_in_json_and_legacy_files_read_under_np_shape():
    """Under np_shape the JSON says is_np_shape (0 is then a zero-size dimension); a file without
    it read under np_shape has its 0 dimensions turned into unknown ones (-1), as MXNet 1.9.1."""
    def net():
        return mx.sym.FullyConnected(mx.sym.var('data'), mx.sym.var('weight', shape=(128, 0)), num_hidden=128)
    with mx.np_shape(True):
        assert json.loads(net().tojson())['attrs'] == {'is_np_shape': ['int', 1], 'mxnet_version': ['int', 10901]}
    legacy = net().tojson()
    assert 'is_np_shape' not in json.loads(legacy)['attrs']
    for flag in (False, True):
        with mx.np_shape(flag):
            loaded = mx.sym.load_json(legacy)
            args, outs, _ = loaded.infer_shape(data=(10, 784))
            assert args[1] == (128, 784) and outs == [(10, 128)]
    with mx.np_shape(True):
        assert mx.sym.load_json(legacy).get_internals()['weight'].list_attr() == {'__shape__': '[128,-1]'}
