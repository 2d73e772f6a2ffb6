"""The operator table is the one home of an operator's facts: every front end is generated from it.

These tests read the table and check each front end against it, so an operator added as one
entry (``mish`` below, added that way) appears everywhere MXNet has it, and no front end keeps a
table of operator names of its own.
"""
import ast
import inspect
import json
import pathlib

import numpy as np
import pytest

import gluonjax as mx
from gluonjax import autograd
from gluonjax.ops import all_ops, get_op
from gluonjax.ops._frontend import COMPARISONS, PYTHON_OPERATORS, python_operators
from gluonjax.ops._registry import Np, arith_table, named_by, np_entries

ROOT = pathlib.Path(__file__).resolve().parents[1]


def test_an_operator_added_as_one_entry_appears_everywhere():
    """``mish`` is one @register entry with methods=('mish',): nd, sym, NDArray and Symbol
    methods, hybridized F, JSON and its gradient all come from it."""
    x = np.array([-3.0, -0.5, 0.0, 0.7, 4.0], dtype=np.float32)
    want = x * np.tanh(np.log1p(np.exp(x)))
    a = mx.nd.array(x)
    np.testing.assert_allclose(mx.nd.mish(a).asnumpy(), want, rtol=1e-6)
    np.testing.assert_allclose(a.mish().asnumpy(), want, rtol=1e-6)
    s = mx.sym.var('x')
    with mx.name.NameManager():
        node = s.mish()
    assert node.name == 'mish0'
    assert json.loads(node.tojson())['nodes'][1]['op'] == 'mish'
    np.testing.assert_allclose(mx.sym.load_json(node.tojson()).eval(x=a)[0].asnumpy(), want, rtol=1e-6)

    class Net(mx.gluon.HybridBlock):
        def hybrid_forward(self, F, v):
            return F.mish(v)
    net = Net()
    net.hybridize()
    a.attach_grad()
    with autograd.record():
        y = net(a)
    y.backward()
    np.testing.assert_allclose(y.asnumpy(), want, rtol=1e-6)
    sp = np.log1p(np.exp(x))
    sig = 1 / (1 + np.exp(-x))
    grad = np.tanh(sp) + x * (1 - np.tanh(sp) ** 2) * sig
    np.testing.assert_allclose(a.grad.asnumpy(), grad, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize('front', ['nd', 'sym', 'symfunc', 'np'])
def test_each_arith_slot_is_filled_by_one_operator(front):
    table = arith_table(front)
    assert table, front
    for function, slots in table.items():
        assert 'array' in slots and 'scalar' in slots, (front, function, slots)
        for name in slots.values():
            get_op(name)  # every name the table hands out is an operator


def test_nd_functions_and_operators_run_the_tables_operators():
    a = mx.nd.array([[1.0, 5.0], [3.0, 2.0]])
    b = mx.nd.array([[2.0, 2.0], [4.0, 1.0]])
    for function, slots in arith_table('nd').items():
        fn = getattr(mx.nd, function)
        ref = mx.nd.invoke(slots['array'], [a, b], {})
        np.testing.assert_array_equal(fn(a, b).asnumpy(), ref.asnumpy(), err_msg=function)
        ref = mx.nd.invoke(slots['rscalar'], [a], {'scalar': 3.0})
        np.testing.assert_array_equal(fn(3.0, a).asnumpy(), ref.asnumpy(), err_msg=function)
    for base, function, slots in python_operators('nd', set(PYTHON_OPERATORS.values())):
        got = getattr(a, '__%s__' % base)(b)
        np.testing.assert_array_equal(got.asnumpy(), mx.nd.invoke(slots['array'], [a, b], {}).asnumpy())
        if base not in COMPARISONS:
            got = getattr(a, '__r%s__' % base)(3.0)
            ref = mx.nd.invoke(slots['rscalar'], [a], {'scalar': 3.0})
            np.testing.assert_array_equal(got.asnumpy(), ref.asnumpy(), err_msg=base)


def test_symbol_operators_build_the_tables_nodes():
    x, y = mx.sym.var('x'), mx.sym.var('y')
    for base, function, slots in python_operators('sym', set(PYTHON_OPERATORS.values())):
        node = json.loads(getattr(x, '__%s__' % base)(y).tojson())['nodes'][-1]
        assert node['op'] == get_op(slots['array']).name, base
        node = json.loads(getattr(x, '__%s__' % base)(2).tojson())['nodes'][-1]
        assert node['op'] == get_op(slots['scalar']).name, base


def _np_public(name):
    """The mx.np function of a public name of the table ('tril', 'linalg.inv')."""
    space, _, short = name.rpartition('.')
    return getattr(getattr(mx.np, space) if space else mx.np, short)


def test_np_front_end_has_the_tables_functions():
    for function in arith_table('np'):
        assert callable(getattr(mx.np, function)), function
    x = mx.np.array([1.0, 4.0])
    for function, (op, spec) in np_entries().items():
        assert _np_public(function).np_entry == (op, spec), function
        if spec.numpy_scalars and not spec.integers_only and op.inputs == ('data',) \
                and not any(p.required for p in op.params):  # the ufuncs of one array
            want = mx.nd.invoke(op.name, [x], {}).asnumpy()
            np.testing.assert_array_equal(_np_public(function)(x).asnumpy(), want, err_msg=function)
    assert set(named_by('npx')) <= set(dir(mx.npx))


def _np_parameters(fn):
    signature = fn if isinstance(fn, inspect.Signature) else inspect.signature(fn)
    return [(p.name, p.kind, p.default) for p in signature.parameters.values()]


def test_np_functions_and_methods_have_their_entrys_signature():
    """Each Np entry is an mx.np function (or np.ndarray method) with NumPy's signature, whose
    parameters are the operator's inputs and parameters, and which runs that operator."""
    for function, (op, spec) in np_entries().items():
        fn = _np_public(function)
        assert _np_parameters(fn) == _np_parameters(spec.python_signature), function
        assert fn.__doc__.startswith(function + '('), function
        arrays = spec.array_parameters(op)
        assert len(arrays) == (1 if op.variadic or spec.star else len(op.input_names(op._default_attrs))), function
        for name, target in spec.targets(op):
            assert target in op.param_names, (function, name)
    for method, (op, spec) in np_entries('method').items():
        fn = getattr(mx.np.ndarray, method)
        assert fn.np_entry == (op, spec), method
        params = _np_parameters(fn)
        assert params[0][0] == 'self' and params[1:] == _np_parameters(spec.python_signature)[1:], method
    a = mx.np.array([[3.0, -1.0], [2.0, 5.0]])
    np.testing.assert_array_equal(mx.np.tril(a, k=0).asnumpy(), np.tril(a.asnumpy()))
    np.testing.assert_array_equal(a.swapaxes(0, 1).asnumpy(), a.asnumpy().T)  # axis1/axis2 are dim1/dim2
    np.testing.assert_array_equal(a.clip(max=2.0).asnumpy(), np.clip(a.asnumpy(), None, 2.0))
    assert a.argsort().dtype == np.int64  # a fixed parameter of the entry
    with pytest.raises(NotImplementedError, match='prepend'):
        mx.np.diff(a, prepend=0)
    with pytest.raises(TypeError, match='tril'):
        mx.np.tril(a, 0, 1)
    with pytest.raises(TypeError, match="'kk'"):
        mx.np.tril(a, kk=1)
    with pytest.raises(TypeError, match='multiple values'):
        mx.np.tril(a, 1, k=1)
    # a NumPy parameter named like a local of the generated code (np.stack's `arrays`) is the caller's
    np.testing.assert_array_equal(mx.np.stack(arrays=[a, a], axis=1).asnumpy(), np.stack([a.asnumpy()] * 2, axis=1))
    assert 'bind' not in mx.np.tril.__source__  # Python binds the arguments: one straight call
    with pytest.raises(ValueError, match="'kk'"):  # a signature that does not fit fails at registration
        Np('tril(m, kk=0)').check(get_op('_npi_tril'))


def test_an_np_function_added_as_one_entry_appears_in_np_and_hybridized_blocks():
    """``_npi_hanning`` is one @register entry with np=(Np('hanning(M, dtype=None, ctx=None)'),)."""
    assert str(inspect.signature(mx.np.hanning)) == '(M, dtype=None, ctx=None)'
    got = mx.np.hanning(7)
    assert got.dtype == np.float32 and isinstance(got, mx.np.ndarray)
    np.testing.assert_allclose(got.asnumpy(), np.hanning(7), rtol=1e-6, atol=1e-7)
    assert mx.np.hanning(-2, dtype='float64').shape == (0,)

    class Window(mx.gluon.HybridBlock):
        def hybrid_forward(self, F, x):
            return x * F.np.hanning(5)
    mx.npx.set_np()
    try:
        net = Window()
        net.hybridize()
        out = net(mx.np.ones((5,)))
    finally:
        mx.npx.reset_np()
    np.testing.assert_allclose(out.asnumpy(), np.hanning(5), rtol=1e-6, atol=1e-7)


def _one_operator_call(fn):
    """Whether a function's body is nothing but one call of a table operator (``apply_op`` with
    a literal name): no statement-level control flow, no other mx.np function or array method."""
    body = fn.body[1:] if ast.get_docstring(fn) else fn.body
    if any(isinstance(n, (ast.If, ast.For, ast.While, ast.Try, ast.With, ast.IfExp)) for s in body for n in ast.walk(s)):
        return False
    calls = [n for s in body for n in ast.walk(s) if isinstance(n, ast.Call)]
    if any(isinstance(t, ast.Subscript) for s in body if isinstance(s, ast.Assign) for t in s.targets):
        return False  # x[...] = op(x): a write besides the call
    ops = [c for c in calls if isinstance(c.func, ast.Name) and c.func.id == 'apply_op'
           and c.args and isinstance(c.args[0], ast.Constant)]
    others = [c for c in calls if isinstance(c.func, ast.Attribute)
              or (isinstance(c.func, ast.Name) and c.func.id not in _CONVERSIONS)]
    return len(ops) == 1 and len(others) == 1


# What a thin wrapper calls besides the operator: argument conversions.
_CONVERSIONS = {'to_array', 'int', 'float', 'bool', 'tuple', 'list', 'str', '_shape', '_ctx', '_dtype_name',
                '_int_tuple', '_axis'}


def _forwards_to_table_function(method, table_functions):
    """Whether a method's body is ``return f(self, ...)`` for an mx.np function ``f`` of the table
    (``def max(self, axis=None): return amax(self, axis)``): Python operators and properties aside."""
    body = method.body[1:] if ast.get_docstring(method) else method.body
    if method.decorator_list or method.name.startswith('__') or len(body) != 1:
        return False
    call = body[0].value if isinstance(body[0], ast.Return) else None
    return (isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id in table_functions
            and bool(call.args) and isinstance(call.args[0], ast.Name) and call.args[0].id == 'self')


def test_no_hand_written_np_function_is_one_operator_call():
    """An mx.np function or np.ndarray method that only calls one operator comes from the table's
    Np entry (NumPy signature and all); a hand-written one restates the operator's facts."""
    table_functions = set(np_entries())
    found = []
    for path in sorted((ROOT / 'gluonjax' / 'numpy').glob('*.py')):
        tree = ast.parse(path.read_text())
        methods = [f for c in ast.walk(tree) if isinstance(c, ast.ClassDef) for f in c.body
                   if isinstance(f, ast.FunctionDef) and _forwards_to_table_function(f, table_functions)]
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef) and (_one_operator_call(node) or node in methods):
                found.append('%s:%d %s' % (path.relative_to(ROOT), node.lineno, node.name))
    assert not found, 'one-operator np functions written by hand (give the operator an Np entry):\n' + '\n'.join(found)


