"""Basic layers: containers, Dense, Dropout, normalisations, Embedding, Flatten, lambdas."""
import warnings

import numpy as np

from ...numpy._state import is_np_array
from ...ops import get_op
from ..block import Block, HybridBlock
from ..utils import _indent
from .activations import Activation

__all__ = ['Sequential', 'HybridSequential', 'Dense', 'Dropout', 'Embedding', 'BatchNorm',
           'BatchNormReLU', 'InstanceNorm', 'LayerNorm', 'GroupNorm', 'Flatten', 'Lambda',
           'HybridLambda', 'Identity', 'Concurrent', 'HybridConcurrent']


def _children_repr(block):
    modstr = '\n'.join('  ({key}): {block}'.format(key=key, block=_indent(repr(child), 2))
                       for key, child in block._children.items())
    return '{name}(\n{modstr}\n)'.format(name=block.__class__.__name__, modstr=modstr)


def _kwargs_repr(kwargs):
    return ', '.join('='.join([k, repr(v)]) for k, v in kwargs.items())


class _Stack:
    """What Sequential and HybridSequential share: adding, indexing, slicing, length, repr."""

    _summary_skips = True  # Block.summary lists the children instead

    def add(self, *blocks):
        """Add Blocks at the end."""
        for block in blocks:
            self.register_child(block)

    def _run_children(self, x):
        for block in self._children.values():
            x = block(x)
        return x

    def __repr__(self):
        return _children_repr(self)

    def __getitem__(self, key):
        layers = list(self._children.values())[key]
        if isinstance(layers, list):  # a slice: a new stack of the same kind holding those layers
            net = type(self)(prefix=self._prefix)
            with net.name_scope():
                net.add(*layers)
            return net
        return layers

    def __len__(self):
        return len(self._children)


class Sequential(_Stack, Block):
    """Stacks Blocks: the output of each is the input of the next.

    Example::

        net = nn.Sequential()
        with net.name_scope():
            net.add(nn.Dense(10, activation='relu'), nn.Dense(20))
    """

    def __init__(self, prefix=None, params=None):
        super().__init__(prefix=prefix, params=params)

    def forward(self, x):
        return self._run_children(x)

    def hybridize(self, active=True, **kwargs):
        """Hybridize the children; a warning suggests HybridSequential when all can be."""
        if self._children and all(isinstance(c, HybridBlock) for c in self._children.values()):
            warnings.warn("All children of this Sequential layer '%s' are HybridBlocks. Consider "
                          "using HybridSequential for the best performance." % self.prefix, stacklevel=2)
        super().hybridize(active, **kwargs)


class HybridSequential(_Stack, HybridBlock):
    """Stacks HybridBlocks; hybridized, the whole stack is one compiled graph.

    Example::

        net = nn.HybridSequential()
        with net.name_scope():
            net.add(nn.Dense(10, activation='relu'), nn.Dense(20))
        net.hybridize()
    """

    def __init__(self, prefix=None, params=None):
        super().__init__(prefix=prefix, params=params)

    def hybrid_forward(self, F, x):
        return self._run_children(x)


class Dense(HybridBlock):
    r"""Densely connected layer: ``output = activation(dot(input, weight.T) + bias)``.

    Parameters
    ----------
    units : int
        Dimensionality of the output space.
    activation : str, optional
        Activation function applied to the output (see Activation); none by default.
    use_bias : bool, default True
    flatten : bool, default True
        If True, all axes but the first are collapsed into one; if False, the
        transformation applies to the last axis.
    dtype : str or np.dtype, default 'float32'
    weight_initializer, bias_initializer : str or Initializer
    in_units : int, optional
        Size of the input; inferred at the first forward pass when not given.

    Inputs:
        - **data**: ``(batch_size, x1, ..., xn)`` with flatten, ``(x1, ..., xn, in_units)`` without.
    Outputs:
        - **out**: ``(batch_size, units)`` with flatten, ``(x1, ..., xn, units)`` without.
    """

    def __init__(self, units, activation=None, use_bias=True, flatten=True, dtype='float32',
                 weight_initializer=None, bias_initializer='zeros', in_units=0, **kwargs):
        super().__init__(**kwargs)
        self._flatten = flatten
        with self.name_scope():
            self._units = units
            self._in_units = in_units
            self.weight = self.params.get('weight', shape=(units, in_units), init=weight_initializer,
                                          dtype=dtype, allow_deferred_init=True)
            if use_bias:
                self.bias = self.params.get('bias', shape=(units,), init=bias_initializer, dtype=dtype,
                                            allow_deferred_init=True)
            else:
                self.bias = None
            if activation is not None:
                self.act = Activation(activation, prefix=activation + '_')
            else:
                self.act = None

    def _infer_param_shapes(self, x, *args):
        attrs = {'num_hidden': self._units, 'flatten': self._flatten}
        self.weight.shape = get_op('FullyConnected').shapes_from_data(attrs, x.shape)['weight']

    def hybrid_forward(self, F, x, weight, bias=None):
        act = F.FullyConnected(x, weight, bias, no_bias=bias is None, num_hidden=self._units,
                               flatten=self._flatten, name='fwd')
        if self.act is not None:
            act = self.act(act)
        return act

    def __repr__(self):
        shape = self.weight.shape
        return '{name}({layout}, {act})'.format(
            name=self.__class__.__name__, act=self.act if self.act else 'linear',
            layout='{0} -> {1}'.format(shape[1] if shape[1] else None, shape[0]))


