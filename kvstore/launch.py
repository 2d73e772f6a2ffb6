"""Start the workers of a distributed job: ``python -m kvstore.launch -n N [options] command ...``

    python -m kvstore.launch -n 2 python train.py --epochs 3
    python -m kvstore.launch -n 4 --launcher ssh -H hosts.txt python train.py
    python -m kvstore.launch -n 4 --launcher mpi -H hosts.txt python train.py

Each worker gets the environment ``kvstore.dist`` reads: GLUONJAX_COORDINATOR
(rank 0's host:port, where jax.distributed's coordination service runs),
GLUONJAX_RENDEZVOUS_PORT (the workers' roll call), GLUONJAX_NUM_WORKERS,
GLUONJAX_RANK, GLUONJAX_DIST_TIMEOUT, and DMLC_ROLE=worker / DMLC_NUM_WORKER for
scripts written for MXNet's launcher. No parameter servers are started
(``-s`` is accepted and ignored): the workers sum with all-reduces.

Launchers:

* ``local`` (default): N processes on this machine, coordinator 127.0.0.1 on a
  free port. Each worker's output (stdout and stderr) is forwarded line by line
  to the launcher's stdout with a ``[rank]`` prefix; the launcher's own messages
  go to stderr.
* ``ssh``: rank i runs on host i mod H of the hostfile (one host per line,
  ``user@host`` allowed, ``#`` comments and ``slots=`` ignored) through
  ``ssh -o BatchMode=yes host 'cd <cwd> && env VARS... command'``; the
  coordinator is the first host, so give ``--port`` a port free there. The
  working directory and the Python environment must exist on every host.
* ``mpi``: one ``mpirun -n N [--hostfile H] -x VAR=... command`` (Open MPI's
  syntax); each worker takes its rank from OMPI_COMM_WORLD_RANK (or PMI_RANK).

For local and ssh, when a worker exits with an error the launcher reports which
rank and its exit code, stops the other workers (they also stop by themselves:
see ``kvstore._rendezvous``) and exits with that code; ``--timeout`` bounds the
whole job (exit code 124). ``--dry-run`` prints the commands without running them.
"""
import argparse
import os
import shlex
import signal
import socket
import subprocess
import sys
import threading
import time

from ._rendezvous import PEER_LOST_EXIT

__all__ = ['main', 'build_commands', 'read_hostfile', 'free_port']

GRACE_SECONDS = 5.0


