"""Shape and indexing operators against numpy references, their gradients, and MXNet's errors.

Expected values that are not plain numpy (reshape codes, pick/topk outputs, error
cases) were checked against MXNet 1.9.1.
"""
import numpy as np
import pytest

import gluonjax as mx
from gluonjax import nd
from gluonjax.base import MXNetError

DTYPES = ['float32', 'int32']


def rand(shape, dtype='float32', seed=0):
    r = np.random.default_rng(seed)
    if np.dtype(dtype).kind in 'iu':
        return r.integers(-5, 6, size=shape).astype(dtype)
    return r.standard_normal(shape).astype(dtype)


def check(out, expected, dtype=None):
    """Same shape, dtype (that of ``expected`` unless given) and values."""
    expected = np.asarray(expected)
    assert out.shape == expected.shape, (out.shape, expected.shape)
    assert out.dtype == np.dtype(dtype or expected.dtype), (out.dtype, dtype or expected.dtype)
    np.testing.assert_allclose(out.asnumpy(), expected, rtol=1e-6, atol=1e-6)


# ---- gradients: autograd against central finite differences in float64 ------------------------

def _outputs(y):
    return list(y) if isinstance(y, (list, tuple)) else [y]


def autograd_grads(fn, arrays, heads):
    xs = [nd.array(a, dtype='float64') for a in arrays]
    for x in xs:
        x.attach_grad()
    with mx.autograd.record():
        ys = _outputs(fn(*xs))
    mx.autograd.backward(ys, [nd.array(h, dtype='float64') for h in heads])
    return [x.grad.asnumpy() for x in xs]


def numeric_grads(fn, arrays, heads, eps=1e-6):
    def value(args):
        ys = _outputs(fn(*[nd.array(a, dtype='float64') for a in args]))
        return sum(np.sum(y.asnumpy() * h) for y, h in zip(ys, heads))
    grads = []
    for k, a in enumerate(arrays):
        g = np.zeros(a.shape)
        for i in np.ndindex(a.shape):
            plus = [b.copy() for b in arrays]
            minus = [b.copy() for b in arrays]
            plus[k][i] += eps
            minus[k][i] -= eps
            g[i] = (value(plus) - value(minus)) / (2 * eps)
        grads.append(g)
    return grads


def check_grad(fn, *arrays, seed=1):
    """Gradients of fn (NDArrays -> NDArray or list) through autograd equal finite differences."""
    arrays = [np.asarray(a, dtype=np.float64) for a in arrays]
    ys = _outputs(fn(*[nd.array(a, dtype='float64') for a in arrays]))
    r = np.random.default_rng(seed)
    heads = [r.standard_normal(y.shape) for y in ys]
    for got, want in zip(autograd_grads(fn, arrays, heads), numeric_grads(fn, arrays, heads)):
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)


# ---- Reshape ---------------------------------------------------------------------------------

@pytest.mark.parametrize('shape,codes,reverse,expected', [
    ((2, 3, 4), (0, -1), False, (2, 12)),
    ((2, 3, 4), (-2,), False, (2, 3, 4)),
    ((2, 3, 4), (-3, -2), False, (6, 4)),
    ((2, 3, 4), (-4, 1, 2, -2), False, (1, 2, 3, 4)),
    ((2, 3, 4), (-4, -1, 1, -2), False, (2, 1, 3, 4)),
    ((2, 3, 4), (2, 0, 0, 1), False, (2, 3, 4, 1)),
    ((2, 3, 4), (-3, 0), False, (6, 4)),
    ((2, 3, 4), (0, -3), False, (2, 12)),
    ((2, 3, 4), (-1, 0), True, (6, 4)),
    ((2, 3, 4), (2, -1, 1), True, (2, 12, 1)),
    ((2, 3, 4), (-1, 3, 0), True, (2, 3, 4)),
    ((10, 5, 4), (-1, 0), False, (40, 5)),
    ((10, 5, 4), (-1, 0), True, (50, 4)),
    ((2, 3, 4), (24,), False, (24,)),
])
def test_reshape_codes(shape, codes, reverse, expected):
    dtype = DTYPES[len(codes) % 2]
    a = rand(shape, dtype)
    out = nd.reshape(nd.array(a, dtype=dtype), shape=codes, reverse=reverse)
    check(out, a.reshape(expected))
    assert nd.array(a).reshape(codes, reverse=reverse).shape == expected


def test_reshape_legacy_target_shape():
    a = rand((2, 3, 4))
    check(nd.Reshape(nd.array(a), target_shape=(6, 4)), a.reshape(6, 4))
    check(nd.Reshape(nd.array(a), target_shape=(0, 12)), a.reshape(2, 12))


@pytest.mark.parametrize('codes,match', [
    ((5, 5), r'Reshape: cannot reshape array of shape \[2,3,4\] into shape \(5, 5\)'),
    ((-1, 5), r'Reshape: .*\[2,3,4\].*\(-1, 5\)'),
    ((-1, -1), 'only one dimension can be inferred'),
    ((0, 0, 0, 0), 'no input dimension'),
    ((-4, 2, 2, 0, 0), 'do not divide'),
    ((-4, -1, -1, -2), 'cannot both be -1'),
    ((0, -3, -3), 'two input dimensions'),
    ((7,), 'sizes differ'),
])
def test_reshape_errors(codes, match):
    with pytest.raises(MXNetError, match=match):
        nd.reshape(nd.ones((2, 3, 4)), shape=codes)


def test_reshape_grad():
    check_grad(lambda x: nd.reshape(x, shape=(-3, -4, 2, -1)), rand((2, 3, 4)))


# ---- axes ----------------------------------------------------------------------------------

@pytest.mark.parametrize('dtype', DTYPES)
def test_flatten_transpose_swapaxes(dtype):
    a = rand((2, 3, 4), dtype)
    x = nd.array(a, dtype=dtype)
    check(nd.flatten(x), a.reshape(2, 12))
    check(nd.Flatten(nd.array(a[0, 0], dtype=dtype)), a[0, 0].reshape(4, 1))
    check(x.flatten(), a.reshape(2, 12))
    check(nd.transpose(x), a.transpose())
    check(nd.transpose(x, axes=(1, 0, 2)), a.transpose(1, 0, 2))
    check(x.transpose((2, 0, 1)), a.transpose(2, 0, 1))
    check(nd.swapaxes(x, 0, 2), a.swapaxes(0, 2))
    check(nd.SwapAxis(x, dim1=-1, dim2=1), a.swapaxes(-1, 1))
    check(nd.SwapAxis(x), a)


def test_axes_errors():
    x = nd.ones((2, 3, 4))
    with pytest.raises(MXNetError, match=r'transpose: axes \(1, 0\) must list all 3 axes'):
        nd.transpose(x, axes=(1, 0))
    with pytest.raises(MXNetError, match='transpose: axis 5 is out of range'):
        nd.transpose(x, axes=(0, 1, 5))
    with pytest.raises(MXNetError, match='not a permutation'):
        nd.transpose(x, axes=(0, 1, 1))
    with pytest.raises(MXNetError, match='SwapAxis: dim2 3 is out of range'):
        nd.swapaxes(x, 0, 3)
    with pytest.raises(MXNetError, match=r'expand_dims: axis must be in the range \[-4, 3\]'):
        nd.expand_dims(x, axis=4)
    with pytest.raises(MXNetError, match='squeeze: cannot squeeze out axis 1'):
        nd.squeeze(nd.ones((1, 3, 1)), axis=1)
    with pytest.raises(MXNetError, match='Flatten'):
        nd.Flatten(nd.array(3.0))


