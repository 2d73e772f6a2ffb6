"""``mx.profiler``: MXNet 1.x's profiler, for gluonjax's own operator calls.

While the profiler runs (``set_state('run')``, not paused), every eager operator call
(``invoke``), every compiled helper call (``apply_fn``: indexing, transforms), each call of a
hybridized block (``_CachedOp``, MXNet's name for it) and each ``backward()`` pass
(``backward``) is timed: the recorder waits for the call's outputs, so an event's duration is
the operator's run time, as MXNet's engine reports it, not jax's asynchronous dispatch time.
Off, the cost is one test of ``ndarray.profiler_hook`` per call.

What is recorded goes two ways, as in MXNet:

* ``dump()`` writes the Chrome trace-event JSON MXNet writes (``{"traceEvents": [...],
  "displayTimeUnit": "ms"}``), which chrome://tracing and https://ui.perfetto.dev open:
  operators and ``Event``/``Frame`` ranges are complete events (``ph: "X"`` with ``dur``),
  ``Task`` ranges are asynchronous events (``b``/``e``), ``Counter`` values are ``C`` events and
  ``Marker`` marks are instant events (``i``); ``pid`` is the process, ``tid`` the thread.
* ``dumps()`` returns MXNet's aggregate table (or its JSON form) when ``aggregate_stats=True``:
  count, total, min, max and average milliseconds per name, grouped by domain (``operator``,
  ``event``, a ``Domain``'s name, ``<domain>,frame``, ``Custom Operator``), and the memory
  the operators allocated (``profile_memory``).

gluonjax has no C API and no engine, so MXNet's ``MXNET_C_API`` domain and its engine events
(``WaitForVar``, ``DeleteVariable``) do not appear. A hybridized block, a bound executor and
a backward pass run their whole graph as one compiled program: their operators are not timed
one by one (an executor's forward and backward are not recorded).

``set_config(jax_trace_dir=folder)`` (a gluonjax addition) also runs ``jax.profiler``'s trace
into ``folder`` between ``set_state('run')`` and ``set_state('stop')``: XLA's own view of the
compiled programs and the device, for TensorBoard's profile plugin or Perfetto.
"""
import atexit
import contextlib
import json
import os
import threading
import time
import warnings

import jax

from ._files import atomic_write
from .base import MXNetError
from .ndarray import ndarray as _ndarray

__all__ = ['set_config', 'set_state', 'dump', 'dumps', 'pause', 'resume', 'scope', 'Domain', 'Task',
           'Frame', 'Event', 'Counter', 'Marker', 'profiler_set_config', 'profiler_set_state',
           'dump_profile', 'set_kvstore_handle']

# MXNet's ProfileConfig parameters with their defaults, and gluonjax's jax_trace_dir.
_DEFAULT_CONFIG = {
    'profile_all': False, 'profile_symbolic': True, 'profile_imperative': True, 'profile_memory': True,
    'profile_api': True, 'filename': 'profile.json', 'continuous_dump': True, 'dump_period': 1.0,
    'aggregate_stats': False, 'profile_process': 'worker', 'jax_trace_dir': None,
}
_SORT_KEYS = {'total': 'Total', 'avg': 'Avg', 'min': 'Min', 'max': 'Max', 'count': 'Count'}
_MARKER_SCOPES = {'global': 'g', 'process': 'p', 'thread': 't', 'task': 't', 'marker': 't'}
_CUSTOM_DOMAIN = 'Custom Operator'


def _now_us():
    return time.perf_counter_ns() / 1000.0


class _Stat:
    """Count, total, min and max of one name's durations (or allocation sizes)."""
    __slots__ = ('count', 'total', 'min', 'max')

    def __init__(self):
        self.count, self.total, self.min, self.max = 0, 0.0, float('inf'), 0.0

    def add(self, value):
        self.count += 1
        self.total += value
        if value < self.min:
            self.min = value
        if value > self.max:
            self.max = value


