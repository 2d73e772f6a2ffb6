import numpy as onp
import mxnet as mx
from mxnet import np, npx, autograd, gluon
npx.set_np()


def show(x):
    if isinstance(x, np.ndarray):
        print(x.dtype, x.shape, onp.round(x.asnumpy().astype('float64'), 4).tolist())
    elif isinstance(x, (list, tuple)):
        print(type(x).__name__, len(x), [(v.dtype, v.shape) for v in x])
    else:
        print(type(x).__name__, x)


def attempt(f):
    try:
        show(f())
    except Exception as e:
        print(type(e).__name__)


a = np.arange(6).reshape(2, 3)
attempt(lambda: a.reshape(3, 2))
attempt(lambda: a.reshape((-1,)))
attempt(lambda: a.reshape(-1, 2))
attempt(lambda: a.reshape(4, -1))
attempt(lambda: np.reshape(a, (3, -1)))
attempt(lambda: a.T)
attempt(lambda: a.transpose(1, 0))
attempt(lambda: np.transpose(np.ones((2, 3, 4)), (2, 0, 1)).shape)
attempt(lambda: np.concatenate([a, a]))
attempt(lambda: np.concatenate((a, a), axis=1))
attempt(lambda: np.concatenate([a, np.ones((2, 2))], axis=1))
attempt(lambda: np.concatenate([a, np.ones((3, 3))], axis=1))
attempt(lambda: np.stack([a, a]))
attempt(lambda: np.stack([a, a], axis=2).shape)
attempt(lambda: np.split(np.arange(6), 3))
attempt(lambda: np.split(a, [1, 2], axis=1))
attempt(lambda: np.split(np.arange(6), 4))
attempt(lambda: np.expand_dims(a, 0).shape)
attempt(lambda: np.squeeze(np.ones((1, 3, 1))).shape)
attempt(lambda: np.broadcast_to(np.array([1, 2, 3]), (2, 3)))
attempt(lambda: np.tile(np.array([1, 2]), 2))
attempt(lambda: np.repeat(np.array([1, 2]), 2))
attempt(lambda: a.flatten())
attempt(lambda: np.dot(np.array([1., 2.]), np.array([3., 4.])))
attempt(lambda: np.dot(a, np.ones(3)))
attempt(lambda: np.dot(a, a))
attempt(lambda: np.matmul(a, a.T))
attempt(lambda: a @ a.T)
attempt(lambda: np.matmul(np.ones((4, 2, 3)), np.ones((3, 5))).shape)
attempt(lambda: np.tensordot(np.ones((2, 3)), np.ones((3, 4)), axes=1))
attempt(lambda: np.einsum('ij,jk->ik', a, a.T))
attempt(lambda: np.einsum('ii', np.eye(3)))
attempt(lambda: np.outer(np.array([1, 2]), np.array([3, 4])))
attempt(lambda: np.sort(np.array([3, 1, 2])))
attempt(lambda: np.argsort(np.array([3, 1, 2])))
attempt(lambda: np.flip(a, 1))
attempt(lambda: np.unique(np.array([3, 1, 3, 2])))
# npx
x = np.array([[-1., 0.5, 2.], [3., -4., 0.]])
attempt(lambda: npx.relu(x))
attempt(lambda: npx.sigmoid(x))
attempt(lambda: npx.softmax(x))
attempt(lambda: npx.softmax(x, axis=0))
attempt(lambda: npx.log_softmax(x))
attempt(lambda: npx.pick(x, np.array([0, 2])))
attempt(lambda: npx.pick(x, np.array([0, 2], dtype='int32'), axis=1))
attempt(lambda: npx.one_hot(np.array([0, 2]), 3))
attempt(lambda: npx.one_hot(np.array([0, 2], dtype='int32'), 3))
attempt(lambda: npx.topk(x, k=2))
attempt(lambda: npx.topk(x, k=2, ret_typ='value'))
attempt(lambda: npx.topk(x, k=1, ret_typ='both'))
attempt(lambda: npx.sequence_mask(np.ones((3, 2)), np.array([1, 2]), use_sequence_length=True))
attempt(lambda: npx.batch_dot(np.ones((2, 2, 3)), np.ones((2, 3, 1))))
attempt(lambda: npx.activation(x, act_type='tanh'))
attempt(lambda: npx.leaky_relu(x, slope=0.1))
attempt(lambda: npx.fully_connected(x, np.ones((4, 3)), np.zeros(4), num_hidden=4))
attempt(lambda: npx.fully_connected(x, np.ones((4, 3)), None, num_hidden=4, no_bias=True))
attempt(lambda: npx.embedding(np.array([0, 2]), np.arange(6).reshape(3, 2), input_dim=3, output_dim=2))
attempt(lambda: npx.dropout(x, p=0.5))
attempt(lambda: npx.reshape_like(np.ones(6), np.ones((2, 3))).shape)
attempt(lambda: npx.batch_flatten(np.ones((2, 3, 4))).shape)
attempt(lambda: npx.layer_norm(x, np.ones(3), np.zeros(3)))
print(npx.is_np_array(), mx.util.is_np_array(), mx.util.is_np_shape())