class Dropout(HybridBlock):
    """Sets a fraction ``rate`` of the inputs to 0 in training (scaling the rest by 1/(1-rate)).

    Parameters
    ----------
    rate : float
        Fraction of the input units to drop, between 0 and 1.
    axes : tuple of int, default ()
        Axes along which the dropout mask is shared.
    """

    def __init__(self, rate, axes=(), **kwargs):
        super().__init__(**kwargs)
        self._rate = rate
        self._axes = axes

    def hybrid_forward(self, F, x):
        if self._rate > 0:
            return F.Dropout(x, p=self._rate, axes=self._axes, name='fwd', cudnn_off=False)
        return F.identity(x)

    def __repr__(self):
        return '{name}(p = {rate}, axes={axes})'.format(name=self.__class__.__name__, rate=self._rate,
                                                        axes=self._axes)


def _scale_shift(block, size, scale, center, gamma_initializer, beta_initializer, mark_differentiable=False):
    """A normalisation layer's ``gamma`` (scale) and ``beta`` (shift) Parameters of ``size``
    values, trained only when ``scale`` / ``center`` ask for them."""
    extra_g = {'differentiable': scale} if mark_differentiable else {}
    extra_b = {'differentiable': center} if mark_differentiable else {}
    block.gamma = block.params.get('gamma', grad_req='write' if scale else 'null', shape=(size,),
                                   init=gamma_initializer, allow_deferred_init=True, **extra_g)
    block.beta = block.params.get('beta', grad_req='write' if center else 'null', shape=(size,),
                                  init=beta_initializer, allow_deferred_init=True, **extra_b)


class _AxisNorm(HybridBlock):
    """InstanceNorm and LayerNorm: gamma and beta have the size of ``self._axis``."""

    def _infer_param_shapes(self, x, *args):
        channels = int(x.shape[self._axis])
        self.gamma.shape = (channels,)
        self.beta.shape = (channels,)


class _BatchNorm(HybridBlock):
    """Batch normalisation (Ioffe and Szegedy, 2014) with running statistics as auxiliary states;
    subclasses with ``fuse_relu`` apply a ReLU after it."""
    fuse_relu = False

    def __init__(self, axis=1, momentum=0.9, epsilon=1e-5, center=True, scale=True,
                 use_global_stats=False, beta_initializer='zeros',
                 gamma_initializer='ones', running_mean_initializer='zeros',
                 running_variance_initializer='ones', in_channels=0, **kwargs):
        super().__init__(**kwargs)
        self._kwargs = {'axis': axis, 'eps': epsilon, 'momentum': momentum,
                        'fix_gamma': not scale, 'use_global_stats': use_global_stats}
        if in_channels != 0:
            self.in_channels = in_channels
        _scale_shift(self, in_channels, scale, center, gamma_initializer, beta_initializer,
                     mark_differentiable=True)
        self.running_mean = self.params.get('running_mean', grad_req='null', shape=(in_channels,),
                                            init=running_mean_initializer, allow_deferred_init=True,
                                            differentiable=False)
        self.running_var = self.params.get('running_var', grad_req='null', shape=(in_channels,),
                                           init=running_variance_initializer, allow_deferred_init=True,
                                           differentiable=False)

    def _infer_param_shapes(self, x, *args):
        shapes = get_op('BatchNorm').shapes_from_data(self._kwargs, x.shape)
        for name, p in (('gamma', self.gamma), ('beta', self.beta), ('moving_mean', self.running_mean),
                        ('moving_var', self.running_var)):
            p.shape = shapes[name]

    def cast(self, dtype):
        if np.dtype(dtype).name == 'float16':
            dtype = 'float32'
        super().cast(dtype)

    def hybrid_forward(self, F, x, gamma, beta, running_mean, running_var):
        out = F.BatchNorm(x, gamma, beta, running_mean, running_var, name='fwd', **self._kwargs)
        if self.fuse_relu:
            out = F.relu(out)
        return out

    def __repr__(self):
        in_channels = self.gamma.shape[0]
        return '{name}({content}, in_channels={ch})'.format(
            name=self.__class__.__name__, content=_kwargs_repr(self._kwargs),
            ch=in_channels if in_channels else None)


