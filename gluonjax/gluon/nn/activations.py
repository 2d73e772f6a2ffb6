"""Activation layers: Activation, LeakyReLU, PReLU, ELU, SELU, Swish, GELU."""
from ... import initializer
from ..block import HybridBlock

__all__ = ['Activation', 'LeakyReLU', 'PReLU', 'ELU', 'SELU', 'Swish', 'GELU']


class Activation(HybridBlock):
    r"""Applies an activation function: 'relu', 'sigmoid', 'tanh', 'softrelu' or 'softsign'.

    Inputs:
        - **data**: input tensor with arbitrary shape.
    Outputs:
        - **out**: output tensor with the same shape as `data`.
    """

    def __init__(self, activation, **kwargs):
        self._act_type = activation
        super().__init__(**kwargs)

    def _alias(self):
        return self._act_type

    def hybrid_forward(self, F, x):
        return F.Activation(x, act_type=self._act_type, name='fwd')

    def __repr__(self):
        return '{name}({act})'.format(name=self.__class__.__name__, act=self._act_type)


class LeakyReLU(HybridBlock):
    r"""Leaky ReLU: ``x`` for positive inputs, ``alpha * x`` otherwise.

    Parameters
    ----------
    alpha : float
        Slope for negative inputs; must be at least 0.
    """

    def __init__(self, alpha, **kwargs):
        if alpha < 0:
            raise AssertionError('Slope coefficient for LeakyReLU must be no less than 0.')
        super().__init__(**kwargs)
        self._alpha = alpha

    def hybrid_forward(self, F, x):
        return F.LeakyReLU(x, act_type='leaky', slope=self._alpha, name='fwd')

    def __repr__(self):
        return '{name}({alpha})'.format(name=self.__class__.__name__, alpha=self._alpha)


class PReLU(HybridBlock):
    r"""Parametric leaky ReLU: the slope for negative inputs is a learned Parameter ``alpha``.

    Parameters
    ----------
    alpha_initializer : Initializer, default Constant(0.25)
    in_channels : int, default 1
        Number of slopes (one per channel of axis 1, or one shared).
    """

    def __init__(self, alpha_initializer=initializer.Constant(0.25), in_channels=1, **kwargs):
        super().__init__(**kwargs)
        with self.name_scope():
            self.alpha = self.params.get('alpha', shape=(in_channels,), init=alpha_initializer)

    def hybrid_forward(self, F, x, alpha):
        return F.LeakyReLU(x, gamma=alpha, act_type='prelu', name='fwd')


class ELU(HybridBlock):
    r"""Exponential linear unit: ``x`` for positive inputs, ``alpha * (exp(x) - 1)`` otherwise."""

    def __init__(self, alpha=1.0, **kwargs):
        super().__init__(**kwargs)
        self._alpha = alpha

    def hybrid_forward(self, F, x):
        return F.LeakyReLU(x, act_type='elu', slope=self._alpha)


class SELU(HybridBlock):
    r"""Scaled exponential linear unit (Klambauer et al., 2017)."""

    def hybrid_forward(self, F, x):
        return F.LeakyReLU(x, act_type='selu', name='fwd')


class GELU(HybridBlock):
    r"""Gaussian error linear unit: ``x * Phi(x)`` (erf form, as MXNet)."""

    def hybrid_forward(self, F, x):
        return F.LeakyReLU(x, act_type='gelu', name='fwd')


class Swish(HybridBlock):
    r"""Swish: ``x * sigmoid(beta * x)`` (Ramachandran et al., 2017)."""

    def __init__(self, beta=1.0, **kwargs):
        super().__init__(**kwargs)
        self._beta = beta

    def hybrid_forward(self, F, x):
        return x * F.sigmoid(self._beta * x, name='fwd')
