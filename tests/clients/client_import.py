"""Client libraries (d2l, GluonCV, GluonTS, GluonNLP, Sockeye) run unmodified, with ``import mxnet`` resolved to gluonjax.

``./run setup`` installs them (tests/clients/requirements-nodeps.txt, the ``clients`` extra); a
test run without them (a bare ``pytest`` in another environment) skips these files with the reason.
"""
import importlib

import pytest

import gluonjax


def import_client(module):
    """``module`` of a client library, imported with ``import mxnet`` resolved to gluonjax."""
    gluonjax.alias_as_mxnet()
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as err:
        if err.name and err.name.split('.')[0] == module.split('.')[0]:
            pytest.skip('%s is not installed (./run setup installs it)' % module, allow_module_level=True)
        raise
