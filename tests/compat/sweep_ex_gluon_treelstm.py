"""MXNet 1.9's example/gluon tree_lstm (tree_lstm.py, main.py, dataset.py's Tree) on two tiny
sentence pairs: the child-sum Tree-LSTM cell called with F = mx.nd, `F._internal` operators,
named prefixes, the similarity head, KLDivLoss, AdaGrad with weight decay stepped every few
samples, and the Pearson/MSE composite metric."""
import math

import numpy as onp
import mxnet as mx
from mxnet import gluon, autograd as ag
from mxnet.gluon import Block, nn
from _ex_gluon import fill, r, show, attempt, params_of


class Tree(object):
    def __init__(self, idx):
        self.children = []
        self.idx = idx

    def __repr__(self):
        if self.children:
            return '{0}: {1}'.format(self.idx, str(self.children))
        return str(self.idx)


class ChildSumLSTMCell(Block):
    def __init__(self, hidden_size, i2h_weight_initializer=None, hs2h_weight_initializer=None,
                 hc2h_weight_initializer=None, i2h_bias_initializer='zeros',
                 hs2h_bias_initializer='zeros', hc2h_bias_initializer='zeros',
                 input_size=0, prefix=None, params=None):
        super(ChildSumLSTMCell, self).__init__(prefix=prefix, params=params)
        with self.name_scope():
            self._hidden_size = hidden_size
            self._input_size = input_size
            self.i2h_weight = self.params.get('i2h_weight', shape=(4 * hidden_size, input_size),
                                              init=i2h_weight_initializer)
            self.hs2h_weight = self.params.get('hs2h_weight', shape=(3 * hidden_size, hidden_size),
                                               init=hs2h_weight_initializer)
            self.hc2h_weight = self.params.get('hc2h_weight', shape=(hidden_size, hidden_size),
                                               init=hc2h_weight_initializer)
            self.i2h_bias = self.params.get('i2h_bias', shape=(4 * hidden_size,),
                                            init=i2h_bias_initializer)
            self.hs2h_bias = self.params.get('hs2h_bias', shape=(3 * hidden_size,),
                                             init=hs2h_bias_initializer)
            self.hc2h_bias = self.params.get('hc2h_bias', shape=(hidden_size,),
                                             init=hc2h_bias_initializer)

    def _alias(self):
        return 'childsum_lstm'

    def forward(self, F, inputs, tree):
        children_outputs = [self.forward(F, inputs, child) for child in tree.children]
        if children_outputs:
            _, children_states = zip(*children_outputs)
        else:
            children_states = None
        with inputs.context as ctx:
            return self.node_forward(F, F.expand_dims(inputs[tree.idx], axis=0), children_states,
                                     self.i2h_weight.data(ctx), self.hs2h_weight.data(ctx),
                                     self.hc2h_weight.data(ctx), self.i2h_bias.data(ctx),
                                     self.hs2h_bias.data(ctx), self.hc2h_bias.data(ctx))

    def node_forward(self, F, inputs, children_states, i2h_weight, hs2h_weight, hc2h_weight,
                     i2h_bias, hs2h_bias, hc2h_bias):
        name = '{0}{1}_'.format(self.prefix, self._alias)
        i2h = F.FullyConnected(data=inputs, weight=i2h_weight, bias=i2h_bias,
                               num_hidden=self._hidden_size * 4, name='%si2h' % name)
        i2h_slices = F.split(i2h, num_outputs=4, name='%siuo_slice' % name)
        i2h_iuo = F.concat(*[i2h_slices[i] for i in [0, 2, 3]], dim=1)
        if children_states:
            hs = F.add_n(*[state[0] for state in children_states], name='%shs' % name)
            hc = F.concat(*[F.expand_dims(state[0], axis=1) for state in children_states], dim=1,
                          name='%shc')
            cs = F.concat(*[F.expand_dims(state[1], axis=1) for state in children_states], dim=1,
                          name='%scs')
            i2h_f_slice = i2h_slices[1]
            f_act = i2h_f_slice + hc2h_bias + F.dot(hc, hc2h_weight)
            forget_gates = F.Activation(f_act, act_type='sigmoid', name='%sf' % name)
        else:
            hs = F.zeros_like(i2h_slices[0])
        hs2h_iuo = F.FullyConnected(data=hs, weight=hs2h_weight, bias=hs2h_bias,
                                    num_hidden=self._hidden_size * 3, name='%shs2h' % name)
        i2h_iuo = i2h_iuo + hs2h_iuo
        iuo_act_slices = F.SliceChannel(i2h_iuo, num_outputs=3, name='%sslice' % name)
        i_act, u_act, o_act = iuo_act_slices[0], iuo_act_slices[1], iuo_act_slices[2]
        in_gate = F.Activation(i_act, act_type='sigmoid', name='%si' % name)
        in_transform = F.Activation(u_act, act_type='tanh', name='%sc' % name)
        out_gate = F.Activation(o_act, act_type='sigmoid', name='%so' % name)
        next_c = in_gate * in_transform
        if children_states:
            next_c = F._internal._plus(F.sum(forget_gates * cs, axis=1), next_c,
                                       name='%sstate' % name)
        next_h = F._internal._mul(out_gate, F.Activation(next_c, act_type='tanh'),
                                  name='%sout' % name)
        return next_h, [next_h, next_c]


