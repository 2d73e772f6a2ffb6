import numpy as onp
import mxnet as mx
from mxnet import np, npx
npx.set_np()


def show(x):
    if isinstance(x, np.ndarray):
        print(x.dtype, x.shape, onp.round(x.asnumpy().astype('float64'), 4).tolist())
    elif isinstance(x, (list, tuple)):
        print(type(x).__name__, len(x), [(str(v.dtype), v.shape, onp.round(v.asnumpy().astype('float64'), 4).tolist())
                                         if isinstance(v, np.ndarray) else v for v in x])
    else:
        print(type(x).__name__, x)


def attempt(f):
    try:
        show(f())
    except Exception as e:
        print(type(e).__name__)


x = np.array([[1., 2., 3.], [1., -1., 0.5]])
# softmax family
attempt(lambda: npx.softmax(x, axis=-1))
attempt(lambda: npx.softmax(x, temperature=2.0))
attempt(lambda: npx.softmax(x, axis=0, temperature=0.5))
attempt(lambda: npx.softmax(x, length=np.array([2, 3], dtype='int32'), use_length=True))
attempt(lambda: npx.softmax(np.array([1, 2], dtype='int32')))
attempt(lambda: npx.log_softmax(np.array([1, 2], dtype='int32')))
attempt(lambda: npx.softmax(x, dtype='float64'))
attempt(lambda: npx.log_softmax(x, axis=0))
attempt(lambda: npx.log_softmax(x, temperature=2.0))
attempt(lambda: npx.masked_log_softmax(x, np.array([[True, True, False], [True, False, True]])))
attempt(lambda: npx.softmax(x, axis=2))
# activations
attempt(lambda: npx.relu(np.array([-1, 0, 2], dtype='int32')))
attempt(lambda: npx.sigmoid(np.array([0., 100., -100.])))
attempt(lambda: npx.activation(x, act_type='softrelu'))
attempt(lambda: npx.activation(x, act_type='softsign'))
attempt(lambda: npx.activation(x, act_type='sigmoid'))
attempt(lambda: npx.activation(x, act_type='nope'))
attempt(lambda: npx.leaky_relu(x, act_type='elu', slope=1.0))
attempt(lambda: npx.leaky_relu(x, act_type='selu'))
attempt(lambda: np.round(npx.leaky_relu(x, act_type='gelu'), 3))
attempt(lambda: npx.leaky_relu(x, gamma=np.array([0.5]), act_type='prelu'))
# one_hot / pick / topk
attempt(lambda: npx.one_hot(np.array([1, 0, 3]), 3))
attempt(lambda: npx.one_hot(np.array([[1], [2]], dtype='int32'), 3))
attempt(lambda: npx.one_hot(np.array([1, 0], dtype='int32'), 2, on_value=5, off_value=-1))
attempt(lambda: npx.one_hot(np.array([1, 0], dtype='int32'), 2, dtype='int32'))
attempt(lambda: npx.one_hot(np.array([-1, 2], dtype='int64'), 3))
p = np.array([[0.1, 0.2, 0.7], [0.5, 0.3, 0.2]])
attempt(lambda: npx.pick(p, np.array([2, 0])))
attempt(lambda: npx.pick(p, np.array([2, 0]), axis=-1, keepdims=True))
attempt(lambda: npx.pick(p, np.array([0, 1, 0]), axis=0))
attempt(lambda: npx.pick(p, np.array([3, -1]), mode='wrap'))
attempt(lambda: npx.pick(p, np.array([3, -1])))
attempt(lambda: npx.pick(p, np.array([[1], [2]], dtype='int32'), axis=1, keepdims=True))
attempt(lambda: npx.topk(p, k=2, ret_typ='indices'))
attempt(lambda: npx.topk(p, k=2, ret_typ='indices', dtype='int32'))
attempt(lambda: npx.topk(p, k=1, axis=0))
attempt(lambda: npx.topk(p, k=2, is_ascend=True, ret_typ='value'))
attempt(lambda: npx.topk(p, k=2, ret_typ='mask'))
attempt(lambda: npx.topk(p, axis=None, k=3, ret_typ='value'))
attempt(lambda: npx.topk(p, k=2, ret_typ='both', is_ascend=True))
attempt(lambda: npx.topk(p, k=4))
# npx.reshape special codes
r = np.arange(24).reshape(2, 3, 4)
for shape in [(-1,), (-2, -1), (-2, -2, -2), (-4,), (-2, -4), (-5, -2), (-2, -5), (-6, 1, 2, -4), (-2, -6, 1, 3, -2),
              (-2, -6, -1, 1, -2), (4, -1, 2), (6, -1), (24,), (0, -1), (5, -1), (-1, -1), (-5, -5), (-3, -2, -2)]:
    attempt(lambda: npx.reshape(r, shape).shape)