def test_expand_dims_squeeze():
    dtype = 'int32'
    a = rand((2, 1, 3, 1), dtype)
    x = nd.array(a, dtype=dtype)
    for axis in (0, 2, 4, -1, -5):
        check(nd.expand_dims(x, axis=axis), np.expand_dims(a, axis))
    check(nd.squeeze(x), a.reshape(2, 3))
    check(nd.squeeze(x, axis=1), a.reshape(2, 3, 1))
    check(nd.squeeze(x, axis=(1, -1)), a.reshape(2, 3))
    check(x.squeeze(axis=3), a.reshape(2, 1, 3))
    # MXNet never makes a 0-d array here
    check(nd.squeeze(nd.ones((1, 1), dtype=dtype)), np.ones((1,), dtype))
    check(nd.squeeze(nd.ones((1, 1)), axis=(0, 1)), np.ones((1,), 'float32'))
    f = rand((3, 1))
    check(nd.squeeze(nd.array(f)), f.reshape(3))


def test_axes_grads():
    a = rand((2, 3, 4))
    check_grad(lambda x: nd.transpose(x, axes=(2, 0, 1)), a)
    check_grad(lambda x: nd.swapaxes(x, 0, 1), a)
    check_grad(lambda x: nd.flatten(nd.expand_dims(x, axis=1)), a)
    check_grad(lambda x: nd.squeeze(x), a.reshape(2, 1, 12))


# ---- joining and splitting -------------------------------------------------------------------

@pytest.mark.parametrize('dtype', DTYPES)
def test_concat_stack(dtype):
    a, b, c = rand((2, 3, 4), dtype, 0), rand((2, 1, 4), dtype, 1), rand((2, 3, 4), dtype, 2)
    xa, xb, xc = (nd.array(v, dtype=dtype) for v in (a, b, c))
    check(nd.concat(xa, xb, xc, dim=1), np.concatenate([a, b, c], axis=1))
    check(nd.Concat(xa, xc, dim=0), np.concatenate([a, c], axis=0))
    check(nd.concat(xa, xc, dim=-1), np.concatenate([a, c], axis=-1))
    check(nd.concat(xa), a)
    check(nd.concat(*[xa, xb], dim=1), np.concatenate([a, b], axis=1))
    check(nd.stack(xa, xc), np.stack([a, c]))
    check(nd.stack(xa, xc, axis=3), np.stack([a, c], axis=3))
    check(nd.stack(xa, xc, axis=-2), np.stack([a, c], axis=-2))
    check(nd.stack(xa), a[None])


def test_concat_stack_errors():
    x = nd.ones((2, 3, 4))
    with pytest.raises(MXNetError, match=r'Concat: input 1 has shape \[2,3,5\], incompatible with input 0 of shape '
                                         r'\[2,3,4\]'):
        nd.concat(x, nd.ones((2, 3, 5)), dim=1)
    with pytest.raises(MXNetError, match='Concat: dim 3 is out of range'):
        nd.concat(x, x, dim=3)
    with pytest.raises(MXNetError, match='Concat: all inputs must have the same dtype'):
        nd.concat(x, nd.ones((2, 3, 4), dtype='float64'))
    with pytest.raises(MXNetError, match='stack: axis 4 is out of range'):
        nd.stack(x, x, axis=4)
    with pytest.raises(MXNetError, match=r'stack: all inputs must have the same shape, got \[2,3,4\]'):
        nd.stack(x, nd.ones((2, 3, 5)))


@pytest.mark.parametrize('dtype', DTYPES)
def test_split(dtype):
    a = rand((2, 6, 4), dtype)
    x = nd.array(a, dtype=dtype)
    parts = nd.split(x, num_outputs=3)
    assert isinstance(parts, list) and len(parts) == 3
    for p, e in zip(parts, np.split(a, 3, axis=1)):
        check(p, e)
    for p, e in zip(nd.SliceChannel(x, 2, axis=-1), np.split(a, 2, axis=-1)):
        check(p, e)
    for p, e in zip(nd.split(x, 2, axis=0, squeeze_axis=True), a):
        check(p, e)
    for p, e in zip(x.split(2, axis=2), np.split(a, 2, axis=2)):
        check(p, e)
    one = nd.split(x, num_outputs=1, axis=1)  # one output: an NDArray, as in MXNet
    assert isinstance(one, nd.NDArray)
    check(one, a)


def test_split_errors_and_grad():
    x = nd.ones((2, 3, 4))
    with pytest.raises(MXNetError, match=r'split: cannot split axis 2 of shape \[2,3,4\] into num_outputs=5'):
        nd.split(x, 5, axis=2)
    with pytest.raises(MXNetError, match='squeeze_axis=True the size of axis 2'):
        nd.split(x, 2, axis=2, squeeze_axis=True)
    with pytest.raises(MXNetError, match='split: axis 3 is out of range'):
        nd.split(x, 2, axis=3)
    check_grad(lambda v: nd.split(v, 3, axis=1), rand((2, 3, 2)))
    check_grad(lambda u, v: nd.concat(u, v, dim=0), rand((1, 3)), rand((2, 3)))
    check_grad(lambda u, v: nd.stack(u, v, axis=1), rand((2, 3)), rand((2, 3), seed=3))


# ---- slicing ------------------------------------------------------------------------------------

@pytest.mark.parametrize('begin,end,step', [
    ((0, 1), (2, 3), ()),
    ((None, None, None), (None, None, None), (-1, -1, -2)),
    ((1,), (0,), (-1,)),
    ((0, 5), (2, 6), ()),
    ((0, 2), (2, 1), ()),
    ((-1, -2), (None, None), ()),
    ((0, -10), (2, 10), ()),
    ((None, 2), (None, 0), (1, -1)),
])
def test_slice(begin, end, step):
    dtype = DTYPES[len(step) % 2]
    a = rand((2, 3, 4), dtype)
    index = tuple(slice(b, e, s) for b, e, s in zip(begin, end, step or (None,) * len(begin)))
    check(nd.slice(nd.array(a, dtype=dtype), begin=begin, end=end, step=step), a[index])
    check(nd.crop(nd.array(a, dtype=dtype), begin, end, step), a[index])


def test_slice_axis_like():
    a = rand((2, 3, 4))
    x = nd.array(a)
    check(nd.slice_axis(x, axis=1, begin=1, end=None), a[:, 1:])
    check(nd.slice_axis(x, axis=-1, begin=-3, end=-1), a[..., -3:-1])
    check(x.slice_axis(axis=0, begin=0, end=1), a[:1])
    check(nd.slice_like(x, nd.ones((1, 2, 3))), a[:1, :2, :3])
    check(nd.slice_like(x, nd.ones((1, 2)), axes=(0,)), a[:1])
    check(nd.slice_like(x, nd.ones((1, 2, 3)), axes=(-1,)), a[..., :3])


def test_slice_errors():
    x = nd.ones((2, 3, 4))
    with pytest.raises(MXNetError, match='slice: begin .* more entries than the 3 dimensions'):
        nd.slice(x, begin=(0, 0, 0, 0), end=(1, 1, 1, 1))
    with pytest.raises(MXNetError, match=r'slice: step\[0\] cannot be 0'):
        nd.slice(x, begin=(0, 0), end=(2, 3), step=(0, 1))
    with pytest.raises(MXNetError, match='slice_axis: axis 3 is out of range'):
        nd.slice_axis(x, axis=3, begin=0, end=1)
    with pytest.raises(MXNetError, match='slice_axis: invalid begin=2, end=1'):
        nd.slice_axis(x, axis=1, begin=2, end=1)
    with pytest.raises(MXNetError, match='slice_axis: invalid begin=0, end=5'):
        nd.slice_axis(x, axis=1, begin=0, end=5)
    with pytest.raises(MXNetError, match='slice_like: axis 2 of shape_like'):
        nd.slice_like(x, nd.ones((1, 2, 5)))
    with pytest.raises(MXNetError, match='slice_like: with no axes'):
        nd.slice_like(x, nd.ones((1, 2, 3, 4)))