class Similarity(nn.Block):
    def __init__(self, sim_hidden_size, rnn_hidden_size, num_classes):
        super(Similarity, self).__init__()
        with self.name_scope():
            self.wh = nn.Dense(sim_hidden_size, in_units=2 * rnn_hidden_size, prefix='sim_embed_')
            self.wp = nn.Dense(num_classes, in_units=sim_hidden_size, prefix='sim_out_')

    def forward(self, F, lvec, rvec):
        mult_dist = F.broadcast_mul(lvec, rvec)
        abs_dist = F.abs(F.add(lvec, -rvec))
        vec_dist = F.concat(*[mult_dist, abs_dist], dim=1)
        out = F.log_softmax(self.wp(F.sigmoid(self.wh(vec_dist))))
        return out


class SimilarityTreeLSTM(nn.Block):
    def __init__(self, sim_hidden_size, rnn_hidden_size, embed_in_size, embed_dim, num_classes):
        super(SimilarityTreeLSTM, self).__init__()
        with self.name_scope():
            self.embed = nn.Embedding(embed_in_size, embed_dim, prefix='word_embed_')
            self.childsumtreelstm = ChildSumLSTMCell(rnn_hidden_size, input_size=embed_dim)
            self.similarity = Similarity(sim_hidden_size, rnn_hidden_size, num_classes)

    def forward(self, F, l_inputs, r_inputs, l_tree, r_tree):
        l_inputs = self.embed(l_inputs)
        r_inputs = self.embed(r_inputs)
        lstate = self.childsumtreelstm(F, l_inputs, l_tree)[1][1]
        rstate = self.childsumtreelstm(F, r_inputs, r_tree)[1][1]
        output = self.similarity(F, lstate, rstate)
        return output


def parse(parents):
    """dataset.py's read_tree: a tree from 1-based parent indices (0 is the root)."""
    trees = {}
    root = None
    for i in range(1, len(parents) + 1):
        if i - 1 not in trees and parents[i - 1] != -1:
            idx = i
            prev = None
            while True:
                parent = parents[idx - 1]
                if parent == -1:
                    break
                tree = Tree(idx)
                if prev is not None:
                    tree.children.append(prev)
                trees[idx - 1] = tree
                tree.idx = idx - 1
                if parent - 1 in trees:
                    trees[parent - 1].children.append(tree)
                    break
                elif parent == 0:
                    root = tree
                    break
                else:
                    prev = tree
                    idx = parent
    return root


