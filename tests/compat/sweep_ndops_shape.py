import numpy as np
import mxnet as mx

nd = mx.nd


def show(x):
    if isinstance(x, (list, tuple)):
        print(type(x).__name__, len(x))
        for y in x:
            show(y)
    elif isinstance(x, nd.NDArray):
        print(x.dtype.__name__, x.shape, x.asnumpy().round(4).tolist())
    else:
        print(type(x).__name__, x)


def attempt(f):
    try:
        show(f())
    except Exception as e:
        print(type(e).__name__)


a = nd.arange(24).reshape((2, 3, 4))
x = nd.array([[1, 2, 3], [4, 5, 6]])
xi = nd.array([[1, 2, 3], [4, 5, 6]], dtype='int32')
# broadcasting
attempt(lambda: nd.broadcast_to(nd.ones((1, 3)), shape=(2, 0)))
attempt(lambda: nd.broadcast_to(nd.ones((2, 1)), shape=(2, 3, 1)))
attempt(lambda: nd.broadcast_to(xi[:1], shape=(3, 3)))
attempt(lambda: nd.broadcast_to(nd.ones((3,)), shape=(2, 3)))
attempt(lambda: nd.broadcast_like(nd.ones((1, 3)), nd.ones((2, 3))))
attempt(lambda: nd.broadcast_like(nd.ones((1, 1)), nd.ones((4, 5, 6)), lhs_axes=(0, 1), rhs_axes=(1, 2)))
attempt(lambda: nd.broadcast_like(nd.ones((1, 3)), nd.ones((2, 4))))
attempt(lambda: nd.broadcast_like(nd.ones((3,)), nd.ones((2, 3))))
attempt(lambda: nd.broadcast_axis(nd.ones((1, 3)), axis=0, size=4))
attempt(lambda: nd.broadcast_axis(nd.ones((2, 1)), axis=-1, size=2))
attempt(lambda: nd.broadcast_axes(nd.ones((1, 1)), axis=(0, 1), size=(2, 3)))
attempt(lambda: nd.broadcast_axis(nd.ones((2, 3)), axis=0, size=4))
attempt(lambda: nd.ones((1, 2)).broadcast_axes(axis=0, size=3))
attempt(lambda: nd.ones((2, 1)).broadcast_like(nd.ones((2, 5))))
# expand/squeeze
attempt(lambda: nd.expand_dims(x, axis=2))
attempt(lambda: nd.expand_dims(x, axis=-3))
attempt(lambda: nd.expand_dims(x, axis=-4))
attempt(lambda: nd.squeeze(nd.ones((1, 2, 1, 3)), axis=(0, 2)))
attempt(lambda: nd.squeeze(nd.ones((1, 2, 1, 3)), axis=-2))
attempt(lambda: nd.squeeze(nd.ones((1, 1))))
attempt(lambda: nd.squeeze(nd.ones((1, 2)), axis=(0, 0)))
attempt(lambda: nd.squeeze(nd.ones((1, 2)), axis=5))
# flip / reverse
attempt(lambda: nd.flip(a, axis=-1))
attempt(lambda: nd.reverse(a, axis=(0, 2)))
attempt(lambda: nd.flip(a, axis=3))
attempt(lambda: nd.flip(xi, axis=0))
attempt(lambda: nd.flip(a, axis=()))
# tile / repeat
attempt(lambda: nd.tile(x, reps=(2, 1, 2)))
attempt(lambda: nd.tile(x, reps=(0, 1)))
attempt(lambda: nd.tile(xi, reps=(1,)))
attempt(lambda: nd.tile(x, reps=()))
attempt(lambda: nd.repeat(x, repeats=2, axis=-2))
attempt(lambda: nd.repeat(xi, repeats=1))
attempt(lambda: nd.repeat(x, repeats=0, axis=1))
attempt(lambda: nd.repeat(x, repeats=2, axis=2))
attempt(lambda: nd.repeat(x, repeats=-1))
# pad
p = nd.arange(8).reshape((1, 2, 2, 2))
attempt(lambda: nd.pad(p, mode='constant', pad_width=(0, 0, 0, 0, 1, 0, 0, 2)))
attempt(lambda: nd.pad(p, mode='edge', pad_width=(0, 0, 0, 0, 1, 1, 2, 1)))
attempt(lambda: nd.pad(p, mode='reflect', pad_width=(0, 0, 0, 0, 1, 1, 1, 1)))
attempt(lambda: nd.pad(p, mode='constant', pad_width=(0, 0, 1, 0, 1, 1, 1, 1)))
attempt(lambda: nd.pad(p, mode='constant', pad_width=(0, 0, 0, 0, 1, 1)))
attempt(lambda: nd.pad(p.reshape((1, 1, 2, 2, 2)), mode='constant', pad_width=(0, 0, 0, 0, 1, 1, 0, 0, 1, 0), constant_value=-1))
attempt(lambda: nd.pad(p.reshape((1, 1, 2, 2, 2)), mode='edge', pad_width=(0, 0, 0, 0, 1, 0, 1, 0, 0, 1)))
attempt(lambda: nd.pad(p[0], mode='constant', pad_width=(0, 0, 1, 1, 1, 1)))
attempt(lambda: nd.pad(p, mode='reflect', pad_width=(0, 0, 0, 0, 2, 2, 2, 2)))
attempt(lambda: nd.pad(p.astype('float64'), mode='constant', pad_width=(0, 0, 0, 0, 1, 1, 1, 1), constant_value=2.5))
attempt(lambda: nd.Pad(p, mode='edge', pad_width=(0, 0, 0, 0, 0, 1, 0, 1)))
# stack / concat / split
y = nd.array([[7, 8, 9], [10, 11, 12]])
attempt(lambda: nd.stack(x, y, axis=-1))
attempt(lambda: nd.stack(x, y, x, axis=1))
attempt(lambda: nd.stack(x))
attempt(lambda: nd.stack(x, y, axis=3))
attempt(lambda: nd.stack(x, xi))
attempt(lambda: nd.stack(*[x, y], num_args=2))
attempt(lambda: nd.concat(x, y, dim=-1))
attempt(lambda: nd.concat(x, y, x, dim=0))
attempt(lambda: nd.concat(x))
attempt(lambda: nd.concat(x, y, dim=2))
attempt(lambda: nd.concat(x, xi, dim=0))
attempt(lambda: nd.Concat(x, y, dim=1))
attempt(lambda: nd.concat(x, nd.ones((2, 1)), dim=1))
attempt(lambda: nd.split(a, num_outputs=2, axis=-1))
attempt(lambda: nd.split(a, num_outputs=3, axis=1, squeeze_axis=True))
attempt(lambda: nd.split(a, num_outputs=2, axis=0, squeeze_axis=1))
attempt(lambda: nd.split(a, num_outputs=4, axis=2, squeeze_axis=False))
attempt(lambda: nd.split(a, num_outputs=2, axis=1))
attempt(lambda: nd.split(a, num_outputs=2, axis=2, squeeze_axis=True))
attempt(lambda: nd.split(a, num_outputs=1, axis=3))
attempt(lambda: nd.SliceChannel(a, num_outputs=2))
attempt(lambda: nd.split_v2(a, indices_or_sections=(1, 3), axis=2))
attempt(lambda: nd.split_v2(a, 3, axis=1, squeeze_axis=True))
attempt(lambda: a.split(num_outputs=1, axis=0))
# transpose / swapaxes
attempt(lambda: nd.transpose(a))
attempt(lambda: nd.transpose(a, axes=(0, -1, 1)))
attempt(lambda: nd.transpose(a, axes=(0, 0, 1)))
attempt(lambda: nd.transpose(a, axes=()))
attempt(lambda: nd.swapaxes(a, dim1=-1, dim2=0))
attempt(lambda: nd.SwapAxis(a, dim1=0, dim2=1))
attempt(lambda: nd.swapaxes(a, 0, 3))
attempt(lambda: nd.swapaxes(a))
attempt(lambda: a.transpose(2, 1, 0))
# depth_to_space / space_to_depth
d = nd.arange(16).reshape((1, 4, 2, 2))
attempt(lambda: nd.depth_to_space(d, block_size=2))
attempt(lambda: nd.space_to_depth(d, block_size=2))
attempt(lambda: nd.space_to_depth(nd.depth_to_space(d, 2), 2))
attempt(lambda: nd.depth_to_space(d, block_size=3))
attempt(lambda: nd.space_to_depth(nd.ones((1, 1, 3, 3)), block_size=2))
attempt(lambda: nd.depth_to_space(d.astype('int32'), block_size=1))
attempt(lambda: nd.depth_to_space(d[0], block_size=2))
attempt(lambda: d.depth_to_space(2))
# diag
attempt(lambda: nd.diag(x, k=1))
attempt(lambda: nd.diag(x, k=-1))
attempt(lambda: nd.diag(x, k=5))
attempt(lambda: nd.diag(nd.array([1, 2, 3]), k=1))
attempt(lambda: nd.diag(nd.array([1, 2]), k=-2))
attempt(lambda: nd.diag(a))
attempt(lambda: nd.diag(a, axis1=1, axis2=2))
attempt(lambda: nd.diag(a, k=1, axis1=-1, axis2=0))
attempt(lambda: nd.diag(a, axis1=1, axis2=1))
attempt(lambda: nd.diag(xi))
# clip
attempt(lambda: nd.clip(x, 2, 4))
attempt(lambda: nd.clip(x, a_min=2.5, a_max=4.5))
attempt(lambda: nd.clip(xi, 2, 4))
attempt(lambda: nd.clip(xi, 1.5, 4.5))
attempt(lambda: nd.clip(x, a_min=5, a_max=2))
attempt(lambda: x.clip(0, 3))
attempt(lambda: nd.clip(x, -np.inf, 3))
# cast
attempt(lambda: nd.cast(x, dtype='float16'))
attempt(lambda: nd.cast(nd.array([-1.5, 255.7, 256.2]), dtype='uint8'))
attempt(lambda: nd.cast(nd.array([-1.5, 127.7, -128.9]), dtype='int8'))
attempt(lambda: nd.cast(nd.array([1e10, -3.9]), dtype='int64'))
attempt(lambda: nd.cast(xi, dtype='float64'))
attempt(lambda: nd.cast(xi, dtype=np.float32))
attempt(lambda: nd.Cast(x, dtype='int32'))
attempt(lambda: nd.cast(x, dtype='bool'))
attempt(lambda: x.astype(np.int8))
attempt(lambda: x.astype('float32', copy=False) is x)
attempt(lambda: x.astype('float32') is x)
# shape_array / size_array
attempt(lambda: nd.shape_array(x))
attempt(lambda: nd.shape_array(nd.ones((0, 3))))
attempt(lambda: nd.size_array(xi))
attempt(lambda: nd.size_array(nd.ones((2, 0))))
attempt(lambda: x.shape_array())
attempt(lambda: x.size_array())
print(nd.shape_array(a))
print(nd.size_array(a))
print(nd.depth_to_space(d, 2))
print(nd.split(a, 2, axis=0)[1])

