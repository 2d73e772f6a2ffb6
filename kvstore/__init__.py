"""KVStore: MXNet's key-value store for data-parallel training, on XLA collectives (mx.kv)."""
