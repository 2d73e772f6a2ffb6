"""Errors and small helpers shared by every layer of gluonjax."""
import ctypes
import os
import platform

import numpy as np

__all__ = ['MXNetError', 'MXNetValueError', 'NotSupportedError', 'NotImplementedForSymbol', 'string_types', 'numeric_types',
           'integer_types', 'py_str', 'data_dir_default', 'data_dir', 'mx_real_t', 'NDArrayHandle', 'SymbolHandle',
           'mx_uint', 'c_str', 'c_str_array', 'check_call']

string_types = (str,)
integer_types = (int, np.integer)
numeric_types = (float, int, np.generic)
mx_real_t = np.float32   # MXNet's default real type


# ---- MXNet's C library as ctypes code calls it ---------------------------------------------
NDArrayHandle = ctypes.c_void_p
SymbolHandle = ctypes.c_void_p
mx_uint = ctypes.c_uint


def c_str(string):
    """A C string (``ctypes.c_char_p``) of a Python str, as MXNet's C functions take names."""
    return ctypes.c_char_p(string.encode('utf-8'))


def c_str_array(strings):
    """A C array of C strings (``ctypes.c_char_p * n``), as MXNet's C functions take name lists."""
    return (ctypes.c_char_p * len(strings))(*[s.encode('utf-8') for s in strings])


def check_call(ret):
    """Raise MXNetError when a C function of ``_LIB`` returned non-zero (MXNet's convention)."""
    if ret != 0:
        raise MXNetError('a C function of mx.base._LIB returned %r' % (ret,))


class _CLibrary:
    """``mx.base._LIB``: gluonjax has no C library. The C functions that ctypes code written for
    MXNet calls and that gluonjax implements are Python functions of the same names and calling
    convention (returning 0, handles written through ``ctypes.byref``), installed by the layer
    that implements them (``MXNDArrayFromDLPack``: ndarray/_exchange.py)."""

    def __getattr__(self, name):
        raise AttributeError('mx.base._LIB: gluonjax has no C library, and MXNet\'s C function %s '
                             'has no Python form here' % name)


_LIB = _CLibrary()


def py_str(x):
    """A Python str from bytes returned by a library (utf-8), or ``x`` itself when already a str."""
    return x.decode('utf-8') if isinstance(x, (bytes, bytearray)) else x


def _as_list(obj):
    """``obj`` as a list: a list or tuple unchanged in content, anything else wrapped in one."""
    if isinstance(obj, (list, tuple)):
        return obj
    return [obj]


def data_dir_default():
    """Where MXNet keeps downloaded data when ``MXNET_HOME`` is unset: ``~/.mxnet``
    (``%APPDATA%\\mxnet`` on Windows)."""
    if platform.system() == 'Windows':
        return os.path.join(os.environ.get('APPDATA'), 'mxnet')
    return os.path.join(os.path.expanduser('~'), '.mxnet')


def data_dir():
    """``MXNET_HOME`` when set, else :func:`data_dir_default` (model zoo weights live below it)."""
    return os.getenv('MXNET_HOME', data_dir_default())


class MXNetError(RuntimeError):
    """The error MXNet raises for operator and runtime failures.

    gluonjax raises it with a message that names the operator, the argument and
    the shapes involved, so that scripts catching ``mx.base.MXNetError`` keep working.
    """


class DeferredError(MXNetError):
    """An error MXNet raises while the operator runs, asynchronously (a random sampler's invalid
    parameter): an eager call returns outputs that carry it, raised at the next wait on them
    (see ndarray/_pending.py). ``avals``: the outputs' (shape, dtype) pairs."""

    def __init__(self, message, avals):
        super().__init__(message)
        self.avals = avals


class MXNetValueError(MXNetError, ValueError):
    """An operator check that MXNet 1.9.1 raises as Python's ValueError (its numpy operators'
    ``CHECK``s on values: a repeated transpose axis, a violated ``npx.constraint_check``)."""


class NotSupportedError(MXNetError, NotImplementedError):
    """A feature of MXNet that gluonjax does not provide; the message says what to use instead."""


class NotImplementedForSymbol(MXNetError):
    """An NDArray-only operation applied to a Symbol (MXNet's ``mx.base.NotImplementedForSymbol``)."""

    def __init__(self, function, alias, *args):
        super().__init__()
        self.function = function.__name__ if callable(function) else str(function)
        self.alias = alias
        self.args = tuple(str(type(a)) for a in args)
        self.where = ''  # 'while tracing net0 (Net) for hybridize(): ', set by Gluon

    def __str__(self):
        msg = getattr(self, 'where', '') + 'Function {}'.format(self.function)
        if self.alias:
            msg += ' (namely operator "{}")'.format(self.alias)
        if self.args:
            msg += ' with arguments ({})'.format(', '.join(self.args))
        return msg + ' is not implemented for Symbol and only available in NDArray.'


def shape_str(shape):
    """MXNet's way of writing a shape in messages: ``[2,3]``."""
    return '[' + ','.join(str(d) for d in shape) + ']'


# Lower layers that hand out something of a higher layer (F.np / F.npx in hybrid_forward,
# NDArray.as_np_ndarray) do not import it: they ask upper_layer(name),
# and gluonjax/__init__.py (the top of the package, which may import anything) registers
# the loaders. The loader runs on each call; the import system caches the modules.
_upper_loaders = {}


def register_upper_layer(name, loader):
    """Install ``loader()`` for ``upper_layer(name)`` (gluonjax/__init__.py does, at import)."""
    _upper_loaders[name] = loader


def upper_layer(name):
    """What the loader registered as ``name`` returns: 'numpy' -> (mx.np, mx.npx)."""
    return _upper_loaders[name]()