# method and positional forms
m = nd.array([[3, 1, 2], [6, 5, 4]])
tests = {
 'topk_pos': lambda: m.topk(1, 2), 'sort_pos': lambda: m.sort(0), 'argsort_pos': lambda: m.argsort(0, False),
 'argmax_pos': lambda: m.argmax(1, True), 'argmin_kw': lambda: m.argmin(axis=0, keepdims=True),
 'pick_pos': lambda: m.pick(nd.array([0, 1]), 1), 'one_hot': lambda: nd.array([0, 1]).one_hot(3),
 'take_m': lambda: m.take(nd.array([1])), 'clip_pos': lambda: m.clip(2, 4), 'flip_pos': lambda: m.flip(1),
 'tile_pos': lambda: m.tile((1, 2)), 'repeat_pos': lambda: m.repeat(2, 0), 'swapaxes_pos': lambda: m.swapaxes(0, 1),
 'split_pos': lambda: m.split(3, 1), 'slice_axis_pos': lambda: m.slice_axis(1, 0, 2), 'diag_m': lambda: m.diag(1),
 'broadcast_axes': lambda: m[:1].broadcast_axes(0, 3), 'expand_dims': lambda: m.expand_dims(0),
 'squeeze_ax': lambda: m.expand_dims(0).squeeze(0), 'reshape_like': lambda: m.reshape_like(nd.ones((3, 2))),
 'slice_like': lambda: m.slice_like(nd.ones((1, 2))), 'slice_m': lambda: m.slice((0, 1), (2, 3)),
 'nansum_m': lambda: m.nansum(), 'sign': lambda: m.sign(), 'shape_array': lambda: m.shape_array(),
 'size_array': lambda: m.size_array(), 'reshape_kw': lambda: m.reshape(shape=(3, 2)),
 'reshape_rev': lambda: m.reshape((-1, 0), reverse=True), 'pad_m': lambda: m.reshape((1, 1, 2, 3)).pad('edge', (0, 0, 0, 0, 1, 0, 0, 1)),
 'split_v2': lambda: m.split_v2(3, axis=1) if hasattr(m, 'split_v2') else 'none',
 'flatten': lambda: m.flatten(), 'transpose_kw': lambda: m.transpose(axes=(1, 0)),
 'astype_copy': lambda: m.astype('float32', copy=False) is m, 'argmax_channel': lambda: m.argmax_channel(),
 'sort_kw': lambda: m.sort(axis=None, is_ascend=False), 'topk_kw': lambda: m.topk(axis=None, k=2, ret_typ='value'),
 'where_m': lambda: nd.where(m > 3, m, -m), 'take_m2': lambda: m.take(nd.array([0, 2]), axis=1, mode='wrap'),
 'depth_to_space': lambda: nd.ones((1, 4, 1, 1)).depth_to_space(2), 'space_to_depth': lambda: nd.ones((1, 1, 2, 2)).space_to_depth(2),
 'SequenceMask_pos': lambda: nd.SequenceMask(m, nd.array([1, 2, 1]), True),
 'SequenceLast_pos': lambda: nd.SequenceLast(m, nd.array([1, 2, 1]), True, 0),
 'take_neg_axis': lambda: nd.take(m, nd.array([0]), -2),
 'one_hot_pos': lambda: nd.one_hot(nd.array([1]), 3, 5, -5, 'int32'),
 'stack_list': lambda: nd.stack(*[m, m], axis=1), 'concat_list': lambda: nd.concat(*[m, m], dim=1),
 'gather_nd_int64': lambda: nd.gather_nd(m, nd.array([[0, 1], [2, 0]], dtype='int64')),
 'scatter_nd_int64': lambda: nd.scatter_nd(nd.array([1, 2]), nd.array([[0, 1], [2, 0]], dtype='int64'), (2, 3)),
}
for k, f in tests.items():
    print(k)
    attempt(f)

