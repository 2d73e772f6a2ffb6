"""Weight initializers: ``mx.init`` / ``mx.initializer``.

An initializer is called with a name (an :class:`InitDesc`) and an NDArray and fills the
array. As in MXNet, the name decides what happens when no explicit initializer is attached:
names ending in ``weight`` get the initializer's own rule (``_init_weight``), ``bias`` and
``beta`` zeros, ``gamma`` ones, ``min`` zeros and ``max`` ones; any other name is a
ValueError. Moving statistics get theirs from their operator (BatchNorm attaches
``'__init__'`` to ``moving_mean``/``moving_var``); only the deprecated ``init(str, NDArray)``
form still knows ``moving_mean``/``moving_var`` (and ``upsampling*``/``stn_loc*``) by name.
Gluon attaches an initializer to every Parameter (its own ``init`` or the global one), so in
Gluon ``_init_weight`` decides.

Random initializers draw from a numpy generator seeded by the next key of
:mod:`gluonjax.random`, so ``mx.random.seed(n)`` makes initialisation reproducible and no
XLA compilation is needed for each new shape.

Example::

    net.initialize(mx.init.Xavier(rnd_type='gaussian', factor_type='in', magnitude=2))
"""
import json
import logging
import re
import warnings

import jax
import numpy as np

from ._x64 import x64
from .base import MXNetError, string_types

__all__ = ['InitDesc', 'Initializer', 'register', 'alias', 'create', 'Load', 'Mixed', 'Zero', 'One',
           'Constant', 'Uniform', 'Normal', 'Orthogonal', 'Xavier', 'MSRAPrelu', 'Bilinear',
           'LSTMBias', 'FusedRNN']


class InitDesc(str):
    """A parameter's name with attributes (``__init__``: the initializer attached to it)."""

    def __new__(cls, name, attrs=None, global_init=None):
        ret = super().__new__(cls, name)
        ret.attrs = attrs or {}
        ret.global_init = global_init
        return ret


# ---------------------------------------------------------------------------------------
# Writing into arrays
# ---------------------------------------------------------------------------------------

@x64  # float64 host data stays float64 on the device
def _fill(arr, value):
    """Write ``value`` (a scalar or array broadcastable to ``arr``) into the NDArray ``arr``."""
    host = np.broadcast_to(np.asarray(value, dtype=arr._data.dtype), arr.shape)
    arr._set_data(jax.device_put(np.ascontiguousarray(host), next(iter(arr._data.devices()))))


def _rng():
    """A numpy generator seeded by the next key of gluonjax's global random state."""
    from . import random as _random
    from .context import cpu
    key = np.asarray(jax.random.key_data(_random.next_key(cpu())))
    return np.random.default_rng([int(k) for k in key.reshape(-1)])


def _float_dtype(arr):
    dtype = np.dtype(arr._data.dtype)
    return dtype if dtype.kind == 'f' else np.dtype(np.float32)


def _uniform(arr, low, high):
    sample = _rng().uniform(low, high, size=arr.shape)
    _fill(arr, sample.astype(_float_dtype(arr)))


def _normal(arr, loc, scale):
    sample = _rng().normal(loc, scale, size=arr.shape)
    _fill(arr, sample.astype(_float_dtype(arr)))


# ---------------------------------------------------------------------------------------
# Registry: mx.init.create('xavier'), create('["xavier", {"magnitude": 2}]'), create(obj)
# ---------------------------------------------------------------------------------------

_REGISTRY = {}


def register(klass):
    """Register an Initializer subclass under its lower-case class name."""
    if not (isinstance(klass, type) and issubclass(klass, Initializer)):
        raise MXNetError('register: %r is not an Initializer subclass' % (klass,))
    _REGISTRY[klass.__name__.lower()] = klass
    return klass


def alias(*names):
    """Register an Initializer subclass under extra names (``'zeros'`` for Zero)."""
    def wrap(klass):
        for name in names:
            _REGISTRY[name.lower()] = klass
        return klass
    return wrap


def _registered(name):
    klass = _REGISTRY.get(name.lower())
    if klass is None:
        raise AssertionError('unknown initializer %r; registered: %s' % (name, ', '.join(sorted(_REGISTRY))))
    return klass