def test_slice_grads():
    a = rand((3, 4))
    check_grad(lambda x: nd.slice(x, begin=(None, 3), end=(None, 0), step=(-2, -1)), a)
    check_grad(lambda x: nd.slice_axis(x, axis=1, begin=1, end=3), a)
    # slice_like: no gradient to shape_like
    b = nd.array(rand((2, 2)))
    b.attach_grad()
    x = nd.array(a)
    x.attach_grad()
    with mx.autograd.record():
        y = nd.slice_like(x, b)
    y.backward()
    expected = np.zeros_like(a)
    expected[:2, :2] = 1
    check(x.grad, expected)
    check(b.grad, np.zeros((2, 2), 'float32'))


# ---- tile, repeat, pad, reverse --------------------------------------------------------------------

@pytest.mark.parametrize('dtype', DTYPES)
def test_tile_repeat_reverse(dtype):
    a = rand((2, 3), dtype)
    x = nd.array(a, dtype=dtype)
    for reps in ([(2,), (1, 2, 2)] if dtype == 'int32' else [(2, 1), ()]):
        check(nd.tile(x, reps=reps), np.tile(a, reps))
    check(nd.repeat(x, repeats=2), np.repeat(a.ravel(), 2))
    check(nd.repeat(x, repeats=3, axis=1), np.repeat(a, 3, axis=1))
    check(x.repeat(2, axis=-2), np.repeat(a, 2, axis=-2))
    check(nd.reverse(x, axis=1), a[:, ::-1])
    check(nd.flip(x, axis=(0, 1)), a[::-1, ::-1])
    check(x.flip(axis=0), a[::-1])
    check(nd.flip(x, axis=(1, 0, 1)), a[::-1])  # MXNet reverses once per listed axis
    with pytest.raises(MXNetError, match='reverse: axis -1 is out of range'):  # as MXNet 1.9.1
        nd.reverse(x, axis=-1)


def test_tile_repeat_reverse_errors_and_grads():
    x = nd.ones((2, 3))
    with pytest.raises(MXNetError, match='tile: reps'):
        nd.tile(x, reps=(0, 1))
    with pytest.raises(MXNetError, match='repeat: repeats cannot be negative'):
        nd.repeat(x, repeats=-1, axis=1)
    with pytest.raises(MXNetError, match='repeat: axis 3 is out of range'):
        nd.repeat(x, repeats=2, axis=3)
    with pytest.raises(MXNetError, match='reverse: axis 2 is out of range'):
        nd.reverse(x, axis=2)
    a = rand((2, 3))
    check_grad(lambda v: nd.tile(v, reps=(2, 1, 2)), a)
    check_grad(lambda v: nd.repeat(v, repeats=2, axis=0), a)
    check_grad(lambda v: nd.repeat(v, repeats=2), a)
    check_grad(lambda v: nd.flip(v, axis=(0, 1)), a)


@pytest.mark.parametrize('mode', ['constant', 'edge', 'reflect'])
@pytest.mark.parametrize('shape,width', [((1, 2, 3, 4), (0, 0, 0, 0, 1, 2, 2, 1)),
                                         ((2, 1, 2, 3, 4), (0, 0, 0, 0, 1, 1, 2, 0, 0, 3))])
def test_pad(mode, shape, width):
    a = rand(shape)
    pairs = [(width[2 * i], width[2 * i + 1]) for i in range(len(shape))]
    kw = {'constant_values': 2.5} if mode == 'constant' else {}
    expected = np.pad(a, pairs, mode=mode, **kw)
    out = nd.pad(nd.array(a), mode=mode, pad_width=width, constant_value=2.5)
    check(out, expected)
    check(nd.Pad(nd.array(a, dtype='float64'), mode=mode, pad_width=width, constant_value=2.5), expected, 'float64')
    check_grad(lambda v: nd.pad(v, mode=mode, pad_width=width, constant_value=2.5), a)


def test_pad_grad_matches_mxnet():
    # MXNet 1.9.1: gradient of reflect/edge padding of arange(12).reshape(1,1,3,4) with ones
    x = nd.arange(12).reshape((1, 1, 3, 4))
    x.attach_grad()
    with mx.autograd.record():
        y = nd.pad(x, mode='reflect', pad_width=(0, 0, 0, 0, 2, 2, 2, 2))
    y.backward(nd.ones(y.shape))
    check(x.grad, np.array([[[[2, 6, 6, 2], [3, 9, 9, 3], [2, 6, 6, 2]]]], 'float32'))
    with mx.autograd.record():
        y = nd.pad(x, mode='edge', pad_width=(0, 0, 0, 0, 2, 2, 2, 2))
    y.backward(nd.ones(y.shape))
    check(x.grad, np.array([[[[9, 3, 3, 9], [3, 1, 1, 3], [9, 3, 3, 9]]]], 'float32'))


@pytest.mark.parametrize('data,kw,match', [
    (nd.ones((2, 3, 4)), dict(mode='constant', pad_width=(0, 0, 1, 1, 1, 1)), 'only 4-D and 5-D'),
    (nd.ones((1, 2, 3, 4)), dict(mode='constant', pad_width=(1, 0, 0, 0, 1, 1, 2, 2)), 'first two axes'),
    (nd.ones((1, 2, 3, 4)), dict(mode='constant', pad_width=(0, 0, 0, 0, 1, 1)), '2 entries per axis'),
    (nd.ones((1, 2, 3, 4)), dict(mode='reflect', pad_width=(0, 0, 0, 0, 3, 3, 1, 1)), 'smaller than'),
    (nd.ones((1, 2, 3, 4)), dict(mode='foo', pad_width=(0, 0, 0, 0, 1, 1, 1, 1)), 'invalid mode'),
    (nd.ones((1, 2, 3, 4), dtype='int32'), dict(mode='constant', pad_width=(0, 0, 0, 0, 1, 1, 1, 1)),
     'floating point'),
])
def test_pad_errors(data, kw, match):
    with pytest.raises(MXNetError, match='Pad: .*' + match):
        nd.pad(data, **kw)


# ---- cast, *_like, broadcasting ---------------------------------------------------------------

@pytest.mark.parametrize('dtype', ['int32', 'uint8', 'float16', 'float64', 'int64', 'bool'])
def test_cast(dtype):
    a = np.array([[0.0, 1.7, 2.2], [3.9, 0.4, 5.0]], 'float32')
    check(nd.cast(nd.array(a), dtype=dtype), a.astype(dtype))
    check(nd.Cast(nd.array(a), dtype), a.astype(dtype))
    check(nd.array(a).astype(dtype), a.astype(dtype))


def test_cast_grad():
    x = nd.array([1.5, -2.0])
    x.attach_grad()
    with mx.autograd.record():
        y = nd.cast(x, dtype='float64') * 3
    y.backward()
    check(x.grad, np.array([3, 3], 'float32'))


def test_reshape_like():
    a = rand((2, 3, 4))
    x = nd.array(a)
    check(nd.reshape_like(x, nd.ones((4, 6))), a.reshape(4, 6))
    check(x.reshape_like(nd.ones((4, 6))), a.reshape(4, 6))
    check(nd.reshape_like(x, nd.ones((6, 1)), lhs_begin=0, lhs_end=2, rhs_begin=0, rhs_end=1), a.reshape(6, 4))
    check(nd.reshape_like(x, nd.ones((3, 2, 7)), lhs_begin=-3, lhs_end=-1, rhs_begin=0, rhs_end=-1),
          a.reshape(3, 2, 4))
    with pytest.raises(MXNetError, match=r'reshape_like: cannot reshape lhs of shape \[2,3,4\] to \[4,5\]'):
        nd.reshape_like(x, nd.ones((4, 5)))
    check_grad(lambda u, v: nd.reshape_like(u, v), rand((2, 3)), rand((3, 2)))


