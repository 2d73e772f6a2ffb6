"""MXNet scripts run unmodified on gluonjax print exactly what MXNet 1.9.1 printed.

The scripts and MXNet's output are in tests/compat/ (see its README). Each runs in its own
process, as the user would run it, because MXNet's automatic names (dense0, ...) count per process;
the processes run side by side on the machine's cores, started once for the whole module.
"""
import concurrent.futures
import difflib
import importlib.util
import os
import pathlib
import re
import subprocess
import sys

import pytest

COMPAT = pathlib.Path(__file__).resolve().parent / 'compat'
SCRIPTS = sorted(p.stem for p in COMPAT.glob('*.py') if p.name != 'make_expected.py' and not p.name.startswith('_'))
# Libraries of the `clients` extra some scripts exercise (GluonCV's zoo, d2l's book code)
CLIENTS = ('gluoncv', 'd2l', 'gluonts', 'gluonnlp')


def _missing_client(name):
    """The client library script ``name`` imports that is not installed, else None."""
    text = (COMPAT / (name + '.py')).read_text()
    for lib in CLIENTS:
        if re.search(r'^\s*(from|import)\s+%s\b' % lib, text, re.M) and importlib.util.find_spec(lib) is None:
            return lib
    return None


def _run(name):
    env = dict(os.environ, XLA_FLAGS='--xla_force_host_platform_device_count=4',
               JAX_PLATFORMS='cpu')
    return subprocess.run([sys.executable, '-m', 'gluonjax.run', name + '.py'], cwd=COMPAT,
                          env=env, capture_output=True, text=True, timeout=300)


class _OnDemand(dict):
    """{name: future}, a script started when its test first asks for it."""

    def __init__(self, pool):
        super().__init__()
        self.pool = pool

    def __missing__(self, name):
        future = self[name] = self.pool.submit(_run, name)
        return future


@pytest.fixture(scope='module')
def runs(request):
    """{name: future of the finished process} for the scripts selected, two or more at a time.
    Under pytest-xdist each worker starts only the scripts of the tests it is given (every worker
    sees the whole collection: starting them all there ran each script once per worker, in the
    same folder, at the same time)."""
    pool = concurrent.futures.ThreadPoolExecutor(max_workers=max(2, os.cpu_count() or 1))
    futures = _OnDemand(pool)
    if not os.environ.get('PYTEST_XDIST_WORKER'):
        for item in request.session.items:
            name = getattr(item, 'callspec', None) and item.callspec.params.get('name')
            if getattr(item, 'originalname', '') == 'test_script_prints_what_mxnet_printed' \
                    and not _missing_client(name):
                futures[name]  # started now, beside the others
    yield futures
    pool.shutdown(cancel_futures=True)


@pytest.mark.parametrize('name', SCRIPTS)
def test_script_prints_what_mxnet_printed(name, runs):
    missing = _missing_client(name)
    if missing:
        pytest.skip('%s is not installed (./run setup installs the client libraries)' % missing)
    expected = (COMPAT / 'expected' / (name + '.txt')).read_text()
    done = runs[name].result(timeout=900)
    assert done.returncode == 0, done.stderr[-4000:]
    if done.stdout != expected:
        diff = difflib.unified_diff(expected.splitlines(), done.stdout.splitlines(),
                                    'mxnet-1.9.1', 'gluonjax', lineterm='', n=2)
        pytest.fail('%s.py prints differently from MXNet 1.9.1:\n%s' % (name, '\n'.join(diff)))
