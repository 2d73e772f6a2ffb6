"""Helpers of ``mx.gluon.utils``: splitting batches over devices, clipping gradients, downloads."""
import hashlib
import os
import warnings
import weakref

import jax
import jax.numpy as jnp
import numpy as np

from .._files import atomic_open
from .._x64 import x64
from ..base import MXNetError
from ..numpy._state import is_np_shape

__all__ = ['split_data', 'split_and_load', 'clip_global_norm', 'check_sha1', 'download',
           'replace_file', 'shape_is_known', 'HookHandle']


def split_data(data, num_slice, batch_axis=0, even_split=True):
    """Split an NDArray into ``num_slice`` slices along ``batch_axis``.

    With ``even_split=False`` the first slices get one element more when the size does
    not divide evenly, as in MXNet (slices past the end are empty when ``num_slice`` is
    larger than the size).
    """
    size = data.shape[batch_axis]
    if even_split and size % num_slice != 0:
        raise ValueError(
            "data with shape %s cannot be evenly split into %d slices along axis %d. "
            "Use a batch size that's multiple of %d or set even_split=False to allow "
            "uneven partitioning of data." % (str(data.shape), num_slice, batch_axis, num_slice))
    each, extra = divmod(size, num_slice)
    bounds = np.cumsum([0] + [each + 1] * extra + [each] * (num_slice - extra))
    slices = []
    for begin, end in zip(bounds[:-1], bounds[1:]):
        index = (slice(None),) * batch_axis + (slice(int(begin), int(end)),)
        slices.append(data[index] if batch_axis else data[int(begin):int(end)])
    return slices


def split_and_load(data, ctx_list, batch_axis=0, even_split=True):
    """Split ``data`` along ``batch_axis`` and put slice *i* on ``ctx_list[i]``."""
    from ..ndarray import NDArray, array
    if not isinstance(data, NDArray):
        data = array(data, ctx=ctx_list[0])
    if len(ctx_list) == 1:
        return [data.as_in_context(ctx_list[0])]
    slices = split_data(data, len(ctx_list), batch_axis, even_split)
    return [s.as_in_context(ctx) for s, ctx in zip(slices, ctx_list)]


@jax.jit
def _sum_squares(arrays):
    return jnp.sqrt(sum(jnp.sum(jnp.square(a.astype(jnp.float32))) for a in arrays))


@x64
def clip_global_norm(arrays, max_norm, check_isfinite=True):
    """Scale the arrays in place so that the 2-norm of all of them together is at most ``max_norm``.

    Returns the total norm before clipping: a numpy scalar of the arrays' dtype, or a
    1-element NDArray when ``check_isfinite`` is False, as in MXNet.
    """
    from ..ndarray import NDArray
    if not arrays:  # MXNet asserts it: scripts catch AssertionError
        raise AssertionError('clip_global_norm: no arrays given')
    ctx = arrays[0].context
    device = ctx.jax_device
    total = _sum_squares([jax.device_put(a._data, device) for a in arrays])
    if check_isfinite and not np.isfinite(float(total)):
        warnings.warn(UserWarning('nan or inf is detected. Clipping results will be undefined.'),
                      stacklevel=2)
    scale = jnp.minimum(max_norm / (total + 1e-8), 1.0)
    for arr in arrays:
        arr._set_data(arr._data * jax.device_put(scale, next(iter(arr._data.devices()))).astype(arr._data.dtype))
    total = total.astype(arrays[0]._data.dtype)
    if check_isfinite:
        return np.asarray(total)[()]
    return NDArray._from_jax(jnp.reshape(total, (1,)), ctx)


def check_sha1(filename, sha1_hash):
    """Whether the file's SHA-1 digest equals ``sha1_hash``."""
    sha1 = hashlib.sha1()
    with open(filename, 'rb') as f:
        for chunk in iter(lambda: f.read(1 << 20), b''):
            sha1.update(chunk)
    return sha1.hexdigest() == sha1_hash


def replace_file(src, dst):
    """Move ``src`` onto ``dst`` atomically."""
    os.replace(src, dst)


