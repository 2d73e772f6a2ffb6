"""Two versions of gluonjax timed side by side: LeNet train steps and a recorded chain.

    git archive <old commit> gluonjax | tar -x -C /tmp/old_pkg
    python bench/bench_ab.py /tmp/old_pkg .  [--procs 4] [--rounds 3]

Each version runs in its own processes (a package is imported once per process), the
versions alternating, so machine noise hits both alike. Each process times, per round:
the seed's LeNet step (batch 64, SGD, ``backward`` + ``trainer.step`` + waiting for the
weights) imperative and hybridized, and ``(a*b+c).sum()`` recorded + backward. Wall time
and process CPU time (all threads) are reported as min / median over every round.
"""
import json
import os
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def _child(rounds):
    sys.path.insert(0, HERE)
    import numpy as np
    from gluonjax import autograd, gluon, nd
    from bench_gluon import lenet

    rng = np.random.RandomState(0)
    data = nd.array(rng.uniform(0, 1, (64, 1, 28, 28)))
    label = nd.array(rng.randint(0, 10, 64))

    def train_step(hybrid):
        net = lenet(hybrid)
        net(data)
        loss = gluon.loss.SoftmaxCrossEntropyLoss()
        trainer = gluon.Trainer(net.collect_params(), 'sgd', {'learning_rate': 0.1})
        params = list(net.collect_params().values())

        def step():
            with autograd.record():
                cross_entropy = loss(net(data), label)
            cross_entropy.backward()
            trainer.step(64)
            for p in params:
                p.data().wait_to_read()
        return step

    a, b, c = nd.ones((3, 3)), nd.ones((3, 3)), nd.ones((3, 3))
    a.attach_grad()
    b.attach_grad()

    def chain():
        with autograd.record():
            y = (a * b + c).sum()
        y.backward()
        a.grad.wait_to_read()

    cases = [('imperative_ms', train_step(False), 20, 1e3), ('hybrid_ms', train_step(True), 20, 1e3),
             ('chain_us', chain, 1000, 1e6)]
    for _, fn, n, _ in cases:
        for _ in range(max(5, n // 20)):
            fn()
    out = {}
    for _ in range(rounds):
        for name, fn, n, scale in cases:
            t, c0 = time.perf_counter(), time.process_time()
            for _ in range(n):
                fn()
            out.setdefault(name, []).append((time.perf_counter() - t) / n * scale)
            out.setdefault(name + ' cpu', []).append((time.process_time() - c0) / n * scale)
    print(json.dumps(out))


def main():
    args = sys.argv[1:]
    if args[:1] == ['--child']:
        return _child(int(args[1]))
    opts = {'--procs': 4, '--rounds': 3}
    for flag in opts:
        if flag in args:
            i = args.index(flag)
            opts[flag] = int(args[i + 1])
            del args[i:i + 2]
    procs, rounds = opts['--procs'], opts['--rounds']
    versions = [os.path.abspath(p) for p in args]
    results = {v: {} for v in versions}
    for _ in range(procs):
        for v in versions:
            env = dict(os.environ, PYTHONPATH=v)
            res = subprocess.run([sys.executable, __file__, '--child', str(rounds)], env=env,
                                 capture_output=True, text=True, check=True)
            for name, vals in json.loads(res.stdout.strip().splitlines()[-1]).items():
                results[v].setdefault(name, []).extend(vals)
    for name in results[versions[0]]:
        print(name)
        for v in versions:
            vals = results[v][name]
            print('  %-40s min %8.2f  median %8.2f  (n=%d)' % (v, min(vals), statistics.median(vals), len(vals)))


if __name__ == '__main__':
    main()
