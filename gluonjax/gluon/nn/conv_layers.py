"""Convolution and pooling layers."""
from ...base import MXNetError, numeric_types
from ...ops import get_op
from ..block import HybridBlock
from .activations import Activation

__all__ = ['Conv1D', 'Conv2D', 'Conv3D', 'Conv1DTranspose', 'Conv2DTranspose', 'Conv3DTranspose',
           'MaxPool1D', 'MaxPool2D', 'MaxPool3D', 'AvgPool1D', 'AvgPool2D', 'AvgPool3D',
           'GlobalMaxPool1D', 'GlobalMaxPool2D', 'GlobalMaxPool3D', 'GlobalAvgPool1D',
           'GlobalAvgPool2D', 'GlobalAvgPool3D', 'ReflectionPad2D']


def _tuple(value, n, what, error=AssertionError):
    """``value`` as n ints; a sequence of another length raises ``error``: AssertionError where
    MXNet's layer asserts it (kernel_size), MXNetError where its operator rejects it."""
    if isinstance(value, numeric_types):
        return (int(value),) * n
    value = tuple(int(v) for v in value)
    if error is not None and len(value) != n:
        raise error('%s must be a number or a list of %d ints, got %s' % (what, n, value))
    return value


def _check_conv_args(op, channels, kernel, strides, dilation, groups, adj):
    """What MXNet's Convolution/Deconvolution rejects when the layer infers its weight's shape,
    that is while the layer is built."""
    if channels < 1:
        raise MXNetError('%s: channels (num_filter) must be at least 1, got %d' % (op, channels))
    for what, value in (('kernel_size', kernel), ('strides', strides), ('dilation', dilation)):
        if min(value) < 1:
            raise MXNetError('%s: every value of %s must be positive, got %s' % (op, what, tuple(value)))
    if op == 'Convolution' and groups >= 1 and channels % groups:
        raise MXNetError('%s: channels %d must be divisible by groups %d' % (op, channels, groups))
    if adj is not None and any(a >= s for a, s in zip(adj, strides)):
        raise MXNetError('%s: output_padding %s must be smaller than strides %s' % (op, tuple(adj), strides))


def _check_layout(layout, allowed, what):
    if layout not in allowed:
        raise AssertionError("Only supports %s layout for %s, got %r"
                             % (' and '.join("'%s'" % a for a in allowed), what, layout))


