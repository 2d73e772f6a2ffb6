"""Write the notebooks in this folder from the cells below (run: ``python notebooks/_make.py``).

The notebooks are generated so that they can be reviewed as Python; edit the cells here, not
the .ipynb files. They are written without outputs; ``tests/test_notebooks.py`` runs each one
with ``GLUONJAX_QUICK=1`` (small subsets, one epoch). Without that variable they do the full
thing.
"""
import os
import textwrap

import nbformat

HERE = os.path.dirname(os.path.abspath(__file__))

# The first cell of every notebook: four CPU devices must be asked for before jax starts.
DEVICES = '''\
import os
os.environ['XLA_FLAGS'] = '--xla_force_host_platform_device_count=4'  # before gluonjax/jax
QUICK = os.environ.get('GLUONJAX_QUICK', '') not in ('', '0')        # short settings (CI)
'''


def md(text):
    return nbformat.v4.new_markdown_cell(textwrap.dedent(text).strip())


def code(text):
    return nbformat.v4.new_code_cell(textwrap.dedent(text).strip())


def first(text):
    """The first code cell: the device settings, then ``text``."""
    return code(DEVICES + '\n' + textwrap.dedent(text).strip())


# ---------------------------------------------------------------------------------------------
# 01: KVStore (seeds 000 and 001)
# ---------------------------------------------------------------------------------------------
KVSTORE = [
    md('''
    # KVStore: push, pull and updaters

    A KVStore is the place where devices share values: each key holds an NDArray, devices
    `push` values into it (gradients, after a batch) and `pull` the result back (new weights,
    before the next batch). Pushes from several devices to one key are summed first; the sum
    then goes through the *updater*, which by default assigns it.

    This notebook runs the KVStore tutorial of MXNet's documentation step by step with
    `import gluonjax as mx`; every printed value is the one that tutorial documents. The
    devices are four CPU devices (`mx.cpu(0)` ... `mx.cpu(3)`, made by XLA from the host) or
    the GPUs when there are at least two. In gluonjax the sum over devices is one XLA
    all-reduce.
    '''),
    first('''
    import numpy as np
    import gluonjax as mx

    if mx.context.num_gpus() >= 2:
        contexts = [mx.gpu(i) for i in range(mx.context.num_gpus())]
    else:
        contexts = [mx.cpu(i) for i in range(4)]
    n = len(contexts)
    print(contexts)
    shown = {}  # what each step printed, checked at the end
    '''),
    md('''
    ## Initialisation

    Put a pair (int key, NDArray) into a `local` store, then pull the value out.
    '''),
    code('''
    kv = mx.kv.create('local') # create a local KVStore.
    shape = (3,3)
    kv.init(3, mx.nd.ones(shape)*2)
    a = mx.nd.zeros(shape)
    kv.pull(3, out = a)
    print(a.asnumpy())
    shown['init'] = a.asnumpy().copy()
    '''),
    md('''
    ## Push, aggregate and update

    A key that was initialised takes new values of the same shape:
    '''),
    code('''
    kv.push(3, mx.nd.ones(shape)*8)
    kv.pull(3, out = a) # pull out the value
    print(a.asnumpy())
    shown['push'] = a.asnumpy().copy()
    '''),
    md('''
    Values pushed can live on any device. Several values pushed to one key are summed, and the
    sum is stored (the default updater assigns):
    '''),
    code('''
    b = [mx.nd.ones(shape, ctx) for ctx in contexts]
    kv.push(3, b)
    kv.pull(3, out = a)
    print(a.asnumpy())
    shown['push_devices'] = a.asnumpy().copy()
    '''),
    md('''
    The updater decides how a pushed value is merged into the stored one. Replace the default
    (assign) with one that adds twice the input. Setting the updater changes nothing stored yet.

    (MXNet 1.9.1 names the method `_set_updater`; the tutorial's text writes `set_updater`,
    which gluonjax also accepts. The `calls` list only records the calls for the check at the
    end.)
    '''),
    code('''
    calls = []

    def update(key, input, stored):
        print("update on key: %d" % key)
        calls.append(key)
        stored += input * 2

    kv._set_updater(update)
    kv.pull(3, out=a)
    print(a.asnumpy())
    shown['set_updater'] = a.asnumpy().copy()
    '''),
    code('''
    kv.push(3, mx.nd.ones(shape))
    kv.pull(3, out=a)
    print(a.asnumpy())
    shown['updated'] = a.asnumpy().copy()
    '''),
    md('''
    ## Pull to several devices

    As a push can come from several devices, one pull can fill copies on several devices:
    '''),
    code('''
    b = [mx.nd.ones(shape, ctx) for ctx in contexts]
    kv.pull(3, out = b)
    print(b[1].asnumpy())
    print([x.context for x in b])
    shown['pull_devices'] = [x.asnumpy().copy() for x in b]
    '''),
    md('''
    ## Lists of keys

    Every call also takes a list of keys with a list of values. On one device:
    '''),
    code('''
    keys = [5, 7, 9]
    kv.init(keys, [mx.nd.ones(shape)]*len(keys))
    kv.push(keys, [mx.nd.ones(shape)]*len(keys))
    b = [mx.nd.zeros(shape)]*len(keys)
    kv.pull(keys, out = b)
    print(b[1].asnumpy())
    shown['keys'] = b[1].asnumpy().copy()
    '''),
    md('''
    On several devices, a list (one per key) of lists (one per device). Each key stored 3;
    the four ones pushed sum to 4, and the updater adds twice that: 3 + 2 * 4 = 11.
    '''),
    code('''
    b = [[mx.nd.ones(shape, ctx) for ctx in contexts]] * len(keys)
    kv.push(keys, b)
    kv.pull(keys, out = b)
    print(b[1][1].asnumpy())
    shown['keys_devices'] = b[1][1].asnumpy().copy()
    '''),
    md('''
    ## Check

    The values printed above are those the tutorial documents (with `n` devices; the tutorial
    has four). The cell fails if they drift.
    '''),
    code('''
    def full(v):
        return np.full(shape, v, dtype=np.float32)

    expected = {'init': 2, 'push': 8, 'push_devices': n, 'set_updater': n,
                'updated': n + 2, 'keys': 3, 'keys_devices': 3 + 2 * n}
    for step, value in expected.items():
        np.testing.assert_array_equal(shown[step], full(value), err_msg=step)
        assert shown[step].dtype == np.float32, step
    for copy in shown['pull_devices']:
        np.testing.assert_array_equal(copy, full(n + 2))
    assert calls == [3, 5, 7, 9, 5, 7, 9], calls
    if n == 4:  # the tutorial's own numbers
        assert [shown[k][0, 0] for k in expected] == [2, 8, 4, 4, 6, 3, 11]
    print('all values as documented')
    '''),
    md('''
    ## The same with a `device` store

    `mx.kv.create('device')` is what `gluon.Trainer(..., kvstore='device')` uses: the sum over
    devices stays on the devices (an all-reduce), and `pushpull` does push and pull in one call,
    leaving the sum in every device's array.
    '''),
    code('''
    kvd = mx.kv.create('device')
    kvd.init(0, mx.nd.zeros(shape))
    grads = [mx.nd.ones(shape, ctx) * (i + 1) for i, ctx in enumerate(contexts)]
    kvd.pushpull(0, grads)
    print(kvd.type, grads[0].asnumpy()[0], [g.context for g in grads])
    for g in grads:
        np.testing.assert_array_equal(g.asnumpy(), full(n * (n + 1) / 2))
    '''),
]

