"""Blocks to files: parameters (``save_parameters`` / ``load_parameters``) and ``export``.

``export`` writes MXNet's two files, ``path-symbol.json`` (the traced graph, in the symbol
package's layout) and ``path-%04d.params`` (``arg:``/``aux:`` names), which
``SymbolBlock.imports`` and MXNet load. Every file is written atomically (gluonjax._files).
Block's methods of the same names call these.
"""
import collections
import os
import warnings

from .._files import atomic_write
from ..ndarray import save
from ..symbol import json as sym_json
from .parameter import _UNSET, _load_file, _strip_arg_aux, assign_checked

__all__ = ['save_parameters', 'load_parameters', 'export']


def save_parameters(block, filename, deduplicate=False):
    """``block``'s Parameters under their structural names (``0.weight``), with mx.nd.save."""
    params = block._collect_params_with_prefix()
    if deduplicate:
        # as MXNet: one entry per shared Parameter, at its first place, under its last name
        kept = {}
        for k, v in params.items():
            kept[id(v)] = (k, v)
        params = dict(kept.values())
    save(filename, {key: val._reduce() for key, val in params.items()})


def load_parameters(block, filename, ctx=None, allow_missing=False, ignore_extra=False,
                    cast_dtype=False, dtype_source='current'):
    """Block.load_parameters (see its documentation for the three naming schemes)."""
    loaded = _load_file(filename, "load_parameters of Block '%s'" % block.name)
    loaded = {_strip_arg_aux(k): v for k, v in loaded.items()}
    structural = block._collect_params_with_prefix()
    if not loaded and not structural:
        return
    if any('.' in k for k in loaded):
        resolved, known = _resolve_structural(structural, loaded)
        extra_error = ValueError  # MXNet's types: structural names, else ParameterDict.load's
    else:
        resolved, known = _resolve_prefixed(block.collect_params(), block.prefix, loaded)
        extra_error = AssertionError
    assign_checked(resolved, known, loaded, "file '%s'" % filename,
                   'Block %s' % block._describe(), allow_missing, ignore_extra, ctx,
                   cast_dtype, dtype_source, extra_error=extra_error)


def _common_prefix(names):
    """The longest common prefix of ``names``, cut after its last '_'."""
    prefix = os.path.commonprefix(list(names))  # character-wise, despite the module's name
    cut = prefix.rfind('_')
    return prefix[:cut + 1] if cut >= 0 else ''


def _resolve_structural(structural, loaded):
    """Match structural names; a Parameter shared under several names needs one of them."""
    by_param = collections.OrderedDict()
    for name, p in structural.items():
        by_param.setdefault(id(p), (name, p, []))[2].append(name)
    resolved = []
    for label, p, names in by_param.values():
        resolved.append((label, p, next((n for n in names if n in loaded), None)))
    return resolved, set(structural)


def _resolve_prefixed(params, prefix, loaded):
    """Match full names, names without the Block's prefix, or names minus their common prefix."""
    names = list(params.keys())
    candidates = [
        {n: n for n in names},                                        # dense0_weight
        {n: n[len(prefix):] for n in names if n.startswith(prefix)},  # weight (prefix stripped)
    ]
    ours, theirs = _common_prefix(names), _common_prefix(loaded)
    candidates.append({n: theirs + n[len(ours):] for n in names})    # dense3_ vs dense0_
    best = max(candidates, key=lambda c: sum(1 for n in names if c.get(n) in loaded))
    resolved = [(n, params[n], best.get(n) if best.get(n) in loaded else None) for n in names]
    return resolved, set(best.values())


def export(block, path, epoch=0):
    """Block.export: write the symbol JSON and the params file; returns their names."""
    if not block._cached_graph:
        raise RuntimeError('Please first call block.hybridize() and then run forward with this '
                           'block at least once before calling export.')
    inputs, sym = block._cached_graph
    declared = {name: param._var_shape for name, param in block.collect_params().items()
                if param._var_shape is not _UNSET}
    _write_symbol_json(sym, [s.name for s in inputs], '%s-symbol.json' % path, declared)
    arg_names = set(sym.list_arguments())
    aux_names = set(sym.list_auxiliary_states())
    arg_dict = {}
    for name, param in block.collect_params().items():
        if name in arg_names:
            arg_dict['arg:%s' % name] = param._reduce()
        elif name in aux_names:
            arg_dict['aux:%s' % name] = param._reduce()
        else:
            warnings.warn('Parameter "{name}" is not found in the graph. '.format(name=name),
                          stacklevel=3)  # the caller of Block.export
    save('%s-%04d.params' % (path, epoch), arg_dict)
    return '%s-symbol.json' % path, '%s-%04d.params' % (path, epoch)


def _write_symbol_json(sym, data_names, filename, declared=None):
    """Write the graph as MXNet JSON, without the trace's shapes on the data inputs.

    The inputs were traced with concrete shapes; MXNet (and SymbolBlock.imports) should
    accept any batch size, so their ``__shape__``/``__dtype__`` hints are dropped. The
    layout is the symbol package's (MXNet's own writer's).

    ``declared`` maps parameter names to the shape their variable had when MXNet would
    have made it (before deferred shape inference: ``Conv2D(64, 7)`` gives ``(64, 0, 7, 7)``);
    those shapes are written as the ``__shape__`` attributes, as MXNet writes them.
    """
    declared = declared or {}
    graph = sym_json.graph_dict(sym)
    # a Parameter marks an unknown dimension 0; a NumPy-shape graph spells it -1 (0 is a size there)
    unknown = -1 if 'is_np_shape' in graph['attrs'] else 0
    make_map, writer = sym_json._map, sym_json._Writer()
    for node in graph['nodes']:
        if node.get('op') == 'null' and node.get('name') in data_names and 'attrs' in node:
            kept = {k: v for k, v in node['attrs'].items() if k not in ('__shape__', '__dtype__')}
            inputs = node.pop('inputs')
            del node['attrs']
            if kept:
                node['attrs'] = make_map(kept)
            node['inputs'] = inputs
        elif node.get('op') == 'null' and node.get('name') in declared and 'attrs' in node:
            attrs = dict(node['attrs'])
            shape = declared[node['name']]
            if shape is None:
                attrs.pop('__shape__', None)
            else:
                attrs['__shape__'] = str(tuple(int(d) or unknown for d in shape))
            node['attrs'] = make_map(attrs)
    writer.value(graph)
    atomic_write(filename, ''.join(writer.parts))
