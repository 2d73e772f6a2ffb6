"""The names ``gluonjax`` loads on first use (module ``__getattr__`` in ``__init__.py``).

A module of its own so that ``_alias.py`` (which maps ``mxnet.<name>`` the same way)
reads the table without importing the package module that imports it.
"""

# Packages loaded on first use: mx.kv and mx.viz are the top-level kvstore and viz
# packages (above the core: they import gluonjax's modules), the rest are heavier parts of the core.
LAZY = {
    'kv': 'kvstore', 'kvstore': 'kvstore', 'viz': 'viz', 'visualization': 'viz',
    'sym': 'gluonjax.symbol', 'symbol': 'gluonjax.symbol', 'gluon': 'gluonjax.gluon',
    'init': 'gluonjax.initializer', 'initializer': 'gluonjax.initializer',
    'optimizer': 'gluonjax.optimizer', 'lr_scheduler': 'gluonjax.lr_scheduler',
    'metric': 'gluonjax.metric', 'io': 'gluonjax.io', 'test_utils': 'gluonjax.test_utils',
    'np': 'gluonjax.numpy', 'numpy': 'gluonjax.numpy', 'npx': 'gluonjax.numpy_extension',
    'deploy': 'gluonjax.deploy', 'executor': 'gluonjax.symbol.executor',
    'util': 'gluonjax.util', 'operator': 'gluonjax.operator', 'name': 'gluonjax.name', 'attribute': 'gluonjax.symbol._attribute',
    'runtime': 'gluonjax.runtime', 'recordio': 'gluonjax.recordio', 'image': 'gluonjax.image',
    'img': 'gluonjax.image', 'mod': 'gluonjax.module', 'module': 'gluonjax.module', 'model': 'gluonjax.model',
    'callback': 'gluonjax.callback', 'monitor': 'gluonjax.monitor', 'mon': 'gluonjax.monitor',
    'contrib': 'gluonjax.contrib',
    'profiler': 'gluonjax.profiler',
    'onnx': 'gluonjax.onnx',
    'rnn': 'gluonjax.rnn',
    'registry': 'gluonjax.registry',
    'engine': 'gluonjax.engine',
}


# Names of classes loaded on first use: (module, attribute).
LAZY_ATTRS = {'AttrScope': ('gluonjax.symbol._attribute', 'AttrScope')}
# MXNet's top-level names for the NumPy-semantics switches (mx.np_shape(), mx.is_np_array(), ...)
LAZY_ATTRS.update({name: ('gluonjax.util', name) for name in (
    'is_np_array', 'is_np_shape', 'np_array', 'np_shape', 'set_np_shape', 'use_np', 'use_np_array',
    'use_np_shape')})
