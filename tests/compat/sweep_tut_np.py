"""MXNet 1.9's NumPy-front-end tutorials: crash course step 1 in its np form, packages/np
np-vs-numpy and the cheat sheet (with 1.9's ctx= in place of master's device=, cpu in place of
gpu, and the sheet's commented-out calls tried, printing the exception type where 1.9 lacks one)."""
import os
import tempfile
import numpy as onp
import mxnet as mx
from mxnet import np, npx, autograd
npx.set_np()


def attempt(label, f):
    try:
        out = f()
        if isinstance(out, (list, tuple)):
            print(label, type(out).__name__, [repr(o) for o in out])
        else:
            print(label, repr(out))
    except Exception as err:
        print(label, type(err).__name__)


print('== crash course 1 (np)')
print(repr(np.array(((1, 2, 3), (5, 6, 7)))))
x = np.ones((2, 3))
print(repr(x))
y = np.random.uniform(-1, 1, (2, 3))
print(y.shape, y.dtype, type(y).__name__)
y = np.array([[0.5, -0.25, 0.75], [-1.0, 0.125, 0.0]])
print((x.shape, x.size, x.dtype))
print(repr(x * y))
print(repr(np.exp(y).round(3)))
print(repr(np.dot(x, y.T)))
print(repr(y[1, 2]), y[1, 2].shape)
print(repr(y[:, 1:3]))
y[:, 1:3] = 2
print(repr(y))
y[1:2, 0:2] = 4
print(repr(y))
a = x.asnumpy()
print((type(a), a))
print(repr(np.array(a)))
print(y)

print('== np vs numpy')
ctx = npx.gpu() if npx.num_gpus() > 0 else npx.cpu()
a = np.array(1, ctx=ctx)
b = np.random.uniform(ctx=ctx)
print((a, b.context, b.shape))
print(a.copyto(npx.cpu()), b.as_in_context(npx.cpu()).shape)
print(onp.array([1, 2]).dtype, onp.array([1.2, 2.3]).dtype)
print(np.array([1, 2]).dtype, np.array([1.2, 2.3]).dtype)
print(np.array([1, 2], dtype='int32').dtype, np.array(onp.array([1, 2])).dtype, np.array(onp.array([1., 2.])).dtype)
a = onp.array([1, 2])
print(type(a[0]), type(a.sum()))
a = np.array([1, 2])
print(type(a[0]).__name__, type(a.sum()).__name__)
b = a[0]
print(b.ndim, b.size, isinstance(b, np.ndarray), repr(b), repr(a.sum()), float(a.sum()), b.item())
tmp = tempfile.mkdtemp()
path = os.path.join(tmp, 'a')
a = np.array(1, ctx=ctx)
npx.save(path, a)
print(npx.load(path))
npx.save(path + '_dict', {'a': a, 'b': a * 2})
print(sorted(os.listdir(tmp)))
loaded = npx.load(path + '_dict')
print(type(loaded).__name__, sorted(loaded.items()))
npx.save(path + '_list', [a, a * 3])
print(npx.load(path + '_list'))
print(np.array([1, 2]).asnumpy(), type(np.array([1, 2]).asnumpy()).__name__)

print('== cheat sheet: creation')
print(repr(np.array([1, 2, 3])))
print(repr(np.array([(1.5, 2, 3), (4, 5, 6)], dtype='float16')))
print(repr(np.array([[(15, 2, 3), (4, 5, 6)], [(3, 2, 1), (4, 5, 6)]], dtype='int32')))
print(repr(np.zeros((3, 4))))
print(repr(np.ones((2, 3, 4), dtype='int8')))
print(repr(np.arange(10, 25, 5)))
attempt('linspace', lambda: np.linspace(0, 2, 9))
attempt('full', lambda: np.full((2, 2), 7))
attempt('eye', lambda: np.eye(2))
attempt('random.random', lambda: np.random.random((2, 2)).shape)
e = np.empty((3, 2))
print(e.shape, e.dtype)

print('== cheat sheet: io')
a = np.array([1, 2, 3])
npx.save(os.path.join(tmp, 'my_array'), a)
print(npx.load(os.path.join(tmp, 'my_array')))
b = np.array([4, 6, 8])
npx.save(os.path.join(tmp, 'my_arrays'), [a, b])
print(npx.load(os.path.join(tmp, 'my_arrays')))
attempt('savetxt', lambda: np.savetxt(os.path.join(tmp, 'myarray.txt'), a, delimiter=" "))
attempt('loadtxt', lambda: np.loadtxt(os.path.join(tmp, 'myarray.txt')))
attempt('genfromtxt missing file', lambda: np.genfromtxt(os.path.join(tmp, 'myarray.txt'), delimiter=','))
with open(os.path.join(tmp, 'my_file.csv'), 'w') as fout:
    fout.write('1,2,3\n4,5,6.5\n')
