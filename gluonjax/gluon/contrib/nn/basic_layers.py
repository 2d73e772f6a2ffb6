"""MXNet 1.x's ``gluon.contrib.nn`` layers.

Concurrent, HybridConcurrent and Identity are the containers of ``gluon.nn`` (MXNet 1.x
keeps them here); PixelShuffle1D/2D/3D regroup channels into space; SparseEmbedding is an
Embedding whose weight is declared row_sparse (stored dense in gluonjax, its gradient row_sparse);
SyncBatchNorm is BatchNorm on axis 1 that refuses to train across several devices.
"""
import warnings

from ....ops import get_op
from ...block import Block, HybridBlock
from ...nn.basic_layers import BatchNorm, Concurrent, HybridConcurrent, Identity

__all__ = ['Concurrent', 'HybridConcurrent', 'Identity', 'SparseEmbedding', 'SyncBatchNorm',
           'PixelShuffle1D', 'PixelShuffle2D', 'PixelShuffle3D']


class SparseEmbedding(Block):
    r"""Turns non-negative integer indices into dense vectors (an Embedding for huge vocabularies).

    The weight and its gradient are row_sparse; the forward pass reads the rows it looks up
    through the weight's Trainer (``row_sparse_data``), so a Trainer must be made before the
    first forward, as in MXNet.

    Parameters
    ----------
    input_dim : int
        Size of the vocabulary (largest index + 1).
    output_dim : int
        Dimension of the vectors.
    dtype : str or np.dtype, default 'float32'
    weight_initializer : Initializer

    Inputs:
        - **data**: (N-1)-D tensor of indices, ``(x1, ..., xN-1)``.
    Outputs:
        - **out**: N-D tensor of shape ``(x1, ..., xN-1, output_dim)``.
    """

    def __init__(self, input_dim, output_dim, dtype='float32', weight_initializer=None, **kwargs):
        super().__init__(**kwargs)
        self._kwargs = {'input_dim': input_dim, 'output_dim': output_dim, 'dtype': dtype,
                        'sparse_grad': True}
        self.weight = self.params.get('weight', shape=(input_dim, output_dim), init=weight_initializer,
                                      dtype=dtype, grad_stype='row_sparse', stype='row_sparse')

    def forward(self, x):
        from .... import ndarray
        return ndarray.Embedding(x, self.weight.row_sparse_data(x), name='fwd', **self._kwargs)

    def __repr__(self):
        return '{block_name}({input_dim} -> {output_dim}, {dtype})'.format(
            block_name=self.__class__.__name__, **self._kwargs)


def _visible_gpus():
    """num_devices when none is given: MXNet's default (the visible GPUs, at least 1), with its warning."""
    warnings.warn('Caution using SyncBatchNorm: if not using all the GPUs, please mannually set '
                  'num_devices', UserWarning, stacklevel=3)
    from .... import context
    return max(context.num_gpus(), 1)


class SyncBatchNorm(BatchNorm):
    """Cross-device synchronised batch normalisation (Zhang et al., 2018), over axis 1.

    On one device (``num_devices=1``) it is BatchNorm: the statistics of the whole batch,
    the same Parameters (``gamma``, ``beta``, ``running_mean``, ``running_var``). Training with
    ``num_devices`` > 1 would need batch statistics shared between devices, which gluonjax
    does not do: it raises MXNetError (use BatchNorm, whose statistics are per device). Outside
    training, or with ``use_global_stats``, any ``num_devices`` works.

    Parameters
    ----------
    in_channels : int, default 0
        Number of channels; inferred at the first forward pass when 0.
    num_devices : int, default the number of visible GPUs (at least 1)
    momentum : float, default 0.9
    epsilon : float, default 1e-5
    center, scale : bool, default True
        Whether to use ``beta`` and ``gamma``.
    use_global_stats : bool, default False
        Normalise with the running statistics in training too.
    beta_initializer, gamma_initializer, running_mean_initializer, running_variance_initializer
        Initializers, default 'zeros', 'ones', 'zeros', 'ones'.

    Inputs:
        - **data**: input tensor with the channels on axis 1.
    Outputs:
        - **out**: output tensor with the same shape as `data`.
    """

    def __init__(self, in_channels=0, num_devices=None, momentum=0.9, epsilon=1e-5, center=True,
                 scale=True, use_global_stats=False, beta_initializer='zeros',
                 gamma_initializer='ones', running_mean_initializer='zeros',
                 running_variance_initializer='ones', **kwargs):
        super().__init__(axis=1, momentum=momentum, epsilon=epsilon, center=center, scale=scale,
                         use_global_stats=use_global_stats, beta_initializer=beta_initializer,
                         gamma_initializer=gamma_initializer,
                         running_mean_initializer=running_mean_initializer,
                         running_variance_initializer=running_variance_initializer,
                         in_channels=in_channels, **kwargs)
        if num_devices is None:
            num_devices = _visible_gpus()
        # the operator's attributes, which MXNet's repr also prints (no axis: it is always 1)
        self._kwargs = {'eps': epsilon, 'momentum': momentum, 'fix_gamma': not scale,
                        'use_global_stats': use_global_stats, 'ndev': num_devices, 'key': self.prefix}

    def _infer_param_shapes(self, x, *args):
        shapes = get_op('_contrib_SyncBatchNorm').shapes_from_data(self._kwargs, x.shape)
        for name, p in (('gamma', self.gamma), ('beta', self.beta), ('moving_mean', self.running_mean),
                        ('moving_var', self.running_var)):
            p.shape = shapes[name]

    def hybrid_forward(self, F, x, gamma, beta, running_mean, running_var):
        return F.contrib.SyncBatchNorm(x, gamma, beta, running_mean, running_var, name='fwd',
                                       **self._kwargs)


