"""PythonModule and PythonLossModule: modules whose computation is written in Python.

A subclass gives ``_compute_output_shapes`` and its ``forward``/``get_outputs`` (and, for a
loss, the gradient of the scores); everything a module with no parameters does not need is a
no-op here, so such a module can sit in a SequentialModule next to symbolic ones.
"""
import logging

from .. import ndarray as nd
from ..initializer import Uniform
from .base_module import BaseModule

__all__ = ['PythonModule', 'PythonLossModule']


class PythonModule(BaseModule):
    """A module without parameters computed in Python.

    ``data_names``, ``label_names`` (or None when it takes no labels) and ``output_names`` name
    its inputs and outputs. Subclasses implement ``_compute_output_shapes``, ``forward`` and
    ``get_outputs``; those with parameters override the parameter methods too.
    """

    def __init__(self, data_names, label_names, output_names, logger=logging):
        super().__init__(logger=logger)
        self._data_names = list(data_names) if isinstance(data_names, tuple) else data_names
        self._label_names = list(label_names) if isinstance(label_names, tuple) else label_names
        self._output_names = output_names
        self._data_shapes = None
        self._label_shapes = None
        self._output_shapes = None

    @property
    def data_names(self):
        return self._data_names

    @property
    def output_names(self):
        return self._output_names

    @property
    def data_shapes(self):
        return self._data_shapes

    @property
    def label_shapes(self):
        return self._label_shapes

    @property
    def output_shapes(self):
        return self._output_shapes

    def get_params(self):
        """No parameters: two empty dicts."""
        return {}, {}

    def init_params(self, initializer=Uniform(0.01), arg_params=None, aux_params=None,
                    allow_missing=False, force_init=False, allow_extra=False):
        """Nothing to initialise."""

    def init_optimizer(self, kvstore='local', optimizer='sgd',
                       optimizer_params=(('learning_rate', 0.01),), force_init=False):
        """Nothing to optimise."""

    def update(self):
        """Nothing to update."""

    def update_metric(self, eval_metric, labels, pre_sliced=False):
        """Update ``eval_metric`` with ``labels`` and the outputs, taken as predictions; a module
        bound without labels has nothing to evaluate and leaves the metric as it is."""
        if self._label_shapes is None:
            return
        if pre_sliced:
            raise RuntimeError('%s.update_metric: labels sliced per device are not supported'
                               % type(self).__name__)
        eval_metric.update(labels, self.get_outputs())

    def bind(self, data_shapes, label_shapes=None, for_training=True, inputs_need_grad=False,
             force_rebind=False, shared_module=None, grad_req='write'):
        """Record the input shapes and compute the output shapes.

        As in MXNet 1.9.1, ``binded`` stays False: binding again simply records the shapes again.
        """
        if self.binded and not force_rebind:
            self.logger.warning('Already bound, ignoring bind()')
            return
        if grad_req != 'write':
            raise AssertionError('%s.bind: only grad_req="write" is supported, got %r'
                                 % (type(self).__name__, grad_req))
        self.for_training = for_training
        self.inputs_need_grad = inputs_need_grad
        self._data_shapes = data_shapes
        self._check_shape_names('data', self._data_names, data_shapes)
        self._label_shapes = label_shapes
        if label_shapes is not None:
            self._check_shape_names('label', self._label_names, label_shapes)
        self._output_shapes = self._compute_output_shapes()

    def _check_shape_names(self, what, names, shapes):
        given = [s[0] for s in shapes]
        if names is None or given != list(names):
            raise AssertionError('%s.bind: %s_shapes name %s, the module takes %s'
                                 % (type(self).__name__, what, given, names))

    def _compute_output_shapes(self):
        """[(name, shape)] of the outputs, from ``self._data_shapes`` and ``self._label_shapes``."""
        raise NotImplementedError('%s must implement _compute_output_shapes' % type(self).__name__)


class PythonLossModule(PythonModule):
    """A loss written in Python: the output ``<name>_output`` is its input (the scores), and
    backward gives the scores' gradient ``grad_func(scores, labels)`` (an NDArray or a numpy
    array), or whatever an overriding ``_backward_impl`` stores in ``self._scores_grad``."""

    def __init__(self, name='pyloss', data_names=('data',), label_names=('softmax_label',),
                 logger=logging, grad_func=None):
        super().__init__(data_names, label_names, [name + '_output'], logger=logger)
        if len(data_names) != 1 or len(label_names) != 1:
            raise AssertionError('PythonLossModule takes one data and one label, got %s and %s'
                                 % (list(data_names), list(label_names)))
        if grad_func is not None and not callable(grad_func):
            raise AssertionError('PythonLossModule: grad_func must be callable, got %r' % (grad_func,))
        self._name = name
        self._scores = None
        self._labels = None
        self._scores_grad = None
        self._grad_func = grad_func

    def _compute_output_shapes(self):
        return [(self._name + '_output', self._data_shapes[0][1])]

    def forward(self, data_batch, is_train=None):
        """Keep the scores (and, when training, the labels) for ``backward``."""
        self._scores = data_batch.data[0]
        if is_train is None:
            is_train = self.for_training
        if is_train:
            self._labels = data_batch.label[0]

    def get_outputs(self, merge_multi_context=True):
        """The scores of the last forward."""
        self._check_merged(merge_multi_context)
        return [self._scores]

    def backward(self, out_grads=None):
        if out_grads is not None:
            raise AssertionError('PythonLossModule.backward: a loss takes no out_grads')
        if not self.for_training:
            raise AssertionError('PythonLossModule.backward: bind with for_training=True')
        self._backward_impl()

    def _backward_impl(self):
        """Set ``self._scores_grad`` from ``self._scores`` and ``self._labels``."""
        if self._grad_func is None:
            raise NotImplementedError('PythonLossModule: give grad_func or override _backward_impl')
        grad = self._grad_func(self._scores, self._labels)
        self._scores_grad = grad if isinstance(grad, nd.NDArray) else nd.array(grad)

    def get_input_grads(self, merge_multi_context=True):
        """The gradient of the scores from the last backward."""
        self._check_merged(merge_multi_context)
        return [self._scores_grad]

    @staticmethod
    def _check_merged(merge_multi_context):
        # one array, not one per device: there is nothing to leave unmerged
        if merge_multi_context is not True:
            raise AssertionError('PythonLossModule computes on one device: merge_multi_context '
                                 'must be True')

    def install_monitor(self, mon):
        raise NotImplementedError('PythonLossModule has no executors to monitor')
