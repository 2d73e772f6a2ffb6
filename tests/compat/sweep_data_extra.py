import random, warnings
import numpy as np
import mxnet as mx
from mxnet import gluon, nd
from mxnet.gluon.data import ArrayDataset, SimpleDataset, DataLoader, SequentialSampler, BatchSampler
from mxnet.gluon.data.dataloader import default_batchify_fn, default_mp_batchify_fn
from mxnet.gluon.data.vision import transforms as T

warnings.simplefilter('ignore')


def attempt(f):
    try:
        r = f()
        print('ok', r)
    except Exception as e:
        print(type(e).__name__)


def show(b):
    if isinstance(b, (list, tuple)):
        return [type(b).__name__] + [show(x) for x in b]
    if isinstance(b, (nd.NDArray, mx.np.ndarray)):
        return (type(b).__name__, b.shape, np.dtype(b.dtype).name, b.context.device_type, b.asnumpy().tolist())
    return (type(b).__name__, b)


# the batchify functions called directly
print(show(default_batchify_fn([np.array([1, 2]), np.array([3, 4])])))
print(show(default_batchify_fn([nd.array([1, 2]), nd.array([3, 4])])))
print(show(default_batchify_fn([(1, 2.0), (3, 4.0)])))
print(show(default_batchify_fn([[1, 2], [3, 4]])))
print(show(default_batchify_fn([3])))
print(show(default_mp_batchify_fn([np.array([1.5]), np.array([2.5])])))
print(show(default_mp_batchify_fn([(nd.array([1]), 2)])))
attempt(lambda: show(default_batchify_fn([])))
attempt(lambda: show(default_batchify_fn([{'a': 1}, {'a': 2}])))

# loaders over plain containers
print([show(b) for b in DataLoader(np.arange(5, dtype='float16'), batch_size=2)])
print([show(b) for b in DataLoader(nd.arange(5), batch_size=3)])
print([show(b) for b in DataLoader([(1, 2), (3, 4), (5, 6)], batch_size=2)])
print([show(b) for b in DataLoader(list('abc'), batch_size=2, batchify_fn=list)])
print([show(b) for b in DataLoader(ArrayDataset(list(range(5))), batch_size=2)])
dl = DataLoader(SimpleDataset(list(range(6))), batch_sampler=BatchSampler(SequentialSampler(6), 4, 'rollover'))
print(len(dl), [b.asnumpy().tolist() for b in dl], len(dl), [b.asnumpy().tolist() for b in dl])

# partially consumed and interleaved epochs
dl = DataLoader(SimpleDataset(list(range(7))), batch_size=2)
it1 = iter(dl)
print(next(it1).asnumpy().tolist())
it2 = iter(dl)
print(next(it2).asnumpy().tolist(), next(it1).asnumpy().tolist(), [b.asnumpy().tolist() for b in it2])
print([b.asnumpy().tolist() for b in it1])
dlw = DataLoader(SimpleDataset(list(range(7))), batch_size=2, num_workers=2, thread_pool=True)
it = iter(dlw)
print(next(it).asnumpy().tolist(), len(dlw), [b.asnumpy().tolist() for b in dlw], [b.asnumpy().tolist() for b in it])

# transforms returning several values, dicts and None
tr = SimpleDataset(list(range(4))).transform(lambda x: (x, x * 1.5, np.array([x, -x])))
print([show(b) for b in DataLoader(tr, batch_size=4)])
tr = SimpleDataset([(1, 2), (3, 4)]).transform(lambda a, b: a + b)
print(list(tr), show(next(iter(DataLoader(tr, batch_size=2)))))
tr = SimpleDataset([(1, 2, 3), (4, 5, 6)]).transform_first(lambda a: a * 100)
print(list(tr), show(next(iter(DataLoader(tr, batch_size=2)))))
attempt(lambda: SimpleDataset([1, 2]).transform(lambda a, b: a)[0])

# image batch through a transform pipeline with workers
imgs = nd.array((np.arange(4 * 6 * 6 * 3).reshape(4, 6, 6, 3) * 3) % 256, dtype='uint8')
pipe = T.Compose([T.Resize(4, interpolation=0), T.ToTensor(), T.Normalize((0.5, 0.4, 0.3), (0.2, 0.2, 0.2))])
ds = ArrayDataset(imgs, np.array([3, 1, 4, 1], dtype='int32')).transform_first(pipe)
for kw in ({}, dict(num_workers=2, thread_pool=True), dict(num_workers=1, thread_pool=True, pin_memory=True)):
    x, y = next(iter(DataLoader(ds, batch_size=4, **kw)))
    print(x.shape, x.dtype, y.dtype, y.asnumpy().tolist(), round(float(x.sum().asscalar()), 2), x.context, y.context)
print(show(T.ToTensor()(nd.ones((2, 2, 1), dtype='uint8') * 255)))
print(show(T.ToTensor()(nd.ones((2, 2, 3), dtype='int32') * 51)))
attempt(lambda: show(T.Normalize(0.5, 0.5)(nd.ones((3, 2, 2), dtype='uint8'))))
attempt(lambda: show(T.Normalize(0.5, 0.5)(nd.ones((2, 2), dtype='float32'))))
print(show(T.Normalize(1.0, 2.0)(nd.ones((1, 1, 2), dtype='float64'))))
print(show(T.Cast('int8')(nd.array([[[1.7, -2.2]]]))))
print(show(T.Resize((3, 2), keep_ratio=True, interpolation=0)(nd.ones((4, 8, 1), dtype='uint8'))))
print(show(T.Resize(2, interpolation=0)(nd.ones((4, 8, 1), dtype='float32') * 2)))
print(show(T.CenterCrop(2)(nd.arange(16).reshape((4, 4, 1)))))

# np mode: samples and batches are mx.np arrays
mx.npx.set_np()
ds = ArrayDataset(mx.np.arange(6).reshape(3, 2), mx.np.array([0, 1, 2]))
print(type(ds[0][0]).__name__, type(ds[0][1]).__name__)
print([show(b) for b in DataLoader(ds, batch_size=2)])
print([show(b) for b in DataLoader(SimpleDataset([1, 2, 3]), batch_size=2)])
print(show(T.ToTensor()(mx.np.ones((2, 2, 3), dtype='uint8'))))
mx.npx.reset_np()

# exact values: every uint8 level through ToTensor and Normalize, on the device and through a DataLoader
levels = nd.array(np.arange(256).reshape(16, 16, 1), dtype='uint8')
print(T.ToTensor()(levels).asnumpy().ravel().tolist())
print(nd.image.to_tensor(levels).asnumpy().ravel()[::7].tolist())
print(T.Normalize(0.3, 0.7)(T.ToTensor()(levels)).asnumpy().ravel()[::5].tolist())
print(nd.image.normalize(T.ToTensor()(levels), mean=0.1, std=0.3).asnumpy().ravel()[::9].tolist())
rgb = nd.array(np.arange(96).reshape(4, 8, 3) * 2, dtype='uint8')
print(T.Normalize((0.1, 0.2, 0.3), (0.3, 0.7, 0.9))(T.ToTensor()(rgb)).asnumpy().ravel()[::3].tolist())
lds = ArrayDataset(nd.stack(levels, levels[::-1]), np.array([0, 1])).transform_first(
    T.Compose([T.ToTensor(), T.Normalize(0.3, 0.7)]))
print(next(iter(DataLoader(lds, batch_size=2)))[0].asnumpy().ravel()[::11].tolist())
