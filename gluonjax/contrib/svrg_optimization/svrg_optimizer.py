"""The optimizer of SVRGModule: the user's optimizer for the weights, assignment for full gradients."""
import inspect

from ...optimizer import Optimizer, create, register

__all__ = ['_SVRGOptimizer', '_AssignmentOptimizer']

#: the keyword arguments the Optimizer base class takes (the rest belong to the wrapped optimizer)
_BASE_ARGUMENTS = frozenset(inspect.signature(Optimizer.__init__).parameters) - {'self'}


@register
class _AssignmentOptimizer(Optimizer):
    """``weight = grad``: a KVStore key updated with it holds the last value pushed (summed over
    devices), which is how SVRGModule sums full gradients across workers."""

    def update(self, index, weight, grad, state):
        weight[:] = grad

    update_multi_precision = update


@register
class _SVRGOptimizer(Optimizer):
    """Updates the weights with ``default_optimizer`` (a name, created with ``kwargs``, or an
    Optimizer) and the keys named ``<param>_full`` by assignment.

    Parameters
    ----------
    default_optimizer : str or Optimizer
    param_idx2name : dict of int to str
        Names of the keys; the key of a full gradient is named ``<param>_full``.
    """

    def __init__(self, default_optimizer, **kwargs):
        super().__init__(**{k: v for k, v in kwargs.items() if k in _BASE_ARGUMENTS})
        if isinstance(default_optimizer, str):
            self.default_opt = create(default_optimizer, **kwargs)
        elif isinstance(default_optimizer, Optimizer):
            self.default_opt = default_optimizer
        else:
            raise TypeError('_SVRGOptimizer: default_optimizer must be a name or an Optimizer, got %s'
                            % type(default_optimizer).__name__)
        self.aux_opt = create(_AssignmentOptimizer.__name__)

    def _name_of(self, index):
        """The parameter name of a key: KVStores with string keys pass the name itself."""
        if isinstance(index, str):
            return index
        if index not in self.idx2name:
            raise KeyError('_SVRGOptimizer: key %r is not in param_idx2name' % (index,))
        return self.idx2name[index]

    def _optimizer_for(self, index):
        return self.aux_opt if self._name_of(index).endswith('_full') else self.default_opt

    def _set_current_context(self, device_id):
        super()._set_current_context(device_id)
        self.default_opt._set_current_context(device_id)

    def create_state(self, index, weight):
        return self._optimizer_for(index).create_state(index, weight)

    def create_state_multi_precision(self, index, weight):
        return self._optimizer_for(index).create_state_multi_precision(index, weight)

    def update(self, index, weight, grad, state):
        self._optimizer_for(index).update(index, weight, grad, state)

    def update_multi_precision(self, index, weight, grad, state):
        self._optimizer_for(index).update_multi_precision(index, weight, grad, state)

    def _get_config(self):
        raise NotImplementedError('_SVRGOptimizer: saving its states is not supported (it wraps '
                                  'another optimizer); save the parameters instead')
