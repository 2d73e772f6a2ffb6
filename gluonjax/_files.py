"""Writing a file atomically: a reader sees the old file or the whole new one, never half.

Every writer of the package goes through :func:`atomic_open` (params files, symbol and
export JSON, optimizer states, deploy artifacts, downloads).
"""
import contextlib
import os
import tempfile

__all__ = ['atomic_open', 'atomic_write']


def _umask():
    # Read, not set and restored: os.umask would change it for every thread meanwhile.
    try:
        with open('/proc/self/status') as f:
            for line in f:
                if line.startswith('Umask:'):
                    return int(line.split()[1], 8)
    except (OSError, ValueError):
        pass
    mask = os.umask(0o022)  # pragma: no cover - non-Linux
    os.umask(mask)
    return mask


@contextlib.contextmanager
def atomic_open(path, mode='wb'):
    """Open a temporary file next to ``path`` for writing; on success it replaces ``path``.

    The data is fsync'ed before the rename, so a crash leaves the old file or the new
    one. If the block raises, the temporary file is removed and ``path`` is untouched.
    ``mode`` is 'wb' or 'w'.
    """
    if mode not in ('wb', 'w'):
        raise ValueError("atomic_open: mode must be 'wb' or 'w', not %r" % (mode,))
    path = os.fspath(path)
    # The same folder, so os.replace is a rename within one filesystem (atomic).
    directory = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix='.%s.' % os.path.basename(path), suffix='.tmp', dir=directory)
    try:
        with os.fdopen(fd, mode) as f:
            yield f
            f.flush()
            os.fsync(f.fileno())
            # mkstemp makes the file 0600; give it the permissions open() would have.
            os.chmod(tmp, 0o666 & ~_umask())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def atomic_write(path, data):
    """Write ``data`` (bytes or str) to ``path`` atomically (see :func:`atomic_open`)."""
    with atomic_open(path, 'w' if isinstance(data, str) else 'wb') as f:
        f.write(data)
