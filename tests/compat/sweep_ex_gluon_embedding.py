"""MXNet 1.9's example/gluon embedding_learning (model.py, train.py) on a tiny batch: the
L2Normalization block, the distance matrix, distance-weighted sampling with NumPy's seeded
choice, list and NDArray indexing under autograd, the margin loss with a class-specific beta
Parameter passed as a block input, two trainers, the learning-rate schedule and Recall@k."""
import numpy as onp
from numpy import argpartition
import mxnet as mx
from mxnet import gluon, autograd as ag, nd
from mxnet.gluon import nn, Block, HybridBlock
from mxnet.gluon.model_zoo import vision as models
from _ex_gluon import fill, r, show, attempt, params_of


class L2Normalization(HybridBlock):
    def __init__(self, mode, **kwargs):
        self._mode = mode
        super(L2Normalization, self).__init__(**kwargs)

    def hybrid_forward(self, F, x):
        return F.L2Normalization(x, mode=self._mode, name='l2_norm')

    def __repr__(self):
        s = '{name}({_mode})'
        return s.format(name=self.__class__.__name__, **self.__dict__)


def get_distance(F, x):
    n = x.shape[0]
    square = F.sum(x ** 2.0, axis=1, keepdims=True)
    distance_square = square + square.transpose() - (2.0 * F.dot(x, x.transpose()))
    return F.sqrt(distance_square + F.array(onp.identity(n)))


class DistanceWeightedSampling(HybridBlock):
    def __init__(self, batch_k, cutoff=0.5, nonzero_loss_cutoff=1.4, **kwargs):
        self.batch_k = batch_k
        self.cutoff = cutoff
        self.nonzero_loss_cutoff = nonzero_loss_cutoff
        super(DistanceWeightedSampling, self).__init__(**kwargs)

    def hybrid_forward(self, F, x):
        k = self.batch_k
        n, d = x.shape
        distance = get_distance(F, x)
        distance = F.maximum(distance, self.cutoff)
        log_weights = ((2.0 - float(d)) * F.log(distance)
                       - (float(d - 3) / 2) * F.log(1.0 - 0.25 * (distance ** 2.0)))
        weights = F.exp(log_weights - F.max(log_weights))
        mask = onp.ones(weights.shape)
        for i in range(0, n, k):
            mask[i:i + k, i:i + k] = 0
        mask_uniform_probs = mask * (1.0 / (n - k))
        weights = weights * F.array(mask) * (distance < self.nonzero_loss_cutoff)
        weights_sum = F.sum(weights, axis=1, keepdims=True)
        weights = weights / weights_sum
        a_indices = []
        p_indices = []
        n_indices = []
        np_weights = weights.asnumpy()
        for i in range(n):
            block_idx = i // k
            if weights_sum[i] != 0:
                n_indices += onp.random.choice(n, k - 1, p=np_weights[i]).tolist()
            else:
                n_indices += onp.random.choice(n, k - 1, p=mask_uniform_probs[i]).tolist()
            for j in range(block_idx * k, (block_idx + 1) * k):
                if j != i:
                    a_indices.append(i)
                    p_indices.append(j)
        return a_indices, x[a_indices], x[p_indices], x[n_indices], x

    def __repr__(self):
        s = '{name}({batch_k})'
        return s.format(name=self.__class__.__name__, **self.__dict__)


class MarginNet(Block):
    def __init__(self, base_net, emb_dim, batch_k, **kwargs):
        super(MarginNet, self).__init__(**kwargs)
        with self.name_scope():
            self.base_net = base_net
            self.dense = nn.Dense(emb_dim)
            self.normalize = L2Normalization(mode='instance')
            self.sampled = DistanceWeightedSampling(batch_k=batch_k)

    def forward(self, x):
        z = self.base_net(x)
        z = self.dense(z)
        z = self.normalize(z)
        z = self.sampled(z)
        return z


class MarginLoss(gluon.loss.Loss):
    def __init__(self, margin=0.2, nu=0.0, weight=None, batch_axis=0, **kwargs):
        super(MarginLoss, self).__init__(weight, batch_axis, **kwargs)
        self._margin = margin
        self._nu = nu

    def hybrid_forward(self, F, anchors, positives, negatives, beta_in, a_indices=None):
        if a_indices is not None:
            beta = beta_in.data()[a_indices]
            beta_reg_loss = F.sum(beta) * self._nu
        else:
            beta = beta_in
            beta_reg_loss = 0.0
        d_ap = F.sqrt(F.sum(F.square(positives - anchors), axis=1) + 1e-8)
        d_an = F.sqrt(F.sum(F.square(negatives - anchors), axis=1) + 1e-8)
        pos_loss = F.maximum(d_ap - beta + self._margin, 0.0)
        neg_loss = F.maximum(beta - d_an + self._margin, 0.0)
        pair_cnt = F.sum((pos_loss > 0.0) + (neg_loss > 0.0))
        if pair_cnt == 0.0:
            loss = F.sum(pos_loss + neg_loss)
        else:
            loss = (F.sum(pos_loss + neg_loss) + beta_reg_loss) / pair_cnt
        return gluon.loss._apply_weighting(F, loss, self._weight, None)


onp.random.seed(123)
mx.random.seed(123)
print('== blocks')
l2 = L2Normalization(mode='instance')
print(l2, DistanceWeightedSampling(batch_k=2))
x = nd.array([[3.0, 4.0], [1.0, 0.0], [0.0, -2.0]])
show('l2 instance', l2(x))
show('l2 channel', L2Normalization(mode='channel')(x.reshape((1, 3, 2))))
l2.hybridize()
show('l2 hybrid', l2(x))
show('distance', get_distance(nd, x))