class _Recorder:
    """The profiler's state: its configuration, the trace events, the aggregate statistics."""

    def __init__(self):
        self.config = dict(_DEFAULT_CONFIG)
        self.running = False
        self.paused = False
        # trace events as tuples (phase, domain, name, start in us, thread, detail), the detail
        # being the duration (X), the async id (b/e), the value (C) or the scope (i)
        self.events = []
        self.written = []       # the JSON text of events[:len(written)], kept from dump to dump
        self.time_stats = {}    # domain -> {name: _Stat} of durations in microseconds
        self.memory_stats = {}  # 'Device Storage' -> {'Memory: cpu/0': _Stat} of sizes in bytes
        self.custom = None      # 'MyOp::' while a Custom operator's Python forward runs
        self.scope = ''         # the name prefix of profiler.scope
        self.jax_tracing = False
        self.pid = os.getpid()
        self.origin_us = _now_us()  # trace times count from here

    @property
    def recording(self):
        return self.running and not self.paused

    def install(self):
        """Point the eager dispatch at this recorder while recording imperative operators."""
        config = self.config
        want = self.recording and (config['profile_imperative'] or config['profile_all'])
        _ndarray.profiler_hook = self if want else None

    # ---- called by ndarray.invoke and apply_fn -------------------------------------------
    @staticmethod
    def start():
        return _now_us()

    def operator(self, name, started, outs):
        jax.block_until_ready(outs)
        duration = _now_us() - started
        if self.custom is not None:
            domain, name = _CUSTOM_DOMAIN, self.custom + name
        else:
            domain, name = 'operator', self.scope + name
        self.complete(domain, name, started, duration)
        if self.config['profile_memory'] or self.config['profile_all']:
            self.allocated(outs)

    # ---- what every kind of event adds ---------------------------------------------------
    def complete(self, domain, name, started, duration):
        self.events.append(('X', domain, name, started, threading.get_ident(), duration))
        self.add_time(domain, name, duration)

    def add_time(self, domain, name, duration):
        if self.config['aggregate_stats']:
            stats = self.time_stats.setdefault(domain, {})
            stat = stats.get(name)
            if stat is None:
                stat = stats[name] = _Stat()
            stat.add(duration)

    def allocated(self, outs):
        if not self.config['aggregate_stats']:
            return
        for out in outs:
            if out is None:  # a backward pass gives None for an input without a gradient
                continue
            device = next(iter(out.devices()))
            key = 'Memory: %s/%d' % (device.platform, device.id)
            storage = self.memory_stats.setdefault('Device Storage', {})
            storage.setdefault(key, _Stat()).add(out.nbytes)

    def instant(self, phase, domain, name, detail):
        self.events.append((phase, domain, name, _now_us(), threading.get_ident(), detail))


_recorder = _Recorder()


# ---- configuration and state -------------------------------------------------------------
def set_config(**kwargs):
    """Configure the profiler (MXNet's ``profiler.set_config``).

    Keywords: ``profile_all``, ``profile_symbolic``, ``profile_imperative``,
    ``profile_memory``, ``profile_api``, ``filename``, ``continuous_dump``, ``dump_period``,
    ``aggregate_stats``, ``profile_process``; and gluonjax's ``jax_trace_dir`` (a folder for
    ``jax.profiler``'s device trace, None for none).
    """
    unknown = sorted(set(kwargs) - set(_DEFAULT_CONFIG))
    if unknown:
        raise MXNetError("profiler.set_config: cannot find argument %r; possible arguments: %s"
                         % (unknown[0], ', '.join(sorted(_DEFAULT_CONFIG))))
    if kwargs.get('profile_process', 'worker') not in ('worker', 'server'):
        raise MXNetError("profiler.set_config: profile_process must be 'worker' or 'server', got %r"
                         % kwargs['profile_process'])
    _check_process(kwargs.get('profile_process', 'worker'))
    _recorder.config.update(kwargs)
    _recorder.install()


def _check_process(profile_process):
    if profile_process == 'server':
        raise NotImplementedError('profiler: profiling a kvstore server process is not supported by '
                                  'gluonjax (its KVStore has no separate server process)')
    if profile_process != 'worker':
        raise KeyError(profile_process)


def set_state(state='stop', profile_process='worker'):
    """Start (``'run'``) or stop (``'stop'``) recording."""
    _check_process(profile_process)
    if state not in ('run', 'stop'):
        raise KeyError(state)
    running = state == 'run'
    if running and not _recorder.running:
        _write_at_exit()
    _recorder.running = running
    _recorder.paused = False  # as in MXNet, a state change ends a pause
    _recorder.install()
    _jax_trace(running)


_exit_hook = []


def _write_at_exit():
    """As MXNet does, write the events no dump() wrote when the process ends."""
    if not _exit_hook:
        _exit_hook.append(atexit.register(_dump_pending))


