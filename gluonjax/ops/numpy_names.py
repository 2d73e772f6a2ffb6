"""MXNet's NumPy-mode operator names (``_npi_*``, ``_npx_*``, ``_np_*``) of operators defined elsewhere.

After ``npx.set_np()`` MXNet builds graphs from its NumPy operators, so a HybridBlock it exported
in NumPy mode names them in its -symbol.json. Some are MXNet aliases of a legacy operator
(``_npx_activation`` is Activation: its JSON says ``Activation``); some are operators of their own
that compute what a legacy one computes but take other input names (``_npi_exp(x)`` beside
``exp(data)``) and keep their name in JSON: those are entries of their own here
(``register_like``). Operators with NumPy semantics of their own live with their family
(numpy_ops.py, numpy_more.py); the NumPy operators only MXNet's NumPy front end calls are at the end.
"""
import jax.numpy as jnp
import numpy as np

from ..base import MXNetError, shape_str
from ._registry import Np, P, add_alias, register, register_like, set_np_graph_op
from .creation import _DT
from .numpy_more import _insert_plan, np_insert
from .shape import norm_axis


# MXNet aliases: {gluonjax entry of MXNet's operator: its NumPy-mode names}.
for _base, _aliases in (
        ('_np_max', ('_np_amax',)), ('_np_min', ('_np_amin',)), ('_np_prod', ('_np_product',)),
        ('_np_any', ('_np_sometrue',)), ('repeat', ('_np_repeat',)), ('Custom', ('_npi_Custom',)),
        ('argsort', ('_npi_argsort',)), ('sort', ('_npi_sort',)), ('_contrib_boolean_mask', ('_npi_boolean_mask',)),
        ('Cast', ('_npi_cast', '_npx_cast')), ('expand_dims', ('_npi_expand_dims',)), ('_full', ('_npi_full',)),
        ('gather_nd', ('_npi_gather_nd', '_npx_gather_nd')), ('_hypot_scalar', ('_npi_hypot_scalar',)),
        ('broadcast_maximum', ('_npi_maximum',)), ('broadcast_minimum', ('_npi_minimum',)),
        ('_maximum_scalar', ('_npi_maximum_scalar',)), ('_minimum_scalar', ('_npi_minimum_scalar',)),
        ('_random_randint', ('_npi_random_randint',)), ('_npx_reshape', ('_npi_reshape',)),
        ('_rnn_param_concat', ('_npi_rnn_param_concat',)), ('_shuffle', ('_npi_shuffle',)),
        ('slice', ('_npi_slice', '_npx_slice')), ('_slice_assign', ('_npi_slice_assign',)),
        ('_slice_assign_scalar', ('_npi_slice_assign_scalar',)), ('SwapAxis', ('_npi_swapaxes',)),
        ('take', ('_npi_take',)), ('Activation', ('_npx_activation',)), ('_contrib_arange_like', ('_npx_arange_like',)),
        ('batch_dot', ('_npx_batch_dot',)), ('Flatten', ('_npx_batch_flatten',)), ('BatchNorm', ('_npx_batch_norm',)),
        ('Convolution', ('_npx_convolution',)), ('Deconvolution', ('_npx_deconvolution',)),
        ('Dropout', ('_npx_dropout',)), ('Embedding', ('_npx_embedding',)), ('erf', ('_npx_erf',)),
        ('erfinv', ('_npx_erfinv',)), ('FullyConnected', ('_npx_fully_connected',)), ('gamma', ('_npx_gamma',)),
        ('gammaln', ('_npx_gammaln',)), ('LayerNorm', ('_npx_layer_norm',)), ('LeakyReLU', ('_npx_leaky_relu',)),
        ('log_softmax', ('_npx_log_softmax',)), ('softmax', ('_npx_softmax',)),
        ('_contrib_MultiBoxDetection', ('_npx_multibox_detection',)),
        ('_contrib_MultiBoxPrior', ('_npx_multibox_prior',)),
        ('_contrib_MultiBoxTarget', ('_npx_multibox_target',)), ('_linspace', ('_npi_linspace',)),
        ('one_hot', ('_npx_one_hot',)), ('pick', ('_npx_pick',)),
        ('Pooling', ('_npx_pooling',)), ('reshape_like', ('_npx_reshape_like',)), ('RNN', ('_npx_rnn',)),
        ('ROIPooling', ('_npx_roi_pooling',)), ('SequenceMask', ('_npx_sequence_mask',)),
        ('shape_array', ('_npx_shape_array',)), ('smooth_l1', ('_npx_smooth_l1',)), ('topk', ('_npx_topk',))):
    add_alias(_base, *_aliases)