attempt('genfromtxt', lambda: np.genfromtxt(os.path.join(tmp, 'my_file.csv'), delimiter=','))
attempt('genfromtxt int32', lambda: np.genfromtxt(os.path.join(tmp, 'my_file.csv'), delimiter=',', dtype='int32'))
print([getattr(np, n, 'missing') for n in ('int64', 'float32', 'int8', 'uint8', 'float16')])

print('== cheat sheet: inspect')
print(a.shape, len(a), b.ndim, b.size, b.dtype, b.dtype.name)
print(repr(b.astype('int')), repr(b.astype('int32')))

print('== cheat sheet: math')
for name, f in [('a - b', lambda: a - b), ('subtract', lambda: np.subtract(a, b)),
                ('b + a', lambda: b + a), ('add', lambda: np.add(b, a)),
                ('a / b', lambda: a / b), ('divide', lambda: np.divide(a, b)),
                ('a * b', lambda: a * b), ('multiply', lambda: np.multiply(a, b)),
                ('exp', lambda: np.exp(b).round(0)), ('sqrt', lambda: np.sqrt(b).round(4)),
                ('sin', lambda: np.sin(a).round(4)), ('cos', lambda: np.cos(b).round(4)),
                ('log', lambda: np.log(a).round(4)), ('dot', lambda: a.dot(b)),
                ('a < 2', lambda: a < 2), ('a == b', lambda: a == b),
                ('array_equal', lambda: np.array_equal(a, b)),
                ('sum', lambda: a.sum()), ('min', lambda: a.min())]:
    attempt(name, f)
c = np.array(([[1, 2, 3], [2, 3, 4]]))
attempt('max0', lambda: c.max(axis=0))
attempt('cumsum', lambda: c.cumsum(axis=1))
attempt('mean', lambda: a.mean())
attempt('median', lambda: np.median(b))
attempt('corrcoef', lambda: np.corrcoef(a, b))
attempt('std', lambda: np.std(b).round(4))

print('== cheat sheet: copy, sort, index')
attempt('view', lambda: a.view())
attempt('copy', lambda: np.copy(a))
attempt('a.copy', lambda: a.copy())
attempt('np.sort', lambda: np.sort(np.array([[3, 1], [0, 2]]), axis=0))
attempt('a[2]', lambda: a[2])
attempt('c[0,1]', lambda: c[0, 1])
attempt('a[0:2]', lambda: a[0:2])
attempt('c[0:2,1]', lambda: c[0:2, 1])
attempt('c[:1]', lambda: c[:1])
attempt('c[1,...]', lambda: c[1, ...])
attempt('a[::-1]', lambda: a[::-1])
attempt('a[a<2]', lambda: a[a < 2])
attempt('fancy', lambda: c[[1, 0, 1, 0], [0, 1, 2, 0]])
attempt('fancy rows', lambda: c[[1, 0, 1, 0]][:, [0, 1, 2, 0]])

print('== cheat sheet: manipulation')
attempt('transpose', lambda: np.transpose(c))
attempt('c.T', lambda: c.T)
attempt('ravel', lambda: np.ravel(b))
attempt('reshape', lambda: c.reshape(3, -1))
attempt('reshape -2', lambda: c.reshape(3, -2))
attempt('resize', lambda: np.resize(c, (6, 2)))
attempt('append', lambda: np.append(a, b))
attempt('insert', lambda: np.insert(a, 1, 5))
attempt('delete', lambda: np.delete(a, [1]))
attempt('concatenate', lambda: np.concatenate((a, b), axis=0))
attempt('vstack', lambda: np.vstack((a, b)))
attempt('hstack', lambda: np.hstack((a, b)))
attempt('column_stack', lambda: np.column_stack((a, b)))
attempt('hsplit', lambda: np.hsplit(a, 3))
attempt('vsplit', lambda: np.vsplit(c, 2))
attempt('split uneven', lambda: np.split(a, 2))

print('== cheat sheet: devices and autograd')
print(npx.num_gpus(), (npx.gpu(0), npx.gpu(1)), npx.cpu(), npx.current_context())
gpu_0 = npx.gpu(0) if npx.num_gpus() > 1 else npx.cpu()
g0 = np.zeros((2, 3), ctx=gpu_0)
print(repr(g0))
gpu_1 = npx.gpu(1) if npx.num_gpus() > 2 else npx.cpu(1)
g1 = np.random.uniform(size=(2, 3), ctx=gpu_1)
print(g1.context, g1.shape)
print(g1.copyto(gpu_0).context, g1.as_in_ctx(gpu_1) is g1, g1.as_in_ctx(gpu_0).context)
print((g0 + g1.copyto(gpu_0)).context)
a = np.array([1., 2., 3.])
a.attach_grad()
print(repr(a.grad))
with autograd.record():
    b = np.exp(2 * a).dot(a)
b.backward()
print(repr(b.round(2)), repr(a.grad.round(2)))
