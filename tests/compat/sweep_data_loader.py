import os, random, tempfile, warnings
import numpy as np
import mxnet as mx
from mxnet import gluon, nd, recordio
from mxnet.gluon.data import (ArrayDataset, SimpleDataset, DataLoader, RecordFileDataset, Dataset,
                              SequentialSampler, RandomSampler, BatchSampler, FilterSampler, Sampler)

warnings.simplefilter('ignore')


def attempt(f):
    try:
        r = f()
        print('ok', r)
    except Exception as e:
        print(type(e).__name__)


def seed(n):
    random.seed(n)
    np.random.seed(n)
    mx.random.seed(n)


def show(b):
    """A batch as (type, shape, dtype, values) nested like the batch."""
    if isinstance(b, (list, tuple)):
        return [type(b).__name__] + [show(x) for x in b]
    if isinstance(b, nd.NDArray):
        return (type(b).__name__, b.shape, np.dtype(b.dtype).name, b.context.device_type, b.asnumpy().tolist())
    return (type(b).__name__, b)


X = nd.arange(24).reshape((12, 2))
Y = nd.arange(12)
ds = ArrayDataset(X, Y)

# shuffling: seeded numpy / mx.random give the same orders
for s in (0, 1):
    seed(s)
    dl = DataLoader(ds, batch_size=5, shuffle=True)
    print(s, [b[1].asnumpy().astype(int).tolist() for b in dl], [b[1].asnumpy().astype(int).tolist() for b in dl])
seed(3)
print(list(RandomSampler(8)), list(RandomSampler(8)))
np.random.seed(3)
print(list(RandomSampler(8)), list(RandomSampler(5)))

# last_batch with shuffle and rollover across epochs
seed(4)
dl = DataLoader(ds, batch_size=5, shuffle=True, last_batch='rollover')
for epoch in range(3):
    print(epoch, len(dl), [b[1].asnumpy().astype(int).tolist() for b in dl])
for last in ('keep', 'discard', 'rollover'):
    dl = DataLoader(SimpleDataset(list(range(7))), batch_size=3, last_batch=last)
    print(last, len(dl), [b.asnumpy().tolist() for b in dl], len(dl), [b.asnumpy().tolist() for b in dl])
print(len(DataLoader(ds, batch_size=12)), len(DataLoader(ds, batch_size=13)), len(DataLoader(ds, batch_size=13, last_batch='discard')))
attempt(lambda: len(DataLoader(ds, batch_size=3, last_batch='drop')))
attempt(lambda: DataLoader(ds, batch_size=3, batch_sampler=BatchSampler(SequentialSampler(12), 3)))
attempt(lambda: DataLoader(ds, batch_sampler=BatchSampler(SequentialSampler(12), 3), last_batch='keep'))
attempt(lambda: DataLoader(ds, batch_sampler=BatchSampler(SequentialSampler(12), 3), shuffle=True))
attempt(lambda: len(DataLoader(ds, batch_size=2, sampler=SequentialSampler(5))))

# samplers
print(list(SequentialSampler(4, 2)), len(SequentialSampler(4, 2)))
print(list(FilterSampler(lambda x: x[1] > 8, ds)), len(FilterSampler(lambda x: x[1] > 8, ds)))
print(list(BatchSampler(SequentialSampler(0), 2)), len(BatchSampler(SequentialSampler(0), 2)))
bs = BatchSampler(SequentialSampler(5), 2, 'rollover')
print(len(bs), list(bs), len(bs), list(bs), len(bs), list(bs))
print(isinstance(RandomSampler(3), Sampler), isinstance(bs, Sampler))


class Evens(Sampler):
    def __init__(self, n):
        self._n = n

    def __iter__(self):
        return iter(range(0, self._n, 2))

    def __len__(self):
        return (self._n + 1) // 2


from mxnet.gluon.contrib.data import IntervalSampler
for args in ((10, 3), (9, 3), (5, 1), (2, 5), (0, 2), (7, 7), (7, 7, False), (10, 3, False)):
    attempt(lambda: list(IntervalSampler(*args)))
print(len(IntervalSampler(10, 3)), len(IntervalSampler(7, 7)))
print([b[1].asnumpy().tolist() for b in DataLoader(ds, batch_size=4, sampler=IntervalSampler(12, 5))])
dl = DataLoader(ds, batch_size=4, sampler=Evens(12))
print(len(dl), [b[1].asnumpy().tolist() for b in dl])
dl = DataLoader(ds, batch_sampler=[[0, 1], [5], [11, 10, 9]])
print([show(b[1]) for b in dl])