@pytest.mark.parametrize('dtype', DTYPES)
def test_broadcasts(dtype):
    a = rand((2, 1, 4), dtype)
    x = nd.array(a, dtype=dtype)
    check(nd.broadcast_to(x, shape=(2, 3, 4)), np.broadcast_to(a, (2, 3, 4)))
    check(nd.broadcast_to(x, shape=(0, 3, 0)), np.broadcast_to(a, (2, 3, 4)))
    check(x.broadcast_to((2, 5, 4)), np.broadcast_to(a, (2, 5, 4)))
    check(nd.broadcast_like(x, nd.ones((2, 3, 4))), np.broadcast_to(a, (2, 3, 4)))
    b = rand((2, 1, 1), dtype)
    check(nd.broadcast_like(nd.array(b, dtype=dtype), nd.ones((5, 6)), lhs_axes=(1, 2), rhs_axes=(0, 1)),
          np.broadcast_to(b, (2, 5, 6)))
    check(nd.broadcast_axis(nd.array(b, dtype=dtype), axis=(1, 2), size=(3, 4)), np.broadcast_to(b, (2, 3, 4)))
    check(nd.broadcast_axes(nd.array(b, dtype=dtype), axis=1, size=3), np.broadcast_to(b, (2, 3, 1)))


@pytest.mark.parametrize('call,match', [
    (lambda: nd.broadcast_to(nd.ones((2, 1, 4)), shape=(3, 3, 4)),
     r'broadcast_to: array cannot be broadcast from \[2,1,4\] to \[3,3,4\]'),
    (lambda: nd.broadcast_to(nd.ones((1, 4)), shape=(2, 3, 4)),
     r'broadcast_to: operand of shape \[1,4\] cannot be broadcast to \[2,3,4\]'),
    (lambda: nd.broadcast_like(nd.ones((2, 1, 4)), nd.ones((3, 3, 4))), 'broadcast_like: array cannot be broadcast'),
    (lambda: nd.broadcast_like(nd.ones((2, 1, 1)), nd.ones((5, 6)), lhs_axes=(0, 2), rhs_axes=(0, 1)),
     'broadcast_like: axis 0 of lhs'),
    (lambda: nd.broadcast_axis(nd.ones((2, 1, 1)), axis=0, size=3), 'broadcast_axis: axis 0 of shape'),
    (lambda: nd.broadcast_axis(nd.ones((2, 1, 1)), axis=(1, 2), size=(3,)), 'broadcast_axis: axis .* same length'),
])
def test_broadcast_errors(call, match):
    with pytest.raises(MXNetError, match=match):
        call()


def test_broadcast_methods_add_leading_axes_as_mxnet_does():
    """The NDArray methods (not the operators) pad the shape with leading 1s first, and raise
    ValueError for a shape they cannot reach; mx.np's method is np.broadcast_to."""
    check(nd.array([5.]).broadcast_like(nd.zeros((3, 1))), np.full((3, 1), 5.), 'float32')
    check(nd.array([1., 2.]).broadcast_to((3, 2)), np.broadcast_to([1., 2.], (3, 2)), 'float32')
    check(nd.array([1.]).broadcast_to((2, 0, 3)), np.ones((2, 1, 3)), 'float32')  # the operator's 0 keeps the axis
    for call in (lambda: nd.ones((1, 2)).broadcast_to((2,)), lambda: nd.ones((2,)).broadcast_like(nd.ones((3, 4))),
                 lambda: nd.ones((1, 2)).broadcast_to((3, 0))):
        with pytest.raises(ValueError, match='requested shape'):
            call()
    assert mx.np.array([1., 2.]).broadcast_to((3, 2)).shape == (3, 2)
    with pytest.raises(MXNetError):
        mx.np.ones((1, 2)).broadcast_to((3, 0))  # a real size 0 under NumPy semantics


def test_broadcast_grads():
    check_grad(lambda v: nd.broadcast_to(v, shape=(2, 3, 4)), rand((2, 1, 4)))
    check_grad(lambda v: nd.broadcast_axis(v, axis=(0, 2), size=(2, 3)), rand((1, 2, 1)))
    check_grad(lambda u: nd.broadcast_like(u, nd.ones((3, 2))), rand((1, 2)))


# ---- SequenceMask, diag, depth/space, shape_array ---------------------------------------------

def np_sequence_mask(a, lengths, value, axis):
    out = a.copy()
    for b, n in enumerate(lengths.astype(int)):
        if axis == 0:
            out[n:, b] = value
        else:
            out[b, n:] = value
    return out


@pytest.mark.parametrize('axis', [0, 1])
@pytest.mark.parametrize('dtype', DTYPES)
def test_sequence_mask(axis, dtype):
    a = rand((4, 3, 2), dtype)
    batch = a.shape[1 - axis]
    lengths = np.array([1, 4, 2.7, 0][:batch], 'float32')
    x = nd.array(a, dtype=dtype)
    out = nd.SequenceMask(x, nd.array(lengths), use_sequence_length=True, value=-1, axis=axis)
    check(out, np_sequence_mask(a, lengths, -1, axis))
    check(nd.SequenceMask(x, sequence_length=nd.array(lengths, dtype='int32'), use_sequence_length=True, axis=axis),
          np_sequence_mask(a, lengths, 0, axis))
    check(nd.SequenceMask(x), a)


def test_sequence_mask_errors_and_grad():
    x = nd.ones((2, 3, 4))
    with pytest.raises(MXNetError, match=r'SequenceMask: sequence_length has shape \[2\] but data \[2,3,4\] has '
                                         r'batch size 3'):
        nd.SequenceMask(x, nd.array([1, 2]), use_sequence_length=True)
    with pytest.raises(MXNetError, match='SequenceMask: axis must be 0 or 1'):
        nd.SequenceMask(x, nd.array([1, 2, 3]), use_sequence_length=True, axis=2)
    lengths = nd.array([1, 3])
    check_grad(lambda v: nd.SequenceMask(v, lengths, use_sequence_length=True, value=2.0, axis=1), rand((2, 3, 2)))


def test_diag():
    m, v, t = rand((3, 4), 'int32'), rand((3,)), rand((2, 3, 4))
    for k in (0, 1, -1, 3):
        check(nd.diag(nd.array(m, dtype='int32'), k=k), np.diag(m, k))
        check(nd.diag(nd.array(v), k=k), np.diag(v, k))
    check(nd.diag(nd.array(t)), np.diagonal(t, 0, 0, 1))
    check(nd.diag(nd.array(t), axis1=1, axis2=2, k=1), np.diagonal(t, 1, 1, 2))
    check(nd.diag(nd.array(t), axis1=-1, axis2=0), np.diagonal(t, 0, -1, 0))
    with pytest.raises(MXNetError, match='diag: axis1 and axis2 cannot refer to the same axis 1'):
        nd.diag(nd.ones((2, 3, 4)), axis1=1, axis2=1)
    with pytest.raises(MXNetError, match='diag: diagonal k=5 does not exist'):
        nd.diag(nd.ones((2, 3)), k=5)
    check_grad(lambda x: nd.diag(x, k=1), rand((3, 4)))
    check_grad(lambda x: nd.diag(x, k=-1), rand((3,)))


def test_depth_space():
    a = np.arange(16, dtype='float32').reshape(1, 4, 2, 2)
    # MXNet 1.9.1 output for this input
    d2s = nd.depth_to_space(nd.array(a), 2)
    check(d2s, np.array([[[[0, 4, 1, 5], [8, 12, 9, 13], [2, 6, 3, 7], [10, 14, 11, 15]]]], 'float32'))
    check(nd.space_to_depth(d2s, 2), a)
    s2d = nd.space_to_depth(nd.array(np.arange(16, dtype='float32').reshape(1, 1, 4, 4)), 2)
    check(s2d[0, :2].reshape((-1,)), np.array([0, 2, 8, 10, 1, 3, 9, 11], 'float32'))
    b = rand((2, 8, 3, 2), 'int32')
    check(nd.space_to_depth(nd.depth_to_space(nd.array(b, dtype='int32'), block_size=2), block_size=2), b)
    with pytest.raises(MXNetError, match='depth_to_space: the channel axis .* multiple of block_size'):
        nd.depth_to_space(nd.ones((1, 4, 2, 2)), 3)
    with pytest.raises(MXNetError, match='space_to_depth: the spatial axes'):
        nd.space_to_depth(nd.ones((1, 4, 2, 2)), 3)
    with pytest.raises(MXNetError, match='depth_to_space: the input must be 4-D'):
        nd.depth_to_space(nd.ones((4, 2, 2)), 2)
    check_grad(lambda x: nd.depth_to_space(x, 2), rand((1, 4, 1, 2)))