class _Conv(HybridBlock):
    """Shared by the convolution layers: weight (channels, in_channels/groups, *kernel) for
    Convolution, (in_channels, channels/groups, *kernel) for Deconvolution."""

    def __init__(self, channels, kernel_size, strides, padding, dilation, groups, layout,
                 in_channels=0, activation=None, use_bias=True, weight_initializer=None,
                 bias_initializer='zeros', op_name='Convolution', adj=None, prefix=None, params=None):
        super().__init__(prefix=prefix, params=params)
        with self.name_scope():
            self._channels = channels
            self._in_channels = in_channels
            n = len(kernel_size)
            # MXNet's Convolution/Deconvolution operator rejects these while the layer is built
            strides, padding, dilation = (
                _tuple(value, n, '%s: %s' % (op_name, what), MXNetError)
                for value, what in ((strides, 'strides'), (padding, 'padding'), (dilation, 'dilation')))
            _check_conv_args(op_name, channels, kernel_size, strides, dilation, groups, adj)
            self._op_name = op_name
            self._kwargs = {
                'kernel': tuple(kernel_size), 'stride': strides, 'dilate': dilation, 'pad': padding,
                'num_filter': channels, 'num_group': groups, 'no_bias': not use_bias, 'layout': layout}
            if adj is not None:
                self._kwargs['adj'] = adj
            self.weight = self.params.get('weight', shape=self._weight_shape(in_channels),
                                          init=weight_initializer, allow_deferred_init=True)
            if use_bias:
                self.bias = self.params.get('bias', shape=(channels,), init=bias_initializer,
                                            allow_deferred_init=True)
            else:
                self.bias = None
            if activation is not None:
                self.act = Activation(activation, prefix=activation + '_')
            else:
                self.act = None

    def _weight_shape(self, in_channels):
        """MXNet's weight shape for ``in_channels`` input channels (0: not known yet), by the
        operator's own rule in the table."""
        layout = self._kwargs['layout']
        data = tuple(in_channels if axis == 'C' else 1 for axis in layout)
        return get_op(self._op_name).shapes_from_data(self._kwargs, data)['weight']

    def _infer_param_shapes(self, x, *args):
        in_channels = int(x.shape[self._kwargs['layout'].find('C')])
        groups = self._kwargs['num_group']
        if in_channels % groups:
            raise MXNetError('%s: input channels %d are not divisible by groups %d'
                             % (self._op_name, in_channels, groups))
        self.weight.shape = self._weight_shape(in_channels)

    def hybrid_forward(self, F, x, weight, bias=None):
        op = getattr(F, self._op_name)
        if bias is None:
            act = op(x, weight, name='fwd', **self._kwargs)
        else:
            act = op(x, weight, bias, name='fwd', **self._kwargs)
        if self.act is not None:
            act = self.act(act)
        return act

    def _alias(self):
        return 'conv'

    def __repr__(self):
        s = '{name}({mapping}, kernel_size={kernel}, stride={stride}'
        n = len(self._kwargs['kernel'])
        if self._kwargs['pad'] != (0,) * n:
            s += ', padding={pad}'
        if self._kwargs['dilate'] != (1,) * n:
            s += ', dilation={dilate}'
        if self._kwargs['num_group'] != 1:
            s += ', groups={num_group}'
        if self.bias is None:
            s += ', bias=False'
        if self.act:
            s += ', {}'.format(self.act)
        s += ')'
        shape = self.weight.shape
        return s.format(name=self.__class__.__name__,
                        mapping='{0} -> {1}'.format(shape[1] if shape[1] else None, shape[0]),
                        **self._kwargs)


class Conv1D(_Conv):
    r"""1-D convolution over the last axis of ``(batch, in_channels, width)`` inputs.

    Parameters
    ----------
    channels : int
        Number of output channels.
    kernel_size : int or tuple of 1 int
    strides, padding, dilation : int or tuple of 1 int
    groups : int, default 1
    layout : str, default 'NCW'
    activation : str, optional
    use_bias : bool, default True
    in_channels : int, default 0
        Inferred at the first forward pass when 0.
    """

    def __init__(self, channels, kernel_size, strides=1, padding=0, dilation=1, groups=1,
                 layout='NCW', activation=None, use_bias=True, weight_initializer=None,
                 bias_initializer='zeros', in_channels=0, **kwargs):
        _check_layout(layout, ('NCW',), 'Conv1D')
        kernel_size = _tuple(kernel_size, 1, 'kernel_size')
        op_name = kwargs.pop('op_name', 'Convolution')
        super().__init__(channels, kernel_size, strides, padding, dilation, groups, layout,
                         in_channels, activation, use_bias, weight_initializer, bias_initializer,
                         op_name, **kwargs)


class Conv2D(_Conv):
    r"""2-D convolution over ``(batch, in_channels, height, width)`` inputs (or NHWC).

    Parameters
    ----------
    channels : int
        Number of output channels.
    kernel_size : int or tuple of 2 ints
    strides, padding, dilation : int or tuple of 2 ints
    groups : int, default 1
    layout : str, default 'NCHW'
    activation : str, optional
    use_bias : bool, default True
    in_channels : int, default 0
        Inferred at the first forward pass when 0.

    Inputs:
        - **data**: 4-D ``(batch_size, in_channels, height, width)`` for NCHW.
    Outputs:
        - **out**: 4-D ``(batch_size, channels, out_height, out_width)``, where
          ``out_height = floor((height + 2*padding[0] - dilation[0]*(kernel_size[0]-1) - 1) / stride[0]) + 1``.
    """

    def __init__(self, channels, kernel_size, strides=(1, 1), padding=(0, 0), dilation=(1, 1),
                 groups=1, layout='NCHW', activation=None, use_bias=True, weight_initializer=None,
                 bias_initializer='zeros', in_channels=0, **kwargs):
        _check_layout(layout, ('NCHW', 'NHWC'), 'Conv2D')
        kernel_size = _tuple(kernel_size, 2, 'kernel_size')
        op_name = kwargs.pop('op_name', 'Convolution')
        super().__init__(channels, kernel_size, strides, padding, dilation, groups, layout,
                         in_channels, activation, use_bias, weight_initializer, bias_initializer,
                         op_name, **kwargs)


