"""MXNet 1.9's example/gluon lstm_crf (a BiLSTM-CRF tagger: forward algorithm, Viterbi decoding,
scalar indexing of parameters under autograd) and lipnet (Conv3D, InstanceNorm, Dropout over
axes, MaxPool3D, bidirectional GRUs, CTCLoss in train_mode, the frame transforms) at toy sizes."""
import numpy as onp
import mxnet as mx
from mxnet import autograd as ag, ndarray as nd, gluon
from mxnet.gluon import Block, nn, rnn
from mxnet.gluon.data.vision import transforms
from _ex_gluon import fill, r, show, attempt, params_of

print('== lstm_crf helpers')


def to_scalar(x):
    return int(x.asscalar())


def argmax(vec):
    index = nd.argmax(vec, axis=1)
    return to_scalar(index)


def prepare_sequence(seq, word2index):
    return nd.array([word2index[w] for w in seq])


def log_sum_exp(vec):
    max_score = nd.max(vec).asscalar()
    return nd.log(nd.sum(nd.exp(vec - max_score))) + max_score


v = nd.array([[1.0, 3.0, 2.0]])
print(argmax(v), r(log_sum_exp(v)), to_scalar(nd.array([2.7])))
tags = nd.array([0, 2, 1])
print('iterate', [x.shape for x in tags], r(nd.concat(nd.array([3]), *tags, dim=0)))
attempt('asscalar of many', lambda: nd.array([1.0, 2.0]).asscalar())

START_TAG = '<START>'
STOP_TAG = '<STOP>'


