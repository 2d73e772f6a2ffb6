"""``mx.registry``: name -> class tables that libraries built on MXNet use for their own factories.

GluonNLP, Sockeye and others call ``get_register_func(Base, 'nickname')`` to get a ``register``
decorator and ``get_create_func`` to get a ``create(name, *args, **kwargs)`` factory. Names are
case-insensitive; ``create`` also takes an instance (returned as is), a dict of keyword
arguments, or the JSON forms ``'["name", {kwargs}]'`` and ``'{"nickname": "name", ...}'``.
"""
import json
import warnings

__all__ = ['get_registry', 'get_register_func', 'get_alias_func', 'get_create_func']

# base class -> {lower-case name: class}; shared by every function made for that base class.
_TABLES = {}


def _table(base_class):
    return _TABLES.setdefault(base_class, {})


def get_registry(base_class):
    """A copy of the name -> class table of ``base_class``."""
    return dict(_table(base_class))


def get_register_func(base_class, nickname):
    """A decorator ``register(klass, name=None)`` that files a subclass of ``base_class``
    under ``name`` (default: the class name), lower-cased."""
    table = _table(base_class)

    def register(klass, name=None):
        if not (isinstance(klass, type) and issubclass(klass, base_class)):
            raise AssertionError('Can only register subclass of %s' % base_class.__name__)
        key = (name or klass.__name__).lower()
        old = table.get(key)
        if old is not None and old is not klass:
            warnings.warn('New %s %s.%s registered with name %s is overriding existing %s %s.%s'
                          % (nickname, klass.__module__, klass.__name__, key, nickname,
                             old.__module__, old.__name__), UserWarning, stacklevel=2)
        table[key] = klass
        return klass
    register.__doc__ = 'Register %s to the %s factory' % (nickname, nickname)
    return register


def get_alias_func(base_class, nickname):
    """A decorator factory ``alias(*names)`` that files the decorated class under every name."""
    register = get_register_func(base_class, nickname)

    def alias(*names):
        def file_under_names(klass):
            for name in names:
                register(klass, name)
            return klass
        return file_under_names
    return alias


def get_create_func(base_class, nickname):
    """A factory ``create(name, *args, **kwargs)`` that builds the class filed under ``name``."""
    table = _table(base_class)

    def create(*args, **kwargs):
        if args:
            name, args = args[0], args[1:]
        else:
            name = kwargs.pop(nickname)
        if isinstance(name, base_class):
            if args or kwargs:
                raise AssertionError('%s is already an instance. Additional arguments are invalid'
                                     % nickname)
            return name
        if isinstance(name, dict):
            return create(**name)
        if not isinstance(name, str):
            raise AssertionError('%s must be of string type' % nickname)
        if name.startswith('['):        # '["name", {kwargs}]', as the classes' dumps() write it
            if args or kwargs:
                raise AssertionError('%s: no arguments may follow a JSON spec' % nickname)
            name, kwargs = json.loads(name)
            return create(name, **kwargs)
        if name.startswith('{'):        # '{"nickname": "name", kwargs...}'
            if args or kwargs:
                raise AssertionError('%s: no arguments may follow a JSON spec' % nickname)
            return create(**json.loads(name))
        key = name.lower()
        if key not in table:
            raise AssertionError('%s is not registered. Please register with %s.register first'
                                 % (name, nickname))
        return table[key](*args, **kwargs)
    create.__doc__ = 'Create a %s instance from its registered name' % nickname
    return create