def _dump_pending():
    if _recorder.events and len(_recorder.written) < len(_recorder.events):
        dump(finished=True)


def _jax_trace(running):
    folder = _recorder.config['jax_trace_dir']
    if running and folder and not _recorder.jax_tracing:
        jax.profiler.start_trace(folder)
        _recorder.jax_tracing = True
    elif not running and _recorder.jax_tracing:
        jax.profiler.stop_trace()
        _recorder.jax_tracing = False


def pause(profile_process='worker'):
    """Stop recording until :func:`resume`; the configuration and the state stay."""
    _check_process(profile_process)
    _recorder.paused = True
    _recorder.install()


def resume(profile_process='worker'):
    """Record again after :func:`pause`."""
    _check_process(profile_process)
    _recorder.paused = False
    _recorder.install()


def _deprecated(old, new):
    """MXNet's UserWarning for its old profiler names (a UserWarning, so scripts show it)."""
    warnings.warn('profiler.%s() is deprecated. Please use profiler.%s() instead' % (old, new),
                  stacklevel=3)


def profiler_set_config(mode='symbolic', filename='profile.json'):
    """MXNet's deprecated form of :func:`set_config`: ``mode`` 'symbolic' or 'all'."""
    _deprecated('profiler_set_config', 'set_config')
    if mode not in ('symbolic', 'all'):
        raise MXNetError("profiler_set_config: mode must be 'symbolic' or 'all', got %r" % (mode,))
    set_config(profile_symbolic=True, profile_imperative=mode == 'all', profile_memory=mode == 'all',
               profile_api=mode == 'all', filename=filename)


def profiler_set_state(state='stop'):
    """MXNet's deprecated name of :func:`set_state`."""
    _deprecated('profiler_set_state', 'set_state')
    set_state(state)


def set_kvstore_handle(handle):
    """MXNet hands its profiler the kvstore server's handle; gluonjax has no server to profile."""


# ---- output ------------------------------------------------------------------------------
def dump(finished=True, profile_process='worker'):
    """Write the trace recorded so far to the configured ``filename`` (Chrome trace JSON).

    The file holds every event since the last ``dump(finished=True)``, so with
    ``continuous_dump`` the file grows dump after dump; ``finished=True`` also starts a new trace.
    """
    _check_process(profile_process)
    recorder = _recorder
    events, written = recorder.events, recorder.written
    # each event is turned into text once: continuous dumps of a long run rewrite the file cheaply
    threads = {}  # Python's thread ids -> 1, 2, ... in the order they appear
    for event in events:
        threads.setdefault(event[4], len(threads) + 1)
    quoted = {}  # name -> its JSON string: names repeat, quoting each once is most of the work
    written.extend(_event_text(event, recorder.origin_us, recorder.pid, threads, quoted)
                   for event in events[len(written):])
    meta = [{'name': 'process_name', 'ph': 'M', 'pid': recorder.pid, 'args': {'name': 'gluonjax'}}]
    meta += [{'name': 'thread_name', 'ph': 'M', 'pid': recorder.pid, 'tid': tid,
              'args': {'name': 'MainThread' if ident == threading.main_thread().ident else 'thread %d' % ident}}
             for ident, tid in threads.items()]
    lines = [json.dumps(e) for e in meta] + written
    text = '{"traceEvents": [\n%s\n],\n"displayTimeUnit": "ms"}\n' % ',\n'.join(lines)
    atomic_write(recorder.config['filename'], text.encode('utf-8'))
    if finished:
        recorder.events, recorder.written = [], []


_EVENT_TEXT = {
    'X': '{"name":%s,"cat":%s,"ph":"X","ts":%.3f,"pid":%d,"tid":%d,"dur":%.3f}',
    'b': '{"name":%s,"cat":%s,"ph":"b","ts":%.3f,"pid":%d,"tid":%d,"id":%d}',
    'e': '{"name":%s,"cat":%s,"ph":"e","ts":%.3f,"pid":%d,"tid":%d,"id":%d}',
    'i': '{"name":%s,"cat":%s,"ph":"i","ts":%.3f,"pid":%d,"tid":%d,"s":"%s"}',
}


def _quote(text, quoted):
    result = quoted.get(text)
    if result is None:
        result = quoted[text] = json.dumps(text)
    return result


