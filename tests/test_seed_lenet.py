"""The seed's Gluon LeNet script (tests/seed_scripts/seed_002_gluon_lenet.py) runs as written,
on a subset of the shipped MNIST: 10 epochs of 20 steps, and must pass an accuracy floor."""
import os
import re
import runpy

import gluonjax as mx

SCRIPT = os.path.join(os.path.dirname(__file__), 'seed_scripts', 'seed_002_gluon_lenet.py')
LINE = re.compile(r'^Epoch (\d+)\. Loss: (\d\.\d{6}e[+-]\d\d), Train_acc (\d\.\d{4}), Test_acc (\d\.\d{4})$')


def test_seed_script_trains_lenet_on_an_mnist_subset(monkeypatch, capsys):
    full = mx.test_utils.get_mnist()
    subset = {'train_data': full['train_data'][:1280], 'train_label': full['train_label'][:1280],
              'test_data': full['test_data'][:1024], 'test_label': full['test_label'][:1024]}
    monkeypatch.setattr(mx.test_utils, 'get_mnist', lambda: subset)
    runpy.run_path(SCRIPT, run_name='__main__')
    lines = capsys.readouterr().out.strip().splitlines()
    epochs = [LINE.match(line) for line in lines]
    assert all(epochs) and [int(m.group(1)) for m in epochs] == list(range(10)), lines
    losses = [float(m.group(2)) for m in epochs]
    train_acc, test_acc = float(epochs[-1].group(3)), float(epochs[-1].group(4))
    assert losses[-1] < losses[0]
    assert train_acc > 0.95 and test_acc > 0.90, lines[-1]