def test_shape_size_array():
    x = nd.ones((2, 3, 4), dtype='int32')
    check(nd.shape_array(x), np.array([2, 3, 4], 'int64'))
    check(nd.size_array(x), np.array([24], 'int64'))
    check(x.shape_array(), np.array([2, 3, 4], 'int64'))


# ---- indexing --------------------------------------------------------------------------------

def np_take(a, idx, axis, mode):
    i = np.trunc(idx).astype(int)
    n = a.shape[axis]
    i = np.mod(i, n) if mode == 'wrap' else np.clip(i, 0, n - 1)
    return np.take(a, i, axis=axis)


@pytest.mark.parametrize('mode,axis,dtype', [('clip', 0, 'float32'), ('wrap', 1, 'int32'), ('clip', -1, 'int32'),
                                             ('wrap', -1, 'float32')])
def test_take(mode, axis, dtype):
    a = rand((3, 4, 2), dtype)
    idx = np.array([[0, 2.9, 5], [-1, -1.5, 0.6]], 'float32')
    check(nd.take(nd.array(a, dtype=dtype), nd.array(idx), axis=axis, mode=mode), np_take(a, idx, axis, mode))
    check(nd.take(nd.array(a, dtype=dtype), nd.array(idx, dtype='int32'), axis, mode),
          np_take(a, idx.astype('int32'), axis, mode))


def test_take_matches_mxnet_and_errors():
    y = nd.arange(6).reshape((2, 3))
    idx = nd.array([0.6, 1.4, 1.5, -0.5, -1.5, 2.9])
    check(nd.take(y, idx, axis=1), np.array([[0, 1, 1, 0, 0, 2], [3, 4, 4, 3, 3, 5]], 'float32'))
    check(nd.take(y, idx, axis=1, mode='wrap'), np.array([[0, 1, 1, 0, 2, 2], [3, 4, 4, 3, 5, 5]], 'float32'))
    check(nd.take(y, nd.array([0, 2]), axis=1, mode='raise'), np.array([[0, 2], [3, 5]], 'float32'))
    for _ in range(10):  # the first calls (on the host) and the compiled program say the same
        with pytest.raises(MXNetError, match=r'^take: index 7 is out of bounds for an axis of size 3$'):
            nd.take(y, nd.array([0, 7]), axis=1, mode='raise').asnumpy()
    with pytest.raises(MXNetError, match='take: axis 2 is out of range'):
        nd.take(y, nd.array([0, 1]), axis=2)
    with pytest.raises(MXNetError, match="take: mode must be"):
        nd.take(y, nd.array([0, 1]), mode='nope')


def test_take_grad():
    # gradient accumulates into the clipped positions (MXNet 1.9.1: [[3,0,1],[3,0,1]])
    x = nd.array([[3, 1, 2], [1, 5, 5]])
    x.attach_grad()
    with mx.autograd.record():
        v = nd.take(x, nd.array([0, 0, 5, -3]), axis=1)
    v.backward(nd.ones((2, 4)))
    check(x.grad, np.array([[3, 0, 1], [3, 0, 1]], 'float32'))
    check_grad(lambda a: nd.take(a, nd.array([[2, 0], [1, 2]]), axis=0, mode='wrap'), rand((3, 2)))


@pytest.mark.parametrize('keepdims,axis,mode,dtype', [
    (False, 0, 'clip', 'float32'), (True, 1, 'wrap', 'int32'), (False, -1, 'wrap', 'float32'),
    (True, -1, 'clip', 'int32')])
def test_pick(keepdims, axis, mode, dtype):
    a = rand((3, 4, 5), dtype)
    ax = axis % 3
    shape = a.shape[:ax] + a.shape[ax + 1:]
    idx = np.random.default_rng(2).integers(-6, 7, size=shape).astype('float32')
    i = np.trunc(idx).astype(int)
    i = np.mod(i, a.shape[ax]) if mode == 'wrap' else np.clip(i, 0, a.shape[ax] - 1)
    expected = np.take_along_axis(a, np.expand_dims(i, ax), axis=ax)
    if not keepdims:
        expected = np.squeeze(expected, ax)
    check(nd.pick(nd.array(a, dtype=dtype), nd.array(idx), axis=axis, keepdims=keepdims, mode=mode), expected)


def test_pick_matches_mxnet_and_errors():
    y = nd.arange(6).reshape((2, 3))
    check(nd.pick(y, nd.array([0, 2])), np.array([0, 5], 'float32'))
    check(nd.pick(y, nd.array([0, 2]), keepdims=True), np.array([[0], [5]], 'float32'))
    check(nd.pick(y, nd.array([5, -1]), axis=1), np.array([2, 3], 'float32'))
    check(nd.pick(y, nd.array([5, -1]), axis=1, mode='wrap'), np.array([2, 5], 'float32'))
    check(nd.pick(y, nd.array([0.7, 1.6])), np.array([0, 4], 'float32'))
    check(y.pick(nd.array([0, 1, 0]), axis=0), np.array([0, 4, 2], 'float32'))
    with pytest.raises(MXNetError, match='pick: axis=None is not supported'):
        nd.pick(y, nd.array([1]), axis=None)
    with pytest.raises(MXNetError, match=r'pick: index of shape \[3\] does not match data of shape \[2,3\]'):
        nd.pick(y, nd.array([0, 2, 1]))
    with pytest.raises(MXNetError, match='pick: axis 2 is out of range'):
        nd.pick(y, nd.array([0, 1]), axis=2)
    check_grad(lambda a: nd.pick(a, nd.array([[0, 2, 1], [1, 1, 0]]), axis=1), rand((2, 3, 3)))


@pytest.mark.parametrize('dtype', ['float32', 'int32', 'float16'])
def test_one_hot(dtype):
    idx = np.array([[0, 2, 5], [-1, 1.7, 3]], 'float32')
    i = np.trunc(idx).astype(int)
    expected = np.where(i[..., None] == np.arange(4), 5.0, -1.0).astype(dtype)
    check(nd.one_hot(nd.array(idx), 4, on_value=5, off_value=-1, dtype=dtype), expected)
    check(nd.one_hot(nd.array([0, 2, 5, -1]), depth=3),
          np.array([[1, 0, 0], [0, 0, 1], [0, 0, 0], [0, 0, 0]], 'float32'))
    assert nd.one_hot(nd.array([1], dtype='int32'), 3).dtype == np.float32


def test_batch_take():
    a = rand((3, 4))
    check(nd.batch_take(nd.array(a), nd.array([0, 3, 1], dtype='int32')), a[np.arange(3), [0, 3, 1]])
    with pytest.raises(MXNetError, match='batch_take: indices must be int32'):  # as MXNet 1.9.1
        nd.batch_take(nd.array(a), nd.array([0, 3, 1]))


# ---- sorting ------------------------------------------------------------------------------------

def np_argsort(a, axis, ascend):
    """Stable, ties in original order in both directions (as MXNet)."""
    if axis is None:
        a, axis = a.ravel(), 0
    key = a if ascend else -a.astype('float64')
    return np.argsort(key, axis=axis, kind='stable')


@pytest.mark.parametrize('axis,ascend,dtype', [(-1, True, 'float32'), (-1, False, 'int32'), (0, False, 'float32'),
                                               (0, True, 'int32'), (None, False, 'float32'), (None, True, 'int32')])
