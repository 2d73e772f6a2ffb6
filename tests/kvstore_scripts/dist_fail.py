"""A dist_sync worker that loses a peer: ``die`` (rank 1 ends without a clean exit after init)
or ``raise`` (rank 1 raises an uncaught exception). The other workers keep pushing, and must
be stopped by the watchdog with a message naming rank 1 instead of hanging.
"""
import os
import sys
import time

os.environ['XLA_FLAGS'] = '--xla_force_host_platform_device_count=1'
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..'))

import gluonjax as mx  # noqa: E402

mode = sys.argv[1]
kv = mx.kv.create('dist_sync')
kv.init(0, mx.nd.zeros((3,)))
kv.barrier()
print('rank %d ready' % kv.rank, flush=True)
if kv.rank == 1:
    time.sleep(0.5)
    if mode == 'die':
        os._exit(3)
    raise ValueError('rank 1 broke on purpose')
out = mx.nd.zeros((3,))
deadline = time.time() + 60
while time.time() < deadline:
    kv.push(0, mx.nd.ones((3,)))
    kv.pull(0, out=out)
    out.wait_to_read()
    time.sleep(0.05)
print('rank %d was never stopped' % kv.rank, flush=True)