# default batchify on samples of many kinds
cases = {
    'ints': SimpleDataset([1, 2, 3]),
    'floats': SimpleDataset([1.5, 2.0, 3.25]),
    'np_f64': SimpleDataset([np.array([1.0, 2.0]), np.array([3.0, 4.0])]),
    'np_i32': SimpleDataset([np.array([1, 2], dtype=np.int32), np.array([3, 4], dtype=np.int32)]),
    'np_u8': SimpleDataset(np.arange(6, dtype=np.uint8).reshape(3, 2)),
    'nd': SimpleDataset([nd.array([1, 2]), nd.array([3, 4])]),
    'nd_int': SimpleDataset([nd.array([1, 2], dtype='int32'), nd.array([3, 4], dtype='int32')]),
    'tuples': SimpleDataset([(np.array([1.0]), 0), (np.array([2.0]), 1)]),
    'nested': SimpleDataset([(nd.array([1.0]), (1, 2.5)), (nd.array([2.0]), (3, 4.5))]),
    'lists': SimpleDataset([[1, 2], [3, 4]]),
    'bools': SimpleDataset([True, False]),
    'np_scalars': SimpleDataset([np.float32(1.5), np.float32(2.5)]),
}
for name, d in cases.items():
    attempt(lambda: show(next(iter(DataLoader(d, batch_size=2)))))
    attempt(lambda: show(next(iter(DataLoader(d, batch_size=2, num_workers=2, thread_pool=True)))))
attempt(lambda: show(next(iter(DataLoader(SimpleDataset([nd.array([1, 2]), nd.array([3])]), batch_size=2)))))
attempt(lambda: show(next(iter(DataLoader(SimpleDataset(['a', 'b']), batch_size=2)))))

# ArrayDataset with mixed inputs
mixed = ArrayDataset(np.arange(8).reshape(4, 2).astype('float32'), nd.arange(4) * 2, [10, 20, 30, 40],
                     SimpleDataset([0.5, 1.5, 2.5, 3.5]), nd.arange(8).reshape(4, 2))
s = mixed[1]
print(len(mixed), len(s), [type(v).__name__ for v in s], [getattr(v, 'dtype', None) for v in s])
print([show(x) for x in next(iter(DataLoader(mixed, batch_size=3)))])
print([show(x) for x in next(iter(DataLoader(mixed, batch_size=3, num_workers=1, thread_pool=True)))])
single = ArrayDataset(nd.arange(4))
print(type(single[0]).__name__, single[0], show(next(iter(DataLoader(single, batch_size=2)))))
single2 = ArrayDataset(nd.arange(6).reshape(3, 2))
print(type(single2[0]).__name__, show(next(iter(DataLoader(single2, batch_size=2)))))
print(type(ArrayDataset(np.arange(3))[0]).__name__)
attempt(lambda: ArrayDataset(np.arange(3), np.arange(4)))
attempt(lambda: ArrayDataset())
attempt(lambda: ds[12])
attempt(lambda: SimpleDataset([1, 2])[5])
print(show(ds[-1][0]), ds[-1][1])

# dataset methods
sd = SimpleDataset(list(range(10)))
print(list(sd.take(3)), len(sd.take(20)), list(sd.take(None))[-1], len(sd.take(0)))
print([list(sd.shard(3, i)) for i in range(3)], [len(sd.shard(4, i)) for i in range(4)])
attempt(lambda: sd.shard(3, 3))
attempt(lambda: sd.shard(0, 0))
print(list(sd.filter(lambda x: x % 3 == 0)), len(sd.filter(lambda x: x > 100)))
print(list(sd.filter(lambda x: x % 2 == 0).take(3).shard(2, 1)))
print(list(sd.sample(SequentialSampler(3, 4))), len(sd.sample(BatchSampler(SequentialSampler(4), 2))))
attempt(lambda: sd.sample([1, 2]))
seed(5)
print(list(sd.sample(RandomSampler(10))))
print([show(b) for b in DataLoader(sd.filter(lambda x: x > 6), batch_size=2)])

# transform: lazy vs eager, tuple unpacking, random functions
calls = []


def note(x, y):
    calls.append(int(y))
    return x * 2, y + 100


