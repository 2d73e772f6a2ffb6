"""MXNet 1.9.1's own unit tests, a fast subset: no test that passed when the list was recorded may fail.

The subset is the files named in tests/conformance/expected_pass.txt (one `file::test id` a line, the
tests gluonjax passed when it was recorded). It runs through tests/conformance/run.sh, the same runner
as `./run conformance`, reading MXNet's suite from ../shared/mxnet-tests (a copy of shared/ beside the
repository; SHARED=/path overrides). To record the list again after a change that makes more tests pass:

    ./run conformance --update-expected test_metric.py test_gluon_data.py ...   (the files of the subset)
"""
import os
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
SHARED = os.environ.get('SHARED', os.path.join(REPO, '..', 'shared'))
SUITE = os.path.join(SHARED, 'mxnet-tests', 'tests', 'python', 'unittest')
EXPECTED = os.path.join(HERE, 'conformance', 'expected_pass.txt')

sys.path.insert(0, os.path.join(HERE, 'conformance'))
import report  # noqa: E402

pytestmark = pytest.mark.skipif(not os.path.isfile(os.path.join(SUITE, 'common.py')),
                                reason='MXNet 1.9.1 test suite not found at %s (../shared absent)' % SUITE)


def expected():
    """{file name without .py: [test ids]} from expected_pass.txt."""
    out = {}
    for line in open(EXPECTED):
        line = line.strip()
        if line and not line.startswith('#'):
            name, tid = line.split('::', 1)
            out.setdefault(name, []).append(tid)
    return out


def test_expected_list_is_well_formed():
    exp = expected()
    assert exp, 'expected_pass.txt lists no tests'
    for name, ids in exp.items():
        assert os.path.exists(os.path.join(SUITE, name + '.py')), name
        assert len(ids) == len(set(ids)), 'duplicate ids for %s' % name


@pytest.mark.timeout(1200)
def test_no_regression(tmp_path):
    exp = expected()
    files = [name + '.py' for name in sorted(exp)]
    env = dict(os.environ, SHARED=SHARED, TIMEOUT='120', FILE_TIMEOUT='900')
    env.pop('PYTEST_ADDOPTS', None)
    proc = subprocess.run(['bash', os.path.join(HERE, 'conformance', 'run.sh'), '-p', sys.executable,
                           '-o', str(tmp_path)] + files, env=env, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr[-2000:]
    lost = []
    for name, ids in exp.items():
        res, coll = report.read_results(str(tmp_path / 'gluonjax'), name)
        assert res is not None, '%s did not run: %s' % (name, proc.stderr[-1000:])
        for tid in ids:
            outcome, why = res.get(tid, ('not run', coll or 'not collected'))
            if outcome != 'passed':
                lost.append('%s::%s: %s (%s)' % (name, tid, outcome, why))
    assert not lost, '%d conformance test(s) that passed before fail now:\n%s' % (len(lost), '\n'.join(lost))
