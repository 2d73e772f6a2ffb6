"""Symbol networks built the same way under real MXNet and under gluonjax.

Each function takes the ``mx`` module (``mxnet`` or ``gluonjax``) and builds the
graph inside a fresh NameManager, so automatic names match. Used by
``make_symbol_data.py`` (run with MXNet 1.9 to write the reference files) and by
``tests/test_symbol_mxnet.py`` (which rebuilds them here and compares).
"""


def mf(mx, k=64, max_user=100, max_item=50):
    """The seed's matrix factorisation network (Embedding, product, sum_axis, Flatten, regression)."""
    with mx.name.NameManager():
        user = mx.symbol.Variable('user')
        item = mx.symbol.Variable('item')
        score = mx.symbol.Variable('score')
        user = mx.symbol.Embedding(data=user, input_dim=max_user, output_dim=k)
        item = mx.symbol.Embedding(data=item, input_dim=max_item, output_dim=k)
        net = user * item
        net = mx.symbol.sum_axis(data=net, axis=1)
        net = mx.symbol.Flatten(data=net)
        return mx.symbol.LinearRegressionOutput(data=net, label=score)


def lenet(mx, c1=20, c2=50, hidden=500):
    """LeNet as in MXNet's tutorials: two conv/tanh/max-pool stages, two dense layers, softmax."""
    with mx.name.NameManager():
        data = mx.sym.var('data')
        net = mx.sym.Convolution(data=data, kernel=(5, 5), num_filter=c1)
        net = mx.sym.Activation(data=net, act_type='tanh')
        net = mx.sym.Pooling(data=net, pool_type='max', kernel=(2, 2), stride=(2, 2))
        net = mx.sym.Convolution(data=net, kernel=(5, 5), num_filter=c2)
        net = mx.sym.Activation(data=net, act_type='tanh')
        net = mx.sym.Pooling(data=net, pool_type='max', kernel=(2, 2), stride=(2, 2))
        net = mx.sym.Flatten(data=net)
        net = mx.sym.FullyConnected(data=net, num_hidden=hidden)
        net = mx.sym.Activation(data=net, act_type='tanh')
        net = mx.sym.FullyConnected(data=net, num_hidden=10)
        return mx.sym.SoftmaxOutput(data=net, name='softmax')


def mlp(mx):
    """A small MLP with explicit names, relu and a no-bias layer."""
    data = mx.sym.var('data')
    net = mx.sym.FullyConnected(data=data, num_hidden=8, name='fc1')
    net = mx.sym.Activation(data=net, act_type='relu', name='relu1')
    net = mx.sym.FullyConnected(data=net, num_hidden=4, no_bias=True, name='fc2')
    return mx.sym.SoftmaxOutput(data=net, name='out')


def bnnet(mx):
    """Convolution, BatchNorm (auxiliary states), relu, pooling, dense: a graph with aux states."""
    with mx.name.NameManager():
        data = mx.sym.var('data')
        net = mx.sym.Convolution(data=data, kernel=(3, 3), num_filter=4, pad=(1, 1))
        net = mx.sym.BatchNorm(data=net, fix_gamma=False, momentum=0.8)
        net = mx.sym.Activation(data=net, act_type='relu')
        net = mx.sym.Pooling(data=net, pool_type='avg', kernel=(2, 2), stride=(2, 2))
        net = mx.sym.Flatten(data=net)
        return mx.sym.FullyConnected(data=net, num_hidden=3)


def multi(mx):
    """Several outputs through Group: a split, a reduction and a dense layer sharing one input."""
    with mx.name.NameManager():
        data = mx.sym.var('data')
        fc = mx.sym.FullyConnected(data=data, num_hidden=6, name='fc')
        parts = mx.sym.split(fc, num_outputs=3, axis=1)
        total = mx.sym.sum(parts[0] * parts[2], axis=1, keepdims=True)
        act = mx.sym.Activation(parts[1], act_type='sigmoid')
        return mx.sym.Group([total, act, mx.sym.BlockGrad(fc), parts[2]])


def arith(mx):
    """Only elementwise and scalar arithmetic: MXNet's operator names for +, -, *, /, **, comparisons."""
    with mx.name.NameManager():
        a = mx.sym.var('a')
        b = mx.sym.var('b', shape=(2, 3), lr_mult=2.0)
        x = (a + b) * 2 - 1
        x = x / (b + 3.5) + 2 ** a
        x = -x + abs(a) % 3
        y = mx.sym.maximum(x, 0.5) * (a > b) + (a <= 1) - (1 - b) / 4
        z = mx.sym.sqrt(mx.sym.square(y) + 1e-05) ** 2
        return mx.sym.Group([z, mx.sym.sum(y, axis=(0, 1), keepdims=True)])


def wide(mx):
    """An 11-input add_n (arrays over 10 items go multi-line in MXNet's JSON) and attribute
    strings with quotes, backslashes, tabs and newlines (escaped in the JSON)."""
    with mx.name.NameManager():
        x = mx.sym.var('x', __note__='say "hi"\\n\tback\\slash\nnew line')
        terms = [mx.sym.exp(x * (i + 1)) for i in range(11)]
        return mx.sym.add_n(*terms)


def record_plot(mx, symbol, **kwargs):
    """Nodes [name, label, fillcolor, shape] and edges [tail, head, label] that ``mx.viz.plot_network``
    draws, recorded from its graphviz calls (so nothing depends on graphviz's quoting)."""
    import graphviz
    nodes, edges = [], []
    node, edge = graphviz.Digraph.node, graphviz.Digraph.edge

    def rec_node(self, name, label=None, **attrs):
        nodes.append([name, label, attrs.get('fillcolor'), attrs.get('shape')])
        return node(self, name, label, **attrs)

    def rec_edge(self, tail_name, head_name, **attrs):
        edges.append([tail_name, head_name, attrs.get('label')])
        return edge(self, tail_name, head_name, **attrs)
    graphviz.Digraph.node, graphviz.Digraph.edge = rec_node, rec_edge
    try:
        mx.viz.plot_network(symbol, **kwargs)
    finally:
        graphviz.Digraph.node, graphviz.Digraph.edge = node, edge
    return {'nodes': nodes, 'edges': edges}


NETS = {'mf': mf, 'lenet': lenet, 'mlp': mlp, 'bnnet': bnnet, 'multi': multi, 'arith': arith, 'wide': wide}