def create(init, *args, **kwargs):
    """An Initializer from an instance, a registered name, or MXNet's JSON ``dumps()`` form."""
    if isinstance(init, Initializer):
        return init
    if isinstance(init, type):  # as MXNet: an instance or a name, not the class
        raise AssertionError('initializer: pass an instance such as %s() or a name, not the class'
                             % init.__name__)
    if isinstance(init, string_types):
        text = init.strip()
        if text.startswith('['):
            name, params = json.loads(text)
            return _registered(name)(**params)  # params may hold 'init' (FusedRNN's)
        return _registered(text)(*args, **kwargs)
    if callable(init):  # Mixed, Load and plain functions act as initializers too
        return _CallableInit(init)
    raise AssertionError('cannot make an initializer from %r' % (init,))


# ---------------------------------------------------------------------------------------
# Initializers
# ---------------------------------------------------------------------------------------

# The name rules for an InitDesc, in MXNet's order. Moving statistics are not among them: their
# operators attach an '__init__' attribute instead (BatchNorm's moving_var gets One).
_SUFFIX_RULES = (
    ('weight', '_init_weight'), ('bias', '_init_bias'), ('gamma', '_init_gamma'),
    ('beta', '_init_beta'), ('min', '_init_zero'), ('max', '_init_one'),
)

# The rules for a plain string name (MXNet's deprecated form), which still know the moving
# statistics of the old symbolic API; prefixes are checked by _legacy_init first.
_LEGACY_SUFFIX_RULES = (
    ('bias', '_init_bias'), ('gamma', '_init_gamma'), ('beta', '_init_beta'),
    ('weight', '_init_weight'), ('moving_mean', '_init_zero'), ('moving_var', '_init_one'),
    ('moving_inv_var', '_init_zero'), ('moving_avg', '_init_zero'), ('min', '_init_zero'),
    ('max', '_init_one'),
)


class Initializer:
    """Base class of initializers; subclasses write ``_init_weight(self, name, arr)``."""

    def __init__(self, **kwargs):
        self._kwargs = kwargs
        self._verbose = False
        self._print_func = None

    def set_verbosity(self, verbose=False, print_func=None):
        """Log every initialised array (its name and a statistic) when ``verbose``."""
        self._verbose = verbose
        if print_func is None:
            def print_func(x):
                a = x.asnumpy()
                return str(float(np.linalg.norm(a) / np.sqrt(max(a.size, 1))))
        self._print_func = print_func
        return self

    def _verbose_print(self, desc, init, arr):
        if self._verbose and self._print_func:
            logging.info('Initialized %s as %s: %s', desc, init, self._print_func(arr))

    def dumps(self):
        """MXNet's JSON form, ``'["xavier", {"magnitude": 2}]'``, readable by :func:`create`."""
        return json.dumps([self.__class__.__name__.lower(), self._kwargs])

    def __call__(self, desc, arr):
        """Fill ``arr`` for the parameter named ``desc``."""
        if not isinstance(desc, InitDesc):
            self._legacy_init(desc, arr)
            return
        if desc.global_init is None:
            desc.global_init = self
        init = desc.attrs.get('__init__', '')
        if init:
            create(init)._init_weight(desc, arr)
            self._verbose_print(desc, init, arr)
            return
        for suffix, method in _SUFFIX_RULES:
            if desc.endswith(suffix):
                getattr(self, method)(desc, arr)
                self._verbose_print(desc, suffix, arr)
                return
        self._init_default(desc, arr)

    def _legacy_init(self, name, arr):
        """``init(str, NDArray)``: MXNet's older name rules (see _LEGACY_SUFFIX_RULES)."""
        warnings.warn('Calling initializer with init(str, NDArray) has been deprecated. '
                      'please use init(mx.init.InitDesc(...), NDArray) instead.',
                      DeprecationWarning, stacklevel=3)
        from .ndarray import NDArray
        if not isinstance(name, string_types):
            raise TypeError('initializer: the name must be a string, got %s' % type(name).__name__)
        if not isinstance(arr, NDArray):
            raise TypeError('initializer: the array must be an NDArray, got %s' % type(arr).__name__)
        if name.startswith('upsampling'):
            self._init_bilinear(name, arr)
            return
        if name.startswith('stn_loc') and name.endswith(('weight', 'bias')):
            # a spatial transformer's localisation layer starts as the identity transform
            (self._init_zero if name.endswith('weight') else self._init_loc_bias)(name, arr)
            return
        for suffix, method in _LEGACY_SUFFIX_RULES:
            if name.endswith(suffix):
                getattr(self, method)(name, arr)
                return
        self._init_default(name, arr)

    def _init_loc_bias(self, name, arr):
        if arr.shape[0] != 6:
            raise AssertionError('initializer: %s is a spatial transformer bias and needs 6 values, '
                                 'got shape %s' % (name, arr.shape))
        _fill(arr, np.array([1.0, 0, 0, 0, 1.0, 0]))

    # the rules for names; subclasses override _init_weight
    def _init_zero(self, _, arr):
        _fill(arr, 0)

    def _init_one(self, _, arr):
        _fill(arr, 1)

    def _init_bias(self, _, arr):
        _fill(arr, 0)

    def _init_gamma(self, _, arr):
        _fill(arr, 1)

    def _init_beta(self, _, arr):
        _fill(arr, 0)

    def _init_bilinear(self, _, arr):
        _fill(arr, _bilinear_kernel(arr.shape))

    def _init_weight(self, name, arr):
        raise NotImplementedError('%s must override _init_weight' % type(self).__name__)

    def _init_default(self, name, _):
        raise ValueError(
            'Unknown initialization pattern for %s. Default initialization is limited to names '
            'ending in "weight", "bias", "gamma" (1.0) and "beta" (0.0); attach an initializer to '
            'the parameter instead (Parameter(init=mx.init.Zero()) or mx.sym.var(init=...)).' % name)

    def __eq__(self, other):
        if not isinstance(other, Initializer):
            return NotImplemented
        return type(self) is type(other) and self._kwargs == other._kwargs

    def __hash__(self):
        return id(self)

    def __repr__(self):
        args = ', '.join('%s=%r' % kv for kv in self._kwargs.items())
        return '%s(%s)' % (type(self).__name__, args)