def test_sort_argsort(axis, ascend, dtype):
    a = np.random.default_rng(3).integers(0, 4, size=(4, 5)).astype(dtype)  # many ties
    x = nd.array(a, dtype=dtype)
    order = np_argsort(a, axis, ascend)
    base = a.ravel() if axis is None else a
    ax = 0 if axis is None else axis
    check(nd.argsort(x, axis=axis, is_ascend=ascend), order.astype('float32'))
    check(nd.argsort(x, axis=axis, is_ascend=ascend, dtype='int32'), order.astype('int32'))
    check(nd.sort(x, axis=axis, is_ascend=ascend), np.take_along_axis(base, order, axis=ax))
    check(x.sort(axis=axis, is_ascend=ascend), np.take_along_axis(base, order, axis=ax))


@pytest.mark.parametrize('axis,ascend,k,dtype', [
    (-1, True, 2, 'float32'), (-1, False, 1, 'int32'), (0, False, 0, 'float32'), (None, True, 3, 'int32'),
    (None, False, 2, 'float32')])
def test_topk(axis, ascend, k, dtype):
    a = np.random.default_rng(4).integers(0, 4, size=(3, 4)).astype(dtype)
    x = nd.array(a, dtype=dtype)
    base, ax = (a.ravel(), 0) if axis is None else (a, axis)
    kk = base.shape[ax] if k < 1 else k
    order = np.take(np_argsort(a, axis, ascend), np.arange(kk), axis=ax)
    values = np.take_along_axis(base, order, axis=ax)
    check(nd.topk(x, axis=axis, k=k, is_ascend=ascend), order.astype('float32'))
    check(nd.topk(x, axis=axis, k=k, is_ascend=ascend, ret_typ='value'), values)
    v, i = nd.topk(x, axis=axis, k=k, is_ascend=ascend, ret_typ='both', dtype='int32')
    check(v, values)
    check(i, order.astype('int32'))
    mask = np.zeros(base.shape, a.dtype)
    np.put_along_axis(mask, order, 1, axis=ax)
    check(nd.topk(x, axis=axis, k=k, is_ascend=ascend, ret_typ='mask'), mask.reshape(a.shape))


def test_topk_matches_mxnet():
    y = nd.array([[3, 1, 2], [1, 5, 5]])
    out = nd.topk(y)
    check(out, np.array([[0], [1]], 'float32'))   # indices, float32, by default
    both = nd.topk(y, k=2, ret_typ='both')
    assert isinstance(both, list) and len(both) == 2
    check(both[0], np.array([[3, 2], [5, 5]], 'float32'))
    check(both[1], np.array([[0, 2], [1, 2]], 'float32'))
    check(nd.topk(y, axis=None, k=3), np.array([4, 5, 0], 'float32'))
    check(nd.topk(y, k=2, dtype='int64'), np.array([[0, 2], [1, 2]], 'int64'))
    check(nd.topk(y, k=2, ret_typ='mask', dtype='int32'), np.array([[1, 0, 1], [0, 1, 1]], 'float32'))
    check(nd.topk(nd.array([[1, 1, 1, 2]]), k=3), np.array([[3, 0, 1]], 'float32'))
    check(nd.argsort(nd.array([[1, 1, 1, 0, 1]]), is_ascend=False), np.array([[0, 1, 2, 4, 3]], 'float32'))
    check(y.topk(k=2, ret_typ='value'), np.array([[3, 2], [5, 5]], 'float32'))
    with pytest.raises(MXNetError, match=r'topk: k=4 is larger than the 3 elements'):
        nd.topk(y, k=4)
    with pytest.raises(MXNetError, match='topk: axis 2 is out of range'):
        nd.topk(y, axis=2)
    with pytest.raises(MXNetError, match='sort: axis 3 is out of range'):
        nd.sort(y, axis=3)
    with pytest.raises(MXNetError, match='topk: ret_typ must be'):
        nd.topk(y, ret_typ='nope')


def test_sort_topk_grads():
    a = rand((3, 4))  # distinct values: piecewise-linear, differentiable at this point
    check_grad(lambda x: nd.sort(x, axis=0, is_ascend=False), a)
    check_grad(lambda x: nd.topk(x, k=2, ret_typ='value'), a)
    check_grad(lambda x: nd.topk(x, k=2, ret_typ='both', is_ascend=True)[0], a)
    check_grad(lambda x: nd.topk(x, axis=None, k=3, ret_typ='value'), a)
    # MXNet 1.9.1: values' gradient scatters back to the chosen positions
    x = nd.array([[3, 1, 2], [1, 5, 5]])
    x.attach_grad()
    with mx.autograd.record():
        v = nd.topk(x, k=2, ret_typ='both', dtype='int32')[0]
    v.backward(nd.array([[1, 2], [3, 4]]))
    check(x.grad, np.array([[1, 0, 2], [0, 3, 4]], 'float32'))


# ---- gather_nd / scatter_nd -----------------------------------------------------------------------

@pytest.mark.parametrize('dtype', DTYPES)
def test_gather_scatter_nd(dtype):
    a = rand((3, 4, 2), dtype)
    idx = np.array([[0, 2, 1], [3, 0, 1]])
    check(nd.gather_nd(nd.array(a, dtype=dtype), nd.array(idx)), a[idx[0], idx[1]])
    idx3 = np.array([[[0, 1], [2, 2]], [[3, 3], [0, 1]], [[1, 0], [1, 1]]])
    check(nd.gather_nd(nd.array(a, dtype=dtype), nd.array(idx3)), a[idx3[0], idx3[1], idx3[2]])
    vals = rand((3, 2), dtype)
    expected = np.zeros((3, 4, 2), dtype)
    expected[idx[0], idx[1]] = vals
    check(nd.scatter_nd(nd.array(vals, dtype=dtype), nd.array(idx), shape=(3, 4, 2)), expected)


def test_gather_scatter_nd_mxnet_examples():
    y = nd.array([[3, 1, 2], [1, 5, 5]])
    check(nd.gather_nd(y, nd.array([[1, 0]])), np.array([[1, 5, 5], [3, 1, 2]], 'float32'))
    check(nd.scatter_nd(nd.array([2, 3]), nd.array([[1, 1], [0, 1]]), shape=(2, 2)),
          np.array([[0, 0], [2, 3]], 'float32'))


def test_gather_scatter_nd_errors_and_grads():
    y = nd.ones((2, 3))
    with pytest.raises(MXNetError, match=r'gather_nd: indices of shape \[3,2\] index 3 axes, more than the 2'):
        nd.gather_nd(y, nd.array([[0, 1], [2, 0], [1, 1]]))
    with pytest.raises(MXNetError, match='scatter_nd: indices .* more than the 1 axes of output'):
        nd.scatter_nd(nd.array([2, 3]), nd.array([[1, 1], [0, 1]]), shape=(2,))
    with pytest.raises(MXNetError, match='scatter_nd: data of shape'):
        nd.scatter_nd(nd.array([2, 3, 4]), nd.array([[1, 1], [0, 1]]), shape=(2, 2))
    idx = nd.array([[0, 2, 1], [3, 0, 1]])
    check_grad(lambda a: nd.gather_nd(a, idx), rand((3, 4)))
    check_grad(lambda v: nd.scatter_nd(v, idx, shape=(3, 4)), rand((3,)))


def test_gather_nd_out_of_bounds_raises_index_error_and_wraps_negatives():
    """As MXNet 1.9.1's CPU gather_nd: IndexError outside [-size, size), negatives from the end."""
    y = nd.array([[0, 1, 2], [3, 4, 5]])
    with pytest.raises(IndexError, match='gather_nd: index 3 is out of bounds for axis 1 with size 3'):
        nd.gather_nd(y, nd.array([[0, 1, 0], [0, 1, 3]])).asnumpy()
    with pytest.raises(IndexError, match='gather_nd: index -5 is out of bounds for axis 1 with size 3'):
        nd.gather_nd(y, nd.array([[0, 1, 0], [0, 1, -5]])).asnumpy()
    check(nd.gather_nd(y, nd.array([[0, 1, -1], [0, 1, -2]])), np.array([0, 4, 4], 'float32'))


