"""The workers' roll call before ``jax.distributed`` starts, and a watchdog while they run.

``jax.distributed.initialize`` waits for missing workers and then aborts the
process (SIGABRT) without saying which worker was missing, and a worker that dies
later is only noticed after a heartbeat timeout. So before jax starts, the workers
meet over plain TCP: rank 0 listens on the rendezvous port, every other rank
connects and says its rank, and rank 0 answers ``go`` once all have arrived, or
names the missing ranks when the time is up. The connections then stay open as
a watchdog: when a worker's process ends without saying goodbye (a crash, a kill,
``os._exit``), rank 0 sees its connection close, tells the others, and every
worker stops at once with a message naming the lost rank (exit code 75,
``PEER_LOST_EXIT``). An uncaught Python exception in a worker is reported the
same way. A normal exit says ``bye`` first, so finishing is not mistaken for dying.

Line protocol: ``hello R``, ``go``, ``missing R R...``, ``bye R``, ``fail R text``,
``lost R text``.
"""
import atexit
import os
import selectors
import socket
import sys
import threading
import time

__all__ = ['Roll', 'PEER_LOST_EXIT']

PEER_LOST_EXIT = 75


def _error(message):
    """gluonjax's MXNetError (imported here, so that the launcher starts without jax)."""
    from gluonjax.base import MXNetError
    return MXNetError(message)


def _send(sock, line):
    try:
        sock.sendall((line + '\n').encode())
    except OSError:
        pass


class _Lines:
    """Buffered line reading from a socket, with a deadline."""

    def __init__(self, sock):
        self.sock, self.buf = sock, b''

    def read(self, deadline):
        while b'\n' not in self.buf:
            left = deadline - time.monotonic()
            if left <= 0:
                raise socket.timeout()
            self.sock.settimeout(left)
            chunk = self.sock.recv(4096)
            if not chunk:
                return None
            self.buf += chunk
        line, self.buf = self.buf.split(b'\n', 1)
        return line.decode(errors='replace')

    def feed(self, chunk):
        self.buf += chunk
        lines = []
        while b'\n' in self.buf:
            line, self.buf = self.buf.split(b'\n', 1)
            lines.append(line.decode(errors='replace'))
        return lines