# dtypes and edge cases
tests2 = {
 'ic_dtype': lambda: nd.contrib.index_copy(nd.zeros((3, 2)), nd.array([1]), nd.ones((1, 2), dtype='int32')),
 'ia_dup': lambda: nd.contrib.index_array(m, axes=(0, 0)),
 'al_none_rep': lambda: nd.contrib.arange_like(m, repeat=3),
 'bm_f16': lambda: nd.contrib.boolean_mask(m.astype('float16'), nd.array([1, 0], dtype='int32')),
 'bm_float_idx': lambda: nd.contrib.boolean_mask(m, nd.array([0.5, 0])),
 'bm_1d': lambda: nd.contrib.boolean_mask(nd.array([1, 2, 3]), nd.array([1, 0, 1])),
 'sm_f16len': lambda: nd.SequenceMask(m.T, sequence_length=nd.array([1, 2], dtype='float16'), use_sequence_length=True),
 'sm_1d': lambda: nd.SequenceMask(nd.array([1, 2, 3]), sequence_length=nd.array([1]), use_sequence_length=True),
 'sr_axis1': lambda: nd.SequenceReverse(m, axis=1),
 'sm_axis1_len': lambda: nd.SequenceMask(m, sequence_length=nd.array([1, 3]), use_sequence_length=True, axis=1),
 'sl_axis1': lambda: nd.SequenceLast(m, axis=1),
 'sm_axis2': lambda: nd.SequenceMask(m, axis=2),
 'topk_k_float': lambda: nd.topk(m, k=1.5),
 'topk_axis_none_mask': lambda: nd.topk(m, axis=None, k=2, ret_typ='mask'),
 'topk_axis_none_both': lambda: nd.topk(m, axis=None, k=2, ret_typ='both'),
 'argsort_int64_in': lambda: nd.argsort(m.astype('int64')),
 'sort_bool': lambda: nd.sort(m > 3),
 'argmax_bool': lambda: nd.argmax(m > 3, axis=1),
 'one_hot_f16_idx': lambda: nd.one_hot(nd.array([1, 2], dtype='float16'), 3),
 'one_hot_bool': lambda: nd.one_hot(nd.array([1, 2]), 3, dtype='bool'),
 'pick_int_out': lambda: nd.pick(m.astype('int32'), nd.array([1, 0], dtype='int64')),
 'take_int8_idx': lambda: nd.take(m, nd.array([1, 0], dtype='int8')),
 'take_uint8_data': lambda: nd.take(m.astype('uint8'), nd.array([1])),
 'gather_f16': lambda: nd.gather_nd(m.astype('float16'), nd.array([[1], [0]])),
 'where_f16': lambda: nd.where(nd.array([1, 0]), m.astype('float16'), m.astype('float16')),
 'where_bool_cond': lambda: nd.where(m > 3, m, m * 0),
 'where_cond_shape_mis': lambda: nd.where(nd.ones((3,)), m, m),
 'clip_f16': lambda: nd.clip(m.astype('float16'), 1.5, 4.5),
 'clip_uint8': lambda: nd.clip(m.astype('uint8'), 2, 300),
 'clip_int_neg': lambda: nd.clip(m.astype('int32'), -1.5, 3.7),
 'cast_f16_round': lambda: nd.cast(nd.array([0.1, 65519, 70000]), 'float16'),
 'tile_neg': lambda: nd.tile(m, reps=(-1, 1)),
 'pad_bad_mode': lambda: nd.pad(m.reshape((1, 1, 2, 3)), mode='wrap', pad_width=(0, 0, 0, 0, 1, 1, 1, 1)),
 'pad_2d': lambda: nd.pad(m, mode='constant', pad_width=(1, 1, 1, 1)),
 'pad_int': lambda: nd.pad(m.reshape((1, 1, 2, 3)).astype('int32'), mode='constant', pad_width=(0, 0, 0, 0, 1, 1, 1, 1)),
 'd2s_int': lambda: nd.depth_to_space(nd.arange(4).reshape((1, 4, 1, 1)).astype('int32'), 2),
 'diag_k_neg_big': lambda: nd.diag(nd.array([1, 2]), k=-3),
 'expand_none': lambda: nd.expand_dims(m, axis=None),
}
for k, f in tests2.items():
    print(k)
    attempt(f)