# ---------------------------------------------------------------------------------------------
# 02: visualisation (seed 000)
# ---------------------------------------------------------------------------------------------
VISUALIZATION = [
    md('''
    # Visualising networks

    `mx.viz.plot_network` draws a symbol's graph with graphviz (nodes are operators and
    inputs, edges the data flowing between them); `mx.viz.print_summary` prints it as a table
    of layers, output shapes and parameter counts. The graph is a `graphviz.Digraph`; as the
    last expression of a cell Jupyter renders it inline (graphviz's `dot` program must be on the
    PATH: `./run setup` installs it).
    '''),
    first('''
    import gluonjax as mx
    from gluonjax import gluon
    '''),
    md('''
    ## Linear matrix factorisation

    The tutorial's example: users and items are embedded in 64 dimensions, the score is the
    inner product, and a linear-regression output compares it with the true score.
    '''),
    code('''
    user = mx.symbol.Variable('user')
    item = mx.symbol.Variable('item')
    score = mx.symbol.Variable('score')

    # Set the dummy dimensions
    k = 64
    max_user = 100
    max_item = 50

    # The user feature lookup
    user = mx.symbol.Embedding(data = user, input_dim = max_user, output_dim = k)

    # The item feature lookup
    item = mx.symbol.Embedding(data = item, input_dim = max_item, output_dim = k)

    # predict by the inner product and then do sum
    N_net = user * item
    N_net = mx.symbol.sum_axis(data = N_net, axis = 1)
    N_net = mx.symbol.Flatten(data = N_net)

    # Defining the loss layer
    N_net = mx.symbol.LinearRegressionOutput(data = N_net, label = score)

    # Visualize the network
    mx.viz.plot_network(N_net)
    '''),
    code('''
    print(N_net.list_arguments())
    graph = mx.viz.plot_network(N_net)
    assert type(graph).__name__ == 'Digraph'
    for edge in ('embedding0 -> user', 'embedding1 -> item', '_mul0 -> embedding0',
                 'linearregressionoutput0 -> score'):
        assert edge in graph.source, edge  # arrows point from a node to its inputs, as in MXNet
    '''),
    md('''
    ## LeNet, with shapes

    A Gluon `HybridSequential` called on a symbol gives its graph. With `shape=` the edges are
    labelled with the shape of the data they carry (without the batch dimension), and
    `node_attrs` lets the boxes grow to fit the longer names.
    '''),
    code('''
    net = gluon.nn.HybridSequential()
    with net.name_scope():
        net.add(gluon.nn.Conv2D(channels=20, kernel_size=5, activation='relu'))
        net.add(gluon.nn.MaxPool2D(pool_size=2, strides=2))
        net.add(gluon.nn.Conv2D(channels=50, kernel_size=5, activation='relu'))
        net.add(gluon.nn.MaxPool2D(pool_size=2, strides=2))
        net.add(gluon.nn.Flatten())
        net.add(gluon.nn.Dense(500, activation="relu"))
        net.add(gluon.nn.Dense(10))
    lenet = mx.sym.SoftmaxOutput(net(mx.sym.var('data')), name='softmax')
    mx.viz.plot_network(lenet, shape={'data': (1, 1, 28, 28)},
                        node_attrs={'shape': 'rect', 'fixedsize': 'false'})
    '''),
    md('''
    `print_summary` prints the same graph as a table, as MXNet 1.9.1 prints it (character for
    character): each layer, its output shape, its number of parameters and the layers it reads.
    '''),
    code('''
    mx.viz.print_summary(lenet, shape={'data': (1, 1, 28, 28)})
    '''),
    code('''
    graph = mx.viz.plot_network(lenet, shape={'data': (1, 1, 28, 28)})
    for label in ('20x24x24', '20x12x12', '50x8x8', '50x4x4', '800', '500'):
        assert label in graph.source, label
    net.initialize()
    net(mx.nd.zeros((1, 1, 28, 28)))
    total = sum(p.data().size for p in net.collect_params().values())
    print('parameters:', total)
    assert total == 431080  # the summary's "Total params"
    '''),
    md('''
    To write the picture to a file, use graphviz's own methods, e.g.
    `mx.viz.plot_network(lenet, save_format='png').render('lenet')` writes `lenet.png`.
    '''),
]

