"""d2l 1.0.3's sequence chapters: RNNScratch/RNNLMScratch/RNN/RNNLM/GRU and the book's LSTM,
encoder-decoder (Seq2Seq, attention decoder), MaskedSoftmaxCELoss, train_seq2seq/predict_seq2seq,
BERT blocks and the optimisation chapter's train_ch11, all on fixed tiny data."""
import contextlib
import io
import warnings

import matplotlib
matplotlib.use('Agg')
import numpy as onp
import mxnet as mx
from mxnet import autograd, gluon, init, np, npx
from mxnet.gluon import nn, rnn
from d2l import mxnet as d2l
from _d2l_common import attempt, r4, pattern

warnings.simplefilter('ignore')
npx.set_np()
onp.random.seed(0)  # the DataLoader shuffles with NumPy's global RNG


def fill(net, scale=0.5):
    for k, (name, p) in enumerate(sorted(net.collect_params().items())):
        value = pattern(p.shape, k, scale)
        p.set_data(np.abs(value) + 0.5 if name.endswith('gamma') else value)


def quiet(f, *args, **kwargs):
    """Runs f with stdout captured (IPython's display prints figure reprs); returns (result, text)."""
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        out = f(*args, **kwargs)
    return out, buf.getvalue()


TEXT = ('The lighthouse keeper climbed the stairs at dusk. The lamp was cold, the sea was loud, '
        'and the gulls had gone. He lit the lamp and watched the ships pass in the night. ') * 4


class Lighthouse(d2l.TimeMachine):
    def _download(self):
        return TEXT


print('== TimeMachine / Vocab')
data = Lighthouse(batch_size=8, num_steps=6, num_train=64, num_val=32)
print(len(data.vocab), data.vocab.idx_to_token[:6], data.X.shape, data.Y.shape, data.X.dtype)
print(r4(data.X[0]), r4(data.Y[0]), ''.join(data.vocab.to_tokens(data.X[0].astype('int32').tolist())))
corpus, vocab = data.build('it was the best of times')
print(corpus[:8], len(vocab))
print(len(data.train_dataloader()), len(data.val_dataloader()))

print('== RNNScratch / RNNLMScratch')
V = len(data.vocab)
rnn_s = d2l.RNNScratch(num_inputs=V, num_hiddens=8)
rnn_s.W_xh, rnn_s.W_hh = pattern((V, 8), 1, 0.3), pattern((8, 8), 2, 0.3)
X = np.ones((5, 2, V))
outputs, H = rnn_s(X)
d2l.check_len(outputs, 5)
d2l.check_shape(outputs[0], (2, 8))
d2l.check_shape(H, (2, 8))
print(r4(H[0]))
attempt(lambda: d2l.check_shape(H, (8, 2)))
attempt(lambda: d2l.check_len(outputs, 4))
lm = d2l.RNNLMScratch(rnn_s, V, lr=1)
lm.W_hq = pattern((8, V), 3, 0.3)
for p in lm.get_scratch_params():
    p.attach_grad()
print(len(lm.get_scratch_params()), lm.one_hot(np.array([[0, 2], [1, 3]])).shape)
Y = lm(data.X[:2])
print(Y.shape, r4(Y.sum()), r4(lm.loss(Y, data.Y[:2])))
lm.board.display = False
d2l.Trainer(max_epochs=1, gradient_clip_val=1).fit(lm, data)
print(r4(lm.loss(lm(data.X[:4]), data.Y[:4])), lm.predict('the ', 8, data.vocab))
print(sorted(lm.board.data.keys()))

print('== RNN / RNNLM / GRU / LSTM (book)')
r = d2l.RNN(num_hiddens=8)
r.initialize()
out, H = r(np.ones((5, 2, V)))
print(out.shape, H.shape, sorted(r.collect_params().keys()))
model = d2l.RNNLM(r, vocab_size=V, lr=1)
model(data.X[:2])
fill(model, 0.3)
model.board.display = False
d2l.Trainer(max_epochs=1, gradient_clip_val=1).fit(model, data)
print(r4(model.loss(model(data.X[:4]), data.Y[:4])), model.predict('the ', 8, data.vocab))
g = d2l.GRU(num_hiddens=8, num_layers=2, dropout=0.5)
g.initialize()
out, H = g(np.ones((5, 2, 4)))
print(out.shape, H.shape, sorted(g.collect_params().keys())[:4], len(list(g.collect_params().keys())))
fill(g, 0.3)
print(r4(g(np.ones((5, 2, 4)))[1].sum(axis=-1)))

class LSTM(d2l.RNN):
    def __init__(self, num_hiddens):
        d2l.Module.__init__(self)
        self.save_hyperparameters()
        self.rnn = rnn.LSTM(num_hiddens)

    def forward(self, inputs, H_C=None):
        if H_C is None:
            H_C = self.rnn.begin_state(inputs.shape[1], ctx=inputs.ctx)
        return self.rnn(inputs, H_C)