def download(url, path=None, overwrite=False, sha1_hash=None, retries=5, verify_ssl=True):
    """Download ``url`` to ``path`` (a file or a directory) unless a good copy exists; return the file name.

    Raises MXNetError naming the URL when the machine is offline or the server refuses.
    """
    import urllib.request
    if path is None:
        fname = url.split('/')[-1]
        if not fname:
            raise MXNetError("download: cannot make a file name from %r; pass path=" % url)
    else:
        path = os.path.expanduser(path)
        fname = os.path.join(path, url.split('/')[-1]) if os.path.isdir(path) else path
    if retries < 0:
        raise MXNetError('download: retries must be at least 0, got %d' % retries)
    if not overwrite and os.path.exists(fname) and (not sha1_hash or check_sha1(fname, sha1_hash)):
        return fname
    dirname = os.path.dirname(os.path.abspath(fname))
    os.makedirs(dirname, exist_ok=True)
    last = None
    for _ in range(retries + 1):
        try:
            with urllib.request.urlopen(url, timeout=30) as response, atomic_open(fname, 'wb') as out:
                for chunk in iter(lambda: response.read(1 << 16), b''):
                    out.write(chunk)
            break
        except Exception as err:  # network failures of every kind
            last = err
    else:
        raise MXNetError('download: could not fetch %s (%s). The machine may be offline; put the '
                         'file at %s yourself.' % (url, last, fname))
    if sha1_hash and not check_sha1(fname, sha1_hash):
        raise MXNetError('download: %s was downloaded but its SHA-1 does not match %s' % (fname, sha1_hash))
    return fname


_DEFAULT_REPO_URL = 'https://apache-mxnet.s3-accelerate.dualstack.amazonaws.com/'


def _get_repo_url():
    """Base URL of the Gluon model and data repository: ``$MXNET_GLUON_REPO`` or MXNet's default,
    always ending in ``/`` (model zoos such as GluonNLP append paths to it)."""
    url = os.environ.get('MXNET_GLUON_REPO', _DEFAULT_REPO_URL)
    return url if url.endswith('/') else url + '/'


def _get_repo_file_url(namespace, filename):
    """URL of ``filename`` under ``namespace`` in the Gluon repository."""
    return '%s%s/%s' % (_get_repo_url(), namespace, filename)


def shape_is_known(shape):
    """Whether every dimension of ``shape`` is known: 0 means unknown, or -1 under NumPy shape
    semantics (npx.set_np()), where 0 is a size, as in MXNet."""
    if shape is None:
        return False
    unknown = -1 if is_np_shape() else 0
    for dim in shape:
        if dim == unknown:
            return False
        if dim < unknown:  # MXNet asserts this
            raise AssertionError('shape dimension size cannot be less than %d, got %s' % (unknown, shape))
    return True


def _indent(text, num_spaces):
    """Indent every line of ``text`` but the first."""
    lines = text.split('\n')
    if len(lines) == 1:
        return text
    return '\n'.join([lines[0]] + [' ' * num_spaces + line for line in lines[1:]])


def _brief_print_list(items, limit=7):
    """``'a', 'b', ..., 'z'``: a list quoted and shortened for error messages."""
    items = list(items)
    if len(items) > limit:
        return (_brief_print_list(items[:limit // 2], limit) + ', ..., '
                + _brief_print_list(items[-(limit // 2):], limit))
    return ', '.join("'%s'" % str(i) for i in items)


class HookHandle:
    """Returned by ``register_forward_hook``: ``detach()`` (or leaving a ``with``) removes the hook."""

    def __init__(self):
        self._hooks_dict_ref = None
        self._id = None

    def attach(self, hooks_dict, hook):
        if self._hooks_dict_ref is not None:
            raise MXNetError('The same handle cannot be attached twice.')
        self._id = id(hook)
        hooks_dict[self._id] = hook
        self._hooks_dict_ref = weakref.ref(hooks_dict)

    def detach(self):
        hooks = self._hooks_dict_ref() if self._hooks_dict_ref is not None else None
        if hooks is not None:
            hooks.pop(self._id, None)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.detach()