class BatchNorm(_BatchNorm):
    """Batch normalisation layer (Ioffe and Szegedy, 2014).

    Parameters
    ----------
    axis : int, default 1
        The channel axis (1 after an NCHW convolution).
    momentum : float, default 0.9
        Momentum of the running mean and variance.
    epsilon : float, default 1e-5
    center, scale : bool, default True
        Whether to use ``beta`` and ``gamma``.
    use_global_stats : bool, default False
        Normalise with the running statistics in training too.
    in_channels : int, default 0
        Number of channels; inferred at the first forward pass when 0.

    Inputs:
        - **data**: input tensor with arbitrary shape.
    Outputs:
        - **out**: output tensor with the same shape as `data`.
    """


class BatchNormReLU(_BatchNorm):
    """BatchNorm followed by ReLU."""

    fuse_relu = True


class Embedding(HybridBlock):
    r"""Turns integer indices into dense vectors: row ``i`` of ``weight`` for index ``i``.

    Parameters
    ----------
    input_dim : int
        Size of the vocabulary (largest index + 1).
    output_dim : int
        Dimension of the vectors.
    dtype : str or np.dtype, default 'float32'
    weight_initializer : Initializer
    sparse_grad : bool
        Accepted; gradients are dense in gluonjax.

    Inputs:
        - **data**: (N-1)-D tensor of indices.
    Outputs:
        - **out**: N-D tensor with shape ``data.shape + (output_dim,)``.
    """

    def __init__(self, input_dim, output_dim, dtype='float32', weight_initializer=None,
                 sparse_grad=False, **kwargs):
        super().__init__(**kwargs)
        self._kwargs = {'input_dim': input_dim, 'output_dim': output_dim, 'dtype': dtype,
                        'sparse_grad': sparse_grad}
        self.weight = self.params.get('weight', shape=(input_dim, output_dim), init=weight_initializer,
                                      dtype=dtype, allow_deferred_init=True,
                                      grad_stype='row_sparse' if sparse_grad else 'default')

    def hybrid_forward(self, F, x, weight):
        return F.Embedding(x, weight, name='fwd', **self._kwargs)

    def __repr__(self):
        return '{block_name}({input_dim} -> {output_dim}, {dtype})'.format(
            block_name=self.__class__.__name__, **self._kwargs)


