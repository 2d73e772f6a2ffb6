"""Writes gluonts_mxnet_reference.json: GluonTS 0.16.2 on real MXNet 1.9.1 (CPU), the workloads of
tests/clients/gluonts_workload.py (the same data and settings the gluonjax test trains with).

Run with the reference interpreter, where gluonts==0.16.2 and its dependencies are installed
(session 13: python3 -m venv /tmp/mxref-ts && /tmp/mxref-ts/bin/pip install mxnet==1.9.1
'numpy<1.24' gluonts==0.16.2 'pandas<2.1' packaging):
    /tmp/mxref-ts/bin/python tests/clients/data/make_gluonts_reference.py
"""
import json
import os
import platform
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

import mxnet  # noqa: E402  (real MXNet: this script never runs on gluonjax)
import gluonts  # noqa: E402

import gluonts_workload as workload  # noqa: E402

NAMES = ('SimpleFeedForward', 'DeepAR', 'MQCNN', 'Transformer', 'NBEATS', 'DeepState')
KEYS = ('MASE', 'ND', 'mean_wQuantileLoss', 'RMSE')


def main():
    out = {'mxnet': mxnet.__version__, 'gluonts': gluonts.__version__, 'python': platform.python_version(),
           'workload': 'tests/clients/gluonts_workload.py', 'estimators': {}}
    for name in NAMES:
        start = time.time()
        metrics = workload.evaluate(workload.train(name))
        out['estimators'][name] = {k: float(metrics[k]) for k in KEYS}
        out['estimators'][name]['seconds'] = round(time.time() - start, 1)
        print(name, out['estimators'][name], flush=True)
    naive = workload.naive_metrics()
    out['naive'] = {k: float(naive[k]) for k in KEYS}
    with open(os.path.join(HERE, 'gluonts_mxnet_reference.json'), 'w') as f:
        json.dump(out, f, indent=1, sort_keys=True)
        f.write('\n')


if __name__ == '__main__':
    main()
