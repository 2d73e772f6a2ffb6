"""Helpers shared by the neural-network operators: spatial parameters, layouts, checks."""
import jax.numpy as jnp

from ..base import MXNetError

__all__ = ['spatial', 'Layout', 'layout_of', 'compute_dtype', 'same_dtype', 'float_only', 'float32_only']

# The layouts MXNet names for 1-, 2- and 3-D spatial operators, channel axis first by default.
_DEFAULT_LAYOUT = {1: 'NCW', 2: 'NCHW', 3: 'NCDHW'}
_LAYOUTS = {'NCW', 'NCHW', 'NCDHW', 'NWC', 'NHWC', 'NDHWC'}


def spatial(op, name, value, n, default):
    """A per-spatial-axis parameter (stride, pad, ...): () means ``default`` on every axis."""
    if not value:
        return (default,) * n
    if len(value) != n:
        raise MXNetError('%s: %s %s must have %d values, one per spatial axis of the %d-D kernel'
                         % (op, name, tuple(value), n, n))
    return tuple(int(v) for v in value)


class Layout:
    """Where the batch, channel and spatial axes of an N-d array are, from a layout string."""
    __slots__ = ('name', 'channel', 'spatial', 'channel_last')

    def __init__(self, name):
        self.name = name
        self.channel_last = name[-1] == 'C'
        nd = len(name)
        self.channel = nd - 1 if self.channel_last else 1
        self.spatial = tuple(range(1, nd - 1)) if self.channel_last else tuple(range(2, nd))


def layout_of(op, layout, ndim, n_spatial=None):
    """The Layout of a ``ndim``-d input; ``layout`` None means MXNet's channel-first default."""
    n = ndim - 2 if n_spatial is None else n_spatial
    if ndim != n + 2 or n not in _DEFAULT_LAYOUT:
        raise MXNetError('%s: data must be %d-D (batch, channel and %d spatial axes) for a %d-D kernel, '
                         'got %d-D data' % (op, n + 2, n, n, ndim))
    name = layout or _DEFAULT_LAYOUT[n]
    if name not in _LAYOUTS or len(name) != ndim:
        raise MXNetError('%s: layout %r does not fit %d-D data (use %s)'
                         % (op, name, ndim, _DEFAULT_LAYOUT.get(n, 'NCHW')))
    return Layout(name)


def compute_dtype(dtype):
    """The dtype statistics are computed in: float32 for half precision, else the input's."""
    return jnp.float32 if jnp.dtype(dtype).itemsize < 4 and jnp.issubdtype(dtype, jnp.floating) else dtype


def same_dtype(op, data, want=None, **inputs):
    """MXNet's type rule for layers with parameters (FullyConnected, Convolution, the norms, PReLU,
    RNN): each input in ``inputs`` (None: absent) has dtype ``want``, the data's by default.
    jax would promote a mix silently (float32 weights with float64 data); MXNet refuses it."""
    want = jnp.dtype(data.dtype if want is None else want)
    for name, arr in inputs.items():
        if arr is not None and jnp.dtype(arr.dtype) != want:
            raise MXNetError('%s: %s has dtype %s but must be %s for %s data (cast the data or the '
                             'parameters with astype, or the Block with cast)'
                             % (op, name, jnp.dtype(arr.dtype).name, want.name, jnp.dtype(data.dtype).name))


def float_only(op, **inputs):
    """MXNet's neural-network kernels take floating-point arrays only (float16, float32, float64):
    an integer input (None: absent) is refused, where jax would compute on it."""
    for name, arr in inputs.items():
        if arr is not None and not jnp.issubdtype(arr.dtype, jnp.floating):
            raise MXNetError('%s: %s must be a floating-point array (float16, float32 or float64), got %s'
                             % (op, name, jnp.dtype(arr.dtype).name))


def float32_only(op, data):
    """MXNet 1.9.1's CPU LRN, InstanceNorm and GridGenerator are written for float32 only and
    refuse other dtypes."""
    if data.dtype != jnp.float32:
        raise MXNetError('%s: MXNet computes %s for float32 data only, got %s' % (op, op, jnp.dtype(data.dtype).name))