class PixelShuffle1D(HybridBlock):
    r"""Upsamples the ``W`` axis by ``factor`` with values taken from the channels.

    ``(N, f*C, W)`` becomes ``(N, C, W*f)``: output ``[n, c, w*f + i]`` is input ``[n, c*f + i, w]``.

    Parameters
    ----------
    factor : int

    Example::

        >>> PixelShuffle1D(2)(mx.nd.zeros((1, 8, 3))).shape
        (1, 4, 6)
    """

    def __init__(self, factor):
        super().__init__()
        self._factor = int(factor)

    def hybrid_forward(self, F, x):
        f = self._factor
        x = F.reshape(x, (0, -4, -1, f, 0))         # (N, C, f, W)
        x = F.transpose(x, axes=(0, 1, 3, 2))       # (N, C, W, f)
        return F.reshape(x, (0, 0, -3))             # (N, C, W*f)

    def __repr__(self):
        return '{}({})'.format(self.__class__.__name__, self._factor)


def _factors(factor, ndim):
    """``factor`` as a tuple of ``ndim`` ints (an int is repeated)."""
    try:
        return (int(factor),) * ndim
    except TypeError:
        factors = tuple(int(f) for f in factor)
        assert len(factors) == ndim, 'wrong length {}'.format(len(factors))
        return factors


class PixelShuffle2D(HybridBlock):
    r"""Upsamples ``H`` and ``W`` by ``factor`` with values taken from the channels.

    ``(N, f1*f2*C, H, W)`` becomes ``(N, C, H*f1, W*f2)`` (Shi et al., 2016, "Real-Time Single
    Image and Video Super-Resolution Using an Efficient Sub-Pixel Convolutional Neural Network").

    Parameters
    ----------
    factor : int or 2-tuple of int
        Factors for ``H`` and ``W``.

    Example::

        >>> PixelShuffle2D((2, 3))(mx.nd.zeros((1, 12, 3, 5))).shape
        (1, 2, 6, 15)
    """

    def __init__(self, factor):
        super().__init__()
        self._factors = _factors(factor, 2)

    def hybrid_forward(self, F, x):
        f1, f2 = self._factors
        x = F.reshape(x, (0, -4, -1, f1 * f2, 0, 0))     # (N, C, f1*f2, H, W)
        x = F.reshape(x, (0, 0, -4, f1, f2, 0, 0))       # (N, C, f1, f2, H, W)
        x = F.transpose(x, axes=(0, 1, 4, 2, 5, 3))      # (N, C, H, f1, W, f2)
        return F.reshape(x, (0, 0, -3, -3))              # (N, C, H*f1, W*f2)

    def __repr__(self):
        return '{}({})'.format(self.__class__.__name__, self._factors)


class PixelShuffle3D(HybridBlock):
    r"""Upsamples ``D``, ``H`` and ``W`` by ``factor`` with values taken from the channels.

    ``(N, f1*f2*f3*C, D, H, W)`` becomes ``(N, C, D*f1, H*f2, W*f3)``.

    Parameters
    ----------
    factor : int or 3-tuple of int
        Factors for ``D``, ``H`` and ``W``.

    Example::

        >>> PixelShuffle3D((2, 3, 4))(mx.nd.zeros((1, 48, 3, 5, 7))).shape
        (1, 2, 6, 15, 28)
    """

    def __init__(self, factor):
        super().__init__()
        self._factors = _factors(factor, 3)

    def hybrid_forward(self, F, x):
        f1, f2, f3 = self._factors
        x = F.reshape(x, (0, -4, -1, f1 * f2 * f3, 0, 0, 0))      # (N, C, f1*f2*f3, D, H, W)
        x = F.reshape(x, (0, 0, -4, f1, f2 * f3, 0, 0, 0))        # (N, C, f1, f2*f3, D, H, W)
        x = F.reshape(x, (0, 0, 0, -4, f2, f3, 0, 0, 0))          # (N, C, f1, f2, f3, D, H, W)
        x = F.transpose(x, axes=(0, 1, 5, 2, 6, 3, 7, 4))         # (N, C, D, f1, H, f2, W, f3)
        return F.reshape(x, (0, 0, -3, -3, -3))                   # (N, C, D*f1, H*f2, W*f3)

    def __repr__(self):
        return '{}({})'.format(self.__class__.__name__, self._factors)
