"""MXNet scripts log at DEBUG: JAX's own debug lines must not flood them."""
import os
import subprocess
import sys

SCRIPT = r'''
import logging
logging.basicConfig(level=logging.DEBUG)
import gluonjax as mx
x = mx.nd.ones((2, 3))
print((x * 2 + 1).sum().asscalar())
logging.getLogger('train').debug('epoch 0 done')
'''


def _run(**env):
    out = subprocess.run([sys.executable, '-c', SCRIPT], capture_output=True, text=True, timeout=300,
                         env=dict(os.environ, **env))
    assert out.returncode == 0, out.stderr[-2000:]
    return out


def test_debug_logging_script_shows_its_own_lines_and_no_jax_lines():
    out = _run()
    assert out.stdout.strip() == '18.0'
    assert out.stderr.splitlines() == ['DEBUG:train:epoch 0 done']


def test_jax_logs_when_the_user_asks_for_them():
    out = _run(JAX_LOGGING_LEVEL='DEBUG')
    assert any(line.startswith('DEBUG:jax.') for line in out.stderr.splitlines())
