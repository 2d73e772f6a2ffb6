"""The package's public surface: every lazily imported submodule resolves."""
import pytest

import gluonjax as mx


@pytest.mark.parametrize('name', sorted(mx._LAZY))
def test_lazy_submodule_imports(name):
    module = getattr(mx, name)
    assert module.__name__ == mx._LAZY[name]


def test_unknown_attribute_names_itself():
    with pytest.raises(AttributeError, match="no attribute 'no_such_module'"):
        mx.no_such_module


def test_np_mode_helpers_at_top_level():
    """MXNet re-exports mxnet.util's np-mode helpers at its top level (mx.use_np_shape)."""
    import gluonjax.util as util
    for name in ('is_np_shape', 'set_np_shape', 'np_shape', 'use_np_shape', 'is_np_array', 'np_array',
                 'use_np_array', 'use_np'):
        assert getattr(mx, name) is getattr(util, name)