class Roll:
    """The roll call of ``size`` workers at ``host:port`` (rank 0 listens there)."""

    def __init__(self, host, port, rank, size, timeout):
        self.host, self.port, self.rank, self.size, self.timeout = host, int(port), rank, size, timeout
        self.peers = {}        # rank -> socket (rank 0: every worker; others: rank 0)
        self.left = set()      # ranks that said bye
        self.closing = False
        self.where = '%s:%d' % (host, self.port)

    # ---- the roll call -----------------------------------------------------------------
    def join(self):
        if self.size > 1:
            (self._serve if self.rank == 0 else self._call)()
            threading.Thread(target=self._watch, name='gluonjax-kvstore-watchdog', daemon=True).start()
            atexit.register(self._bye)
            previous = sys.excepthook

            def excepthook(kind, value, tb):
                previous(kind, value, tb)
                self._fail('%s: %s' % (kind.__name__, value))
            sys.excepthook = excepthook
        return self

    def _serve(self):
        deadline = time.monotonic() + self.timeout
        try:
            server = socket.create_server(('', self.port))
        except OSError as err:
            raise _error('dist: rank 0 cannot listen on rendezvous port %d (%s); pick free ports with '
                             'GLUONJAX_COORDINATOR / GLUONJAX_RENDEZVOUS_PORT' % (self.port, err)) from None
        with server:
            while len(self.peers) < self.size - 1:
                left = deadline - time.monotonic()
                if left <= 0:
                    break
                server.settimeout(left)
                try:
                    conn, _ = server.accept()
                except socket.timeout:
                    break
                try:
                    line = _Lines(conn).read(deadline)
                except (socket.timeout, OSError):
                    conn.close()
                    continue
                rank = _rank_of(line, 'hello')
                if rank is None or not 0 < rank < self.size or rank in self.peers:
                    _send(conn, 'missing bad-hello')
                    conn.close()
                    if rank in self.peers:
                        self._abort_roll('two workers both claim rank %d' % rank)
                    continue
                self.peers[rank] = conn
        missing = [r for r in range(1, self.size) if r not in self.peers]
        if missing:
            self._abort_roll('worker rank%s %s did not join within %g s (rendezvous at port %d): it never '
                             'started, failed before joining, or was given another address'
                             % ('s' if len(missing) > 1 else '', ', '.join(map(str, missing)),
                                self.timeout, self.port), missing)
        for conn in self.peers.values():
            conn.settimeout(None)
            _send(conn, 'go')

    def _abort_roll(self, why, missing=()):
        for conn in self.peers.values():
            _send(conn, 'missing %s' % ' '.join(map(str, missing)))
            conn.close()
        self.peers.clear()
        raise _error('dist: %s' % why)

    def _call(self):
        deadline = time.monotonic() + self.timeout
        conn = None
        while conn is None:
            try:
                conn = socket.create_connection((self.host, self.port), timeout=max(0.1, min(
                    2.0, deadline - time.monotonic())))
            except OSError:
                if time.monotonic() >= deadline:
                    raise _error('dist: rank %d could not reach rank 0 at %s within %g s: rank 0 never '
                                     'started, failed, or the address is wrong' % (self.rank, self.where,
                                                                                    self.timeout)) from None
                time.sleep(0.1)
        _send(conn, 'hello %d' % self.rank)
        try:
            # rank 0 answers once everyone has arrived, or when its own deadline passes
            line = _Lines(conn).read(deadline + 5)
        except (socket.timeout, OSError):
            line = None
        if line == 'go':
            conn.settimeout(None)
            self.peers[0] = conn
            return
        conn.close()
        if line and line.startswith('missing'):
            missing = line.split()[1:]
            raise _error('dist: rank 0 gave up waiting for worker rank%s %s (rendezvous at %s, %g s)'
                             % ('s' if len(missing) > 1 else '', ', '.join(missing), self.where, self.timeout))
        raise _error('dist: rank 0 at %s did not answer the roll call within %g s' % (self.where,
                                                                                          self.timeout))

    # ---- the watchdog ------------------------------------------------------------------
    def _watch(self):
        sel = selectors.DefaultSelector()
        readers = {}
        for rank, conn in list(self.peers.items()):
            conn.setblocking(False)
            readers[rank] = _Lines(conn)
            sel.register(conn, selectors.EVENT_READ, rank)
        while readers:
            for key, _ in sel.select():
                rank = key.data
                try:
                    chunk = key.fileobj.recv(4096)
                except BlockingIOError:
                    continue
                except OSError:
                    chunk = b''
                if not chunk:
                    sel.unregister(key.fileobj)
                    del readers[rank]
                    if rank not in self.left and not self.closing:
                        how = 'died (its process ended without a clean exit)'
                        self._relay(rank, how)
                        self._fatal('worker rank %d %s' % (rank, how))
                    continue
                for line in readers[rank].feed(chunk):
                    self._message(line)

    def _message(self, line):
        word, _, rest = line.partition(' ')
        if word == 'bye':
            r = _rank_of(line, 'bye')
            if r is not None:
                self.left.add(r)
        elif word in ('fail', 'lost'):
            rank_text, _, text = rest.partition(' ')
            rank = int(rank_text) if rank_text.isdigit() else -1
            how = text if word == 'lost' else 'failed: %s' % text
            self._relay(rank, how)
            self._fatal('worker rank %d %s' % (rank, how))

    def _relay(self, rank, how):
        """Rank 0 tells the other workers that ``rank`` is lost."""
        if self.rank == 0:
            for r, conn in list(self.peers.items()):
                if r != rank:
                    _send(conn, 'lost %d %s' % (rank, how))

    def _fatal(self, message):
        if self.closing:
            return
        try:
            sys.stdout.flush()
        except (OSError, ValueError):
            pass
        # one write(2): the line cannot be split by C++ threads logging to the same pipe
        line = 'gluonjax.kvstore [rank %d]: %s; stopping this worker.\n' % (self.rank, message)
        try:
            sys.stderr.flush()
            os.write(2, line.encode(errors='replace'))
        except OSError:
            pass
        os._exit(PEER_LOST_EXIT)

    # ---- leaving -----------------------------------------------------------------------
    def _bye(self):
        self.closing = True
        for conn in list(self.peers.values()):
            _send(conn, 'bye %d' % self.rank)

    def _fail(self, text):
        """An uncaught exception: tell the others, then end this worker without waiting for them."""
        if self.closing:
            return
        time.sleep(0.3)  # let the watchdog name a lost peer first if that is what went wrong
        text = ' '.join(str(text).split())[:300]
        if self.rank == 0:
            self._relay(0, 'failed: %s' % text)
        else:
            for conn in list(self.peers.values()):
                _send(conn, 'fail %d %s' % (self.rank, text))
        self.closing = True
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        except (OSError, ValueError):
            pass
        os._exit(1)

    def describe_lost(self):
        """A note on workers known to have left, for error messages."""
        if not self.left:
            return ''
        return ' (worker rank%s %s already exited)' % ('s' if len(self.left) > 1 else '',
                                                       ', '.join(map(str, sorted(self.left))))


def _rank_of(line, word):
    parts = (line or '').split()
    if len(parts) == 2 and parts[0] == word and parts[1].isdigit():
        return int(parts[1])
    return None