class Conv3D(_Conv):
    r"""3-D convolution over ``(batch, in_channels, depth, height, width)`` inputs (or NDHWC)."""

    def __init__(self, channels, kernel_size, strides=(1, 1, 1), padding=(0, 0, 0),
                 dilation=(1, 1, 1), groups=1, layout='NCDHW', activation=None, use_bias=True,
                 weight_initializer=None, bias_initializer='zeros', in_channels=0, **kwargs):
        _check_layout(layout, ('NCDHW', 'NDHWC'), 'Conv3D')
        kernel_size = _tuple(kernel_size, 3, 'kernel_size')
        op_name = kwargs.pop('op_name', 'Convolution')
        super().__init__(channels, kernel_size, strides, padding, dilation, groups, layout,
                         in_channels, activation, use_bias, weight_initializer, bias_initializer,
                         op_name, **kwargs)


class _ConvTranspose(_Conv):
    def __init__(self, n, layouts, what, channels, kernel_size, strides, padding, output_padding,
                 dilation, groups, layout, activation, use_bias, weight_initializer,
                 bias_initializer, in_channels, **kwargs):
        _check_layout(layout, layouts, what)
        kernel_size = _tuple(kernel_size, n, 'kernel_size')
        output_padding = _tuple(output_padding, n, 'output_padding')
        op_name = kwargs.pop('op_name', 'Deconvolution')
        super().__init__(channels, kernel_size, strides, padding, dilation, groups, layout,
                         in_channels, activation, use_bias, weight_initializer, bias_initializer,
                         op_name=op_name, adj=output_padding, **kwargs)
        self.outpad = output_padding


class Conv1DTranspose(_ConvTranspose):
    r"""Transposed 1-D convolution (deconvolution); weight (in_channels, channels/groups, k)."""

    def __init__(self, channels, kernel_size, strides=1, padding=0, output_padding=0, dilation=1,
                 groups=1, layout='NCW', activation=None, use_bias=True, weight_initializer=None,
                 bias_initializer='zeros', in_channels=0, **kwargs):
        super().__init__(1, ('NCW',), 'Conv1DTranspose', channels, kernel_size, strides, padding,
                         output_padding, dilation, groups, layout, activation, use_bias,
                         weight_initializer, bias_initializer, in_channels, **kwargs)


class Conv2DTranspose(_ConvTranspose):
    r"""Transposed 2-D convolution (deconvolution); weight (in_channels, channels/groups, kh, kw)."""

    def __init__(self, channels, kernel_size, strides=(1, 1), padding=(0, 0), output_padding=(0, 0),
                 dilation=(1, 1), groups=1, layout='NCHW', activation=None, use_bias=True,
                 weight_initializer=None, bias_initializer='zeros', in_channels=0, **kwargs):
        super().__init__(2, ('NCHW', 'NHWC'), 'Conv2DTranspose', channels, kernel_size, strides,
                         padding, output_padding, dilation, groups, layout, activation, use_bias,
                         weight_initializer, bias_initializer, in_channels, **kwargs)


