"""d2l 1.0.3 (Dive into Deep Learning, MXNet edition) runs unmodified on gluonjax.

Each test calls the book's own helpers from ``d2l.mxnet`` as the book's chapters do, on data that
needs no download: synthetic regression data, a few hundred images of the MNIST shipped with
gluonjax in place of Fashion-MNIST, and a short text of our own (data/lighthouse.txt) in place of
The Time Machine. Epochs and batches are tiny; every test checks numbers (a fitted weight, an
accuracy floor, a falling perplexity), not only that the code runs.
"""
import math
import os

import matplotlib
import numpy as onp
import pytest

from client_import import import_client  # tests/clients/client_import.py (pytest puts this folder on sys.path)

matplotlib.use('Agg')
d2l = import_client('d2l.mxnet')

import mxnet as mx  # noqa: E402  (gluonjax, aliased by import_client)
from mxnet import autograd, gluon, init, np, npx  # noqa: E402
from mxnet.gluon import nn  # noqa: E402

TEXT = os.path.join(os.path.dirname(__file__), 'data', 'lighthouse.txt')


@pytest.fixture(autouse=True)
def np_mode():
    """The book starts every chapter with ``npx.set_np()``."""
    npx.set_np()
    mx.random.seed(0)
    onp.random.seed(0)  # DataLoader shuffles draw from NumPy, which mx.random.seed leaves alone (as MXNet)
    yield
    npx.reset_np()
    d2l.plt.close('all')


@pytest.fixture(scope='module')
def mnist():
    """A few hundred MNIST digits (shipped with gluonjax) in Fashion-MNIST's layout (N, 1, 28, 28)."""
    full = mx.test_utils.get_mnist()
    return {'train': (full['train_data'][:512], full['train_label'][:512].astype('int32')),
            'test': (full['test_data'][:256], full['test_label'][:256].astype('int32'))}


def _loaders(mnist, batch_size):
    """What ``d2l.load_data_fashion_mnist`` returns, built with d2l's own ``load_array``."""
    train = d2l.load_array([np.array(a) for a in mnist['train']], batch_size, is_train=True)
    test = d2l.load_array([np.array(a) for a in mnist['test']], batch_size, is_train=False)
    return train, test


def test_linear_regression_from_scratch_recovers_w_and_b():
    true_w, true_b = np.array([2, -3.4]), 4.2
    features, labels = d2l.synthetic_data(true_w, true_b, 1000)
    assert features.shape == (1000, 2) and labels.shape == (1000, 1)
    w = np.random.normal(0, 0.01, (2, 1))
    b = np.zeros(1)
    w.attach_grad()
    b.attach_grad()
    batch_size, lr = 10, 0.03
    for _ in range(3):
        for X, y in d2l.load_array((features, labels), batch_size):
            with autograd.record():
                loss = d2l.squared_loss(d2l.linreg(X, w, b), y)
            loss.backward()
            d2l.sgd([w, b], lr, batch_size)
    final = d2l.squared_loss(d2l.linreg(features, w, b), labels).mean()
    onp.testing.assert_allclose(w.asnumpy().ravel(), true_w.asnumpy(), atol=0.01)
    assert abs(float(b) - true_b) < 0.01 and float(final) < 1e-3


def test_timer_and_accumulator():
    timer = d2l.Timer()
    sum(range(10000))
    first = timer.stop()
    timer.start()
    second = timer.stop()
    assert first >= 0 and second >= 0 and timer.sum() == pytest.approx(first + second)
    assert timer.avg() == pytest.approx((first + second) / 2)
    assert timer.cumsum() == pytest.approx([first, first + second])
    acc = d2l.Accumulator(2)
    acc.add(np.array(3.0), 4)
    acc.add(1, np.array([2.5]).sum())
    assert (acc[0], acc[1]) == (4.0, 6.5)
    acc.reset()
    assert acc.data == [0.0, 0.0]


def test_animator_draws_with_agg():
    animator = d2l.Animator(xlabel='epoch', xlim=[1, 3], legend=['loss', 'acc'])
    for epoch in range(1, 4):
        animator.add(epoch, (np.array(1.0 / epoch), 0.5 + 0.1 * epoch))
    lines = animator.axes[0].get_lines()
    assert len(lines) == 2
    onp.testing.assert_allclose(lines[0].get_ydata(), [1, 0.5, 1 / 3], rtol=1e-6)
    assert animator.axes[0].get_xlabel() == 'epoch'


