"""Eager dispatch and autograd overhead: gluonjax against hand-written JAX in the same process.

    python bench/bench_core.py

1. eager ``c = a + b`` on (3, 3) float32: mx.nd against jax.numpy.
2. ``(a*b+c).sum()`` recorded with autograd.record() and backward(): against
   jax.grad of the same function called eagerly, and against a jax.jit'ed grad (the floor).
Targets (issue 2): add within 1.5x of jnp and under 12 us; recorded chain with backward under 60 us.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402

from gluonjax import autograd, nd  # noqa: E402
from _timing import bench_device, per_call_us, machine  # noqa: E402


def main():
    a, b, c = nd.ones((3, 3)), nd.ones((3, 3)), nd.ones((3, 3))
    ja, jb, jc = jnp.ones((3, 3)), jnp.ones((3, 3)), jnp.ones((3, 3))
    t_nd = per_call_us(lambda: a + b)
    t_jnp = per_call_us(lambda: ja + jb)
    print('machine: %s' % machine())
    print('eager add (3,3):        gluonjax %6.2f us   jax.numpy %6.2f us   ratio %.2f'
          % (t_nd, t_jnp, t_nd / t_jnp))

    a.attach_grad()
    b.attach_grad()

    def recorded():
        with autograd.record():
            y = (a * b + c).sum()
        y.backward()
        return a.grad

    def f(x, y, z):
        return (x * y + z).sum()
    eager_grad = jax.grad(f, argnums=(0, 1))
    jit_grad = jax.jit(eager_grad)
    t_rec = per_call_us(recorded, number=1000)
    t_eager = per_call_us(lambda: eager_grad(ja, jb, jc), number=100, warmup=20)
    t_jit = per_call_us(lambda: jit_grad(ja, jb, jc)[0].block_until_ready(), number=1000)
    print('record+backward chain:  gluonjax %6.2f us   jax.grad eager %7.1f us   jit(grad) %6.2f us'
          % (t_rec, t_eager, t_jit))
    print('targets: add < 12 us and <= 1.5x jnp: %s; chain < 60 us: %s'
          % ('met' if t_nd < 12 and t_nd <= 1.5 * t_jnp else 'MISSED', 'met' if t_rec < 60 else 'MISSED'))


if __name__ == '__main__':
    with bench_device():
        main()