# ---------------------------------------------------------------------------------------------
# 03: Gluon CNN on MNIST (seed 002)
# ---------------------------------------------------------------------------------------------
MNIST = [
    md('''
    # A convolutional network on MNIST with Gluon

    The CVPR 2017 Gluon tutorial's LeNet, with `import gluonjax as mx`: two convolutions with
    max pooling, two dense layers, softmax cross-entropy, plain SGD. The MNIST files ship with
    gluonjax, so `mx.test_utils.get_mnist()` needs no network.

    Under `GLUONJAX_QUICK=1` (the test suite) it trains one epoch on 2000 images; otherwise the
    tutorial's ten epochs on all 60000 (several minutes per epoch on a CPU).
    '''),
    first('''
    %matplotlib inline
    import time
    import numpy as np
    import matplotlib.pyplot as plt
    import gluonjax as mx
    from gluonjax import nd, autograd
    from gluonjax import gluon
    mx.random.seed(1)
    '''),
    md('## The context: a GPU when there is one'),
    code('''
    ctx = mx.gpu() if mx.context.num_gpus() else mx.cpu()
    ctx
    '''),
    md('## MNIST'),
    code('''
    mnist = mx.test_utils.get_mnist()
    if QUICK:
        for name, count in (('train', 2000), ('test', 1000)):
            mnist[name + '_data'] = mnist[name + '_data'][:count]
            mnist[name + '_label'] = mnist[name + '_label'][:count]
    print({k: v.shape for k, v in mnist.items()})
    batch_size = 64
    train_data = mx.io.NDArrayIter(mnist["train_data"], mnist["train_label"], batch_size, shuffle=True)
    test_data = mx.io.NDArrayIter(mnist["test_data"], mnist["test_label"], batch_size, shuffle=True)
    '''),
    md('''
    ## The network

    To change the model, change these lines: two convolution layers, then dense layers.
    '''),
    code('''
    net = gluon.nn.Sequential()
    with net.name_scope():
        net.add(gluon.nn.Conv2D(channels=20, kernel_size=5, activation='relu'))
        net.add(gluon.nn.MaxPool2D(pool_size=2, strides=2))
        net.add(gluon.nn.Conv2D(channels=50, kernel_size=5, activation='relu'))
        net.add(gluon.nn.MaxPool2D(pool_size=2, strides=2))
        net.add(gluon.nn.Flatten())
        net.add(gluon.nn.Dense(500, activation="relu"))
        net.add(gluon.nn.Dense(10))
    '''),
    md('## Parameters, loss and optimizer'),
    code('''
    net.collect_params().initialize(mx.init.Xavier(magnitude=2.24), ctx=ctx)
    loss = gluon.loss.SoftmaxCrossEntropyLoss()
    trainer = gluon.Trainer(net.collect_params(), 'sgd', {'learning_rate': .1})
    '''),
    md('## The evaluation loop: accuracy over a data iterator'),
    code('''
    def evaluate_accuracy(data_iterator, net):
        numerator = 0.
        denominator = 0.
        data_iterator.reset()
        for i, batch in enumerate(data_iterator):
            data = batch.data[0].as_in_context(ctx)
            label = batch.label[0].as_in_context(ctx)
            label_one_hot = nd.one_hot(label, 10)
            output = net(data)
            predictions = nd.argmax(output, axis=1)
            numerator += nd.sum(predictions == label)
            denominator += data.shape[0]
        return (numerator / denominator).asscalar()
    '''),
    md('''
    ## The training loop

    As the tutorial, with a record of the losses per step and the accuracies per epoch for the
    plots below.
    '''),
    code('''
    epochs = 1 if QUICK else 10
    history = {'batch_loss': [], 'moving_loss': [], 'loss': [], 'train_acc': [], 'test_acc': []}
    for e in range(epochs):
        start = time.time()
        train_data.reset()
        moving_loss = 0.
        for i, batch in enumerate(train_data):
            data = batch.data[0].as_in_context(ctx)
            label = batch.label[0].as_in_context(ctx)
            with autograd.record():
                output = net(data)
                cross_entropy = loss(output, label)
            cross_entropy.backward()
            trainer.step(data.shape[0])
            batch_loss = nd.mean(cross_entropy).asscalar()
            moving_loss = .99 * moving_loss + .01 * batch_loss
            history['batch_loss'].append(batch_loss)
            history['moving_loss'].append(moving_loss)
        test_accuracy = evaluate_accuracy(test_data, net)
        train_accuracy = evaluate_accuracy(train_data, net)
        print("Epoch %d. Loss: %e, Train_acc %.4f, Test_acc %.4f" % (e, moving_loss, train_accuracy, test_accuracy))
        print('  (%.1f s)' % (time.time() - start))
        history['loss'].append(moving_loss)
        history['train_acc'].append(train_accuracy)
        history['test_acc'].append(test_accuracy)
    '''),
    md('''
    The tutorial's moving loss starts at 0 and follows the batch loss with weight 0.01: after a
    few hundred steps it is the recent average, before that it is smaller than the loss.
    '''),
    code('''
    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 3.5))
    left.plot(history['batch_loss'], alpha=0.5, label='batch loss')
    left.plot(history['moving_loss'], label='moving loss (printed)')
    left.set_xlabel('step')
    left.set_ylabel('cross-entropy')
    left.legend()
    epochs_seen = list(range(len(history['train_acc'])))
    right.plot(epochs_seen, history['train_acc'], 'o-', label='train')
    right.plot(epochs_seen, history['test_acc'], 's-', label='test')
    right.set_xticks(epochs_seen)
    right.set_ylim(0, 1)
    right.set_xlabel('epoch')
    right.set_ylabel('accuracy')
    right.legend(loc='lower right')
    fig.tight_layout()
    plt.show()
    '''),
    md('## A few test digits and their predictions (red: wrong)'),
    code('''
    images = mnist['test_data'][:10]
    labels = mnist['test_label'][:10]
    predicted = nd.argmax(net(nd.array(images, ctx=ctx)), axis=1).asnumpy().astype(int)
    fig, axes = plt.subplots(1, 10, figsize=(12, 1.8))
    for ax, image, label, guess in zip(axes, images, labels, predicted):
        ax.imshow(image[0], cmap='gray_r')
        ax.set_title('%d' % guess, color='black' if guess == label else 'red')
        ax.axis('off')
    plt.show()
    print('predicted:', predicted.tolist())
    print('true:     ', labels.astype(int).tolist())
    '''),
    code('''
    # far better than chance (0.1) after one short epoch, near the tutorial's 0.99 after ten
    assert history['test_acc'][-1] > (0.3 if QUICK else 0.97), history['test_acc']
    '''),
]