num_classes, rnn_hidden_size, sim_hidden_size, vocab_size, embed_dim = 5, 3, 4, 9, 4
ctx = [mx.cpu()]
print('== trees')
pairs = [([2, 0, 2, 3], [2, 0, 2], [1, 2, 3, 4], [5, 6, 7], 3.6),
         ([0, 1, 1], [3, 3, 0, 3], [8, 2, 1], [0, 4, 5, 6], 1.0),
         ([2, 0], [0, 1, 2], [7, 3], [2, 5, 8], 4.2)]
for p in pairs:
    print(parse(p[0]), '|', parse(p[1]))

net = SimilarityTreeLSTM(sim_hidden_size, rnn_hidden_size, vocab_size, embed_dim, num_classes)
print(net)
net.initialize(mx.init.Xavier(magnitude=2.24), ctx=ctx[0])
params_of(net)
print(net.childsumtreelstm.prefix, net.similarity.wh.prefix, net.childsumtreelstm._alias())
fill(net, 0.5)
embed = mx.nd.array(onp.cos(onp.arange(vocab_size * embed_dim).reshape(vocab_size, embed_dim)))
net.embed.weight.set_data(embed.as_in_context(ctx[0]))


def to_target(x):
    target = onp.zeros((1, num_classes))
    ceil = int(math.ceil(x))
    floor = int(math.floor(x))
    if ceil == floor:
        target[0][floor - 1] = 1
    else:
        target[0][floor - 1] = ceil - x
        target[0][ceil - 1] = x - floor
    return mx.nd.array(target)


def to_score(x):
    levels = mx.nd.arange(1, 6, ctx=x.context)
    return [mx.nd.sum(levels * mx.nd.exp(x), axis=1).reshape((-1, 1))]


print('targets', [r(to_target(p[4])) for p in pairs])
metric = mx.metric.create(['pearsonr', 'mse'])
print(type(metric).__name__, [m.name for m in metric.metrics])
trainer = gluon.Trainer(net.collect_params(), 'adagrad', {'learning_rate': 0.1, 'wd': 0.0001})
Loss = gluon.loss.KLDivLoss()
batch_size = 2
labels = [mx.nd.array([p[4] for p in pairs], ctx=ctx[0]).reshape((-1, 1))]
for epoch in range(2):
    preds = []
    for j, (lp, rp, ls, rsent, label) in enumerate(pairs):
        l_tree, r_tree = parse(lp), parse(rp)
        l_sent, r_sent = mx.nd.array(ls), mx.nd.array(rsent)
        with ag.record():
            z = net(mx.nd, l_sent, r_sent, l_tree, r_tree)
            loss = Loss(z, to_target(label).as_in_context(ctx[0]))
            loss.backward()
            preds.append(z)
        print(' ', j, 'z', r(z), 'loss', r(loss))
        if (j + 1) % batch_size == 0:
            trainer.step(batch_size)
            print('  step; hc2h grad', r(net.childsumtreelstm.hc2h_weight.grad().sum(), 3))
    preds = to_score(mx.nd.concat(*preds, dim=0))
    metric.update(preds, labels)
    names, values = metric.get()
    metric.reset()
    for name, acc in zip(names, values):
        print('training acc at epoch %d: %s=%.4f' % (epoch, name, acc))
print('trained', r(net.similarity.wp.weight.data()[0]), r(net.childsumtreelstm.i2h_bias.data()[:4]))
leaf = Tree(0)
h, (h2, c) = net.childsumtreelstm(mx.nd, net.embed(mx.nd.array([3])), leaf)
print('leaf', r(h), r(c))
attempt('KLDivLoss from_logits=False', lambda: gluon.loss.KLDivLoss(from_logits=False)(
    mx.nd.array([[0.2, 0.8]]), mx.nd.array([[0.5, 0.5]])))
