"""Deployment artefacts that run without the model's Python code: StableHLO via ``jax.export``.

``export_stablehlo(block, path, example_inputs)`` traces a HybridBlock (or SymbolBlock) in
prediction mode, lowers it with ``jax.export`` to a serialised StableHLO module whose
batch dimension is symbolic where the graph allows it, and writes a directory::

    path/model.stablehlo     the serialised jax.export module (params are its first inputs)
    path/params.npz          the parameter values, in the module's order
    path/meta.json           input names, shapes ('b' for the batch), dtypes, output count

``load(path)`` returns a :class:`DeployedModel`, a callable that runs the module with jax on
CPU or GPU; the Block's class is not needed, only gluonjax (or even just jax and numpy).

Example::

    mx.deploy.export_stablehlo(net, 'lenet_deploy', mx.nd.zeros((1, 1, 28, 28)))
    model = mx.deploy.load('lenet_deploy')
    probabilities = model(batch)          # any batch size
"""
import json
import os
import warnings

import jax
import jax.numpy as jnp
import numpy as np

from ._files import atomic_open, atomic_write
from ._x64 import x64
from .base import MXNetError
from .ops import _tiers

__all__ = ['export_stablehlo', 'load', 'DeployedModel']

_FORMAT = 'gluonjax-stablehlo-1'


def _as_list(inputs):
    from .ndarray import NDArray, array
    if isinstance(inputs, (list, tuple)):
        items = list(inputs)
    else:
        items = [inputs]
    return [x if isinstance(x, NDArray) else array(np.asarray(x), dtype=np.asarray(x).dtype)
            for x in items]


def _pure_prediction_fn(block, inputs):
    """A pure function (param_values, *inputs) -> outputs of the Block in prediction mode."""
    from .gluon.block import HybridBlock
    if not isinstance(block, HybridBlock):
        raise MXNetError('export_stablehlo: %s is not a HybridBlock; only HybridBlocks (and '
                         'SymbolBlocks) can be exported as a graph' % type(block).__name__)
    runner, flat = block._runner_for(*inputs)
    if any(a is None for a in flat):
        raise MXNetError('export_stablehlo: None inputs are not supported')
    graph = runner.graph
    data_keys, param_keys, data_index = runner.data_keys, runner.param_keys, runner.data_index
    needs_key = runner.needs_key

    def predict(param_values, *args):
        feed = dict(zip(param_keys, param_values))
        feed.update({k: args[i] for k, i in zip(data_keys, data_index)})
        key = jax.random.PRNGKey(0) if needs_key else None
        outs, _ = graph(feed, False, key)
        return tuple(outs)
    params = [p.data(inputs[0].context) for p in runner.params]
    return predict, runner, params


def _input_specs(inputs, batch_polymorphic):
    """ShapeDtypeStructs with a shared symbolic batch dimension 'b' (when asked and possible)."""
    if not batch_polymorphic:
        return [jax.ShapeDtypeStruct(x.shape, x._data.dtype) for x in inputs], False
    batch = {x.shape[0] for x in inputs if x.ndim > 0}
    if len(batch) != 1:
        return [jax.ShapeDtypeStruct(x.shape, x._data.dtype) for x in inputs], False
    specs = []
    scope = jax.export.SymbolicScope()  # one 'b' shared by every input
    for x in inputs:
        dims = ', '.join(['b'] + [str(d) for d in x.shape[1:]])
        shape = jax.export.symbolic_shape(dims, scope=scope)
        specs.append(jax.ShapeDtypeStruct(shape, x._data.dtype))
    return specs, True


def _platforms():
    """Lower for the CPU and, when jax can, for CUDA as well, so one file runs on both."""
    return ('cpu', 'cuda')