# mx.npx.image's operators: MXNet's _npx__image_<name> is _image_<name>.
for _name in ('adjust_lighting', 'crop', 'flip_left_right', 'flip_top_bottom', 'normalize', 'random_brightness',
              'random_color_jitter', 'random_contrast', 'random_flip_left_right', 'random_flip_top_bottom',
              'random_hue', 'random_lighting', 'random_saturation', 'resize', 'to_tensor'):
    add_alias('_image_' + _name, '_npx__image_' + _name)


def _twin(name, base, **kwargs):
    """MXNet's NumPy operator ``name`` computing what legacy ``base`` computes: an entry of its
    own, and the node a traced mx.np/npx call of ``base`` builds, as MXNet's NumPy front end does."""
    register_like(name, base, **kwargs)
    set_np_graph_op(base, name)


# MXNet's own NumPy operators computing what a legacy one computes: unary maths of one input x
# (on integer arrays they keep the dtype, as the legacy ones do in MXNet 1.9.1).
for _name in ('exp', 'expm1', 'log', 'log10', 'log2', 'log1p', 'sqrt', 'cbrt', 'sin', 'cos', 'tan', 'arcsin',
              'arccos', 'arctan', 'sinh', 'cosh', 'tanh', 'arcsinh', 'arccosh', 'arctanh', 'degrees', 'radians',
              'reciprocal', 'negative', 'sign', 'square', 'rint', 'ceil', 'floor', 'trunc', 'fix'):
    _twin('_npi_' + _name, _name, inputs=('x',))
# mx.np's arithmetic of two arrays (a ResNet exported after npx.set_np() writes _npi_add)
for _name, _base in (('add', 'broadcast_add'), ('subtract', 'broadcast_sub'), ('multiply', 'broadcast_mul'),
                     ('mod', 'broadcast_mod'), ('power', 'broadcast_power')):
    _twin('_npi_' + _name, _base)
_twin('_npi_absolute', 'abs', inputs=('x',), aliases=('_npi_abs',))
_twin('_npi_arctan2', 'arctan2', inputs=('x1', 'x2'))
_twin('_npi_hypot', 'broadcast_hypot', inputs=('x1', 'x2'))
_twin('_np_copy', '_copy', inputs=('a',))
_twin('_npx_relu', 'relu')
_twin('_npx_sigmoid', 'sigmoid')
_twin('_npi_arange', '_arange')
_twin('_npi_ones', '_ones')
_twin('_npi_zeros', '_zeros')
# mx.np's arithmetic of an array and a number: MXNet's graphs name its own operators (ops/numpy_ops.py),
# which also take the number's kind (is_int)
for _name, _base in (('add', '_plus_scalar'), ('subtract', '_minus_scalar'), ('rsubtract', '_rminus_scalar'),
                     ('multiply', '_mul_scalar'), ('mod', '_mod_scalar'), ('rmod', '_rmod_scalar'),
                     ('power', '_power_scalar'), ('rpower', '_rpower_scalar')):
    set_np_graph_op(_base, '_npi_%s_scalar' % _name)
register_like('_npi_dsplit', '_npi_split', inputs=('data',))


# ---- NumPy operators only MXNet's NumPy front end calls ------------------------------------

@register('_np_moveaxis', inputs=('a',), params=[P('source', 'shape'), P('destination', 'shape')],
          np=(Np('moveaxis(a, source, destination)'),))
def np_moveaxis(a, *, source, destination):
    """np.moveaxis: the axes ``source`` moved to positions ``destination``, the others in order."""
    if len(source) != len(destination):
        raise MXNetError('_np_moveaxis: source %s and destination %s must have the same number of axes'
                         % (shape_str(source), shape_str(destination)))
    src = [norm_axis('_np_moveaxis', s, a.ndim, 'source') for s in source]
    dst = [norm_axis('_np_moveaxis', d, a.ndim, 'destination') for d in destination]
    if len(set(src)) != len(src) or len(set(dst)) != len(dst):
        raise MXNetError('_np_moveaxis: repeated axis in source %s or destination %s'
                         % (shape_str(source), shape_str(destination)))
    return jnp.moveaxis(a, src, dst)


@register('_npi_identity', inputs=(), creation=True, params=[P('shape', 'shape', ())] + _DT)
def np_identity(*, shape, ctx, dtype):
    """np.identity(n): MXNet passes the square shape (n, n)."""
    if len(shape) != 2 or shape[0] != shape[1] or shape[0] < 0:
        raise MXNetError('_npi_identity: shape must be a square (n, n) with n >= 0, got %s' % shape_str(shape))
    return jnp.eye(shape[0], dtype=dtype)


