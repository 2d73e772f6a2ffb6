"""Deformable convolutions: a convolution computes, from the input, where each kernel tap
samples (offsets, and for the modulated form a weight per sample); the deformable convolution
operator of the table then samples there."""
from ....base import MXNetError, numeric_types
from ....ops import get_op
from ...block import HybridBlock
from ...nn.activations import Activation

__all__ = ['DeformableConvolution', 'ModulatedDeformableConvolution']


def _pair(value, what):
    value = (value,) * 2 if isinstance(value, numeric_types) else tuple(value)
    if len(value) != 2:
        raise MXNetError('%s must be an int or 2 ints, got %r' % (what, value))
    return value


class _DeformableConv(HybridBlock):
    """Shared by both forms: ``_samples_per_tap`` channels of the offset convolution per kernel
    tap and deformable group (2: y and x offsets; 3: and the modulation)."""
    _samples_per_tap = 2
    _op_name = '_contrib_DeformableConvolution'

    def __init__(self, channels, kernel_size=(1, 1), strides=(1, 1), padding=(0, 0), dilation=(1, 1),
                 groups=1, num_deformable_group=1, layout='NCHW', use_bias=True, in_channels=0,
                 activation=None, weight_initializer=None, bias_initializer='zeros',
                 offset_weight_initializer='zeros', offset_bias_initializer='zeros', offset_use_bias=True,
                 prefix=None, params=None):
        super().__init__(prefix=prefix, params=params)
        if layout != 'NCHW':
            raise MXNetError("%s: only the 'NCHW' layout is supported, got %r"
                             % (type(self).__name__, layout))
        kernel = _pair(kernel_size, 'kernel_size')
        geometry = {'kernel': kernel, 'stride': _pair(strides, 'strides'), 'dilate': _pair(dilation, 'dilation'),
                    'pad': _pair(padding, 'padding'), 'num_group': groups, 'layout': layout}
        self._offset_channels = self._samples_per_tap * kernel[0] * kernel[1] * num_deformable_group
        self._kwargs_offset = dict(geometry, num_filter=self._offset_channels, no_bias=not offset_use_bias)
        self._kwargs_deformable_conv = dict(geometry, num_filter=channels, no_bias=not use_bias,
                                            num_deformable_group=num_deformable_group)
        with self.name_scope():
            self.offset_weight = self.params.get(
                'offset_weight', shape=self._weight_shape('Convolution', self._kwargs_offset, in_channels),
                init=offset_weight_initializer, allow_deferred_init=True)
            self.offset_bias = self.params.get(
                'offset_bias', shape=(self._offset_channels,), init=offset_bias_initializer,
                allow_deferred_init=True) if offset_use_bias else None
            self.deformable_conv_weight = self.params.get(
                'deformable_conv_weight',
                shape=self._weight_shape(self._op_name, self._kwargs_deformable_conv, in_channels),
                init=weight_initializer, allow_deferred_init=True)
            self.deformable_conv_bias = self.params.get(
                'deformable_conv_bias', shape=(channels,), init=bias_initializer,
                allow_deferred_init=True) if use_bias else None
            self.act = Activation(activation, prefix=activation + '_') if activation else None

    @staticmethod
    def _weight_shape(op_name, kwargs, in_channels):
        """The weight shape for ``in_channels`` (0: not known yet), by the operator's rule."""
        return get_op(op_name).shapes_from_data(kwargs, (1, in_channels, 1, 1))['weight']

    def _infer_param_shapes(self, x, *args):
        in_channels = int(x.shape[1])
        if in_channels % self._kwargs_offset['num_group']:
            raise MXNetError('%s: input channels %d are not divisible by groups %d'
                             % (type(self).__name__, in_channels, self._kwargs_offset['num_group']))
        self.offset_weight.shape = self._weight_shape('Convolution', self._kwargs_offset, in_channels)
        self.deformable_conv_weight.shape = self._weight_shape(self._op_name, self._kwargs_deformable_conv,
                                                               in_channels)

    def hybrid_forward(self, F, x, offset_weight, deformable_conv_weight, offset_bias=None,
                       deformable_conv_bias=None):
        offset_inputs = [x, offset_weight] + ([offset_bias] if offset_bias is not None else [])
        offset = F.Convolution(*offset_inputs, **self._kwargs_offset)
        conv_inputs = self._sampling_inputs(F, x, offset) + [deformable_conv_weight]
        if deformable_conv_bias is not None:
            conv_inputs.append(deformable_conv_bias)
        out = getattr(F, self._op_name)(*conv_inputs, name='fwd', **self._kwargs_deformable_conv)
        return self.act(out) if self.act is not None else out

    def _sampling_inputs(self, F, x, offset):
        return [x, offset]

    def _alias(self):
        return 'deformable_conv'

    def __repr__(self):
        kw = self._kwargs_deformable_conv
        s = '{name}({mapping}, kernel_size={kernel}, stride={stride}'
        if kw['pad'] != (0, 0):
            s += ', padding={pad}'
        if kw['dilate'] != (1, 1):
            s += ', dilation={dilate}'
        if kw['num_group'] != 1:
            s += ', groups={num_group}'
        if self.deformable_conv_bias is None:
            s += ', bias=False'
        if self.act:
            s += ', {}'.format(self.act)
        s += ')'
        shape = self.deformable_conv_weight.shape
        return s.format(name=type(self).__name__,
                        mapping='{0} -> {1}'.format(shape[1] if shape[1] else None, shape[0]), **kw)


class DeformableConvolution(_DeformableConv):
    """2-D deformable convolution v1 (Dai et al., 2017) over NCHW inputs: a convolution
    (``offset_weight``, ``offset_bias``, zeros at first: a plain convolution) computes a y and
    x offset for each kernel tap, output position and deformable group; the kernel
    (``deformable_conv_weight``, ``deformable_conv_bias``) samples the input bilinearly there.
    Arguments as ``nn.Conv2D``'s, with ``num_deformable_group`` (channel groups sharing offsets)
    and ``offset_use_bias``/``offset_*_initializer`` for the offset convolution."""


class ModulatedDeformableConvolution(_DeformableConv):
    """2-D modulated deformable convolution v2 (Zhu et al., 2019): as DeformableConvolution,
    and the offset convolution also gives each sample a weight, ``2 * sigmoid`` of its third
    channel group (1 for the zero-initialised offset convolution)."""
    _samples_per_tap = 3
    _op_name = '_contrib_ModulatedDeformableConvolution'

    def _sampling_inputs(self, F, x, offset):
        split = self._offset_channels * 2 // 3
        mask = F.sigmoid(F.slice_axis(offset, axis=1, begin=split, end=None)) * 2
        return [x, F.slice_axis(offset, axis=1, begin=0, end=split), mask]

    def _alias(self):
        return 'modulated_deformable_conv'
