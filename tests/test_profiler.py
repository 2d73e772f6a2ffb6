"""mx.profiler: the Chrome trace file, MXNet's aggregate table and its JSON form, the user's
Domain/Task/Frame/Event/Counter/Marker objects, pause/resume, Custom operators' sections."""
import json

import numpy as np
import pytest

import gluonjax as mx
from gluonjax import profiler
from gluonjax.base import MXNetError
from gluonjax.ndarray import ndarray as nd_module


@pytest.fixture(autouse=True)
def fresh_profiler(monkeypatch, tmp_path):
    """Each test starts with a new recorder writing into its own folder, and leaves it off."""
    monkeypatch.setattr(profiler, '_recorder', profiler._Recorder())
    monkeypatch.chdir(tmp_path)
    yield
    profiler.set_state('stop')
    assert nd_module.profiler_hook is None


def run_profiled(fn, **config):
    profiler.set_config(filename='trace.json', aggregate_stats=True, **config)
    profiler.set_state('run')
    result = fn()
    profiler.set_state('stop')
    return result


def load_trace(path='trace.json'):
    with open(path) as f:
        trace = json.load(f)
    assert trace['displayTimeUnit'] == 'ms'
    return [e for e in trace['traceEvents'] if e['ph'] != 'M']


def test_trace_file_holds_each_operator_call_with_its_duration():
    a = mx.nd.ones((3, 4))

    def work():
        b = a + a
        c = mx.nd.sqrt(b) + 1
        return c.asnumpy()
    out = run_profiled(work)
    np.testing.assert_allclose(out, np.sqrt(2.0) + 1, rtol=1e-6)
    profiler.dump()
    ops = [e for e in load_trace() if e['cat'] == 'operator']
    assert [e['name'] for e in ops if e['name'] != '__getitem__'] == ['broadcast_add', 'sqrt', '_plus_scalar']
    for e in ops:
        assert e['ph'] == 'X' and e['dur'] >= 0 and e['tid'] == 1 and isinstance(e['pid'], int)
    assert ops[0]['ts'] <= ops[1]['ts'] <= ops[2]['ts']
    # finished=True starts a new trace: nothing is recorded after the profiler stopped
    (a * 2).wait_to_read()
    profiler.dump()
    assert load_trace() == []


def test_aggregate_counts_and_mxnet_table_layout():
    x = mx.nd.zeros((5, 5))

    def work():
        mx.nd.sqrt(x)
        y = x + 1
        y = y + 1
        return y
    run_profiled(work)
    stats = json.loads(profiler.dumps(format='json'))
    assert stats['Unit'] == {'Time': 'ms', 'Memory': 'kB'}
    assert stats['Time']['operator']['sqrt']['Count'] == 1
    assert stats['Time']['operator']['_plus_scalar']['Count'] == 2
    plus = stats['Time']['operator']['_plus_scalar']
    assert plus['Min'] <= plus['Avg'] <= plus['Max'] and plus['Total'] >= plus['Max']
    # three 5x5 float32 outputs of 0.1 kB each
    assert stats['Memory']['Device Storage']['Memory: cpu/0'] == {'Count': 3, 'Min': 0.1, 'Max': 0.1, 'Avg': 0.1}
    table = profiler.dumps(reset=True).split('\n')
    assert table[1:3] == ['Profile Statistics:', '\tNote the difference in units for different entries.']
    at = table.index('operator')
    assert table[at + 2] == ('Name                          Total Count        Time (ms)    Min Time (ms)'
                             '    Max Time (ms)    Avg Time (ms)')
    row = next(line for line in table[at + 4:] if line.startswith('_plus_scalar '))
    assert row[25:41] == '%16d' % 2  # 25-wide names, 16-wide counts as in MXNet
    assert profiler.dumps() == profiler.dumps(format='table')  # reset emptied the statistics
    assert 'operator' not in profiler.dumps()


