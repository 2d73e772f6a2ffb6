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