@x64  # traced with 64-bit dtypes on, as the block runs (see gluonjax/_x64.py)
def export_stablehlo(block, path, example_inputs, batch_polymorphic=True):
    """Export ``block`` for prediction as a StableHLO module plus parameters in directory ``path``.

    Parameters
    ----------
    block : HybridBlock
        An initialised block (hybridized or not).
    path : str
        Directory to create (or overwrite files in).
    example_inputs : NDArray or list of NDArray
        Inputs with the shapes and dtypes to export for. With ``batch_polymorphic`` the first
        dimension (shared by all inputs) becomes symbolic when the graph allows it.

    Returns the path of the module file.
    """
    inputs = _as_list(example_inputs)
    predict, runner, params = _pure_prediction_fn(block, inputs)
    param_specs = [jax.ShapeDtypeStruct(p.shape, p._data.dtype) for p in params]
    specs, symbolic = _input_specs(inputs, batch_polymorphic)
    exported = None
    errors = []
    for platforms in (_platforms(), None):
        for use_symbolic in ((True, False) if symbolic else (False,)):
            in_specs = specs if use_symbolic else [jax.ShapeDtypeStruct(x.shape, x._data.dtype)
                                                   for x in inputs]
            try:
                kwargs = {'platforms': platforms} if platforms else {}
                exported = jax.export.export(jax.jit(predict), **kwargs)(param_specs, *in_specs)
                symbolic = use_symbolic
                break
            except Exception as err:  # try less ambitious settings
                errors.append('%s%s: %s' % ('symbolic batch' if use_symbolic else 'fixed shapes',
                                            ' on %s' % (platforms,) if platforms else '',
                                            str(err).splitlines()[0] if str(err) else type(err).__name__))
        if exported is not None:
            break
    if exported is None:
        raise MXNetError('export_stablehlo: jax.export failed for %s: %s'
                         % (block._describe(), '; '.join(errors)))
    if batch_polymorphic and not symbolic:
        warnings.warn('export_stablehlo: the batch dimension could not be made symbolic (%s); the '
                      'module accepts only the example shapes' % (errors[0] if errors else 'inputs differ'))
    os.makedirs(path, exist_ok=True)
    module_file = os.path.join(path, 'model.stablehlo')
    atomic_write(module_file, bytes(exported.serialize()))
    with atomic_open(os.path.join(path, 'params.npz'), 'wb') as f:
        np.savez(f, **{'p%04d' % i: np.asarray(p._data) for i, p in enumerate(params)})
    meta = {
        'format': _FORMAT,
        'block': block.name,
        'inputs': [{'name': 'data' if len(inputs) == 1 else 'data%d' % i,
                    'shape': ['b' if symbolic and j == 0 else d for j, d in enumerate(x.shape)],
                    'dtype': np.dtype(x._data.dtype).name} for i, x in enumerate(inputs)],
        'params': [p.name for p in runner.params],
        'num_outputs': len(exported.out_avals),
        'platforms': list(exported.platforms),
        'batch_polymorphic': bool(symbolic),
    }
    atomic_write(os.path.join(path, 'meta.json'), json.dumps(meta, indent=1))
    return module_file


class DeployedModel:
    """A loaded StableHLO artefact: call it with arrays (numpy, NDArray or jax) in input order.

    Returns one NDArray, or a list of them when the model has several outputs.
    """

    @x64
    def __init__(self, path, ctx=None):
        from .context import Context, current_context
        with open(os.path.join(path, 'meta.json')) as f:
            self.meta = json.load(f)
        if self.meta.get('format') != _FORMAT:
            raise MXNetError("deploy.load: %s is not a gluonjax StableHLO artefact (format %r)"
                             % (path, self.meta.get('format')))
        with open(os.path.join(path, 'model.stablehlo'), 'rb') as f:
            self._exported = jax.export.deserialize(bytearray(f.read()))
        self.ctx = ctx if ctx is None or isinstance(ctx, Context) else Context(ctx)
        self.ctx = self.ctx or current_context()
        device = self.ctx.jax_device
        platform = 'cuda' if device.platform in ('gpu', 'cuda') else device.platform
        if platform not in self._exported.platforms:
            raise MXNetError('deploy.load: the module was lowered for %s, not for %s'
                             % (', '.join(self._exported.platforms), platform))
        with np.load(os.path.join(path, 'params.npz')) as data:
            self._params = [jax.device_put(data['p%04d' % i], device) for i in range(len(data.files))]
        self._device = device
        self._call = _tiers.jit(self._exported.call)
        self.input_names = [i['name'] for i in self.meta['inputs']]

    @x64
    def __call__(self, *inputs):
        from .ndarray.ndarray import NDArray
        if len(inputs) != len(self.meta['inputs']):
            raise MXNetError('DeployedModel: expected %d inputs (%s), got %d'
                             % (len(self.meta['inputs']), ', '.join(self.input_names), len(inputs)))
        args = []
        for x, info in zip(inputs, self.meta['inputs']):
            value = x._data if isinstance(x, NDArray) else jnp.asarray(np.asarray(x))
            expected = [d for d in info['shape']]
            if len(value.shape) != len(expected) or any(
                    e != 'b' and e != d for e, d in zip(expected, value.shape)):
                raise MXNetError('DeployedModel: input %s has shape %s, expected %s'
                                 % (info['name'], tuple(value.shape), tuple(expected)))
            args.append(jax.device_put(value.astype(info['dtype']), self._device))
        outs = self._call(self._params, *args)
        results = [NDArray._from_jax(o, self.ctx) for o in outs]
        return results[0] if len(results) == 1 else results


def load(path, ctx=None):
    """Load an artefact written by :func:`export_stablehlo`; runs on ``ctx`` (default: current)."""
    if not os.path.isdir(path):
        raise MXNetError('deploy.load: %s is not a directory written by export_stablehlo' % path)
    return DeployedModel(path, ctx)
