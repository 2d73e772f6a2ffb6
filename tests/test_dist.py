"""dist_sync across processes on 127.0.0.1, the launcher, and lost workers.

Every multi-process test runs real worker processes (tests/kvstore_scripts/) under
subprocess timeouts; each worker uses its own CPU devices. The ssh launcher runs
through a stand-in ``ssh`` that executes the remote command here.
"""
import json
import os
import subprocess
import sys
import time

import pytest

from gluonjax.base import MXNetError
from kvstore import dist, launch
from kvstore._rendezvous import PEER_LOST_EXIT

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCRIPTS = os.path.join(ROOT, 'tests', 'kvstore_scripts')


def _clean_env(**extra):
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(('GLUONJAX_', 'DMLC_', 'OMPI_', 'PMI')) and k != 'XLA_FLAGS'}
    env.update(extra)
    return env


def run_launcher(args, timeout=90, env=None):
    """Run ``python -m kvstore.launch args`` and return (exit code, output, seconds)."""
    start = time.monotonic()
    proc = subprocess.run([sys.executable, '-m', 'kvstore.launch'] + args, cwd=ROOT, env=env or _clean_env(),
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=timeout)
    return proc.returncode, proc.stdout, time.monotonic() - start


def script(name, *args):
    return [sys.executable, os.path.join(SCRIPTS, name)] + list(args)


# ---------------------------------------------------------------------------------------
# The environment and the commands (no processes)
# ---------------------------------------------------------------------------------------

def test_config_from_env_reads_ours_then_dmlc_and_mpi_names():
    cfg = dist.config_from_env({'GLUONJAX_COORDINATOR': '10.0.0.1:4000', 'GLUONJAX_NUM_WORKERS': '4',
                                'GLUONJAX_RANK': '3'})
    assert cfg == {'coordinator': '10.0.0.1:4000', 'host': '10.0.0.1', 'port': 4000, 'num_workers': 4,
                   'rank': 3, 'rendezvous_port': 4001, 'timeout': dist.DEFAULT_TIMEOUT}
    cfg = dist.config_from_env({'DMLC_PS_ROOT_URI': 'node0', 'DMLC_PS_ROOT_PORT': '9000',
                                'DMLC_NUM_WORKER': '2', 'OMPI_COMM_WORLD_RANK': '1',
                                'GLUONJAX_RENDEZVOUS_PORT': '7000', 'GLUONJAX_DIST_TIMEOUT': '2.5'})
    assert (cfg['coordinator'], cfg['num_workers'], cfg['rank'], cfg['rendezvous_port'], cfg['timeout']) == \
        ('node0:9000', 2, 1, 7000, 2.5)
    assert dist.config_from_env({}) is None
    with pytest.raises(MXNetError, match="this worker's rank"):
        dist.config_from_env({'GLUONJAX_COORDINATOR': 'h:1', 'GLUONJAX_NUM_WORKERS': '2'})
    with pytest.raises(MXNetError, match=r'rank 2 is not in 0\.\.1'):
        dist.config_from_env({'GLUONJAX_COORDINATOR': 'h:1', 'GLUONJAX_NUM_WORKERS': '2', 'GLUONJAX_RANK': '2'})
    with pytest.raises(MXNetError, match='host:port'):
        dist.config_from_env({'GLUONJAX_COORDINATOR': 'nohost', 'GLUONJAX_NUM_WORKERS': '1',
                              'GLUONJAX_RANK': '0'})


def test_local_launcher_environment():
    args = launch.parse_args(['-n', '3', '--join-timeout', '7', 'python', 'train.py', '--lr', '0.1'])
    jobs = launch.build_commands(args, ports=(5000, 5001))
    assert [rank for rank, _, _ in jobs] == [0, 1, 2]
    for rank, argv, env in jobs:
        assert argv == ['python', 'train.py', '--lr', '0.1']
        assert env['GLUONJAX_COORDINATOR'] == '127.0.0.1:5000' and env['GLUONJAX_RENDEZVOUS_PORT'] == '5001'
        assert env['GLUONJAX_NUM_WORKERS'] == '3' and env['GLUONJAX_RANK'] == str(rank)
        assert env['GLUONJAX_DIST_TIMEOUT'] == '7' and env['DMLC_ROLE'] == 'worker'


