"""print_summary: the layer table MXNet prints for a Symbol (name, output shape, parameters)."""
from ._common import check_symbol, graph_nodes, internal_shapes, numbers_of

__all__ = ['print_summary']


def _row(fields, positions):
    line = ''
    for field, end in zip(fields, positions):
        line = (line + str(field))[:end]
        line += ' ' * (end - len(line))
    return line


def _param_count(node, pre_channels, shape_dict):
    """Parameters of a layer as MXNet's summary counts them (from the previous layers' channels)."""
    op, attrs = node['op'], node['attrs']
    if op == 'Convolution':
        n = pre_channels * int(attrs['num_filter']) // int(attrs.get('num_group', '1'))
        for k in numbers_of(attrs['kernel']):
            n *= int(k)
        return n if attrs.get('no_bias') == 'True' else n + int(attrs['num_filter'])
    if op == 'FullyConnected':
        hidden = int(attrs['num_hidden'])
        return pre_channels * hidden if attrs.get('no_bias') == 'True' else (pre_channels + 1) * hidden
    if op == 'BatchNorm':
        return int(shape_dict[node['name'] + '_output'][1]) * 2 if shape_dict is not None else 0
    if op == 'Embedding':
        return int(attrs['input_dim']) * int(attrs['output_dim'])
    return 0


def print_summary(symbol, shape=None, line_length=120, positions=[.44, .64, .74, 1.]):
    """Print a table of the layers: name (type), output shape, parameter count, previous layers.

    Args:
        symbol: the Symbol to summarise.
        shape: {input name: shape}; without it the shape column is empty and
            parameter counts that depend on shapes are 0.
        line_length: the table's width in characters.
        positions: where each column ends, as fractions of line_length (or characters).
    """
    check_symbol(symbol, 'print_summary')
    shape_dict = internal_shapes(symbol, shape) if shape is not None else None
    nodes, heads = graph_nodes(symbol)
    # MXNet's table treats the numbers of the first head entry ([node, output, version]) as
    # "head" node indices, so the first node (the data input) is listed; kept for identical output.
    shown = set(heads[0])
    if positions[-1] <= 1:
        positions = [int(line_length * p) for p in positions]
    print('_' * line_length)
    print(_row(['Layer (type)', 'Output Shape', 'Param #', 'Previous Layer'], positions))
    print('=' * line_length)
    total = 0
    for i, node in enumerate(nodes):
        op = node['op']
        if op == 'null' and i > 0:
            continue
        out_shape = []
        if shape_dict is not None and (op != 'null' or i in shown):
            key = node['name'] + '_output' if op != 'null' else node['name']
            out_shape = shape_dict[key][1:] if key in shape_dict else []
        previous, pre_channels = [], 0
        if op != 'null':
            for src, _index, _v in node['inputs']:
                src_node = nodes[src]
                if src_node['op'] != 'null' or src in shown:
                    previous.append(src_node['name'])
                    if shape_dict is not None:
                        key = src_node['name'] + '_output' if src_node['op'] != 'null' else src_node['name']
                        if key in shape_dict and len(shape_dict[key]) > 1:  # (MXNet fails on 1-D inputs)
                            pre_channels += int(shape_dict[key][1])
        params = _param_count(node, pre_channels, shape_dict)
        print(_row(['%s(%s)' % (node['name'], op), 'x'.join(str(d) for d in out_shape), params,
                    previous[0] if previous else ''], positions))
        for name in previous[1:]:
            print(_row(['', '', '', name], positions))
        total += params
        print(('=' if i == len(nodes) - 1 else '_') * line_length)
    print('Total params: %d' % total)
    print('_' * line_length)