one = np.ones((2, 1, 3))
for shape in [(-2, -3, -2), (-3, -3, -2), (-2, -1), (-5, -2), (-2, -5), (-4,)]:
    attempt(lambda: npx.reshape(one, shape).shape)
attempt(lambda: npx.reshape(r, (-1, 6), reverse=True).shape)
attempt(lambda: npx.reshape(r, (-1, -2), reverse=True).shape)
attempt(lambda: npx.reshape(r, newshape=(3, -1)).shape)
# batch_dot / sequence_mask / misc
A = np.arange(12.).reshape(2, 2, 3)
B = np.arange(12.).reshape(2, 3, 2)
attempt(lambda: npx.batch_dot(A, B))
attempt(lambda: npx.batch_dot(A, A, transpose_b=True))
attempt(lambda: npx.batch_dot(B, B, transpose_a=True))
attempt(lambda: npx.batch_dot(A, A))
attempt(lambda: npx.batch_dot(A, np.ones((3, 3, 2))))
seq = np.arange(12.).reshape(3, 2, 2)
attempt(lambda: npx.sequence_mask(seq, np.array([1, 3]), use_sequence_length=True))
attempt(lambda: npx.sequence_mask(seq, np.array([2, 1]), use_sequence_length=True, value=-1))
attempt(lambda: npx.sequence_mask(seq, np.array([1, 0, 2]), use_sequence_length=True, axis=1))
attempt(lambda: npx.sequence_mask(seq))
attempt(lambda: npx.sequence_mask(seq, np.array([1]), use_sequence_length=True))
attempt(lambda: npx.arange_like(x))
attempt(lambda: npx.arange_like(x, axis=1, start=1.0, step=2.0))
attempt(lambda: npx.cast(x, dtype='int32'))
attempt(lambda: npx.nonzero(np.array([[0., 1.], [2., 0.]])))
attempt(lambda: npx.smooth_l1(np.array([-2., -0.5, 0.2, 3.]), scalar=1.0))
attempt(lambda: npx.gather_nd(x, np.array([[0, 1], [2, 0]], dtype='int32')))
attempt(lambda: npx.slice(x, begin=(0, 1), end=(2, 3)))
attempt(lambda: npx.slice_like(x, np.ones((1, 2))))
attempt(lambda: npx.erf(np.array([0., 1.])))
attempt(lambda: npx.gamma(np.array([1., 5.])))
attempt(lambda: npx.gammaln(np.array([1., 5.])))
attempt(lambda: npx.norm(x) if hasattr(npx, 'norm') else None)
attempt(lambda: npx.box_iou(np.array([[0., 0., 2., 2.]]), np.array([[1., 1., 3., 3.]])))
attempt(lambda: npx.sequence_last(seq, np.array([1, 3]), use_sequence_length=True))
attempt(lambda: npx.sequence_reverse(seq, np.array([2, 3]), use_sequence_length=True))
attempt(lambda: npx.shape_array(x))
attempt(lambda: npx.index_update(x, np.array([[0], [1]], dtype='int32'), np.array([9.])) if hasattr(npx, 'index_update') else None)
