"""Each client-library test module runs with ``import mxnet`` resolved to gluonjax, and leaves
the alias removed, as it found it: the rest of the suite checks that nothing installs it behind
its back (tests/test_mxnet_alias.py). The libraries import mxnet again inside their functions,
so the alias stays for the whole module."""
import pytest

import gluonjax


@pytest.fixture(autouse=True, scope='module')
def mxnet_alias():
    gluonjax.alias_as_mxnet()
    yield
    gluonjax._alias.remove_mxnet_alias()