# ---------------------------------------------------------------------------------------------
# 04: hybridize and export
# ---------------------------------------------------------------------------------------------
HYBRID = [
    md('''
    # Hybridize, export, deploy

    A `HybridBlock` runs imperatively (one operator at a time, easy to debug) until
    `hybridize()`; then its first call traces it into one graph that XLA compiles, and later
    calls run the compiled graph. The graph can be exported:

    * `net.export(prefix)` writes MXNet's two files, `prefix-symbol.json` and
      `prefix-0000.params` (MXNet 1.9.1 reads them too), which
      `gluon.SymbolBlock.imports` loads back without the model's Python class;
    * `mx.deploy.export_stablehlo(net, path, example)` writes a StableHLO module (with
      `jax.export`) and the parameters, which `mx.deploy.load(path)` runs with only jax.

    This notebook times the network both ways, exports it both ways, and checks that the three
    give the same predictions.
    '''),
    first('''
    import json
    import tempfile
    import time
    import numpy as np
    import gluonjax as mx
    from gluonjax import autograd, gluon, nd

    mx.random.seed(1)
    ctx = mx.gpu() if mx.context.num_gpus() else mx.cpu()
    workdir = tempfile.mkdtemp(prefix='gluonjax_export_')
    print(ctx, workdir)
    '''),
    md('## The model: LeNet as a HybridSequential'),
    code('''
    def lenet():
        net = gluon.nn.HybridSequential()
        with net.name_scope():
            net.add(gluon.nn.Conv2D(channels=20, kernel_size=5, activation='relu'))
            net.add(gluon.nn.MaxPool2D(pool_size=2, strides=2))
            net.add(gluon.nn.Conv2D(channels=50, kernel_size=5, activation='relu'))
            net.add(gluon.nn.MaxPool2D(pool_size=2, strides=2))
            net.add(gluon.nn.Flatten())
            net.add(gluon.nn.Dense(500, activation="relu"))
            net.add(gluon.nn.Dense(10))
        return net

    net = lenet()
    net.initialize(mx.init.Xavier(magnitude=2.24), ctx=ctx)
    loss = gluon.loss.SoftmaxCrossEntropyLoss()
    trainer = gluon.Trainer(net.collect_params(), 'sgd', {'learning_rate': .1})
    mnist = mx.test_utils.get_mnist()
    x = nd.array(mnist['test_data'][:256], ctx=ctx)
    y = nd.array(mnist['test_label'][:256], ctx=ctx)
    '''),
    md('''
    ## Imperative against hybridized

    Each timing runs the call twice first (compilation: the hybridized graph on the first call,
    and gluonjax compiles a recorded training step as a whole on its second) and waits for the
    results, as jax, like MXNet's engine, runs asynchronously: the calls return at once and the
    work goes on in the background. The results are kept until `nd.waitall()`, which waits for
    the arrays still referenced (work whose results were dropped is not waited for). A
    prediction on a batch of 64 images, and a training step on it (forward, backward, SGD
    update).
    '''),
    code('''
    def per_call(f, repeat):
        f(), f()
        nd.waitall()
        start = time.perf_counter()
        results = [f() for _ in range(repeat)]
        nd.waitall()
        return (time.perf_counter() - start) / repeat * 1000

    xb, yb = x[:64], y[:64]

    def predict():
        return net(xb)

    def train_step():
        with autograd.record():
            l = loss(net(xb), yb)
        l.backward()
        trainer.step(xb.shape[0])
        return l

    repeat = 3 if QUICK else 30
    calls = {'predict': predict, 'train step': train_step}
    if QUICK:  # compiling the imperative training step takes ~10 s on a small CPU: skipped in CI
        del calls['train step']
    timings = {}
    timings['imperative'] = {name: per_call(f, repeat) for name, f in calls.items()}
    net.hybridize()
    timings['hybridized'] = {name: per_call(f, repeat) for name, f in calls.items()}
    for mode, figures in timings.items():
        print('%-10s  %s   (%s, batch %d)' % (mode, '   '.join(
            '%s %7.2f ms' % item for item in figures.items()), ctx, xb.shape[0]))
    '''),
    md('''
    LeNet spends its time in the convolutions, which are the same XLA kernels either way; the
    gain of `hybridize()` is largest for networks of many small operators, where it removes the
    per-operator dispatch. The figures depend on the machine and on what else runs on it: run
    the cell again to see their spread.

    Train the hybridized network a little so that the predictions below mean something:
    '''),
    code('''
    count = 1024 if QUICK else 10000
    train = mx.io.NDArrayIter(mnist['train_data'][:count], mnist['train_label'][:count], 64, shuffle=True)
    for batch in train:
        with autograd.record():
            l = loss(net(batch.data[0].as_in_context(ctx)), batch.label[0].as_in_context(ctx))
        l.backward()
        trainer.step(batch.data[0].shape[0])
    accuracy = (nd.argmax(net(x), axis=1) == y).mean().asscalar()
    print('accuracy on %d test images: %.3f' % (x.shape[0], accuracy))
    '''),
    md('''
    ## Export as MXNet files, import as a SymbolBlock

    `export` needs a hybridized block that has run once. `SymbolBlock.imports` takes the
    symbol file, the names of the inputs and the parameter file.
    '''),
    code('''
    prefix = os.path.join(workdir, 'lenet')
    net.export(prefix, epoch=0)
    for name in sorted(os.listdir(workdir)):
        print('%-22s %9d bytes' % (name, os.path.getsize(os.path.join(workdir, name))))
    with open(prefix + '-symbol.json') as f:
        graph = json.load(f)
    print([node['op'] for node in graph['nodes'] if node['op'] != 'null'])
    imported = gluon.SymbolBlock.imports(prefix + '-symbol.json', ['data'], prefix + '-0000.params', ctx=ctx)
    imported
    '''),
    md('''
    ## The StableHLO artefact

    `export_stablehlo` lowers the prediction graph for CPU and CUDA, with a symbolic batch
    dimension, so the loaded module takes any batch size. Loading needs neither the model's code
    nor its class.
    '''),
    code('''
    deploy_dir = os.path.join(workdir, 'lenet_stablehlo')
    mx.deploy.export_stablehlo(net, deploy_dir, x[:1])
    for name in sorted(os.listdir(deploy_dir)):
        print('%-18s %9d bytes' % (name, os.path.getsize(os.path.join(deploy_dir, name))))
    deployed = mx.deploy.load(deploy_dir, ctx=ctx)
    print(json.dumps(deployed.meta['inputs']), deployed.meta['platforms'])
    '''),
    md('## The three give the same predictions'),
    code('''
    outputs = {'hybridized': net(x), 'SymbolBlock.imports': imported(x), 'StableHLO': deployed(x)}
    reference = outputs['hybridized'].asnumpy()
    for name, out in outputs.items():
        out = out.asnumpy()
        print('%-20s %s  first predictions %s  max |diff| %.2e' % (
            name, out.dtype, out[:8].argmax(axis=1).tolist(), np.abs(out - reference).max()))
        np.testing.assert_allclose(out, reference, rtol=1e-4, atol=1e-4, err_msg=name)
        assert (out.argmax(axis=1) == reference.argmax(axis=1)).all(), name
    print('per call (batch %d): imported %.2f ms, StableHLO %.2f ms' % (x.shape[0],
        per_call(lambda: imported(x), repeat), per_call(lambda: deployed(x), repeat)))
    '''),
    code('''
    # the artefact takes other batch sizes too
    np.testing.assert_allclose(deployed(x[:3]).asnumpy(), reference[:3], rtol=1e-4, atol=1e-4)
    '''),
    md('Remove the files written above (keep them to look at them):'),
    code('''
    import shutil
    shutil.rmtree(workdir)
    '''),
]