def test_accuracy_and_evaluate_accuracy(mnist):
    y_hat = np.array([[0.1, 0.9], [0.8, 0.2], [0.3, 0.7]])
    assert d2l.accuracy(y_hat, np.array([1, 0, 0])) == 2.0
    _, test_iter = _loaders(mnist, 64)
    net = nn.Dense(10)
    net.initialize(init.Zero())
    labels = mnist['test'][1]
    # all-zero scores: argmax is class 0 everywhere
    assert d2l.evaluate_accuracy(net, test_iter) == pytest.approx(onp.mean(labels == 0))


def test_softmax_regression_trains_with_d2l_trainer(mnist):
    """Chapter 4's concise softmax regression: d2l.Trainer fits a d2l.Classifier."""
    class Digits(d2l.DataModule):
        def __init__(self, batch_size=64):
            super().__init__()
            self.save_hyperparameters()
            self.train, self.val = mnist['train'], mnist['test']

        def get_dataloader(self, train):
            X, y = self.train if train else self.val
            return self.get_tensorloader((np.array(X), np.array(y)), train)

    data = Digits()
    model = d2l.SoftmaxRegression(num_outputs=10, lr=0.5)
    model.board.display = False
    d2l.Trainer(max_epochs=2).fit(model, data)
    X, y = (np.array(a) for a in data.val)
    acc = float(model.accuracy(model(X), y))
    assert acc > 0.7, acc


def test_train_ch6_lenet_on_mnist(mnist, capsys):
    train_iter, test_iter = _loaders(mnist, 32)
    net = nn.Sequential()
    net.add(nn.Conv2D(channels=6, kernel_size=5, padding=2, activation='relu'),
            nn.MaxPool2D(pool_size=2, strides=2),
            nn.Conv2D(channels=16, kernel_size=5, activation='relu'),
            nn.MaxPool2D(pool_size=2, strides=2),
            nn.Dense(64, activation='relu'), nn.Dense(10))
    d2l.train_ch6(net, train_iter, test_iter, num_epochs=4, lr=0.5, device=d2l.try_gpu())
    out = capsys.readouterr().out
    train_loss = float(out.split('loss ')[1].split(',')[0])
    test_acc = float(out.split('test acc ')[1].split()[0])
    # 64 steps of LeNet from scratch: well past chance (10%, loss ln 10 = 2.30); 0.44 measured
    assert train_loss < 2.1 and test_acc > 0.3, out
    assert d2l.evaluate_accuracy_gpu(net, test_iter) == pytest.approx(test_acc, abs=1e-3)


def test_devices_are_cpus_here():
    assert d2l.try_gpu() == mx.cpu() and d2l.try_gpu(3) == mx.cpu()
    assert d2l.num_gpus() == 0 and d2l.try_all_gpus() == []  # d2l 1.0.3 returns [] without GPUs
    assert d2l.cpu() == mx.cpu()


def test_resnet18_forward_shape():
    net = d2l.resnet18(10)
    net.initialize(init=init.Normal(sigma=0.01))
    out = net(np.random.uniform(size=(2, 1, 16, 16)))
    assert out.shape == (2, 10) and onp.isfinite(out.asnumpy()).all()
    # 4 residual stages of two blocks each, halving the map three times
    assert len(net) == 9 and [len(stage) for stage in list(net)[3:7]] == [2, 2, 2, 2]


def test_train_ch13_on_four_cpu_devices(mnist, capsys):
    devices = [mx.cpu(i) for i in range(4)]
    train_iter, test_iter = _loaders(mnist, 64)
    net = nn.Sequential()
    net.add(nn.Conv2D(8, kernel_size=3, padding=1, activation='relu'), nn.MaxPool2D(4),
            nn.Dense(10))
    net.initialize(init=init.Xavier(), ctx=devices)
    trainer = gluon.Trainer(net.collect_params(), 'sgd', {'learning_rate': 0.5})
    loss = gluon.loss.SoftmaxCrossEntropyLoss()
    d2l.train_ch13(net, train_iter, test_iter, loss, trainer, num_epochs=4, devices=devices)
    out = capsys.readouterr().out
    test_acc = float(out.split('test acc ')[1].split()[0])
    assert test_acc > 0.6, out
    assert str(devices) in out
    # every device holds the same, trained weights
    weights = [net[0].weight.data(d).asnumpy() for d in devices]
    assert all(onp.array_equal(weights[0], w) for w in weights[1:])


class _Lighthouse(d2l.TimeMachine):
    """The Time Machine pipeline (character tokens, d2l.Vocab) on our own short text."""
    def _download(self):
        with open(TEXT) as f:
            return f.read()


def _perplexity(model, data):
    losses = [float(model.loss(model(X), Y)) for X, Y in data.val_dataloader()]
    return math.exp(sum(losses) / len(losses))