def _arctan2_scalar(name, reverse):
    """arctan2 of an array and a number (``reverse``: the number first) in the array's dtype:
    MXNet computes an integer array's in float32 and truncates the result back to integers."""
    def op(data, *, scalar, is_int=True):
        x = data if jnp.issubdtype(data.dtype, jnp.floating) else data.astype(jnp.float32)
        s = jnp.asarray(scalar, x.dtype)
        return (jnp.arctan2(s, x) if reverse else jnp.arctan2(x, s)).astype(data.dtype)
    op.__name__ = name
    register(name, params=[P('scalar', 'float', 1.0), P('is_int', 'bool', True)], dynamic_params=('scalar',))(op)


_arctan2_scalar('_npi_arctan2_scalar', False)
_arctan2_scalar('_npi_rarctan2_scalar', True)


def _where_operands(name, condition, *arrays):
    try:
        np.broadcast_shapes(condition.shape, *(a.shape for a in arrays))
    except ValueError:
        raise MXNetError('%s: operands could not be broadcast together with shapes %s'
                         % (name, ' '.join(shape_str(s.shape) for s in (condition,) + arrays))) from None


# MXNet names the two forms by where the number stands in where(condition, x, y), and the
# array input by what it is not: where(c, 1.5, a) is _npi_where_lscalar(c, a) with input 'x'.
@register('_npi_where_lscalar', inputs=('condition', 'x'), params=[P('scalar', 'float', 0.0)])
def np_where_lscalar(condition, x, *, scalar):
    """where(condition, scalar, x): the number where condition is true."""
    _where_operands('_npi_where_lscalar', condition, x)
    return jnp.where(condition != 0, jnp.asarray(scalar, x.dtype), x)


@register('_npi_where_rscalar', inputs=('condition', 'y'), params=[P('scalar', 'float', 0.0)])
def np_where_rscalar(condition, y, *, scalar):
    """where(condition, y, scalar): the number where condition is false."""
    _where_operands('_npi_where_rscalar', condition, y)
    return jnp.where(condition != 0, y, jnp.asarray(scalar, y.dtype))


@register('_npi_where_scalar2', inputs=('condition',), params=[P('x', 'float', 0.0), P('y', 'float', 0.0)])
def np_where_scalar2(condition, *, x, y):
    """where(condition, x, y) of two numbers, in float32 (MXNet's default dtype)."""
    return jnp.where(condition != 0, jnp.float32(x), jnp.float32(y))


def _average_inputs(attrs):
    return ('a', 'weights') if attrs is None or attrs['weighted'] else ('a',)


def _reduced_axes(name, axis, ndim):
    if axis is None:
        return tuple(range(ndim))
    return tuple(sorted({norm_axis(name, ax, ndim) for ax in ((axis,) if isinstance(axis, int) else axis)}))


def _in_dtype(x, like):
    """A float result in ``like``'s dtype; integers truncated toward zero, as MXNet's kernel divides."""
    return jnp.trunc(x).astype(like.dtype) if not jnp.issubdtype(like.dtype, jnp.floating) else x.astype(like.dtype)


@register('_npi_average', inputs=_average_inputs, num_outputs=2,
          num_visible_outputs=lambda attrs: 2 if attrs['returned'] else 1,
          params=[P('axis', 'axis', None, optional=True), P('returned', 'bool', False), P('weighted', 'bool', True)])
def np_average(a, weights=None, *, axis, returned, weighted):
    """np.average: the (weighted) mean over ``axis`` and the sum of the weights, in a's dtype.
    As MXNet's kernel: 1-D weights along one axis give their plain sum, and without weights the
    sum of weights is the count of reduced elements, both as 0-d arrays."""
    axes = _reduced_axes('_npi_average', axis, a.ndim)
    if not weighted:
        count = int(np.prod([a.shape[i] for i in axes]))
        return _in_dtype(jnp.sum(a.astype(jnp.float64), axis=axes) / count, a), jnp.asarray(count, a.dtype)
    w = weights
    if w.shape != a.shape:
        if len(axes) != 1 or w.ndim != 1 or w.shape[0] != a.shape[axes[0]]:
            raise MXNetError('_npi_average: weights of shape %s need the shape of a %s, or one axis and 1-D '
                             'weights of its length' % (shape_str(w.shape), shape_str(a.shape)))
        total = jnp.sum(w.astype(jnp.float64))
        w = w.reshape([-1 if i == axes[0] else 1 for i in range(a.ndim)])
    else:
        total = jnp.sum(w.astype(jnp.float64), axis=axes)
    weighted_sum = jnp.sum(a.astype(jnp.float64) * w.astype(jnp.float64), axis=axes)
    return _in_dtype(weighted_sum / total, a), _in_dtype(total, a)