def test_dumps_sorting_and_checks():
    def work():
        for n in (1, 2, 3):
            event = profiler.Event('e%d' % n)
            for _ in range(n):
                event.start()
                event.stop()
    run_profiled(work)
    for sort_by, key in (('count', 'Count'), ('total', 'Total')):
        for ascending in (False, True):
            rows = json.loads(profiler.dumps(format='json', sort_by=sort_by, ascending=ascending))['Time']['event']
            values = [row[key] for row in rows.values()]
            assert values == sorted(values, reverse=not ascending)
    counts = json.loads(profiler.dumps(format='json', sort_by='count', ascending=True))['Time']['event']
    assert list(counts) == ['e1', 'e2', 'e3']
    with pytest.raises(AssertionError, match='sort_by'):
        profiler.dumps(sort_by='median')
    with pytest.raises(AssertionError, match='format'):
        profiler.dumps(format='xml')
    with pytest.raises(MXNetError, match='no_such_option'):
        profiler.set_config(no_such_option=True)
    with pytest.raises(KeyError):
        profiler.set_state('go')


def test_dumps_is_empty_without_aggregate_stats():
    profiler.set_config(filename='trace.json')
    profiler.set_state('run')
    (mx.nd.ones((2,)) + 1).wait_to_read()
    profiler.set_state('stop')
    assert profiler.dumps() == ''
    profiler.dump()
    assert [e['name'] for e in load_trace()] == ['_ones', '_plus_scalar']


def test_domain_objects_in_trace_and_table():
    domain = profiler.Domain('MyDomain')

    def work():
        task, frame = domain.new_task('load'), domain.new_frame('iteration')
        task.start()
        frame.start()
        frame.stop()
        task.stop()
        counter = domain.new_counter('items', 5)
        counter += 2
        counter -= 1
        counter.set_value(10)
        domain.new_marker('here').mark('global')
    run_profiled(work)
    profiler.dump(finished=False)
    events = load_trace()
    assert [(e['name'], e['ph'], e['cat']) for e in events if e['ph'] in 'be'] == \
        [('load', 'b', 'MyDomain'), ('load', 'e', 'MyDomain')]
    assert [e['args']['items'] for e in events if e['ph'] == 'C'] == [5, 7, 6, 10]
    assert [(e['name'], e['cat'], e['s']) for e in events if e['ph'] == 'i'] == \
        [('here', 'MyDomain,instant_marker', 'g')]
    frames = [e for e in events if e['cat'] == 'MyDomain,frame']
    assert [(e['name'], e['ph']) for e in frames] == [('iteration', 'X')]
    stats = json.loads(profiler.dumps(format='json'))['Time']
    assert stats['MyDomain']['load']['Count'] == 1 and stats['MyDomain,frame']['iteration']['Count'] == 1
    assert stats['MyDomain,instant_marker'] == {}
    assert str(domain) == 'MyDomain' and str(domain.new_task('t')) == 't'
    with pytest.raises(MXNetError, match='scope'):
        domain.new_marker('m').mark('galaxy')


def test_pause_resume_and_state_change_ends_a_pause():
    x = mx.nd.ones((2,))
    profiler.set_config(filename='trace.json', aggregate_stats=True)
    profiler.set_state('run')
    profiler.pause()
    assert nd_module.profiler_hook is None
    (x * 3).wait_to_read()
    profiler.resume()
    (x + 1).wait_to_read()
    profiler.pause()
    profiler.set_state('run')  # as in MXNet, set_state ends the pause
    (x - 1).wait_to_read()
    profiler.set_state('stop')
    ops = json.loads(profiler.dumps(format='json'))['Time']['operator']
    assert sorted(ops) == ['_minus_scalar', '_plus_scalar']


def test_scope_prefixes_operator_names():
    x = mx.nd.ones((2,))

    def work():
        with profiler.scope('fwd:'):
            x.exp().wait_to_read()
            with profiler.scope('inner:', append_mode=True):
                x.log().wait_to_read()
        x.sin().wait_to_read()
    run_profiled(work)
    assert sorted(json.loads(profiler.dumps(format='json'))['Time']['operator']) == \
        ['fwd:exp', 'fwd:inner:log', 'sin']


