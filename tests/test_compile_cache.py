"""The persistent compilation cache: a second process compiles nothing it compiled before."""
import json
import os
import subprocess
import sys

import pytest

SCRIPT = r'''
import json, sys
from jax import monitoring
events = {}
monitoring.register_event_listener(lambda name, **kw: events.__setitem__(name, events.get(name, 0) + 1))
import gluonjax as mx
from gluonjax import nd, autograd
from gluonjax.gluon import nn
for n in (3, 5, 8):
    a = nd.ones((n, 4)) * 2 + 1
    a.attach_grad()
    with autograd.record():
        y = (a * a).sum()
    y.backward()
    nd.dot(a, a.T).wait_to_read()  # operators with no first-call form: compiled per shape
    nd.softmax(a).wait_to_read()
net = nn.Dense(3)
net.initialize()
net.hybridize()
net(nd.ones((2, 4))).wait_to_read()
requests = events.get('/jax/compilation_cache/compile_requests_use_cache', 0)
hits = events.get('/jax/compilation_cache/cache_hits', 0)
print(json.dumps({'requests': requests, 'compiled': requests - hits, 'dir': mx._compile_cache.cache_dir()}))
'''


def _run(env):
    out = subprocess.run([sys.executable, '-c', SCRIPT], env=env, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_second_process_compiles_nothing_seen_before(tmp_path):
    env = dict(os.environ, GLUONJAX_CACHE_DIR=str(tmp_path / 'xla'), GLUONJAX_COMPILATION_CACHE='1')
    first = _run(env)
    assert first['dir'] == str(tmp_path / 'xla')
    assert first['requests'] > 10 and first['compiled'] == first['requests']
    assert len(os.listdir(tmp_path / 'xla')) >= first['compiled']
    second = _run(env)
    assert second['requests'] == first['requests']
    assert second['compiled'] == 0


def test_switched_off_compiles_everything(tmp_path):
    env = dict(os.environ, GLUONJAX_CACHE_DIR=str(tmp_path / 'xla'), GLUONJAX_COMPILATION_CACHE='0')
    for _ in range(2):
        run = _run(env)
        assert run['requests'] > 10 and run['compiled'] == run['requests']
    assert not (tmp_path / 'xla').exists()


def test_bad_size_is_a_clear_error(tmp_path):
    env = dict(os.environ, GLUONJAX_CACHE_DIR=str(tmp_path / 'xla'), GLUONJAX_CACHE_MAX_MB='lots')
    out = subprocess.run([sys.executable, '-c', 'import gluonjax'], env=env, capture_output=True, text=True,
                         timeout=120)
    assert out.returncode != 0 and 'GLUONJAX_CACHE_MAX_MB must be a whole number' in out.stderr


def test_prune_keeps_the_most_recent_programs_under_the_bound(tmp_path):
    from gluonjax._compile_cache import prune
    for i in range(6):  # six 1000-byte programs, used at times 100, 200, ... 600
        f = tmp_path / ('prog%d-cache' % i)
        f.write_bytes(b'x' * 1000)
        os.utime(f, (100 * (i + 1), 100 * (i + 1)))
    assert prune(str(tmp_path), 3500) == 3000
    assert sorted(os.listdir(tmp_path)) == ['.gluonjax-pruned', 'prog3-cache', 'prog4-cache', 'prog5-cache']
    (tmp_path / 'prog6-cache').write_bytes(b'x' * 1000)
    assert prune(str(tmp_path), 1000) is None  # pruned less than an hour ago: not again
    assert prune(str(tmp_path), 1000, interval_s=0) == 1000
    assert sorted(os.listdir(tmp_path)) == ['.gluonjax-pruned', 'prog6-cache']