lstm = LSTM(num_hiddens=6)
lstm.initialize()
out, (H, C) = lstm(np.ones((4, 3, 5)))
print(out.shape, H.shape, C.shape)
fill(lstm, 0.3)
out, (H, C) = lstm(np.ones((4, 3, 5)))
print(r4(H.sum(axis=-1)), r4(C.sum(axis=-1)))
model = d2l.RNNLM(LSTM(num_hiddens=8), vocab_size=V, lr=1)
model(data.X[:2])
fill(model, 0.3)
print(model(data.X[:2]).shape, r4(model.loss(model(data.X[:2]), data.Y[:2])))

print('== Encoder-decoder: Seq2Seq, attention decoder')
class Seq2SeqDecoder(d2l.Decoder):
    def __init__(self, vocab_size, embed_size, num_hiddens, num_layers, dropout=0):
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, embed_size)
        self.rnn = d2l.GRU(num_hiddens, num_layers, dropout)
        self.dense = nn.Dense(vocab_size, flatten=False)
        self.initialize(init.Xavier())

    def init_state(self, enc_all_outputs, *args):
        return enc_all_outputs

    def forward(self, X, state):
        embs = self.embedding(d2l.transpose(X))
        enc_output, hidden_state = state
        context = enc_output[-1]
        context = np.tile(context, (embs.shape[0], 1, 1))
        embs_and_context = d2l.concat((embs, context), -1)
        outputs, hidden_state = self.rnn(embs_and_context, hidden_state)
        outputs = d2l.swapaxes(self.dense(outputs), 0, 1)
        return outputs, [enc_output, hidden_state]

class Seq2SeqAttentionDecoder(d2l.AttentionDecoder):
    def __init__(self, vocab_size, embed_size, num_hiddens, num_layers, dropout=0):
        super().__init__()
        self.attention = d2l.AdditiveAttention(num_hiddens, dropout)
        self.embedding = nn.Embedding(vocab_size, embed_size)
        self.rnn = rnn.GRU(num_hiddens, num_layers, dropout=dropout)
        self.dense = nn.Dense(vocab_size, flatten=False)
        self.initialize(init.Xavier())

    def init_state(self, enc_outputs, enc_valid_lens):
        outputs, hidden_state = enc_outputs
        return (outputs.swapaxes(0, 1), hidden_state, enc_valid_lens)

    def forward(self, X, state):
        enc_outputs, hidden_state, enc_valid_lens = state
        X = self.embedding(X).swapaxes(0, 1)
        outputs, self._attention_weights = [], []
        for x in X:
            query = np.expand_dims(hidden_state[-1], axis=1)
            context = self.attention(query, enc_outputs, enc_outputs, enc_valid_lens)
            x = np.concatenate((context, np.expand_dims(x, axis=1)), axis=-1)
            out, hidden_state = self.rnn(x.swapaxes(0, 1), hidden_state)
            hidden_state = hidden_state[0]
            outputs.append(out)
            self._attention_weights.append(self.attention.attention_weights)
        outputs = self.dense(np.concatenate(outputs, axis=0))
        return outputs.swapaxes(0, 1), [enc_outputs, hidden_state, enc_valid_lens]

    @property
    def attention_weights(self):
        return self._attention_weights

vocab_size, embed_size, num_hiddens, num_layers = 10, 8, 16, 2
batch_size, num_steps = 4, 9
encoder = d2l.Seq2SeqEncoder(vocab_size, embed_size, num_hiddens, num_layers)
src = np.array(onp.arange(batch_size * num_steps).reshape(batch_size, num_steps) % vocab_size)
enc_outputs, enc_state = encoder(src)
print(enc_outputs.shape, enc_state.shape if hasattr(enc_state, 'shape') else [s.shape for s in enc_state])
fill(encoder, 0.3)
decoder = Seq2SeqDecoder(vocab_size, embed_size, num_hiddens, num_layers)
state = decoder.init_state(encoder(src))
dec_out, state = decoder(src, state)
print(dec_out.shape, len(state), state[1].shape if hasattr(state[1], 'shape') else len(state[1]))
model = d2l.Seq2Seq(encoder, decoder, tgt_pad=0, lr=0.005)
fill(model, 0.3)
print(model(src, src).shape, r4(model(src, src).sum(axis=(1, 2))))
print(r4(model.loss(model(src, src), src)), r4(model.accuracy(model(src, src), src)))
valid = np.array([9, 5, 3, 1])
batch = (src, src, valid, src)
pred, atts = model.predict_step(batch, d2l.cpu(), 4)
print(pred.shape, pred.dtype, r4(pred))
attn_dec = Seq2SeqAttentionDecoder(vocab_size, embed_size, num_hiddens, num_layers)
state = attn_dec.init_state(encoder(src), valid)
out, state = attn_dec(src[:, :3], state)
print(out.shape, len(attn_dec.attention_weights), attn_dec.attention_weights[0].shape)
fill(attn_dec, 0.3)
m2 = d2l.Seq2Seq(encoder, attn_dec, tgt_pad=0, lr=0.005)
pred, atts = m2.predict_step(batch, d2l.cpu(), 3, save_attention_weights=True)
print(r4(pred), len(atts), r4(atts[-1][-1][:, 0, :].sum(axis=-1)))
attempt(lambda: d2l.Encoder()(src))
attempt(lambda: d2l.Decoder().init_state(None))
attempt(lambda: d2l.AttentionDecoder().attention_weights)