def test_custom_operator_sections():
    class Double(mx.operator.CustomOp):
        def forward(self, is_train, req, in_data, out_data, aux):
            mx.nd.zeros((2, 2))
            self.assign(out_data[0], req[0], in_data[0] * 2)

        def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
            self.assign(in_grad[0], req[0], out_grad[0] * 2)

    @mx.operator.register('ProfiledDouble')
    class DoubleProp(mx.operator.CustomOpProp):
        def list_arguments(self):
            return ['data']

        def list_outputs(self):
            return ['output']

        def infer_shape(self, in_shape):
            return in_shape, [in_shape[0]], []

        def create_operator(self, ctx, shapes, dtypes):
            return Double()

    x = mx.nd.array([1.0, 2.0])
    x.attach_grad()

    def work():
        with mx.autograd.record():
            y = mx.nd.Custom(x, op_type='ProfiledDouble')
        y.backward()
        return x.grad.asnumpy()
    np.testing.assert_array_equal(run_profiled(work), [2.0, 2.0])
    custom = json.loads(profiler.dumps(format='json'))['Time']['Custom Operator']
    assert {'ProfiledDouble::pure_python', 'ProfiledDouble::_zeros', 'ProfiledDouble::_mul_scalar',
            '_backward_ProfiledDouble::pure_python', '_backward_ProfiledDouble::_mul_scalar'} <= set(custom)


def test_continuous_dumps_grow_the_file():
    import os
    profiler.set_config(filename='trace.json', continuous_dump=True)
    profiler.set_state('run')
    sizes = []
    counter = profiler.Counter(profiler.Domain('D'), 'c')
    for i in range(3):
        for _ in range(50):
            counter += 1
        profiler.dump(finished=False)
        sizes.append(os.path.getsize('trace.json'))
    profiler.set_state('stop')
    assert sizes[0] < sizes[1] < sizes[2]
    assert len([e for e in load_trace() if e['ph'] == 'C']) == 150


def test_hybridized_calls_and_backward_passes_are_events():
    net = mx.gluon.nn.Dense(3, in_units=4)
    net.initialize(mx.init.One())
    net.hybridize()
    x = mx.nd.ones((2, 4))

    def work():
        for _ in range(2):
            with mx.autograd.record():
                y = net(x).sum()
            y.backward()
        return net.weight.grad().asnumpy()
    np.testing.assert_array_equal(run_profiled(work), np.full((3, 4), 2.0))
    ops = json.loads(profiler.dumps(format='json'))['Time']['operator']
    assert {name: ops[name]['Count'] for name in ('_CachedOp', 'backward', 'sum')} == \
        {'_CachedOp': 2, 'backward': 2, 'sum': 2}


def test_events_no_dump_wrote_are_written_at_exit():
    import os
    run_profiled(lambda: (mx.nd.ones((2,)) * 2).wait_to_read())
    profiler._dump_pending()  # what atexit runs, as MXNet writes its file when the process ends
    assert [e['name'] for e in load_trace()] == ['_ones', '_mul_scalar']
    os.remove('trace.json')
    profiler._dump_pending()  # nothing new since: no file
    assert not os.path.exists('trace.json')


def test_deprecated_names_warn_as_mxnet_does():
    """MXNet 1.9.1's old names still work and each says which name replaces it (UserWarning)."""
    with pytest.warns(UserWarning, match=r'profiler\.profiler_set_config\(\) is deprecated\. '
                                         r'Please use profiler\.set_config\(\) instead'):
        profiler.profiler_set_config(mode='all', filename='old.json')
    with pytest.warns(UserWarning, match=r'profiler_set_state\(\) is deprecated\. Please use '
                                         r'profiler\.set_state\(\)'):
        profiler.profiler_set_state('run')
    mx.nd.ones((2, 2)).wait_to_read()
    profiler.set_state('stop')
    with pytest.warns(UserWarning, match=r'dump_profile\(\) is deprecated\. Please use profiler\.dump\(\)'):
        profiler.dump_profile()
    assert any(e['name'] == '_ones' or 'ones' in e['name'] for e in load_trace('old.json'))