def test_vocab_and_tokenize_on_our_text():
    with open(TEXT) as f:
        lines = f.read().splitlines()
    tokens = d2l.tokenize(lines, 'word')
    vocab = d2l.Vocab(tokens, min_freq=2)
    assert vocab.idx_to_token[0] == '<unk>' and vocab.unk == 0  # d2l sorts the tokens; '<' sorts before letters
    assert vocab['the'] != vocab.unk and vocab['zebra'] == vocab.unk
    assert vocab.to_tokens(vocab[['the', 'sea']]) == ['the', 'sea']
    data = _Lighthouse(batch_size=32, num_steps=16, num_train=1024, num_val=256)
    letters = set(data._preprocess(data._download()))
    assert len(data.vocab) == len(letters) + 1 and data.vocab.idx_to_token == sorted(letters | {'<unk>'})
    assert data.X.shape == data.Y.shape and data.X.shape[1] == 16
    # windows of the corpus: the targets are the inputs shifted by one character
    onp.testing.assert_array_equal(data.X[1:].asnumpy(), data.Y[:-1].asnumpy())


@pytest.mark.parametrize('concise', [False, True], ids=['RNNLMScratch', 'RNNLM'])
def test_rnn_language_model_perplexity_falls(concise):
    data = _Lighthouse(batch_size=32, num_steps=8, num_train=256, num_val=128)
    if concise:
        model = d2l.RNNLM(d2l.RNN(num_hiddens=32), vocab_size=len(data.vocab), lr=1)
    else:
        rnn = d2l.RNNScratch(num_inputs=len(data.vocab), num_hiddens=32)
        model = d2l.RNNLMScratch(rnn, vocab_size=len(data.vocab), lr=1)
    model.board.display = False
    before = _perplexity(model, data)
    d2l.Trainer(max_epochs=3, gradient_clip_val=1).fit(model, data)
    after = _perplexity(model, data)
    assert before == pytest.approx(len(data.vocab), rel=0.1)  # untrained: about uniform
    assert after < 0.85 * before, (before, after)
    text = model.predict('the ', 10, data.vocab)
    assert len(text) == 14 and text.startswith('the ')


def test_train_seq2seq_steps_by_a_token_count(capsys):
    """Chapter 10's train_seq2seq calls ``trainer.step(Y_valid_len.sum())``: a 0-d array."""
    vocab = d2l.Vocab([list('abcdef')], reserved_tokens=['<pad>', '<bos>', '<eos>'])
    lines = [list('abc'), list('fed'), list('cab'), list('ddee')] * 4
    array, valid_len = d2l.build_array_nmt(lines, vocab, 6)
    data_iter = d2l.load_array((array, valid_len, array, valid_len), 8)

    class Decoder(d2l.Decoder):
        def __init__(self):
            super().__init__()
            self.embedding = nn.Embedding(len(vocab), 8)
            self.rnn = gluon.rnn.GRU(16)
            self.dense = nn.Dense(len(vocab), flatten=False)

        def init_state(self, enc_outputs, *args):
            return enc_outputs[1]

        def forward(self, X, state):
            out, state = self.rnn(self.embedding(X.T), state)
            return self.dense(out).swapaxes(0, 1), state

    class Net(d2l.EncoderDecoder):  # train_seq2seq unpacks (output, state)
        def forward(self, enc_X, dec_X, *args):
            return self.decoder(dec_X, self.decoder.init_state(self.encoder(enc_X, *args), *args))

    net = Net(d2l.Seq2SeqEncoder(len(vocab), 8, 16, 1), Decoder())
    d2l.train_seq2seq(net, data_iter, 0.02, 30, vocab, d2l.cpu())
    loss = float(capsys.readouterr().out.split('loss ')[1].split(',')[0])
    assert loss < 0.6 * math.log(len(vocab)), loss  # untrained: about ln(vocabulary size)
    text, _ = d2l.predict_seq2seq(net, 'a b c', vocab, vocab, 6, d2l.cpu())
    assert all(token in vocab.idx_to_token for token in text.split())


def test_lazy_initialization_prints_unknown_dimensions_as_minus_one(capsys):
    """The book's lazy-initialisation section: NumPy mode shows the unknown input size as -1."""
    net = nn.Sequential()
    net.add(nn.Dense(256, activation='relu'), nn.Dense(10))
    net.initialize()
    shapes = [p.shape for p in net.collect_params().values()]
    assert shapes == [(256, -1), (256,), (10, -1), (10,)]
    assert 'Dense(-1 -> 256, Activation(relu))' in repr(net)
    net(np.zeros((2, 20)))
    assert [p.shape for p in net.collect_params().values()] == [(256, 20), (256,), (10, 256), (10,)]
    npx.reset_np()
    assert nn.Dense(4).weight.shape == (4, 0)  # legacy shapes mark it 0
    npx.set_np()