print('== MaskedSoftmaxCELoss / grad_clipping / train_seq2seq / predict_seq2seq')
loss = d2l.MaskedSoftmaxCELoss()
logits = pattern((3, 4, 10), 0, 2.0)
print(r4(loss(logits, np.ones((3, 4)), np.array([4, 2, 0]))))
print(r4(loss(np.ones((3, 4, 10)), np.ones((3, 4)), np.array([4, 2, 0]))))
net = nn.Dense(2)
net.initialize(init.Constant(1.0))
with autograd.record():
    l = (net(np.ones((2, 3))) ** 2).sum()
l.backward()
d2l.grad_clipping(net, 1.0)
print(r4(net.weight.grad()), r4(net.bias.grad()))

net = nn.Dense(1, in_units=2)
net.initialize(init.One())
trainer = gluon.Trainer(net.collect_params(), 'sgd', {'learning_rate': 1.0})
for batch_size in (np.array(4), np.array(8.0), np.array([4.0]), np.array([2, 4])):
    with autograd.record():  # train_seq2seq steps by a token count: a 0-d array
        l = net(np.ones((4, 2))).sum()
    l.backward()
    attempt(lambda: trainer.step(batch_size))
print(r4(net.weight.data()), r4(net.bias.data()))

class Seq2SeqLegacy(d2l.EncoderDecoder):
    """The encoder-decoder as train_seq2seq calls it: returns the decoder's output and state."""
    def forward(self, enc_X, dec_X, *args):
        enc_outputs = self.encoder(enc_X, *args)
        return self.decoder(dec_X, self.decoder.init_state(enc_outputs, *args))

sv = d2l.Vocab([['a', 'b', 'c', 'd']] * 2, reserved_tokens=['<pad>', '<bos>', '<eos>'])
lines = [['a', 'b'], ['b', 'c', 'd'], ['d'], ['a', 'c', 'c', 'b']]
arr, vl = d2l.build_array_nmt(lines, sv, 5)
it = d2l.load_array((arr, vl, arr, vl), 2, is_train=False)
net = Seq2SeqLegacy(d2l.Seq2SeqEncoder(len(sv), 8, 16, 1), Seq2SeqDecoder(len(sv), 8, 16, 1))
_, text = quiet(d2l.train_seq2seq, net, it, 0.005, 2, sv, d2l.cpu())
print(text.strip().splitlines()[-1].startswith('loss '))
fill(net, 0.3)
print(d2l.predict_seq2seq(net, 'a b', sv, sv, 5, d2l.cpu()))

print('== BERT blocks')
tokens, segments = d2l.get_tokens_and_segments(['this', 'movie'], ['is', 'great'])
print(tokens, segments)
bert = d2l.BERTModel(vocab_size=20, num_hiddens=8, ffn_num_hiddens=16, num_heads=2, num_blks=2,
                     dropout=0.2, max_len=16)
bert.initialize()
toks = np.array(onp.arange(16).reshape(2, 8) % 20)
segs = np.array([[0, 0, 0, 0, 1, 1, 1, 1], [0, 0, 0, 1, 1, 1, 1, 1]])
enc, mlm, nsp = bert(toks, segs, np.array([8, 6]), np.array([[1, 5, 2], [6, 1, 5]]))
print(enc.shape, mlm.shape, nsp.shape, bert(toks, segs)[1])
print(len(list(bert.collect_params().keys())), sorted(bert.collect_params().keys())[:3])
fill(bert, 0.3)
enc, mlm, nsp = bert(toks, segs, np.array([8, 6]), np.array([[1, 5, 2], [6, 1, 5]]))
print(r4(enc.sum(axis=-1)), r4(nsp))

print('== train_ch11 / train_concise_ch11 on fixed data')
feats = np.array(onp.cos(onp.arange(100 * 5) * 0.3).reshape(100, 5).astype('float32'))
labels = np.dot(feats, np.array([0.5, -1.0, 0.2, 0.0, 0.3])) + 0.1
it = d2l.load_array((feats, labels), 10, is_train=True)
def sgd(params, states, hyperparams):
    for p in params:
        p[:] -= hyperparams['lr'] * p.grad
(times, losses), text = quiet(d2l.train_ch11, sgd, None, {'lr': 0.1}, it, 5, num_epochs=2)
print(text.strip().splitlines()[-1].startswith('loss: '), len(times), len(losses), r4(losses[-1]) < 0.5)
_, text = quiet(d2l.train_concise_ch11, 'sgd', {'learning_rate': 0.05}, it)
print(text.strip().splitlines()[-1].startswith('loss: '))
d2l.plt.close('all')