def _nonzero_count(attrs, x):
    return {'_count': int(np.count_nonzero(x))}


@register('_npx_nonzero', inputs=('x',), aliases=('_npi_nonzero',), npx=('nonzero',), value_attrs=_nonzero_count,
          gradient=False)
def npx_nonzero(x, *, _count=None):
    """The int64 coordinates of x's nonzero elements, one row each (a 0-d x counts as shape (1,)).
    The output's length depends on x's values, so the operator runs on arrays only."""
    if _count is None:
        raise MXNetError('_npx_nonzero: its output shape depends on the values of x, which a symbol or a '
                         'hybridized block does not know; call mx.npx.nonzero on arrays')
    return jnp.stack(jnp.nonzero(jnp.atleast_1d(x), size=_count), axis=1).astype(jnp.int64)


# MXNet's three np.insert operators, by the kind of index: an int (int_ind), a slice (start, stop,
# step) or an index array (input obj). A number to insert comes as the parameter val instead of
# the values input. All are _npi_insert (numpy_more.py) of the same indices.
_INSERT_PARAMS = [P('val', 'float', None, optional=True), P('start', 'int', None, optional=True),
                  P('stop', 'int', None, optional=True), P('step', 'int', None, optional=True),
                  P('int_ind', 'int', None, optional=True), P('axis', 'int', None, optional=True)]


def _insert_form(name, index_array):
    def inputs(attrs):
        values = ('values',) if attrs is None or attrs.get('val') is None else ()
        return ('arr',) + values + (('obj',) if index_array else ())

    def arrays(arr, rest, val, xp):
        """(arr, values, obj) with a number ``val`` as an array of arr's dtype."""
        rest = ((xp.asarray(val, arr.dtype),) if val is not None else ()) + tuple(rest)
        return (arr,) + rest + (None,) * (2 - len(rest))

    def plan(attrs, arr, *rest):
        return _insert_plan(attrs, *arrays(arr, rest, attrs.get('val'), np))

    def op(arr, *rest, val, start, stop, step, int_ind, axis, **planned):
        return np_insert(*arrays(arr, rest, val, jnp), start=start, stop=stop, step=step, int_ind=int_ind,
                         axis=axis, **planned)
    op.__name__ = name
    op.__doc__ = np_insert.__doc__
    register(name, inputs=inputs, params=_INSERT_PARAMS, value_attrs=plan if index_array else None,
             dynamic_params=('_order',) if index_array else ())(op)


_insert_form('_npi_insert_scalar', False)
_insert_form('_npi_insert_slice', False)
_insert_form('_npi_insert_tensor', True)


def _unique_outputs(attrs):
    return 1 + sum(bool(attrs[k]) for k in ('return_index', 'return_inverse', 'return_counts'))


def _unique_count(attrs, data):
    axis = attrs['axis']
    values = np.unique(data.reshape(-1) if axis is None else data, axis=axis)
    return {'_count': int(values.shape[0 if axis is None else axis % data.ndim])}


@register('_npi_unique', num_outputs=_unique_outputs, value_attrs=_unique_count, gradient=False,
          params=[P('return_index', 'bool', False), P('return_inverse', 'bool', False),
                  P('return_counts', 'bool', False), P('axis', 'int', None, optional=True)])
def np_unique(data, *, return_index, return_inverse, return_counts, axis, _count=None):
    """np.unique: the sorted unique values (of the flattened data, or its slices along ``axis``) and,
    as asked, the int64 first indices, the flat inverse and the counts. The output's length depends
    on the values, so the operator runs on arrays only."""
    if _count is None:
        raise MXNetError('_npi_unique: its output shape depends on the values of data, which a symbol or a '
                         'hybridized block does not know; call mx.np.unique on arrays')
    found = jnp.unique(data.reshape(-1) if axis is None else data, return_index=True, return_inverse=True,
                       return_counts=True, axis=axis, size=_count)
    values, index, inverse, counts = found
    wanted = [(True, values), (return_index, index), (return_inverse, inverse.reshape(-1)), (return_counts, counts)]
    outs = tuple(x if i == 0 else x.astype(jnp.int64) for i, (asked, x) in enumerate(wanted) if asked)
    return outs if len(outs) > 1 else outs[0]