def free_port(host='127.0.0.1'):
    """A TCP port that is free now on ``host``."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((host, 0))
        return s.getsockname()[1]


def _free_port_pair():
    """Two free ports: the coordinator's and the rendezvous'."""
    first = free_port()
    second = free_port()
    while second == first:
        second = free_port()
    return first, second


def read_hostfile(path):
    """The hosts of a hostfile: the first word of each line, without comments and blank lines."""
    hosts = []
    with open(path) as f:
        for line in f:
            words = line.split('#', 1)[0].split()
            if words:
                hosts.append(words[0])
    if not hosts:
        raise SystemExit('kvstore.launch: hostfile %s names no host' % path)
    return hosts


def job_env(n, coordinator, rendezvous_port, timeout):
    """The variables every worker gets (the rank is added per worker)."""
    env = {'GLUONJAX_COORDINATOR': coordinator, 'GLUONJAX_RENDEZVOUS_PORT': str(rendezvous_port),
           'GLUONJAX_NUM_WORKERS': str(n), 'DMLC_ROLE': 'worker', 'DMLC_NUM_WORKER': str(n)}
    if timeout:
        env['GLUONJAX_DIST_TIMEOUT'] = '%g' % timeout
    return env


def _forwarded(names):
    """--env NAME or NAME=VALUE options as a dict (a bare NAME takes this process's value)."""
    out = {}
    for item in names or ():
        name, sep, value = item.partition('=')
        if sep:
            out[name] = value
        elif name in os.environ:
            out[name] = os.environ[name]
    return out


def build_commands(args, hosts=None, ports=None, cwd=None):
    """What to run: a list of (rank or None, argv, extra environment) for the chosen launcher.

    ``ports`` is (coordinator port, rendezvous port); ``hosts`` the hostfile's hosts.
    """
    n = args.num_workers
    command = list(args.command)
    cwd = cwd or os.getcwd()
    if args.launcher == 'local':
        port, rdv = ports or _free_port_pair()
        base = job_env(n, '127.0.0.1:%d' % port, rdv, args.join_timeout)
        base.update(_forwarded(args.env))
        base.setdefault('PYTHONUNBUFFERED', '1')
        return [(rank, command, dict(base, GLUONJAX_RANK=str(rank))) for rank in range(n)]
    hosts = hosts or (read_hostfile(args.hostfile) if args.hostfile else ['127.0.0.1'])
    first = hosts[0].rpartition('@')[2]
    port = args.port or (ports[0] if ports else free_port())
    rdv = port + 1
    base = job_env(n, '%s:%d' % (first, port), rdv, args.join_timeout)
    base.update(_forwarded(args.env))
    if args.launcher == 'ssh':
        out = []
        for rank in range(n):
            env = dict(base, GLUONJAX_RANK=str(rank), PYTHONUNBUFFERED='1')
            remote = 'cd %s && env %s %s' % (
                shlex.quote(cwd), ' '.join('%s=%s' % (k, shlex.quote(v)) for k, v in sorted(env.items())),
                ' '.join(shlex.quote(c) for c in command))
            argv = ['ssh', '-o', 'StrictHostKeyChecking=no', '-o', 'BatchMode=yes', hosts[rank % len(hosts)],
                    remote]
            out.append((rank, argv, {}))
        return out
    if args.launcher == 'mpi':
        argv = ['mpirun', '-n', str(n)]
        if args.hostfile:
            argv += ['--hostfile', args.hostfile]
        argv += ['--tag-output']
        for k, v in sorted(base.items()):
            argv += ['-x', '%s=%s' % (k, v)]
        return [(None, argv + command, {})]
    raise SystemExit('kvstore.launch: unknown launcher %r (local, ssh or mpi)' % args.launcher)


def _forward(stream, prefix, out):
    for raw in iter(stream.readline, b''):
        text = raw.decode(errors='replace')
        out.write(prefix + text if text.endswith('\n') else prefix + text + '\n')
        out.flush()
    stream.close()


def _stop(procs):
    """End the workers still running: SIGTERM to their process groups, then SIGKILL."""
    alive = [p for p in procs if p.poll() is None]
    for p in alive:
        _signal(p, signal.SIGTERM)
    deadline = time.monotonic() + 3
    while any(p.poll() is None for p in alive) and time.monotonic() < deadline:
        time.sleep(0.05)
    for p in alive:
        if p.poll() is None:
            _signal(p, signal.SIGKILL)
            p.wait()


def _signal(proc, sig):
    try:
        os.killpg(proc.pid, sig)
    except (ProcessLookupError, PermissionError):
        try:
            proc.send_signal(sig)
        except ProcessLookupError:
            pass


def _describe_exit(code):
    if code < 0:
        try:
            return 'was killed by %s' % signal.Signals(-code).name
        except ValueError:
            return 'was killed by signal %d' % -code
    return 'exited with code %d' % code


def supervise(jobs, timeout=None, out=None, grace=GRACE_SECONDS):
    """Run ``jobs`` [(rank, argv, env)], forward their output, stop all when one fails.

    Returns the launcher's exit code: 0, the failing worker's code (128 + signal when
    killed), or 124 when ``timeout`` seconds pass.
    """
    out = out or sys.stdout
    procs, threads, ranks = [], [], []
    for rank, argv, extra in jobs:
        env = dict(os.environ, **extra)
        proc = subprocess.Popen(argv, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                stdin=subprocess.DEVNULL, start_new_session=True)
        prefix = '' if rank is None else '[%d] ' % rank
        t = threading.Thread(target=_forward, args=(proc.stdout, prefix, out), daemon=True)
        t.start()
        procs.append(proc)
        threads.append(t)
        ranks.append(rank)
    deadline = time.monotonic() + timeout if timeout else None
    failures, first_failure, timed_out = [], None, False
    try:
        while True:
            codes = [p.poll() for p in procs]
            if all(c is not None for c in codes):
                break
            for i, c in enumerate(codes):
                if c not in (None, 0) and all(i != j for j, _ in failures):
                    failures.append((i, c))
                    first_failure = first_failure or time.monotonic()
            if first_failure and time.monotonic() - first_failure > grace:
                break
            if deadline and time.monotonic() > deadline:
                timed_out = True
                break
            time.sleep(0.05)
    except KeyboardInterrupt:
        _stop(procs)
        return 130
    _stop(procs)
    for t in threads:
        t.join(timeout=2)
    for i, p in enumerate(procs):
        c = p.returncode
        if c not in (None, 0) and all(i != j for j, _ in failures):
            failures.append((i, c))
    if timed_out:
        sys.stderr.write('kvstore.launch: the job ran past --timeout %gs; stopped all workers\n' % timeout)
        return 124
    if not failures:
        return 0
    # the worker that failed first for its own reason, not one that stopped because a peer was lost
    own = [(i, c) for i, c in failures if c != PEER_LOST_EXIT] or failures
    i, code = own[0]
    who = 'worker rank %d' % ranks[i] if ranks[i] is not None else 'the launcher command'
    others = len(procs) - 1
    sys.stderr.write('kvstore.launch: %s %s%s\n' % (
        who, _describe_exit(code), '; stopped the other %d worker%s' % (others, 's' if others > 1 else '')
        if others else ''))
    return 128 - code if code < 0 else code


def parse_args(argv=None):
    p = argparse.ArgumentParser(
        prog='python -m kvstore.launch',
        description='Start the workers of a gluonjax distributed (dist_sync) job.')
    p.add_argument('-n', '--num-workers', type=int, required=True, help='number of worker processes')
    p.add_argument('-s', '--num-servers', type=int, default=0,
                   help='ignored: gluonjax needs no parameter servers')
    p.add_argument('-H', '--hostfile', help='hosts for ssh and mpi, one per line')
    p.add_argument('--launcher', default='local', choices=['local', 'ssh', 'mpi'])
    p.add_argument('--port', type=int, default=0,
                   help="coordinator port (ssh, mpi; the roll call uses port + 1); default: a free one")
    p.add_argument('--timeout', type=float, default=0, help='stop the job after this many seconds (0: never)')
    p.add_argument('--join-timeout', type=float, default=0,
                   help='seconds the workers wait for each other at start (default 60)')
    p.add_argument('--grace', type=float, default=GRACE_SECONDS,
                   help='seconds the other workers get to stop by themselves after one fails (default 5)')
    p.add_argument('--env', action='append', metavar='NAME[=VALUE]',
                   help='pass an environment variable to the workers (for ssh and mpi)')
    p.add_argument('--dry-run', action='store_true', help='print the commands and exit')
    p.add_argument('command', nargs=argparse.REMAINDER, help='the command each worker runs')
    args = p.parse_args(argv)
    if args.command[:1] == ['--']:
        args.command = args.command[1:]
    if not args.command:
        p.error('give the command to run, e.g. python train.py')
    if args.num_workers < 1:
        p.error('-n must be at least 1')
    return args


def main(argv=None):
    args = parse_args(argv)
    if args.num_servers:
        sys.stderr.write('kvstore.launch: -s %d ignored: gluonjax workers sum with all-reduces, '
                         'without servers\n' % args.num_servers)
    jobs = build_commands(args)
    if args.dry_run:
        for rank, argv, env in jobs:
            line = ' '.join('%s=%s' % (k, shlex.quote(v)) for k, v in sorted(env.items()))
            print(((line + ' ') if line else '') + ' '.join(shlex.quote(a) for a in argv))
        return 0
    return supervise(jobs, timeout=args.timeout or None, grace=args.grace)


if __name__ == '__main__':
    sys.exit(main())
