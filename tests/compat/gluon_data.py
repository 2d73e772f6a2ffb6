import numpy as np
import mxnet as mx
from mxnet import gluon, nd
from mxnet.gluon.data import ArrayDataset, SimpleDataset, DataLoader
from mxnet.gluon.data.vision import transforms

def err(f):
    try:
        f()
        print('no error')
    except Exception as e:
        print(type(e).__name__)

X = nd.arange(20).reshape((10, 2))
Y = nd.arange(10)
ds = ArrayDataset(X, Y)
print(len(ds), type(ds[0]), ds[0][0], ds[0][1], type(ds[0][1]))
for last in ['keep', 'discard', 'rollover']:
    dl = DataLoader(ds, batch_size=4, last_batch=last)
    print(last, len(dl), [(x.shape, y.asnumpy().tolist()) for x, y in dl])
    print(last, 'again', [y.asnumpy().tolist() for _, y in dl])
dl = DataLoader(ds, batch_size=3, shuffle=False)
x, y = next(iter(dl))
print(x, y, x.dtype, y.dtype)
err(lambda: DataLoader(ds))
err(lambda: DataLoader(ds, batch_size=2, sampler=gluon.data.SequentialSampler(10), shuffle=True))
# numpy inputs and lists
ds2 = ArrayDataset(np.arange(6).reshape(3, 2).astype('float32'), [1, 2, 3])
print(ds2[1], [type(v).__name__ for v in ds2[1]])
for b in DataLoader(ds2, batch_size=2):
    print(b)
sd = SimpleDataset([1, 2, 3, 4])
print(len(sd), sd[2], sd.transform(lambda x: x * 10)[3], list(sd.transform(lambda x: x + 1, lazy=False)))
pairs = SimpleDataset([(np.array([1.0, 2.0]), 0), (np.array([3.0, 4.0]), 1)])
t = pairs.transform_first(lambda x: x * 2)
print(t[1], type(t[1][0]).__name__)
print(list(DataLoader(t, batch_size=2)))
print(ds.take(3)[2] if hasattr(ds, 'take') else None)
filt = sd.filter(lambda x: x % 2 == 0)
print(len(filt), list(filt))
print(list(sd.shard(2, 1)))
# custom batchify_fn
def bf(samples):
    return nd.array([s[1] for s in samples]).sum()
print(list(DataLoader(ds, batch_size=5, batchify_fn=bf)))
# samplers
print(list(gluon.data.SequentialSampler(5)), len(gluon.data.RandomSampler(7)))
print(list(gluon.data.BatchSampler(gluon.data.SequentialSampler(7), 3, 'keep')))
print(list(gluon.data.BatchSampler(gluon.data.SequentialSampler(7), 3, 'discard')))
bs = gluon.data.BatchSampler(gluon.data.SequentialSampler(7), 3, 'rollover')
print(list(bs), list(bs), len(bs))
dl = DataLoader(ds, batch_sampler=gluon.data.BatchSampler(gluon.data.SequentialSampler(10), 6, 'keep'))
print([y.asnumpy().tolist() for _, y in dl])
# transforms
img = nd.array(np.arange(3 * 3 * 3).reshape(3, 3, 3).transpose(1, 2, 0) * 9, dtype='uint8')
tt = transforms.ToTensor()(img)
print(tt.shape, tt.dtype, tt.asnumpy().round(4).tolist())
norm = transforms.Normalize(mean=(0.5, 0.1, 0.2), std=(0.25, 0.5, 1.0))(tt)
print(norm.asnumpy().round(4).tolist())
comp = transforms.Compose([transforms.ToTensor(), transforms.Normalize(0.5, 0.5)])
print(comp(img).asnumpy().round(4)[0].tolist())
print(transforms.ToTensor()(nd.array(np.ones((2, 2, 4, 3)) * 255, dtype='uint8')).shape)
img2 = nd.array(np.arange(4 * 4 * 3).reshape(4, 4, 3), dtype='uint8')
print(transforms.Resize(2)(img2).shape, transforms.Resize((3, 2))(img2).shape)
print(transforms.CenterCrop(2)(img2).asnumpy()[:, :, 0].tolist())
print(transforms.Cast('float16')(img2).dtype)
print(comp)
print(transforms.Normalize(0.5, 0.5))
tds = ArrayDataset(nd.stack(img, img), nd.array([0, 1])).transform_first(transforms.ToTensor())
print(next(iter(DataLoader(tds, batch_size=2)))[0].shape)
# utils
parts = gluon.utils.split_data(nd.arange(10), 3, even_split=False)
print([p.asnumpy().tolist() for p in parts])
err(lambda: gluon.utils.split_data(nd.arange(10), 3))
print([p.shape for p in gluon.utils.split_data(nd.arange(2), 3, even_split=False)])
parts = gluon.utils.split_and_load(nd.arange(8).reshape((4, 2)), [mx.cpu(0), mx.cpu(1)])
print([(p.context, p.asnumpy().tolist()) for p in parts])
print(gluon.utils.split_and_load(nd.arange(4), mx.cpu())[0] if False else gluon.utils.split_and_load(nd.arange(4), [mx.cpu()]))
arrs = [nd.array([3.0, 4.0]), nd.array([[12.0]])]
n = gluon.utils.clip_global_norm(arrs, 6.5)
print(round(float(n), 5), type(n).__name__, [a.asnumpy().round(5).tolist() for a in arrs])
n = gluon.utils.clip_global_norm([nd.array([0.3, 0.4])], 1.0)
print(round(float(n), 5))
n = gluon.utils.clip_global_norm([nd.array([0.3, 0.4])], 1.0, check_isfinite=False)
print(type(n).__name__, n)