def test_boolean_mask_selects_rows_and_routes_gradients_back():
    a = nd.array(np.arange(12).reshape(4, 3))
    a.attach_grad()
    with mx.autograd.record():
        out = nd.contrib.boolean_mask(a, nd.array([0, 1, 0, 1]))
    out.backward(nd.array([[1, 2, 3], [4, 5, 6]]))
    check(out, np.array([[3, 4, 5], [9, 10, 11]], 'float32'))
    check(a.grad, np.array([[0, 0, 0], [1, 2, 3], [0, 0, 0], [4, 5, 6]], 'float32'))
    with pytest.raises(MXNetError, match='boolean_mask: only axis 0'):  # MXNet 1.9.1: 'Not supported yet'
        nd.contrib.boolean_mask(a, nd.array([1, 0, 1]), axis=1)
    assert nd.contrib.boolean_mask(a, nd.zeros(4)).shape == (0, 3)
    with pytest.raises(MXNetError, match=r'boolean_mask: index must be 1-D with the 4 entries of data\[4,3\]'):
        nd.contrib.boolean_mask(a, nd.array([1, 0]))
    # a symbol's executor runs it node by node, reading the count off the index (MXNet 1.9.1 too)
    net = mx.sym.contrib.boolean_mask(mx.sym.var('a'), mx.sym.var('i'))
    exe = net.bind(mx.cpu(), {'a': a, 'i': nd.array([0, 1, 0, 1])})
    check(exe.forward()[0], a.asnumpy()[[1, 3]])
    exe.arg_dict['i'][:] = nd.array([1, 1, 1, 0])  # another count, the same executor
    check(exe.forward()[0], a.asnumpy()[:3])


# ---- the same operators through mx.sym: eager and symbolic give the same values -------------------

@pytest.mark.parametrize('name,kwargs', [
    ('Reshape', dict(shape=(-3, -1))), ('transpose', dict(axes=(1, 0, 2))),
    ('slice', dict(begin=(0, 1), end=(None, 3))),
    ('tile', dict(reps=(1, 2))), ('pad', dict(mode='edge', pad_width=(0, 0, 0, 0, 1, 1, 0, 2))),
    ('topk', dict(k=2, ret_typ='both')), ('split', dict(num_outputs=2, axis=-1)), ('sort', dict(axis=0)),
    ('flip', dict(axis=(0, 2))), ('SwapAxis', dict(dim1=0, dim2=3)), ('expand_dims', dict(axis=1)),
])
def test_symbol_matches_ndarray(name, kwargs):
    a = rand((2, 3, 2, 4)) if name in ('pad', 'SwapAxis') else rand((2, 3, 4))
    eager = _outputs(getattr(nd, name)(nd.array(a), **kwargs))
    sym = getattr(mx.sym, name)(mx.sym.var('x'), **kwargs)
    symbolic = sym.eval(x=nd.array(a))
    assert len(symbolic) == len(eager)
    for s, e in zip(symbolic, eager):
        check(s, e.asnumpy())
    shapes = sym.infer_shape(x=a.shape)[1]
    assert shapes == [e.shape for e in eager]


def test_cast_to_narrow_integers_wraps():
    """Floats to (u)int8/16 go through int32 and wrap, as MXNet's C++ casts do on x86."""
    x = nd.array([300, -1, 2.7, -2.7])
    np.testing.assert_array_equal(nd.cast(x, 'uint8').asnumpy(), [44, 255, 2, 254])
    np.testing.assert_array_equal(x.astype('int8').asnumpy(), [44, -1, 2, -2])


def test_slice_assign_and_crop_assign_match_numpy():
    x = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    rhs = -np.ones((2, 1, 2), dtype=np.float32)
    expected = x.copy()
    expected[0:2, 1:2, 0:4:2] = rhs
    out = nd._internal._slice_assign(nd.array(x), nd.array(rhs), begin=(0, 1, 0), end=(2, 2, 4), step=(1, 1, 2))
    np.testing.assert_array_equal(out.asnumpy(), expected)
    assert mx.nd._internal._crop_assign is not None and 'crop_assign' in mx.nd._internal._crop_assign.__name__
    target = nd.array(x)
    nd._internal._crop_assign(target, nd.zeros((1, 3, 4)), begin=(1, 0, 0), end=(2, 3, 4), out=target)
    np.testing.assert_array_equal(target.asnumpy()[1], 0)
    np.testing.assert_array_equal(target.asnumpy()[0], x[0])
    with pytest.raises(MXNetError, match='does not fit'):
        nd._internal._slice_assign(nd.array(x), nd.zeros((2, 2)), begin=(0,), end=(1,))


def test_slice_assign_scalar_matches_numpy():
    x = np.arange(12, dtype=np.float32).reshape(3, 4)
    expected = x.copy()
    expected[::2, 1:3] = 5
    out = nd._internal._crop_assign_scalar(nd.array(x), scalar=5, begin=(None, 1), end=(None, 3), step=(2, 1))
    np.testing.assert_array_equal(out.asnumpy(), expected)


@pytest.mark.parametrize('source, destination', [(0, -1), ([0, 1], [2, 3]), ([3, 0], [1, 0]), (range(4), range(4))])
def test_moveaxis_matches_numpy(source, destination):
    x = np.zeros((4, 1, 2, 3), dtype=np.float32)
    assert nd.moveaxis(nd.array(x), source, destination).shape == np.moveaxis(x, source, destination).shape


@pytest.mark.parametrize('source, destination', [(3, 0), (0, [0, 1]), ([0, 0], [0, 1]), ([0, 1], [1, 1])])
def test_moveaxis_rejects_bad_axes(source, destination):
    with pytest.raises(ValueError):
        nd.moveaxis(nd.zeros((1, 2, 3)), source, destination)


def test_flatten_squeeze_expand_dims_inplace_share_memory():
    x = nd.array(np.arange(6, dtype=np.float32).reshape(2, 3, 1))
    views = [x.flatten(inplace=True), x.squeeze(inplace=True), x.expand_dims(0, inplace=True)]
    assert [v.shape for v in views] == [(2, 3), (2, 3), (1, 2, 3, 1)]
    copy = x.squeeze()
    x[:] = 7
    for v in views:
        assert (v.asnumpy() == 7).all()
    assert copy.asnumpy()[0, 0] == 0


def test_backward_gather_nd_adds_repeated_indices():
    idx = np.array([[0, 1, 0], [2, 0, 2]])
    data = np.array([1, 2, 3], dtype=np.float32)
    expected = np.zeros((2, 3), dtype=np.float32)
    np.add.at(expected, (idx[0], idx[1]), data)
    out = nd._internal._backward_gather_nd(nd.array(data), nd.array(idx), shape=(2, 3))
    np.testing.assert_array_equal(out.asnumpy(), expected)


# ---- SequenceLast / SequenceReverse --------------------------------------------------------------

_SEQ = np.arange(24, dtype=np.float32).reshape(4, 3, 2)   # (time, batch, feature)
_LENGTHS = np.array([1, 4, 2], dtype=np.float32)


def test_sequence_last_matches_numpy():
    expected = np.stack([_SEQ[int(n) - 1, b] for b, n in enumerate(_LENGTHS)])
    out = nd.SequenceLast(nd.array(_SEQ), nd.array(_LENGTHS), use_sequence_length=True)
    np.testing.assert_array_equal(out.asnumpy(), expected)
    batch_major = nd.SequenceLast(nd.array(_SEQ.transpose(1, 0, 2)), nd.array(_LENGTHS), use_sequence_length=True, axis=1)
    np.testing.assert_array_equal(batch_major.asnumpy(), expected)
    np.testing.assert_array_equal(nd.SequenceLast(nd.array(_SEQ)).asnumpy(), _SEQ[-1])