def test_ssh_and_mpi_command_lines(tmp_path):
    hostfile = tmp_path / 'hosts'
    hostfile.write_text('# workers\nalice@node1 slots=4\n\nnode2\n')
    assert launch.read_hostfile(str(hostfile)) == ['alice@node1', 'node2']
    args = launch.parse_args(['-n', '3', '--launcher', 'ssh', '-H', str(hostfile), '--port', '6000',
                              '--env', 'OMP_NUM_THREADS=2', 'python', 'train.py', 'a b'])
    jobs = launch.build_commands(args, cwd='/work/my dir')
    assert [argv[-2] for _, argv, _ in jobs] == ['alice@node1', 'node2', 'alice@node1']
    rank, argv, env = jobs[1]
    assert rank == 1 and env == {}
    assert argv[:5] == ['ssh', '-o', 'StrictHostKeyChecking=no', '-o', 'BatchMode=yes']
    assert argv[-1] == ("cd '/work/my dir' && env DMLC_NUM_WORKER=3 DMLC_ROLE=worker "
                        "GLUONJAX_COORDINATOR=node1:6000 GLUONJAX_NUM_WORKERS=3 GLUONJAX_RANK=1 "
                        "GLUONJAX_RENDEZVOUS_PORT=6001 OMP_NUM_THREADS=2 PYTHONUNBUFFERED=1 "
                        "python train.py 'a b'")
    args = launch.parse_args(['-n', '4', '--launcher', 'mpi', '-H', str(hostfile), '--port', '6000',
                              'python', 'train.py'])
    (rank, argv, env), = launch.build_commands(args)
    assert rank is None and argv == [
        'mpirun', '-n', '4', '--hostfile', str(hostfile), '--tag-output',
        '-x', 'DMLC_NUM_WORKER=4', '-x', 'DMLC_ROLE=worker', '-x', 'GLUONJAX_COORDINATOR=node1:6000',
        '-x', 'GLUONJAX_NUM_WORKERS=4', '-x', 'GLUONJAX_RENDEZVOUS_PORT=6001', 'python', 'train.py']
    # and an mpi worker finds its rank in Open MPI's variables
    cfg = dist.config_from_env({'GLUONJAX_COORDINATOR': 'node1:6000', 'GLUONJAX_NUM_WORKERS': '4',
                                'OMPI_COMM_WORLD_RANK': '2'})
    assert cfg['rank'] == 2


def test_dry_run_prints_commands(capsys):
    assert launch.main(['-n', '2', '--launcher', 'mpi', '--port', '7000', '--dry-run', 'python', 'x.py']) == 0
    line = capsys.readouterr().out.strip()
    assert line.startswith('mpirun -n 2 --tag-output -x') and line.endswith('python x.py')
    with pytest.raises(SystemExit):
        launch.parse_args(['-n', '2'])


# ---------------------------------------------------------------------------------------
# Real workers on 127.0.0.1
# ---------------------------------------------------------------------------------------

def test_two_workers_dist_sync():
    code, out, _ = run_launcher(['-n', '2', '--timeout', '80'] + script('dist_basic.py'))
    assert code == 0, out
    for rank in (0, 1):
        assert '[%d] rank %d of 2 type dist_sync' % (rank, rank) in out
        assert '[%d] rank %d push sum 6' % (rank, rank) in out  # (1 + 2) workers' values x 2 devices
        assert '[%d] rank %d done' % (rank, rank) in out