def _event_text(event, origin, pid, threads, quoted):
    """One trace event as Chrome trace-event JSON; times in microseconds from ``origin``."""
    phase, domain, name, started, thread, detail = event
    name, domain = _quote(name, quoted), _quote(domain, quoted)
    if phase == 'C':
        value = '%d' % detail if type(detail) is int else json.dumps(detail)
        return ('{"name":%s,"cat":%s,"ph":"C","ts":%.3f,"pid":%d,"tid":%d,"args":{%s:%s}}'
                % (name, domain, started - origin, pid, threads[thread], name, value))
    return _EVENT_TEXT[phase] % (name, domain, started - origin, pid, threads[thread], detail)


def dump_profile():
    """MXNet's deprecated name of ``dump(True)``."""
    _deprecated('dump_profile', 'dump')
    dump(True)


def dumps(reset=False, format='table', sort_by='total', ascending=False):
    """The aggregate statistics (``aggregate_stats=True``) as MXNet's table or JSON; '' without.

    ``sort_by`` is 'total', 'avg', 'min', 'max' or 'count'; ``reset`` clears the statistics after.
    """
    assert format in ('table', 'json'), \
        "Invalid value provided for format: %s. Support: 'table', 'json'" % format
    assert sort_by in _SORT_KEYS, \
        "Invalid value provided for sort_by: %s. Support: 'total', 'avg', 'min', 'max', 'count'" % sort_by
    recorder = _recorder
    if not recorder.config['aggregate_stats']:
        return ''
    key = _SORT_KEYS[sort_by]
    times = {domain: _sorted_rows(stats, 1e-3, key, ascending) for domain, stats in
             sorted(recorder.time_stats.items())}
    # memory has no meaningful total: sorting by it keeps MXNet's order by count
    memory = {domain: _sorted_rows(stats, 1e-3, 'Count' if key == 'Total' else key, ascending, total=False)
              for domain, stats in sorted(recorder.memory_stats.items())}
    text = _json(times, memory) if format == 'json' else _table(times, memory)
    if reset:
        recorder.time_stats, recorder.memory_stats = {}, {}
    return text


def _sorted_rows(stats, unit, key, ascending, total=True):
    """[(name, {'Count', 'Total', 'Min', 'Max', 'Avg'})] in ``unit``s, ordered by ``key``."""
    rows = []
    for name, stat in stats.items():
        row = {'Count': stat.count}
        if total:
            row['Total'] = stat.total * unit
        row.update(Min=stat.min * unit, Max=stat.max * unit, Avg=stat.total * unit / stat.count)
        rows.append((name, row))
    rows.sort(key=lambda item: item[1][key], reverse=not ascending)
    return rows


def _short(value):
    return float('%.4g' % value) if isinstance(value, float) else value


def _json(times, memory):
    def section(domains):
        return {domain: {name: {k: _short(v) for k, v in row.items()} for name, row in rows}
                for domain, rows in domains.items()}
    return json.dumps({'Time': section(times), 'Memory': section(memory),
                       'Unit': {'Time': 'ms', 'Memory': 'kB'}}, indent=4)


def _table(times, memory):
    lines = ['', 'Profile Statistics:', '\tNote the difference in units for different entries.']
    heads = ('Min Use  (kB)', 'Max Use  (kB)', 'Avg Use  (kB)')
    for domain, rows in memory.items():
        lines += _table_section(domain, heads, [(n, r['Count'], r['Min'], r['Max'], r['Avg']) for n, r in rows])
    heads = ('Time (ms)', 'Min Time (ms)', 'Max Time (ms)', 'Avg Time (ms)')
    for domain, rows in times.items():
        lines += _table_section(domain, heads, [(n, r['Count'], r['Total'], r['Min'], r['Max'], r['Avg'])
                                                for n, r in rows])
    return '\n'.join(lines) + '\n'


def _table_section(domain, heads, rows):
    """One domain's block of MXNet's table: name, count and a 17-wide column per figure."""
    def line(name, count, cells):
        return '%-25s%16s' % (name, count) + ''.join('%17s' % c for c in cells)
    out = [domain, '=================', line('Name', 'Total Count', heads),
           line('----', '-----------', ['-' * len(h) for h in heads])]
    out += [line(name, count, ['%.4f' % v for v in values]) for name, count, *values in rows]
    return out + ['']