class _CallableInit(Initializer):
    """Wraps a callable ``f(name, arr)`` (Mixed, Load, a function) as an Initializer."""

    def __init__(self, fn):
        super().__init__()
        self._fn = fn

    def _init_weight(self, name, arr):
        # the wrapped callable sees the bare name, so that initializers it calls apply
        # their name rules instead of finding this wrapper attached again
        self._fn(InitDesc(str(name)), arr)

    def __call__(self, desc, arr):
        # an initializer attached to the parameter (Gluon's BatchNorm running_var: 'ones') wins
        init = getattr(desc, 'attrs', {}).get('__init__', '')
        if init:
            create(init)._init_weight(desc, arr)
        else:
            self._init_weight(desc, arr)


def _bilinear_kernel(shape):
    """The bilinear upsampling filter MXNet's Bilinear initializer makes, for a 4-d shape."""
    f = np.ceil(shape[3] / 2.0)
    c = (2 * f - 1 - f % 2) / (2.0 * f)
    idx = np.arange(int(np.prod(shape)))
    x = idx % shape[3]
    y = (idx // shape[3]) % shape[2]
    weight = (1 - np.abs(x / f - c)) * (1 - np.abs(y / f - c))
    return weight.reshape(shape).astype(np.float32)


@register
@alias('zeros')
class Zero(Initializer):
    """Fills with 0."""

    def __init__(self):
        super().__init__()

    def _init_weight(self, _, arr):
        _fill(arr, 0)


@register
@alias('ones')
class One(Initializer):
    """Fills with 1."""

    def __init__(self):
        super().__init__()

    def _init_weight(self, _, arr):
        _fill(arr, 1)


@register
class Constant(Initializer):
    """Fills with ``value`` (a scalar, or an array of the parameter's shape)."""

    def __init__(self, value):
        super().__init__(value=value)
        self.value = value

    def _init_weight(self, _, arr):
        value = self.value
        if hasattr(value, 'asnumpy'):
            value = value.asnumpy()
        _fill(arr, value)

    def dumps(self):
        # as MXNet: an array value is kept in _kwargs as the nested list it is written as
        value = self._kwargs['value']
        if not np.isscalar(value):
            self._kwargs['value'] = (value.asnumpy().tolist() if hasattr(value, 'asnumpy')
                                     else np.asarray(value).tolist())
        return json.dumps([self.__class__.__name__.lower(), self._kwargs])


@register
class Uniform(Initializer):
    """Draws from U(-scale, scale)."""

    def __init__(self, scale=0.07):
        super().__init__(scale=scale)
        self.scale = scale

    def _init_weight(self, _, arr):
        _uniform(arr, -self.scale, self.scale)


@register
class Normal(Initializer):
    """Draws from N(0, sigma^2)."""

    def __init__(self, sigma=0.01):
        super().__init__(sigma=sigma)
        self.sigma = sigma

    def _init_weight(self, _, arr):
        _normal(arr, 0.0, self.sigma)


@register
class Orthogonal(Initializer):
    """A (scaled) orthogonal matrix from the SVD of a random one (Saxe et al., 2013)."""

    def __init__(self, scale=1.414, rand_type='uniform'):
        super().__init__(scale=scale, rand_type=rand_type)
        self.scale = scale
        self.rand_type = rand_type

    def _init_weight(self, name, arr):
        nout = arr.shape[0]
        nin = int(np.prod(arr.shape[1:]))
        rng = _rng()
        if self.rand_type == 'uniform':
            tmp = rng.uniform(-1.0, 1.0, size=(nout, nin))
        elif self.rand_type == 'normal':
            tmp = rng.normal(0.0, 1.0, size=(nout, nin))
        else:
            raise MXNetError("Orthogonal: rand_type must be 'uniform' or 'normal', not %r" % self.rand_type)
        u, _, v = np.linalg.svd(tmp, full_matrices=False)
        res = u if u.shape == tmp.shape else v
        _fill(arr, (self.scale * res.reshape(arr.shape)).astype(_float_dtype(arr)))


@register
class Xavier(Initializer):
    """Glorot initialisation: scale sqrt(magnitude / factor) where factor is the fan
    (average of in and out, in, or out; spatial dimensions count towards both)."""

    def __init__(self, rnd_type='uniform', factor_type='avg', magnitude=3):
        super().__init__(rnd_type=rnd_type, factor_type=factor_type, magnitude=magnitude)
        self.rnd_type = rnd_type
        self.factor_type = factor_type
        self.magnitude = float(magnitude)

    def _init_weight(self, name, arr):
        shape = arr.shape
        if len(shape) < 2:
            raise ValueError('Xavier initializer cannot be applied to vector {0}. It requires at '
                             'least 2D.'.format(name))
        hw_scale = float(np.prod(shape[2:])) if len(shape) > 2 else 1.0
        fan_in, fan_out = shape[1] * hw_scale, shape[0] * hw_scale
        if self.factor_type == 'avg':
            factor = (fan_in + fan_out) / 2.0
        elif self.factor_type == 'in':
            factor = fan_in
        elif self.factor_type == 'out':
            factor = fan_out
        else:
            raise ValueError("Xavier: factor_type must be 'avg', 'in' or 'out', not %r" % self.factor_type)
        scale = np.sqrt(self.magnitude / factor)
        if self.rnd_type == 'uniform':
            _uniform(arr, -scale, scale)
        elif self.rnd_type == 'gaussian':
            _normal(arr, 0.0, scale)
        else:
            raise ValueError("Xavier: rnd_type must be 'uniform' or 'gaussian', not %r" % self.rnd_type)


@register
class MSRAPrelu(Xavier):
    """He initialisation for PReLU networks: Gaussian Xavier with magnitude 2 / (1 + slope^2)."""

    def __init__(self, factor_type='avg', slope=0.25):
        super().__init__('gaussian', factor_type, 2.0 / (1 + slope ** 2))
        self._kwargs = {'factor_type': factor_type, 'slope': slope}


@register
class Bilinear(Initializer):
    """The bilinear upsampling filter (for Deconvolution weights)."""

    def __init__(self):
        super().__init__()

    def _init_weight(self, _, arr):
        _fill(arr, _bilinear_kernel(arr.shape))


@register
class LSTMBias(Initializer):
    """Zeros, except the forget gate's bias (the second quarter) set to ``forget_bias``."""

    def __init__(self, forget_bias=1.0):
        super().__init__(forget_bias=forget_bias)
        self.forget_bias = forget_bias

    def _init_weight(self, name, arr):
        value = np.zeros(arr.shape, dtype=_float_dtype(arr))
        n = arr.shape[0] // 4
        value[n:2 * n] = self.forget_bias
        _fill(arr, value)


@register
class FusedRNN(Initializer):
    """Initialises the flat parameter vector of the fused ``RNN`` operator gate by gate.

    Each gate's weight and bias (named as ``mx.rnn.FusedRNNCell.unpack_weights`` names them,
    without prefix: ``l0_i2h_f_bias``) is filled by ``init`` (or the global initializer when
    ``init`` is None), so a weight gets a weight's rule and a bias a bias's; LSTM forget-gate
    biases get ``forget_bias``.
    """

    def __init__(self, init, num_hidden, num_layers, mode, bidirectional=False, forget_bias=1.0):
        if init is not None:
            init = create(init)
        super().__init__(init=init.dumps() if init is not None else None, num_hidden=num_hidden,
                         num_layers=num_layers, mode=mode, bidirectional=bidirectional,
                         forget_bias=forget_bias)
        self._init = init
        self._num_hidden = num_hidden
        self._num_layers = num_layers
        self._mode = mode
        self._bidirectional = bidirectional
        self._forget_bias = forget_bias

    @x64
    def _init_weight(self, desc, arr):
        from .ndarray import zeros
        from .ops.nn_rnn import GATE_SUFFIXES, rnn_param_pieces
        h, layers, dirs = self._num_hidden, self._num_layers, 2 if self._bidirectional else 1
        gates = len(GATE_SUFFIXES[self._mode])
        # the flat size is gates*h*((input + h + 2)*dirs + (layers - 1)*(h*dirs + h + 2)*dirs)
        input_size = arr.size // (gates * h * dirs) - (layers - 1) * (h * dirs + h + 2) - h - 2
        flat = np.zeros(arr.shape, dtype=_float_dtype(arr))
        global_init = getattr(desc, 'global_init', None)
        for name, start, shape in rnn_param_pieces('', self._mode, input_size, h, layers, self._bidirectional):
            piece = zeros(shape, dtype=flat.dtype)
            if self._mode == 'lstm' and name.endswith('_f_bias'):
                _fill(piece, self._forget_bias)
            else:
                (self._init or global_init)(InitDesc(name, global_init=global_init), piece)
            flat[start:start + piece.size] = piece.asnumpy().ravel()
        _fill(arr, flat)


class Load:
    """Initialise from saved arrays (a file name or a dict); others go to ``default_init``."""

    def __init__(self, param, default_init=None, verbose=False):
        if isinstance(param, string_types):
            from .ndarray import load
            param = load(param)
        if not isinstance(param, dict):
            raise AssertionError('Load: expected a dict of arrays or a file of named arrays, got %s'
                                 % type(param).__name__)
        self.param = {}
        for name, arr in param.items():
            self.param[name[4:] if name.startswith(('arg:', 'aux:')) else name] = arr
        self.default_init = default_init
        self.verbose = verbose

    def __call__(self, name, arr):
        if name in self.param:
            src = self.param[name]
            if tuple(arr.shape) != tuple(src.shape):
                raise AssertionError('Parameter %s cannot be initialized from loading. Shape mismatch, '
                                 'target %s vs loaded %s' % (name, arr.shape, src.shape))
            _fill(arr, src.asnumpy() if hasattr(src, 'asnumpy') else src)
            if self.verbose:
                logging.info('Initialized %s by loading', name)
            return
        if self.default_init is None:
            raise AssertionError('Cannot Initialize %s. Not found in loaded param and no default '
                             'Initializer is provided.' % name)
        self.default_init(name, arr)
        if self.verbose:
            logging.info('Initialized %s by default', name)


class Mixed:
    """Initialise each parameter with the first initializer whose regex matches its name."""

    def __init__(self, patterns, initializers):
        if len(patterns) != len(initializers):
            raise AssertionError('Mixed: %d patterns but %d initializers' % (len(patterns), len(initializers)))
        self.map = list(zip([re.compile(p) for p in patterns], initializers))

    def __call__(self, name, arr):
        for prog, init in self.map:
            if prog.match(name):
                init(name, arr)
                return
        raise ValueError('Parameter name %s did not match any pattern. Consider adding a ".*" '
                         'pattern at the end with a default Initializer.' % name)