class BiLSTM_CRF(Block):
    def __init__(self, vocab_size, tag2index, embedding_dim, hidden_dim):
        super(BiLSTM_CRF, self).__init__()
        with self.name_scope():
            self.embedding_dim = embedding_dim
            self.hidden_dim = hidden_dim
            self.vocab_size = vocab_size
            self.tag2idx = tag2index
            self.tagset_size = len(tag2index)
            self.word_embeds = nn.Embedding(vocab_size, embedding_dim)
            self.lstm = rnn.LSTM(hidden_dim // 2, num_layers=1, bidirectional=True)
            self.hidden2tag = nn.Dense(self.tagset_size)
            self.transitions = self.params.get('crf_transition_matrix',
                                               shape=(self.tagset_size, self.tagset_size))
            self.hidden = self.init_hidden()

    def init_hidden(self):
        # the example draws nd.random.normal states; fixed ones here, so that runs compare
        h = nd.array(onp.linspace(-0.5, 0.5, self.hidden_dim).reshape(2, 1, self.hidden_dim // 2))
        return [h, h * 0.5]

    def _forward_alg(self, feats):
        alphas = [[-10000.] * self.tagset_size]
        alphas[0][self.tag2idx[START_TAG]] = 0.
        alphas = nd.array(alphas)
        for feat in feats:
            alphas_t = []
            for next_tag in range(self.tagset_size):
                emit_score = feat[next_tag].reshape((1, -1))
                trans_score = self.transitions.data()[next_tag].reshape((1, -1))
                next_tag_var = alphas + trans_score + emit_score
                alphas_t.append(log_sum_exp(next_tag_var))
            alphas = nd.concat(*alphas_t, dim=0).reshape((1, -1))
        terminal_var = alphas + self.transitions.data()[self.tag2idx[STOP_TAG]]
        return log_sum_exp(terminal_var)

    def _get_lstm_features(self, sentence_str):
        self.hidden = self.init_hidden()
        length = sentence_str.shape[0]
        embeds = self.word_embeds(sentence_str).reshape((length, 1, -1))
        lstm_out, self.hidden = self.lstm(embeds, self.hidden)
        lstm_out = lstm_out.reshape((length, self.hidden_dim))
        lstm_feats = self.hidden2tag(lstm_out)
        return nd.split(lstm_feats, num_outputs=length, axis=0, squeeze_axis=True)

    def _score_sentence(self, feats, tags_arr):
        score = nd.array([0])
        tags_arr = nd.concat(nd.array([self.tag2idx[START_TAG]]), *tags_arr, dim=0)
        for j, feat in enumerate(feats):
            score = score + self.transitions.data()[to_scalar(tags_arr[j + 1]), to_scalar(tags_arr[j])] \
                + feat[to_scalar(tags_arr[j + 1])]
        score = score + self.transitions.data()[self.tag2idx[STOP_TAG],
                                                to_scalar(tags_arr[int(tags_arr.shape[0] - 1)])]
        return score

    def _viterbi_decode(self, feats):
        backpointers = []
        vvars = nd.full((1, self.tagset_size), -10000.)
        vvars[0, self.tag2idx[START_TAG]] = 0
        for feat in feats:
            bptrs_t = []
            viterbivars_t = []
            for next_tag in range(self.tagset_size):
                next_tag_var = vvars + self.transitions.data()[next_tag]
                best_tag_id = argmax(next_tag_var)
                bptrs_t.append(best_tag_id)
                viterbivars_t.append(next_tag_var[0, best_tag_id])
            vvars = (nd.concat(*viterbivars_t, dim=0) + feat).reshape((1, -1))
            backpointers.append(bptrs_t)
        terminal_var = vvars + self.transitions.data()[self.tag2idx[STOP_TAG]]
        best_tag_id = argmax(terminal_var)
        path_score = terminal_var[0, best_tag_id]
        best_path = [best_tag_id]
        for bptrs_t in reversed(backpointers):
            best_tag_id = bptrs_t[best_tag_id]
            best_path.append(best_tag_id)
        start = best_path.pop()
        assert start == self.tag2idx[START_TAG]
        best_path.reverse()
        return path_score, best_path

    def neg_log_likelihood(self, sentence_str, tags_arr):
        feats = self._get_lstm_features(sentence_str)
        forward_score = self._forward_alg(feats)
        gold_score = self._score_sentence(feats, tags_arr)
        return forward_score - gold_score

    def forward(self, sentence_str):
        lstm_feats = self._get_lstm_features(sentence_str)
        score, tag_seq = self._viterbi_decode(lstm_feats)
        return score, tag_seq


print('== lstm_crf training')
training_data = [('the wall street journal reported apple'.split(), 'B I I I O B'.split()),
                 ('georgia tech is in georgia'.split(), 'B I O O B'.split())]
word2idx = {}
for sentence, tags in training_data:
    for word in sentence:
        if word not in word2idx:
            word2idx[word] = len(word2idx)
tag2idx = {'B': 0, 'I': 1, 'O': 2, START_TAG: 3, STOP_TAG: 4}
model = BiLSTM_CRF(len(word2idx), tag2idx, 5, 4)
print(model)
model.initialize(mx.init.Xavier(magnitude=2.24), ctx=mx.cpu())
precheck_sent = prepare_sequence(training_data[0][0], word2idx)
model(precheck_sent)
fill(model, 0.6)
params_of(model)
optimizer = gluon.Trainer(model.collect_params(), 'sgd', {'learning_rate': 0.05, 'wd': 1e-4})
score, path = model(precheck_sent)
print('before', r(score), path)
for epoch in range(3):
    neg_log_likelihood_acc = 0.
    for i, (sentence, tags) in enumerate(training_data):
        with ag.record():
            sentence_in = prepare_sequence(sentence, word2idx)
            targets = nd.array([tag2idx[t] for t in tags])
            neg_log_likelihood = model.neg_log_likelihood(sentence_in, targets)
            neg_log_likelihood.backward()
        optimizer.step(1)
        neg_log_likelihood_acc += neg_log_likelihood.mean()
        idx = i
    print('Epoch [{}], Negative Log Likelihood {:.4f}'.format(epoch, neg_log_likelihood_acc.asscalar() / (idx + 1)))
    print('  transitions grad', r(model.transitions.grad()[0]))
score, path = model(precheck_sent)
print('after', r(score), path, type(score).__name__, score.shape)

print('== lipnet')


class LipNet(nn.Block):
    def __init__(self, dr_rate, **kwargs):
        super(LipNet, self).__init__(**kwargs)
        with self.name_scope():
            self.conv1 = nn.Conv3D(4, kernel_size=(3, 5, 5), strides=(1, 2, 2), padding=(1, 2, 2))
            self.bn1 = nn.InstanceNorm(in_channels=4)
            self.dr1 = nn.Dropout(dr_rate, axes=(1, 2))
            self.pool1 = nn.MaxPool3D((1, 2, 2), (1, 2, 2))
            self.conv2 = nn.Conv3D(6, kernel_size=(3, 3, 3), strides=(1, 1, 1), padding=(1, 2, 2))
            self.bn2 = nn.InstanceNorm(in_channels=6)
            self.dr2 = nn.Dropout(dr_rate, axes=(1, 2))
            self.pool2 = nn.MaxPool3D((1, 2, 2), (1, 2, 2))
            self.gru1 = rnn.GRU(5, bidirectional=True)
            self.gru2 = rnn.GRU(5, bidirectional=True)
            self.dense = nn.Dense(6 + 1, flatten=False)

    def forward(self, x):
        out = self.conv1(x)
        out = self.bn1(out)
        out = nd.relu(out)
        out = self.dr1(out)
        out = self.pool1(out)
        out = self.conv2(out)
        out = self.bn2(out)
        out = nd.relu(out)
        out = self.dr2(out)
        out = self.pool2(out)
        out = nd.transpose(out, (2, 0, 1, 3, 4))
        out = out.reshape((out.shape[0], out.shape[1], -1))
        out = self.gru1(out)
        out = self.gru2(out)
        out = self.dense(out)
        out = nd.log_softmax(out, axis=2)
        out = nd.transpose(out, (1, 0, 2))
        return out


input_transform = transforms.Compose([transforms.ToTensor(),
                                      transforms.Normalize((0.7136, 0.4906, 0.3283),
                                                           (0.1138, 0.1078, 0.0917))])
frames = nd.array((onp.arange(5 * 8 * 8 * 3).reshape(5, 8, 8, 3) * 7) % 256, dtype='uint8')
clip = nd.stack(*[input_transform(f) for f in frames])
print('frames', clip.shape, clip.dtype.__name__, r(clip[0, :, 0, 0]))
batch = nd.stack(clip, clip[::-1])
input_data = nd.transpose(batch, (0, 2, 1, 3, 4))
print('input', input_data.shape)
label = nd.array([[1, 2, 3, -1], [4, 4, -1, -1]])
net = LipNet(0.5)
print(net)
net.initialize(ctx=mx.cpu())
net(input_data)
fill(net, 0.3)
params_of(net)
loss_fn = gluon.loss.CTCLoss()
trainer = gluon.Trainer(net.collect_params(), optimizer='adam',
                        optimizer_params={'learning_rate': 0.01, 'beta1': 0.9, 'beta2': 0.999})
net.dr1._rate = net.dr2._rate = 0.0  # deterministic: dropout off while training here
for it in range(2):
    input_data = input_data.copyto(mx.cpu())
    with ag.record():
        with ag.train_mode():
            out = net(input_data)
            loss_val = loss_fn(out, label)
            loss_val.backward()
    trainer.step(input_data.shape[0])
    print('iter', it, 'out', out.shape, 'loss', r(loss_val), r(loss_val.mean().asscalar()))
pred = net(input_data)
prob = pred[0].softmax().asnumpy()
print('greedy', prob.argmax(axis=1).tolist(), r(prob.max(axis=1), 3))
print('dropout predict is identity', r((nn.Dropout(0.5, axes=(1, 2))(pred) - pred).abs().sum()))
attempt('ctc label too long', lambda: loss_fn(pred[:, :2], nd.array([[1, 2, 3, 4, 5]] * 2)))
# a label that no alignment of 3 steps fits (1 _ 1 _ 1) costs 0, as MXNet's CTC gives it
show('ctc no alignment', loss_fn(pred[:, :3], nd.array([[1, 1, 1], [1, 2, -1]])), 3)