class Flatten(HybridBlock):
    r"""Flattens the input to 2-D: ``(N, x1, ..., xn)`` becomes ``(N, x1 * ... * xn)``."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)

    def hybrid_forward(self, F, x):
        if is_np_array():  # MXNet's NumPy mode calls npx.batch_flatten: its node is batch_flatten0
            return F.npx.batch_flatten(x)
        return F.flatten(x)

    def __repr__(self):
        return self.__class__.__name__


class InstanceNorm(_AxisNorm):
    r"""Instance normalisation (Ulyanov et al., 2016): each sample and channel normalised alone.

    Parameters
    ----------
    axis : int, default 1
        The channel axis.
    epsilon : float, default 1e-5
    center : bool, default True
    scale : bool, default False
    in_channels : int, default 0
        Number of channels; inferred at the first forward pass when 0.
    """

    def __init__(self, axis=1, epsilon=1e-5, center=True, scale=False, beta_initializer='zeros',
                 gamma_initializer='ones', in_channels=0, **kwargs):
        super().__init__(**kwargs)
        self._kwargs = {'eps': epsilon, 'axis': axis, 'center': center, 'scale': scale}
        self._axis = axis
        self._epsilon = epsilon
        _scale_shift(self, in_channels, scale, center, gamma_initializer, beta_initializer)

    def hybrid_forward(self, F, x, gamma, beta):
        if self._axis == 1:
            return F.InstanceNorm(x, gamma, beta, name='fwd', eps=self._epsilon)
        x = x.swapaxes(1, self._axis)
        return F.InstanceNorm(x, gamma, beta, name='fwd', eps=self._epsilon).swapaxes(1, self._axis)

    def __repr__(self):
        return '{name}({content}, in_channels={ch})'.format(
            name=self.__class__.__name__, content=_kwargs_repr(self._kwargs), ch=self.gamma.shape[0])


class LayerNorm(_AxisNorm):
    r"""Layer normalisation (Ba et al., 2016) over ``axis``.

    Parameters
    ----------
    axis : int, default -1
    epsilon : float, default 1e-5
    center, scale : bool, default True
    in_channels : int, default 0
        Size of ``axis``; inferred at the first forward pass when 0.
    """

    def __init__(self, axis=-1, epsilon=1e-5, center=True, scale=True, beta_initializer='zeros',
                 gamma_initializer='ones', in_channels=0, prefix=None, params=None):
        super().__init__(prefix=prefix, params=params)
        self._kwargs = {'eps': epsilon, 'axis': axis, 'center': center, 'scale': scale}
        self._axis = axis
        self._epsilon = epsilon
        self._center = center
        self._scale = scale
        _scale_shift(self, in_channels, scale, center, gamma_initializer, beta_initializer)

    def hybrid_forward(self, F, data, gamma, beta):
        return F.LayerNorm(data, gamma=gamma, beta=beta, axis=self._axis, eps=self._epsilon)

    def __repr__(self):
        return '{name}({content}, in_channels={ch})'.format(
            name=self.__class__.__name__, content=_kwargs_repr(self._kwargs), ch=self.gamma.shape[0])


class GroupNorm(HybridBlock):
    r"""Group normalisation (Wu and He, 2018): channels split into ``num_groups`` groups.

    As in MXNet 1.x, ``gamma`` and ``beta`` have one value per group.

    Parameters
    ----------
    num_groups : int, default 1
    epsilon : float, default 1e-5
    center, scale : bool, default True
    """

    def __init__(self, num_groups=1, epsilon=1e-5, center=True, scale=True, beta_initializer='zeros',
                 gamma_initializer='ones', prefix=None, params=None):
        super().__init__(prefix=prefix, params=params)
        self._kwargs = {'eps': epsilon, 'num_groups': num_groups, 'center': center, 'scale': scale}
        self._num_groups = num_groups
        self._epsilon = epsilon
        self._center = center
        self._scale = scale
        _scale_shift(self, num_groups, scale, center, gamma_initializer, beta_initializer)

    def hybrid_forward(self, F, data, gamma, beta):
        return F.GroupNorm(data, gamma=gamma, beta=beta, num_groups=self._num_groups, eps=self._epsilon)

    def __repr__(self):
        return '{name}({content})'.format(name=self.__class__.__name__,
                                          content=_kwargs_repr(self._kwargs))


class Lambda(Block):
    r"""Wraps a function (or the name of an ``mx.nd`` operator) as a Block.

    Example::

        block = Lambda('tanh')
        block = Lambda(lambda x: nd.LeakyReLU(x, slope=0.1))
    """

    def __init__(self, function, prefix=None):
        super().__init__(prefix=prefix)
        if isinstance(function, str):
            from ... import ndarray
            if not hasattr(ndarray, function):
                raise AssertionError('Function name %s is not found in ndarray.' % function)
            self._func_impl = getattr(ndarray, function)
        elif callable(function):
            self._func_impl = function
        else:
            raise ValueError('Unrecognized function in lambda: {} of type {}'
                             .format(function, type(function)))

    def forward(self, *args):
        return self._func_impl(*args)

    def __repr__(self):
        return '{name}({function})'.format(name=self.__class__.__name__,
                                           function=self._func_impl.__name__)


class HybridLambda(HybridBlock):
    r"""Wraps ``function(F, x, *args)`` (or an operator name known to nd and sym) as a HybridBlock.

    Example::

        block = HybridLambda('tanh')
        block = HybridLambda(lambda F, x: F.LeakyReLU(x, slope=0.1))
    """

    def __init__(self, function, prefix=None):
        super().__init__(prefix=prefix)
        if isinstance(function, str):
            from ... import ndarray, symbol
            if not (hasattr(ndarray, function) and hasattr(symbol, function)):
                raise AssertionError('Function name %s is not found in symbol/ndarray.' % function)
            name = function
            self._func = lambda F, *args: getattr(F, name)(*args)
            self._func_name = function
        elif callable(function):
            self._func = function
            self._func_name = function.__name__
        else:
            raise ValueError('Unrecognized function in lambda: {} of type {}'
                             .format(function, type(function)))

    def hybrid_forward(self, F, x, *args):
        return self._func(F, x, *args)

    def __repr__(self):
        return '{name}({function})'.format(name=self.__class__.__name__, function=self._func_name)


class Identity(HybridBlock):
    """Returns its input unchanged (a placeholder in containers)."""

    def hybrid_forward(self, F, x):
        return x


class Concurrent(Sequential):
    """Runs every child on the same input and concatenates the outputs along ``axis``."""

    def __init__(self, axis=-1, prefix=None, params=None):
        super().__init__(prefix=prefix, params=params)
        self.axis = axis

    def forward(self, x):
        from ... import ndarray
        outs = [block(x) for block in self._children.values()]
        return ndarray.concat(*outs, dim=self.axis)


class HybridConcurrent(HybridSequential):
    """Runs every child on the same input and concatenates the outputs along ``axis``."""

    def __init__(self, axis=-1, prefix=None, params=None):
        super().__init__(prefix=prefix, params=params)
        self.axis = axis

    def hybrid_forward(self, F, x):
        outs = [block(x) for block in self._children.values()]
        return F.concat(*outs, dim=self.axis)