def test_two_worker_training_matches_one_process():
    single = subprocess.Popen(script('dist_train.py', 'single'), cwd=ROOT, env=_clean_env(), text=True,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        code, out, _ = run_launcher(['-n', '2', '--timeout', '80'] + script('dist_train.py', 'dist'))
        single_out = single.communicate(timeout=60)[0]
    finally:
        if single.poll() is None:
            single.kill()
    assert single.returncode == 0, single_out
    assert code == 0, out

    def result(text):
        line = next(l for l in text.splitlines() if 'RESULT ' in l)
        return json.loads(line.split('RESULT ', 1)[1])
    one, two = result(single_out), result(out)
    assert one['workers'] == 1 and two['workers'] == 2
    assert one['w'] == pytest.approx(two['w'], rel=1e-5, abs=1e-6)
    assert one['b'] == pytest.approx(two['b'], rel=1e-5, abs=1e-6)
    assert abs(one['w'][4]) > 0.5  # it did learn something


@pytest.mark.parametrize('mode, code, why', [('die', 3, 'died'), ('raise', 1, 'failed: ValueError: rank 1 broke')])
def test_a_lost_worker_stops_the_others(mode, code, why):
    rc, out, seconds = run_launcher(['-n', '2', '--timeout', '80'] + script('dist_fail.py', mode))
    assert rc == code, out
    # rank 0's line names rank 1 (the worker's pipe also carries jax's C++ logs, which may end up
    # on the same line before ours under load, so the line is found by its prefix and text)
    named = 'gluonjax.kvstore [rank 0]: worker rank 1 %s' % why
    assert any(line.startswith('[0] ') and named in line for line in out.splitlines()), out
    assert 'kvstore.launch: worker rank 1 exited with code %d; stopped the other 1 worker' % code in out
    assert 'was never stopped' not in out
    assert seconds < 60


def test_a_worker_that_never_starts_is_named():
    def job(ranks, **extra):
        env = dict(GLUONJAX_COORDINATOR='127.0.0.1:%d' % launch.free_port(),
                   GLUONJAX_RENDEZVOUS_PORT=str(launch.free_port()), GLUONJAX_NUM_WORKERS='3', **extra)
        return [(r, _clean_env(GLUONJAX_RANK=r, **env)) for r in ranks]
    # a job of three where rank 1 never starts, and a worker whose rank 0 never starts
    runs = job(['0', '2'], GLUONJAX_DIST_TIMEOUT='4') + job(['1'], GLUONJAX_DIST_TIMEOUT='2')
    start = time.monotonic()
    procs = [subprocess.Popen(script('dist_fail.py', 'die'), cwd=ROOT, env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True) for _, env in runs]
    try:
        outs = [p.communicate(timeout=60)[0] for p in procs]
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
    assert time.monotonic() - start < 45
    assert all(p.returncode not in (0, None) for p in procs), outs
    assert 'MXNetError: dist: worker rank 1 did not join within 4 s' in outs[0], outs[0]
    assert 'rank 0 gave up waiting for worker rank 1' in outs[1], outs[1]
    assert 'rank 1 could not reach rank 0 at 127.0.0.1:' in outs[2], outs[2]


def test_ssh_launcher_through_a_stand_in_ssh(tmp_path):
    fake = tmp_path / 'ssh'
    # a stand-in for ssh: skip the options and the host, run the remote command here
    fake.write_text('#!/bin/sh\nwhile [ "$1" = "-o" ]; do shift 2; done\nshift\nexec /bin/sh -c "$1"\n')
    fake.chmod(0o755)
    hostfile = tmp_path / 'hosts'
    hostfile.write_text('127.0.0.1\n127.0.0.1\n')
    env = _clean_env(PATH='%s:%s' % (tmp_path, os.environ.get('PATH', '')))
    code, out, _ = run_launcher(['-n', '2', '--launcher', 'ssh', '-H', str(hostfile), '--port',
                                 str(launch.free_port()), '--timeout', '80'] + script('dist_basic.py'), env=env)
    assert code == 0, out
    assert '[1] rank 1 push sum 6' in out and '[0] rank 0 done' in out


def test_launcher_timeout_and_failing_command():
    code, out, seconds = run_launcher(['-n', '2', '--timeout', '2', sys.executable, '-c',
                                       'import time; time.sleep(30)'])
    assert code == 124 and 'ran past --timeout 2s' in out and seconds < 20
    code, out, _ = run_launcher(['-n', '2', '--grace', '0.5', sys.executable, '-c',
                                 'import os, time\nif os.environ["GLUONJAX_RANK"] == "1": raise SystemExit(7)\n'
                                 'time.sleep(30)'])
    assert code == 7 and 'worker rank 1 exited with code 7; stopped the other 1 worker' in out
    assert PEER_LOST_EXIT == 75