# ---------------------------------------------------------------------------------------------
# 05: several devices
# ---------------------------------------------------------------------------------------------
MULTI = [
    md('''
    # Training on several devices

    Data parallelism as in Gluon: the network's parameters live on every device, each batch is
    cut into one slice per device (`gluon.utils.split_and_load`), each device computes the
    gradients of its slice, and the `Trainer` sums them over the devices through a KVStore
    (`kvstore='device'`: an XLA all-reduce) before the SGD update, so every copy stays equal.

    Here the devices are four CPU devices that XLA makes of the host (`XLA_FLAGS`, set in the
    first cell before jax starts), or the GPUs when there are at least two.
    '''),
    first('''
    import subprocess
    import sys
    import tempfile
    import time
    import numpy as np
    import gluonjax as mx
    from gluonjax import autograd, gluon, nd

    if mx.context.num_gpus() >= 2:
        ctxs = [mx.gpu(i) for i in range(mx.context.num_gpus())]
    else:
        ctxs = [mx.cpu(i) for i in range(4)]
    print(ctxs, '| host cores:', os.cpu_count())
    '''),
    md('''
    ## split_and_load

    Cuts along the first axis (the batch) into one slice per context, each slice on its
    context:
    '''),
    code('''
    batch = nd.arange(24).reshape((8, 3))
    parts = gluon.utils.split_and_load(batch, ctxs)
    for part in parts:
        print(part.context, part.shape, part[:, 0].asnumpy())
    assert [p.context for p in parts] == ctxs
    np.testing.assert_array_equal(np.concatenate([p.asnumpy() for p in parts]), batch.asnumpy())
    '''),
    md('''
    ## The training loop

    A multi-layer perceptron on MNIST. `net.initialize(ctx=ctxs)` puts a copy of every
    parameter on each device; the loss of each slice is computed on its device;
    `trainer.step(batch_size)` sums the gradients of all devices and divides by the whole
    batch. The same function runs on one device and on all of them.
    '''),
    code('''
    mnist = mx.test_utils.get_mnist()
    count = 4096 if QUICK else 60000
    images, labels = mnist['train_data'][:count], mnist['train_label'][:count]
    batch_size = 256
    loss = gluon.loss.SoftmaxCrossEntropyLoss()

    def build():
        net = gluon.nn.HybridSequential()
        with net.name_scope():
            net.add(gluon.nn.Dense(256, activation='relu'))
            net.add(gluon.nn.Dense(256, activation='relu'))
            net.add(gluon.nn.Dense(10))
        return net

    def train(ctxs, epochs):
        """Train a fresh network (same seed) on ``ctxs``; the seconds of each epoch."""
        mx.random.seed(1)
        net = build()
        net.initialize(mx.init.Xavier(), ctx=ctxs)
        net.hybridize()
        trainer = gluon.Trainer(net.collect_params(), 'sgd', {'learning_rate': 0.1}, kvstore='device')
        data = mx.io.NDArrayIter(images, labels, batch_size, shuffle=False)
        seconds = []
        for epoch in range(epochs):
            data.reset()
            start = time.perf_counter()
            for batch in data:
                xs = gluon.utils.split_and_load(batch.data[0], ctxs)
                ys = gluon.utils.split_and_load(batch.label[0], ctxs)
                with autograd.record():
                    losses = [loss(net(x), y) for x, y in zip(xs, ys)]
                for l in losses:
                    l.backward()
                trainer.step(batch_size)
            nd.waitall()
            seconds.append(time.perf_counter() - start)
        return net, trainer, seconds
    '''),
    code('''
    epochs = 2 if QUICK else 3   # the first epoch includes compilation
    steps = (count + batch_size - 1) // batch_size
    one_net, _, one = train(ctxs[:1], epochs)
    all_net, trainer, several = train(ctxs, epochs)
    for name, seconds in (('1 device', one), ('%d devices' % len(ctxs), several)):
        print('%-10s first epoch %6.2f s (compiling)   then %6.1f ms/step, %8.0f images/s' % (
            name, seconds[0], 1000 * seconds[-1] / steps, count / seconds[-1]))
    '''),
    md('''
    **Reading the numbers.** The four CPU "devices" are one host's cores seen four times: they
    share the same cores (see the count above) and memory bandwidth, so on a CPU the
    several-device run is not faster; it pays for slicing, four smaller matrix products and the
    all-reduce. The point on a CPU is that the code is the one you run on several GPUs, where
    each device brings its own compute: set `ctxs = [mx.gpu(i) for i in range(n)]`.

    What the KVStore guarantees can be checked here: after the same steps, the copies on every
    device are equal, and equal to the one-device network up to rounding (the sums are done in
    another order; the differences grow slowly with the number of steps), because the summed
    gradients of the slices are the gradients of the whole batch.
    '''),
    code('''
    worst = 0.0
    for p1, p4 in zip(one_net.collect_params().values(), all_net.collect_params().values()):
        copies = [d.asnumpy() for d in p4.list_data()]
        for c in copies[1:]:
            np.testing.assert_array_equal(c, copies[0])
        worst = max(worst, float(np.abs(copies[0] - p1.data().asnumpy()).max()))
    print('copies equal on %d devices; largest difference from one device: %.1e' % (len(ctxs), worst))
    assert worst < 1e-5 * epochs * steps
    test_x = nd.array(mnist['test_data'][:1000])
    accuracy = (nd.argmax(all_net(test_x), axis=1).asnumpy() == mnist['test_label'][:1000]).mean()
    print('test accuracy %.3f' % accuracy)
    assert accuracy > (0.7 if QUICK else 0.9)
    '''),
    md('''
    ## Several machines

    The same loop trains on several machines with a distributed store: create it with
    `mx.kv.create('dist_sync')` (or `'dist_device_sync'`) and give it to the Trainer; each
    worker reads its own part of the data (`kv.rank` of `kv.num_workers`). The launcher starts
    the workers and gives each the environment the store reads (the coordinator's address, the
    number of workers, the rank); the workers then form one `jax.distributed` job and sum the
    gradients with all-reduces (no parameter servers).

    The script below is such a worker (written to a temporary folder):
    '''),
    code('''
    script = """
    import gluonjax as mx
    from gluonjax import autograd, gluon

    kv = mx.kv.create('dist_sync')
    mnist = mx.test_utils.get_mnist()
    part = slice(kv.rank, None, kv.num_workers)          # this worker's share of the images
    data = mx.io.NDArrayIter(mnist['train_data'][part], mnist['train_label'][part], 128, shuffle=True)
    net = gluon.nn.HybridSequential()
    net.add(gluon.nn.Dense(256, activation='relu'), gluon.nn.Dense(10))
    net.initialize(mx.init.Xavier())
    net.hybridize()
    trainer = gluon.Trainer(net.collect_params(), 'sgd', {'learning_rate': 0.1}, kvstore=kv)
    loss = gluon.loss.SoftmaxCrossEntropyLoss()
    for batch in data:
        with autograd.record():
            l = loss(net(batch.data[0]), batch.label[0])
        l.backward()
        trainer.step(batch.data[0].shape[0] * kv.num_workers)
    print('worker %d of %d done, loss %.3f' % (kv.rank, kv.num_workers, l.mean().asscalar()))
    """
    jobdir = tempfile.mkdtemp(prefix='gluonjax_dist_')
    with open(os.path.join(jobdir, 'train_dist.py'), 'w') as f:
        f.write(script)
    with open(os.path.join(jobdir, 'hosts.txt'), 'w') as f:
        f.write('node1\\nnode2\\n')
    print(jobdir)
    '''),
    md('''
    Launch it from a shell:

    ```
    # two processes on this machine
    python -m kvstore.launch -n 2 python train_dist.py

    # two machines over ssh (one host per line in hosts.txt; the folder and the Python
    # environment must exist on each; --port must be free on the first host)
    python -m kvstore.launch -n 2 --launcher ssh -H hosts.txt --port 9091 python train_dist.py

    # or through Open MPI's mpirun
    python -m kvstore.launch -n 2 --launcher mpi -H hosts.txt python train_dist.py
    ```

    `--dry-run` prints the commands the launcher would run, without running them; here for the
    two machines of `hosts.txt` (nothing is started):
    '''),
    code('''
    shown = subprocess.run([sys.executable, '-m', 'kvstore.launch', '-n', '2', '--launcher', 'ssh',
                            '-H', 'hosts.txt', '--port', '9091', '--dry-run', 'python', 'train_dist.py'],
                           cwd=jobdir, capture_output=True, text=True, check=True)
    print(shown.stdout)
    assert shown.stdout.count('GLUONJAX_RANK=') == 2 and 'node2' in shown.stdout
    '''),
    md('''
    Outside the short test settings, the next cell really runs the two-process job on this
    machine with the local launcher (each worker's lines are prefixed with its rank):
    '''),
    code('''
    if not QUICK:
        job = subprocess.run([sys.executable, '-m', 'kvstore.launch', '-n', '2', '--timeout', '300',
                              sys.executable, 'train_dist.py'],
                             cwd=jobdir, capture_output=True, text=True)
        print(job.stdout[-2000:], job.stderr[-2000:])
        assert job.returncode == 0
    '''),
    md('Remove the files written above:'),
    code('''
    import shutil
    shutil.rmtree(jobdir)
    '''),
]

NOTEBOOKS = {
    '01_kvstore.ipynb': KVSTORE,
    '02_visualization.ipynb': VISUALIZATION,
    '03_gluon_mnist.ipynb': MNIST,
    '04_hybridize_export.ipynb': HYBRID,
    '05_multi_device.ipynb': MULTI,
}


def build(cells):
    nb = nbformat.v4.new_notebook()
    nb.metadata['kernelspec'] = {'name': 'python3', 'display_name': 'Python 3', 'language': 'python'}
    nb.metadata['language_info'] = {'name': 'python'}
    nb.cells = cells
    for i, cell in enumerate(nb.cells):  # stable ids: regenerating gives the same files
        cell['id'] = 'cell-%02d' % i
    return nb


def main():
    for name, cells in NOTEBOOKS.items():
        nb = build(cells)
        nbformat.validate(nb)
        path = os.path.join(HERE, name)
        with open(path, 'w', encoding='utf-8') as f:
            nbformat.write(nb, f)
        print('wrote', path)


if __name__ == '__main__':
    main()