t = ds.transform(note)
print(len(t), calls)
print(show(t[3][0]), t[3][1], calls)
te = ds.transform(note, lazy=False)
print(type(te).__name__, len(calls), show(te[3][0]), te[3][1], len(calls))
seed(6)
rnd = SimpleDataset([0, 0, 0]).transform(lambda x: x + np.random.randint(100))
print([rnd[0] for _ in range(3)])
seed(6)
rnd = SimpleDataset([0, 0, 0]).transform(lambda x: x + np.random.randint(100), lazy=False)
print([rnd[0] for _ in range(3)], list(rnd))
tf = ds.transform_first(lambda x: x.sum())
print(show(tf[2][0]), tf[2][1], type(tf[2]).__name__)
tf1 = SimpleDataset([1, 2, 3]).transform_first(lambda x: x * 10)
print(tf1[1], list(tf1), list(SimpleDataset([1, 2]).transform_first(lambda x: -x, lazy=False)))
print([show(b) for b in DataLoader(tf, batch_size=6)])
chain = ds.transform_first(lambda x: x + 1).transform(lambda x, y: (x, y, y + y))
print(len(chain[0]), show(chain[0][0]), chain[0][1:])
print([show(b) for b in DataLoader(chain.take(4), batch_size=4)])

# custom batchify_fn, threads, pin_memory, prefetch
def pairs(samples):
    return [s[1] for s in samples]


print(list(DataLoader(ds, batch_size=5, batchify_fn=pairs)))
print(list(DataLoader(ds, batch_size=5, batchify_fn=pairs, num_workers=2, thread_pool=True)))
for kw in (dict(num_workers=2, thread_pool=True), dict(num_workers=3, thread_pool=True, prefetch=1),
           dict(num_workers=2, thread_pool=True, prefetch=0), dict(pin_memory=True),
           dict(num_workers=2, thread_pool=True, pin_memory=True), dict(num_workers=0, prefetch=5)):
    dl = DataLoader(ds, batch_size=5, **kw)
    out = [b[1].asnumpy().tolist() for b in dl]
    first = next(iter(dl))
    print(sorted(kw.items()), len(dl), out, first[0].context, first[1].context)
seed(7)
a = [b[1].asnumpy().tolist() for b in DataLoader(ds, batch_size=4, shuffle=True, num_workers=2, thread_pool=True)]
seed(7)
b = [b[1].asnumpy().tolist() for b in DataLoader(ds, batch_size=4, shuffle=True)]
print(a == b, a)
attempt(lambda: DataLoader(ds, batch_size=2, num_workers=-1)._num_workers)
attempt(lambda: type(DataLoader(ds, batch_size=2, num_workers=1.5)).__name__)
attempt(lambda: type(DataLoader(ds, batch_size=2, timeout=0)).__name__)
print(show(next(iter(DataLoader(np.arange(6).reshape(3, 2), batch_size=2)))))
print(show(next(iter(DataLoader(nd.arange(6).reshape(3, 2), batch_size=2)))))
print(show(next(iter(DataLoader([1, 2, 3], batch_size=2)))))


# a user Dataset subclass
class Squares(Dataset):
    def __len__(self):
        return 5

    def __getitem__(self, i):
        return nd.array([i * i]), i


sq = Squares()
print([show(b) for b in DataLoader(sq, batch_size=2)])
print(list(sq.take(2))[1][1], len(sq.shard(2, 0)), sq.transform_first(lambda x: x * 0 + 1)[4][0].asnumpy().tolist())

# RecordFileDataset
tmp = tempfile.mkdtemp()
rec, idx = os.path.join(tmp, 'd.rec'), os.path.join(tmp, 'd.idx')
w = recordio.MXIndexedRecordIO(idx, rec, 'w')
for i in (3, 1, 2):
    w.write_idx(i, recordio.pack(recordio.IRHeader(0, float(i), i, 0), b'payload%d' % i))
w.close()
rd = RecordFileDataset(rec)
print(len(rd), [recordio.unpack(rd[i]) for i in range(len(rd))], type(rd[0]).__name__)
print(recordio.unpack(rd[-1])[1])
attempt(lambda: rd[3])
print([recordio.unpack(x)[0].label for x in rd.transform(lambda x: x)])
print(list(DataLoader(rd, batch_size=2, batchify_fn=lambda s: [recordio.unpack(x)[1] for x in s])))
attempt(lambda: RecordFileDataset(os.path.join(tmp, 'missing.rec')))