# ---- objects the user times --------------------------------------------------------------
class Domain:
    """A named group of tasks, frames, counters and markers (a section of ``dumps()``)."""

    def __init__(self, name):
        self.name = name

    def __str__(self):
        return self.name

    def new_task(self, name):
        return Task(self, name)

    def new_frame(self, name):
        return Frame(self, name)

    def new_counter(self, name, value=None):
        return Counter(self, name, value)

    def new_marker(self, name):
        return Marker(self, name)


class _Range:
    """A named stretch of time between start() and stop(), recorded under ``self._domain``."""

    def __init__(self, name):
        self.name = name
        self._started = None

    def start(self):
        self._started = _now_us() if _recorder.recording else None

    def stop(self):
        if self._started is None or not _recorder.recording:
            return
        duration = _now_us() - self._started
        self._record(self._started, duration)
        self._started = None

    def _record(self, started, duration):
        _recorder.complete(self._domain, self.name, started, duration)

    def __str__(self):
        return self.name


class Task(_Range):
    """A task of a Domain: an asynchronous range in the trace."""

    def __init__(self, domain, name):
        super().__init__(name)
        self.domain = domain
        self._domain = domain.name

    def _record(self, started, duration):
        recorder = _recorder
        thread = threading.get_ident()
        recorder.events.append(('b', self._domain, self.name, started, thread, id(self)))
        recorder.events.append(('e', self._domain, self.name, started + duration, thread, id(self)))
        recorder.add_time(self._domain, self.name, duration)


class Frame(_Range):
    """A frame of a Domain (an iteration, say): its own ``<domain>,frame`` section."""

    def __init__(self, domain, name):
        super().__init__(name)
        self.domain = domain
        self._domain = domain.name + ',frame'


class Event(_Range):
    """A named range outside any domain (the ``event`` section)."""
    _domain = 'event'


class Counter:
    """A value of a Domain that changes over time (a counter track in the trace)."""

    def __init__(self, domain, name, value=None):
        self.domain = domain
        self.name = name
        self._value = 0
        if value is not None:
            self.set_value(value)

    def set_value(self, value):
        self._value = value
        if _recorder.recording:
            _recorder.instant('C', self.domain.name, self.name, value)

    def increment(self, delta=1):
        self.set_value(self._value + delta)

    def decrement(self, delta=1):
        self.set_value(self._value - delta)

    def __iadd__(self, delta):
        self.increment(delta)
        return self

    def __isub__(self, delta):
        self.decrement(delta)
        return self

    def __str__(self):
        return self.name


class Marker:
    """An instant of a Domain, marked with ``mark(scope)``."""

    def __init__(self, domain, name):
        self.domain = domain
        self.name = name

    def mark(self, scope='process'):
        """Mark now; ``scope`` is 'global', 'process', 'thread', 'task' or 'marker'."""
        if scope not in _MARKER_SCOPES:
            raise MXNetError("Marker.mark: scope must be one of %s, got %r" % (', '.join(_MARKER_SCOPES), scope))
        recorder = _recorder
        if recorder.recording:
            domain = self.domain.name + ',instant_marker'
            recorder.instant('i', domain, self.name, _MARKER_SCOPES[scope])
            if recorder.config['aggregate_stats']:  # an instant has no duration: an empty section
                recorder.time_stats.setdefault(domain, {})


@contextlib.contextmanager
def scope(name='<unk>:', append_mode=False):
    """Prefix the names of the operators run inside (MXNet 2's ``profiler.scope``; not in 1.9.1).

    ``append_mode=True`` adds ``name`` after the enclosing scope's instead of replacing it.
    """
    before = _recorder.scope
    _recorder.scope = before + name if append_mode else name
    try:
        yield
    finally:
        _recorder.scope = before


@contextlib.contextmanager
def custom_operator(op_type, stage):
    """Time a Custom operator's Python ``forward``/``backward`` as ``<op_type>::pure_python``
    (``_backward_<op_type>::...`` for backward); the operators it runs are named
    ``<op_type>::<operator>``: MXNet's ``Custom Operator`` section."""
    recorder = _recorder
    if not recorder.recording:
        yield
        return
    prefix = ('_backward_%s::' if stage == 'backward' else '%s::') % op_type
    outer, recorder.custom = recorder.custom, prefix
    started = _now_us()
    try:
        yield
    finally:
        recorder.custom = outer
        recorder.complete(_CUSTOM_DOMAIN, prefix + 'pure_python', started, _now_us() - started)