def test_sequence_reverse_keeps_padding_in_place():
    expected = _SEQ.copy()
    for b, n in enumerate(_LENGTHS.astype(int)):
        expected[:n, b] = _SEQ[:n, b][::-1]
    out = nd.SequenceReverse(nd.array(_SEQ), nd.array(_LENGTHS), use_sequence_length=True)
    np.testing.assert_array_equal(out.asnumpy(), expected)
    np.testing.assert_array_equal(nd.SequenceReverse(nd.array(_SEQ)).asnumpy(), _SEQ[::-1])
    with pytest.raises(MXNetError, match='batch size'):
        nd.SequenceReverse(nd.array(_SEQ), nd.array([1, 2]), use_sequence_length=True)


def test_moments_match_numpy():
    x = np.random.RandomState(0).rand(4, 3, 2).astype(np.float32)
    mean, var = nd.moments(nd.array(x), axes=(0, 2))
    np.testing.assert_allclose(mean.asnumpy(), x.mean(axis=(0, 2)), rtol=1e-6)
    np.testing.assert_allclose(var.asnumpy(), x.var(axis=(0, 2)), rtol=1e-5)
    mean, var = nd.moments(nd.array(x), axes=(1,), keepdims=True)
    assert mean.shape == var.shape == (4, 1, 2)


@pytest.mark.parametrize('leading', ['known', 'unknown'])
def test_ravel_multi_index_and_unravel_index_match_numpy(leading):
    data = np.random.RandomState(1).randint(20, size=(3, 12))
    shape = tuple(int(d) for d in data.max(axis=1) + 1)
    flat = np.ravel_multi_index(data, shape)
    given = shape if leading == 'known' else (-1,) + shape[1:]
    out = nd.ravel_multi_index(nd.array(data), shape=given)
    assert out.dtype == np.float32
    np.testing.assert_array_equal(out.asnumpy(), flat)
    np.testing.assert_array_equal(nd.unravel_index(nd.array(flat), shape=given).asnumpy(), data)
    with pytest.raises(MXNetError, match='rows'):
        nd.ravel_multi_index(nd.array(data), shape=shape[:2])


@pytest.mark.parametrize('indices_or_sections, squeeze', [((1, 3), False), (2, False), ((2,), True), (4, True)])
def test_split_v2_matches_numpy(indices_or_sections, squeeze):
    x = np.arange(24, dtype='float32').reshape(2, 4, 3)
    parts = nd.split_v2(nd.array(x), indices_or_sections, axis=1, squeeze_axis=squeeze)
    want = np.split(x, indices_or_sections, axis=1)
    if squeeze:
        want = [w.squeeze(1) if w.shape[1] == 1 else w for w in want]
    assert [p.shape for p in parts] == [w.shape for w in want]
    for p, w in zip(parts, want):
        np.testing.assert_array_equal(p.asnumpy(), w)
    sym = mx.sym.split_v2(mx.sym.var('d'), indices_or_sections, axis=1)
    assert len(sym.list_outputs()) == len(want)
    with pytest.raises(MXNetError, match='split_v2'):
        nd.split_v2(nd.array(x), 3, axis=1)


def test_index_array_index_copy_and_arange_like():
    x = nd.zeros((2, 3))
    want = np.stack(np.mgrid[0:2, 0:3], axis=-1)
    got = nd.contrib.index_array(x)
    assert got.dtype == np.int64
    np.testing.assert_array_equal(got.asnumpy(), want)
    np.testing.assert_array_equal(nd.contrib.index_array(x, axes=(-1,)).asnumpy(), want[..., 1:])
    old, new = nd.zeros((4, 2)), nd.array([[1, 2], [3, 4]])
    new.attach_grad()
    old.attach_grad()
    with mx.autograd.record():
        out = nd.contrib.index_copy(old, nd.array([3, 1], dtype='int64'), new)
    out.backward()
    np.testing.assert_array_equal(out.asnumpy(), [[0, 0], [3, 4], [0, 0], [1, 2]])
    np.testing.assert_array_equal(old.grad.asnumpy(), [[1, 1], [0, 0], [1, 1], [0, 0]])
    np.testing.assert_array_equal(new.grad.asnumpy(), np.ones((2, 2)))
    with pytest.raises(MXNetError, match='index_copy: new_tensor \\[2,3\\]'):
        nd.contrib.index_copy(old, nd.array([3, 1]), nd.ones((2, 3)))
    # values printed by MXNet 1.9.1
    np.testing.assert_array_equal(nd.contrib.arange_like(x).asnumpy(), [[0, 1, 2], [3, 4, 5]])
    np.testing.assert_array_equal(nd.contrib.arange_like(x, axis=1, start=2, step=0.5, repeat=2).asnumpy(),
                                  [2, 2, 2.5])
    assert nd.contrib.arange_like(x.astype('int32')).dtype == np.int32


def test_amp_cast_and_multicast_move_floats_only():
    assert nd.amp_cast(nd.ones(2), dtype='float16').dtype == np.float16
    assert nd.amp_cast(nd.ones(2, dtype='int32'), dtype='float16').dtype == np.int32  # MXNet leaves ints
    half, single, ints = nd.ones(2, dtype='float16'), nd.ones(2), nd.ones(2, dtype='int32')
    assert [o.dtype for o in nd.amp_multicast(half, single, ints, num_outputs=3)] == [np.float32, np.float32, np.int32]
    assert [o.dtype for o in nd.amp_multicast(half, single, num_outputs=2, cast_narrow=True)] == [np.float16] * 2
    with mx.name.NameManager():  # automatic names count from 0 in a fresh scope
        sym = mx.sym.amp_multicast(mx.sym.var('x'), mx.sym.var('y'), num_outputs=2)
    assert sym.list_outputs() == ['amp_multicast0_output0', 'amp_multicast0_output1']


def test_crop_like_a_reference_or_to_h_w_with_offset_or_centre():
    """MXNet 1.9.1's legacy Crop (values printed by MXNet 1.9.1 for the same calls)."""
    x = nd.array(np.arange(2 * 1 * 5 * 6).reshape(2, 1, 5, 6))
    like = nd.zeros((2, 3, 3, 4))
    assert nd.Crop(x, like, num_args=2).asnumpy()[0, 0].tolist() == [[0, 1, 2, 3], [6, 7, 8, 9], [12, 13, 14, 15]]
    assert nd.Crop(x, like, num_args=2, center_crop=True).asnumpy()[0, 0, 0].tolist() == [7, 8, 9, 10]
    assert nd.Crop(x, num_args=1, h_w=(2, 3), offset=(1, 2)).asnumpy()[0, 0].tolist() == [[8, 9, 10], [14, 15, 16]]
    assert nd.Crop(x, num_args=1, h_w=(2, 3), center_crop=True).asnumpy()[0, 0].tolist() == [[7, 8, 9], [13, 14, 15]]
    with pytest.raises(MXNetError, match=r'Crop: the crop \(6, 3\) must fit'):
        nd.Crop(x, num_args=1, h_w=(6, 3))
    with pytest.raises(MXNetError, match=r'Crop: offset \(4, 0\)'):
        nd.Crop(x, num_args=1, h_w=(2, 3), offset=(4, 0))
    sym = mx.sym.Crop(mx.sym.var('a'), mx.sym.var('b'), num_args=2)
    assert sym.list_arguments() == ['a', 'b']
    assert sym.infer_shape(a=(1, 2, 8, 8), b=(1, 5, 4, 3))[1] == [(1, 2, 4, 3)]
    data = nd.ones((1, 1, 4, 4))
    data.attach_grad()
    with mx.autograd.record():
        out = nd.Crop(data, num_args=1, h_w=(2, 2), offset=(1, 1))
    out.backward()
    assert data.grad.asnumpy()[0, 0].tolist() == [[0, 0, 0, 0], [0, 1, 1, 0], [0, 1, 1, 0], [0, 0, 0, 0]]