print('== sampling')
emb = nd.L2Normalization(nd.array(onp.sin(onp.arange(6 * 4).reshape(6, 4) * 0.9)))
samp = DistanceWeightedSampling(batch_k=2)
a_idx, anc, pos, neg, allx = samp(emb)
print('a', a_idx, anc.shape, pos.shape, neg.shape, allx.shape)
print('neg rows', r(neg[:, 0]))
far = nd.array([[1.0, 0, 0, 0], [1.0, 0, 0, 0], [-0.125, 0.9922, 0, 0], [-0.125, 0.9922, 0, 0]])
a2, _, _, neg2, _ = DistanceWeightedSampling(batch_k=2)(far)
print('uniform fallback', a2, r(neg2[:, 0]))

print('== indexing')
y = nd.array([0, 0, 1, 1, 2, 2])
print('y[list]', r(y[a_idx]))
beta = mx.gluon.Parameter('beta', shape=(4,))
beta.initialize(mx.init.Constant(1.2))
show('beta[nd float]', beta.data()[y[a_idx]])
emb.attach_grad()
with ag.record():
    g = emb[[0, 2, 2, 5]]
    s = (g * nd.array([[1.0], [2.0], [3.0], [4.0]])).sum()
s.backward()
show('grad of list gather', emb.grad[:, 0])

print('== margin loss')
loss = MarginLoss(margin=0.2, nu=0.1)
L = loss(anc, pos, neg, beta, y[a_idx])
show('beta loss', L)
show('const beta', loss(anc, pos, neg, 1.2, None))
show('zero pairs', MarginLoss(margin=0.0)(anc, anc, anc + 10.0, 0.0, None))
print(loss)

print('== training')
base = nn.HybridSequential()
with base.name_scope():
    base.add(nn.Conv2D(3, 3, padding=1), nn.GlobalAvgPool2D(), nn.Flatten())
base.hybridize()
net = MarginNet(base, 4, 2)
print(net)
ctx = [mx.cpu()]
net.initialize(mx.init.Xavier(magnitude=2), ctx=ctx)
data = nd.array(onp.cos(onp.arange(6 * 1 * 4 * 4).reshape(6, 1, 4, 4) * 0.37))
net(data)
fill(net, 0.5)
params_of(net)
beta = mx.gluon.Parameter('beta', shape=(3,))
beta.initialize(mx.init.Constant(1.2), ctx=ctx)
trainer = gluon.Trainer(net.collect_params(), 'sgd', {'learning_rate': 0.1, 'wd': 0.0001,
                                                      'momentum': 0.9}, kvstore='device')
trainer_beta = gluon.Trainer([beta], 'sgd', {'learning_rate': 0.1, 'momentum': 0.9}, kvstore='device')
mloss = MarginLoss(margin=0.2, nu=0.0)


def get_lr(lr, epoch, steps_list, factor):
    for s in steps_list:
        if epoch >= s:
            lr *= factor
    return lr


for epoch in range(3):
    trainer.set_learning_rate(get_lr(0.1, epoch, [1, 2], 0.5))
    trainer_beta.set_learning_rate(get_lr(0.1, epoch, [2], 0.5))
    print('epoch', epoch, trainer.learning_rate, trainer_beta.learning_rate)
    xs = gluon.utils.split_and_load(data, ctx_list=ctx, batch_axis=0)
    ls = gluon.utils.split_and_load(y, ctx_list=ctx, batch_axis=0)
    Ls = []
    cumulative_loss = 0.0
    with ag.record():
        for xx, yy in zip(xs, ls):
            a_indices, anchors, positives, negatives, _ = net(xx)
            L = mloss(anchors, positives, negatives, beta, yy[a_indices])
            Ls.append(L)
            cumulative_loss += nd.mean(L).asscalar()
        for L in Ls:
            L.backward()
    trainer.step(data.shape[0])
    trainer_beta.step(data.shape[0])
    print('  loss %.4f' % cumulative_loss, 'beta', r(beta.data()), 'dense grad',
          r(net.dense.weight.grad().sum(), 3))


def get_distance_matrix(x):
    square = nd.sum(x ** 2.0, axis=1, keepdims=True)
    distance_square = square + square.transpose() - (2.0 * nd.dot(x, x.transpose()))
    return nd.sqrt(distance_square)


def evaluate_emb(emb, labels):
    d_mat = get_distance_matrix(emb)
    d_mat = d_mat.asnumpy()
    labels = labels.asnumpy()
    names = []
    accs = []
    for k in [1, 2, 4]:
        names.append('Recall@%d' % k)
        correct, cnt = 0.0, 0.0
        for i in range(emb.shape[0]):
            d_mat[i, i] = 1e10
            nns = argpartition(d_mat[i], k)[:k]
            if any(labels[i] == labels[nn] for nn in nns):
                correct += 1
            cnt += 1
        accs.append(correct / cnt)
    return names, accs


outputs = [net(xx)[-1] for xx in gluon.utils.split_and_load(data, ctx_list=ctx)]
outputs = nd.concatenate(outputs, axis=0)[:5]
labels = nd.concatenate([y], axis=0)[:5]
print(evaluate_emb(outputs, labels))
print('== model zoo features as base')
zoo = models.get_model('resnet18_v1', ctx=ctx, pretrained=False, classes=4)
zoo.hybridize()
print(type(zoo.features).__name__, len(zoo.features), zoo.features.prefix)
for v in zoo.collect_params().values():
    if 'conv' in v.name:
        setattr(v, 'lr_mult', 0.01)
print(sorted(set(v.lr_mult for v in zoo.collect_params().values())))
