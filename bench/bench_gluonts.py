"""One DeepAR training epoch (GluonTS 0.16.2, tests/clients/gluonts_workload.py's data and network,
20 batches of 32) on gluonjax and on real MXNet 1.9.1, after a first epoch that compiles.

    python bench/bench_gluonts.py [--mxnet-python /tmp/mxref-gluonts/bin/python] [--epochs 3]

Each side runs in its own process (``--worker gluonjax|mxnet``); the reference interpreter needs
gluonts==0.16.2 installed beside MXNet. Prints seconds per epoch and the ratio.
"""
import argparse
import json
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
BATCHES = 20


def worker(backend, epochs):
    sys.path.insert(0, os.path.join(HERE, '..', 'tests', 'clients'))
    if backend == 'gluonjax':
        sys.path.insert(0, os.path.join(HERE, '..'))
        import gluonjax
        gluonjax.alias_as_mxnet()
    import mxnet as mx
    from gluonts.mx import Trainer
    from gluonts.mx.trainer.callback import Callback
    import gluonts_workload as workload

    class EpochTimes(Callback):
        def __init__(self):
            self.times = []

        def on_train_epoch_start(self, training_network):
            self.start = time.perf_counter()

        def on_train_epoch_end(self, epoch_no, epoch_loss, training_network, trainer):
            mx.nd.waitall()
            self.times.append(time.perf_counter() - self.start)
            return True

    timer = EpochTimes()
    est = workload.estimator('DeepAR')
    est.trainer = Trainer(epochs=epochs, num_batches_per_epoch=BATCHES, learning_rate=1e-2, hybridize=True,
                          callbacks=[timer])
    mx.random.seed(0)
    est.train(workload.datasets()[0])
    print(json.dumps({'backend': backend, 'epochs': timer.times}))


def run(python, backend, epochs):
    out = subprocess.run([python, os.path.abspath(__file__), '--worker', backend, '--epochs', str(epochs)],
                         capture_output=True, text=True, check=True).stdout
    return json.loads(out.strip().splitlines()[-1])['epochs']


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('--worker', choices=('gluonjax', 'mxnet'))
    parser.add_argument('--epochs', type=int, default=3)
    parser.add_argument('--mxnet-python', default='/tmp/mxref-gluonts/bin/python')
    args = parser.parse_args()
    if args.worker:
        return worker(args.worker, args.epochs)
    ours = run(sys.executable, 'gluonjax', args.epochs)
    ref = run(args.mxnet_python, 'mxnet', args.epochs)
    print('first epoch (compiles): gluonjax %.2f s, MXNet %.2f s' % (ours[0], ref[0]))
    steady_ours, steady_ref = min(ours[1:]), min(ref[1:])
    print('DeepAR epoch of %d batches: gluonjax %.3f s, MXNet 1.9.1 %.3f s, ratio %.2f'
          % (BATCHES, steady_ours, steady_ref, steady_ours / steady_ref))


if __name__ == '__main__':
    main()