class Conv3DTranspose(_ConvTranspose):
    r"""Transposed 3-D convolution (deconvolution)."""

    def __init__(self, channels, kernel_size, strides=(1, 1, 1), padding=(0, 0, 0),
                 output_padding=(0, 0, 0), dilation=(1, 1, 1), groups=1, layout='NCDHW',
                 activation=None, use_bias=True, weight_initializer=None, bias_initializer='zeros',
                 in_channels=0, **kwargs):
        super().__init__(3, ('NCDHW', 'NDHWC'), 'Conv3DTranspose', channels, kernel_size, strides,
                         padding, output_padding, dilation, groups, layout, activation, use_bias,
                         weight_initializer, bias_initializer, in_channels, **kwargs)


class _Pooling(HybridBlock):
    """Shared by the pooling layers (MXNet's Pooling operator)."""

    def __init__(self, pool_size, strides, padding, ceil_mode, global_pool, pool_type, layout,
                 count_include_pad=None, **kwargs):
        super().__init__(**kwargs)
        n = len(pool_size)
        if strides is None:
            strides = pool_size
        # not checked here: as in MXNet, the Pooling operator judges their lengths at the forward
        strides = _tuple(strides, n, 'strides', None)
        padding = _tuple(padding, n, 'padding', None)
        self._kwargs = {
            'kernel': tuple(pool_size), 'stride': strides, 'pad': padding,
            'global_pool': global_pool, 'pool_type': pool_type, 'layout': layout,
            'pooling_convention': 'full' if ceil_mode else 'valid'}
        if count_include_pad is not None:
            self._kwargs['count_include_pad'] = count_include_pad

    def _alias(self):
        return 'pool'

    def hybrid_forward(self, F, x):
        return F.Pooling(x, name='fwd', **self._kwargs)

    def __repr__(self):
        s = '{name}(size={kernel}, stride={stride}, padding={pad}, ceil_mode={ceil_mode}'
        s += ', global_pool={global_pool}, pool_type={pool_type}, layout={layout})'
        return s.format(name=self.__class__.__name__,
                        ceil_mode=self._kwargs['pooling_convention'] == 'full', **self._kwargs)


def _pool_init(cls, n, layouts, pool_size, strides, padding, layout, ceil_mode, pool_type,
               count_include_pad, self, kwargs):
    _check_layout(layout, layouts, cls)
    pool_size = _tuple(pool_size, n, 'pool_size')
    _Pooling.__init__(self, pool_size, strides, padding, ceil_mode, False, pool_type, layout,
                      count_include_pad, **kwargs)


class MaxPool1D(_Pooling):
    """Max pooling over windows of the last axis (NCW)."""

    def __init__(self, pool_size=2, strides=None, padding=0, layout='NCW', ceil_mode=False, **kwargs):
        _pool_init('MaxPool1D', 1, ('NCW', 'NWC'), pool_size, strides, padding, layout, ceil_mode,
                   'max', None, self, kwargs)


class MaxPool2D(_Pooling):
    """Max pooling over 2-D windows.

    Parameters
    ----------
    pool_size : int or tuple of 2 ints, default (2, 2)
    strides : int or tuple, default pool_size
    padding : int or tuple, default 0
    layout : str, default 'NCHW'
    ceil_mode : bool, default False
        Round the output size up ('full' pooling convention) instead of down.
    """

    def __init__(self, pool_size=(2, 2), strides=None, padding=0, layout='NCHW', ceil_mode=False,
                 **kwargs):
        _pool_init('MaxPool2D', 2, ('NCHW', 'NHWC'), pool_size, strides, padding, layout, ceil_mode,
                   'max', None, self, kwargs)


class MaxPool3D(_Pooling):
    """Max pooling over 3-D windows."""

    def __init__(self, pool_size=(2, 2, 2), strides=None, padding=0, ceil_mode=False,
                 layout='NCDHW', **kwargs):
        _pool_init('MaxPool3D', 3, ('NCDHW', 'NDHWC'), pool_size, strides, padding, layout,
                   ceil_mode, 'max', None, self, kwargs)