def test_methods_are_on_ndarray_and_symbol():
    for public in named_by('methods'):
        assert callable(getattr(mx.nd.NDArray, public)), public
        assert callable(getattr(mx.sym.Symbol, public)), public


def test_one_dispatch_protocol_for_nd_functions_on_symbols():
    """nd.X on a Symbol (Gluon 2 forward traced by hybridize) builds the same node sym.X does,
    sub-namespaces included."""
    x = mx.sym.var('x')
    with mx.name.NameManager():
        assert mx.nd.relu(x).name == 'relu0'
        assert mx.nd.linalg.gemm2(x, x).name == 'gemm20'
    assert mx.nd.FullyConnected(x, num_hidden=3, name='fc').list_arguments() == ['x', 'fc_weight', 'fc_bias']


def _dict_literals_of_op_names(path, names):
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Dict):
            strings = [e.value for e in list(node.keys) + list(node.values)
                       if isinstance(e, ast.Constant) and isinstance(e.value, str)]
            hits = [s for s in strings if s in names]
            if len(hits) >= 3:
                found.append('%s:%d %s' % (path.relative_to(ROOT), node.lineno, hits[:4]))
    return found


def test_no_side_table_keyed_by_operator_names_outside_the_table():
    """Facts about operators live in their entries (gluonjax/ops), not in dicts of op names."""
    names = set(all_ops())
    found = []
    for package in ('gluonjax', 'viz', 'kvstore'):
        for path in sorted((ROOT / package).rglob('*.py')):
            if (ROOT / 'gluonjax' / 'ops') in path.parents:
                continue
            found += _dict_literals_of_op_names(path, names)
    assert not found, 'operator facts kept outside the table:\n' + '\n'.join(found)
