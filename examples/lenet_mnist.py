"""The seed's Gluon LeNet on MNIST (CVPR 2017 Gluon tutorial), run on gluonjax.

    ./run lenet                      # 10 epochs, as the seed
    ./run lenet --epochs 1 --hybridize

The training loop is the seed's, unchanged but for ``import gluonjax as mx``: NDArrayIter over
``mx.test_utils.get_mnist()`` (the MNIST files ship with gluonjax), a Sequential of two
convolutions and two dense layers, SoftmaxCrossEntropyLoss, SGD with learning rate 0.1,
``autograd.record()`` / ``backward()`` / ``trainer.step()``. It prints the seed's line per epoch
(loss, train and test accuracy) with a progress bar and the time per epoch, and writes the
network's picture (graphviz) next to the given ``--out`` prefix.
"""
import argparse
import sys
import time

import gluonjax as mx
from gluonjax import autograd, gluon, nd


def build_net(hybrid):
    net = gluon.nn.HybridSequential() if hybrid else gluon.nn.Sequential()
    with net.name_scope():
        net.add(gluon.nn.Conv2D(channels=20, kernel_size=5, activation='relu'))
        net.add(gluon.nn.MaxPool2D(pool_size=2, strides=2))
        net.add(gluon.nn.Conv2D(channels=50, kernel_size=5, activation='relu'))
        net.add(gluon.nn.MaxPool2D(pool_size=2, strides=2))
        net.add(gluon.nn.Flatten())
        net.add(gluon.nn.Dense(500, activation="relu"))
        net.add(gluon.nn.Dense(10))
    return net


def evaluate_accuracy(data_iterator, net, ctx):
    numerator = 0.
    denominator = 0.
    data_iterator.reset()
    for i, batch in enumerate(data_iterator):
        data = batch.data[0].as_in_context(ctx)
        label = batch.label[0].as_in_context(ctx)
        output = net(data)
        predictions = nd.argmax(output, axis=1)
        numerator += nd.sum(predictions == label)
        denominator += data.shape[0]
    return (numerator / denominator).asscalar()


class Progress:
    """A one-line progress bar on stderr (redrawn on a terminal; one line per epoch in a log)."""

    def __init__(self, total, width=30):
        self.total, self.width, self.start = total, width, time.time()

    def update(self, done, loss):
        tty = sys.stderr.isatty()
        if not tty and done != self.total:
            return
        filled = int(self.width * done / self.total)
        sys.stdout.flush()  # keep the order of the epoch lines (stdout) and the bar (stderr) in a log
        sys.stderr.write(('\r' if tty else '') + '[%s%s] %d/%d  loss %.4f  %.1fs' % (
            '#' * filled, '.' * (self.width - filled), done, self.total, loss, time.time() - self.start))
        if done == self.total:
            sys.stderr.write('\n')
        sys.stderr.flush()


def draw(net, path):
    """Write the network's graph as a PNG with mx.viz.plot_network."""
    sym = net(mx.sym.var('data')) if hasattr(net, 'hybridize') else None
    if sym is None:
        print('(the picture needs a HybridSequential; run with --hybridize to draw it)')
        return
    # boxes that grow with their labels (MXNet's fixed-size boxes make `dot` warn on long names)
    graph = mx.viz.plot_network(sym, shape={'data': (1, 1, 28, 28)}, save_format='png', title=path,
                                node_attrs={'fixedsize': 'false'})
    out = graph.render(path, cleanup=True)
    print('network picture: %s' % out)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--epochs', type=int, default=10)
    parser.add_argument('--batch-size', type=int, default=64)
    parser.add_argument('--hybridize', action='store_true', help='compile the network with XLA (HybridSequential)')
    parser.add_argument('--limit', type=int, default=0, help='use only the first N training and test images')
    parser.add_argument('--out', default='lenet', help='prefix of the network picture')
    parser.add_argument('--no-picture', action='store_true')
    args = parser.parse_args(argv)

    mx.random.seed(1)
    ctx = mx.gpu() if mx.context.num_gpus() else mx.cpu()
    mnist = mx.test_utils.get_mnist()
    if args.limit:
        for k in ('train_data', 'train_label', 'test_data', 'test_label'):
            mnist[k] = mnist[k][:args.limit]
    batch_size = args.batch_size
    train_data = mx.io.NDArrayIter(mnist["train_data"], mnist["train_label"], batch_size, shuffle=True)
    test_data = mx.io.NDArrayIter(mnist["test_data"], mnist["test_label"], batch_size, shuffle=True)

    net = build_net(args.hybridize)
    net.collect_params().initialize(mx.init.Xavier(magnitude=2.24), ctx=ctx)
    if args.hybridize:
        net.hybridize()
    loss = gluon.loss.SoftmaxCrossEntropyLoss()
    trainer = gluon.Trainer(net.collect_params(), 'sgd', {'learning_rate': .1})

    steps = (len(mnist['train_label']) + batch_size - 1) // batch_size
    print('LeNet on MNIST: %d training images, %d test images, batch %d, %s, %s'
          % (len(mnist['train_label']), len(mnist['test_label']), batch_size, ctx,
             'hybridized' if args.hybridize else 'imperative'))
    test_accuracy, best = 0.0, (0.0, -1)
    for e in range(args.epochs):
        train_data.reset()
        moving_loss = 0.
        progress = Progress(steps)
        start = time.time()
        for i, batch in enumerate(train_data):
            data = batch.data[0].as_in_context(ctx)
            label = batch.label[0].as_in_context(ctx)
            with autograd.record():
                output = net(data)
                cross_entropy = loss(output, label)
            cross_entropy.backward()
            trainer.step(data.shape[0])
            moving_loss = .99 * moving_loss + .01 * nd.mean(cross_entropy).asscalar()
            progress.update(i + 1, moving_loss)
        train_time = time.time() - start
        test_accuracy = evaluate_accuracy(test_data, net, ctx)
        train_accuracy = evaluate_accuracy(train_data, net, ctx)
        print("Epoch %d. Loss: %e, Train_acc %.4f, Test_acc %.4f" % (e, moving_loss, train_accuracy, test_accuracy),
              flush=True)
        print('  time: %.1fs training (%.1f ms/step), %.1fs total' % (
            train_time, 1000 * train_time / steps, time.time() - start))
        best = max(best, (test_accuracy, e))
    if args.epochs:
        print('best test accuracy %.4f (epoch %d); last %.4f' % (best[0], best[1], test_accuracy))
    if not args.no_picture:
        draw(net if args.hybridize else build_net(True), args.out)
    return test_accuracy


if __name__ == '__main__':
    main()