class AvgPool1D(_Pooling):
    """Average pooling over windows of the last axis (NCW)."""

    def __init__(self, pool_size=2, strides=None, padding=0, layout='NCW', ceil_mode=False,
                 count_include_pad=True, **kwargs):
        _pool_init('AvgPool1D', 1, ('NCW', 'NWC'), pool_size, strides, padding, layout, ceil_mode,
                   'avg', count_include_pad, self, kwargs)


class AvgPool2D(_Pooling):
    """Average pooling over 2-D windows; ``count_include_pad`` counts padding in the mean."""

    def __init__(self, pool_size=(2, 2), strides=None, padding=0, ceil_mode=False, layout='NCHW',
                 count_include_pad=True, **kwargs):
        _pool_init('AvgPool2D', 2, ('NCHW', 'NHWC'), pool_size, strides, padding, layout, ceil_mode,
                   'avg', count_include_pad, self, kwargs)


class AvgPool3D(_Pooling):
    """Average pooling over 3-D windows."""

    def __init__(self, pool_size=(2, 2, 2), strides=None, padding=0, ceil_mode=False,
                 layout='NCDHW', count_include_pad=True, **kwargs):
        _pool_init('AvgPool3D', 3, ('NCDHW', 'NDHWC'), pool_size, strides, padding, layout,
                   ceil_mode, 'avg', count_include_pad, self, kwargs)


class _GlobalPooling(_Pooling):
    def __init__(self, n, layouts, what, pool_type, layout, kwargs):
        _check_layout(layout, layouts, what)
        _Pooling.__init__(self, (1,) * n, None, 0, True, True, pool_type, layout, **kwargs)


class GlobalMaxPool1D(_GlobalPooling):
    """Max over the whole width: output ``(N, C, 1)``."""

    def __init__(self, layout='NCW', **kwargs):
        super().__init__(1, ('NCW', 'NWC'), 'GlobalMaxPool1D', 'max', layout, kwargs)


class GlobalMaxPool2D(_GlobalPooling):
    """Max over the whole image: output ``(N, C, 1, 1)``."""

    def __init__(self, layout='NCHW', **kwargs):
        super().__init__(2, ('NCHW', 'NHWC'), 'GlobalMaxPool2D', 'max', layout, kwargs)


class GlobalMaxPool3D(_GlobalPooling):
    """Max over the whole volume: output ``(N, C, 1, 1, 1)``."""

    def __init__(self, layout='NCDHW', **kwargs):
        super().__init__(3, ('NCDHW', 'NDHWC'), 'GlobalMaxPool3D', 'max', layout, kwargs)


class GlobalAvgPool1D(_GlobalPooling):
    """Mean over the whole width: output ``(N, C, 1)``."""

    def __init__(self, layout='NCW', **kwargs):
        super().__init__(1, ('NCW', 'NWC'), 'GlobalAvgPool1D', 'avg', layout, kwargs)


class GlobalAvgPool2D(_GlobalPooling):
    """Mean over the whole image: output ``(N, C, 1, 1)``."""

    def __init__(self, layout='NCHW', **kwargs):
        super().__init__(2, ('NCHW', 'NHWC'), 'GlobalAvgPool2D', 'avg', layout, kwargs)


class GlobalAvgPool3D(_GlobalPooling):
    """Mean over the whole volume: output ``(N, C, 1, 1, 1)``."""

    def __init__(self, layout='NCDHW', **kwargs):
        super().__init__(3, ('NCDHW', 'NDHWC'), 'GlobalAvgPool3D', 'avg', layout, kwargs)


class ReflectionPad2D(HybridBlock):
    """Pads the last two axes of NCHW input by reflection."""

    def __init__(self, padding=0, **kwargs):
        super().__init__(**kwargs)
        if isinstance(padding, numeric_types):
            padding = (0, 0, 0, 0, padding, padding, padding, padding)
        if len(padding) != 8:
            raise AssertionError('ReflectionPad2D: padding must be a number or 8 ints, got %s' % (padding,))
        self._padding = tuple(padding)

    def hybrid_forward(self, F, x):
        return F.pad(x, mode='reflect', pad_width=self._padding)
