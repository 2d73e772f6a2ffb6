"""Where pretrained model-zoo weights are found: local ``.params`` files, never a download.

MXNet 1.9.1 names a pretrained file ``<model>-<first 8 hex digits of its sha1>.params`` and
keeps it in ``$MXNET_HOME/models`` (``~/.mxnet/models`` by default). gluonjax looks for the same
file in the same place and checks its sha1 as MXNet does; where MXNet would download the file,
gluonjax raises an error that says where to put it.
"""
import os

from ..utils import check_sha1

__all__ = ['get_model_file', 'purge']

# sha1 of each pretrained file MXNet 1.9.1 publishes (its model_store table).
_model_sha1 = {
    'alexnet': '44335d1f0046b328243b32a26a4fbd62d9057b45',
    'densenet121': 'f27dbf2dbd5ce9a80b102d89c7483342cd33cb31',
    'densenet161': 'b6c8a95717e3e761bd88d145f4d0a214aaa515dc',
    'densenet169': '2603f878403c6aa5a71a124c4a3307143d6820e9',
    'densenet201': '1cdbc116bc3a1b65832b18cf53e1cb8e7da017eb',
    'inceptionv3': 'ed47ec45a937b656fcc94dabde85495bbef5ba1f',
    'mobilenet0.25': '9f83e440996887baf91a6aff1cccc1c903a64274',
    'mobilenet0.5': '8e9d539cc66aa5efa71c4b6af983b936ab8701c3',
    'mobilenet0.75': '529b2c7f4934e6cb851155b22c96c9ab0a7c4dc2',
    'mobilenet1.0': '6b8c5106c730e8750bcd82ceb75220a3351157cd',
    'mobilenetv2_1.0': '36da4ff1867abccd32b29592d79fc753bca5a215',
    'mobilenetv2_0.75': 'e2be7b72a79fe4a750d1dd415afedf01c3ea818d',
    'mobilenetv2_0.5': 'aabd26cd335379fcb72ae6c8fac45a70eab11785',
    'mobilenetv2_0.25': 'ae8f9392789b04822cbb1d98c27283fc5f8aa0a7',
    'resnet18_v1': 'a0666292f0a30ff61f857b0b66efc0228eb6a54b',
    'resnet34_v1': '48216ba99a8b1005d75c0f3a0c422301a0473233',
    'resnet50_v1': '0aee57f96768c0a2d5b23a6ec91eb08dfb0a45ce',
    'resnet101_v1': 'd988c13d6159779e907140a638c56f229634cb02',
    'resnet152_v1': '671c637a14387ab9e2654eafd0d493d86b1c8579',
    'resnet18_v2': 'a81db45fd7b7a2d12ab97cd88ef0a5ac48b8f657',
    'resnet34_v2': '9d6b80bbc35169de6b6edecffdd6047c56fdd322',
    'resnet50_v2': 'ecdde35339c1aadbec4f547857078e734a76fb49',
    'resnet101_v2': '18e93e4f48947e002547f50eabbcc9c83e516aa6',
    'resnet152_v2': 'f2695542de38cf7e71ed58f02893d82bb409415e',
    'squeezenet1.0': '264ba4970a0cc87a4f15c96e25246a1307caf523',
    'squeezenet1.1': '33ba0f93753c83d86e1eb397f38a667eaf2e9376',
    'vgg11': 'dd221b160977f36a53f464cb54648d227c707a05',
    'vgg11_bn': 'ee79a8098a91fbe05b7a973fed2017a6117723a8',
    'vgg13': '6bc5de58a05a5e2e7f493e2d75a580d83efde38c',
    'vgg13_bn': '7d97a06c3c7a1aecc88b6e7385c2b373a249e95e',
    'vgg16': 'e660d4569ccb679ec68f1fd3cce07a387252a90a',
    'vgg16_bn': '7f01cf050d357127a73826045c245041b0df7363',
    'vgg19': 'ad2f660d101905472b83590b59708b71ea22b2e5',
    'vgg19_bn': 'f360b758e856f1074a85abd5fd873ed1d98297c3',
}


def data_dir():
    """MXNet's data folder: ``$MXNET_HOME``, else ``~/.mxnet``."""
    return os.getenv('MXNET_HOME', os.path.join(os.path.expanduser('~'), '.mxnet'))


DEFAULT_ROOT = os.path.join(data_dir(), 'models')


def short_hash(name):
    """The 8 hex digits MXNet puts in the file name of model ``name``'s pretrained weights."""
    if name not in _model_sha1:
        raise ValueError('Pretrained model for {name} is not available.'.format(name=name))
    return _model_sha1[name][:8]


def get_model_file(name, root=DEFAULT_ROOT):
    r"""Path of the pretrained weights of model ``name`` in ``root``, checked against their sha1.

    The file is MXNet's: ``<root>/<name>-<short sha1>.params`` (for example
    ``~/.mxnet/models/resnet18_v1-a0666292.params``). gluonjax never downloads: when the file is
    missing, or its content differs from the file MXNet publishes, a ``ValueError`` says
    which file to put where (a copy from a machine where MXNet downloaded it works).

    Parameters
    ----------
    name : str
        Name of the model, as in ``get_model`` (``'resnet18_v1'``).
    root : str, default $MXNET_HOME/models
        Folder holding the model files.

    Returns
    -------
    str
        Path to the file.
    """
    file_name = '{name}-{short_hash}.params'.format(name=name, short_hash=short_hash(name))
    root = os.path.expanduser(root)
    file_path = os.path.join(root, file_name)
    if not os.path.exists(file_path):
        raise ValueError(
            "Pretrained weights for model '{name}' not found: expected the file '{path}'. "
            "gluonjax never downloads; copy MXNet's '{file}' (MXNet 1.9.1 downloads it to "
            "~/.mxnet/models, from the Apache MXNet model zoo as gluon/models/{stem}.zip) into "
            "'{root}', or pass root= the folder that holds it.".format(
                name=name, path=file_path, file=file_name, stem=file_name[:-len('.params')],
                root=root))
    if not check_sha1(file_path, _model_sha1[name]):
        raise ValueError(
            "The file '{path}' is not MXNet's pretrained '{name}' (its sha1 is not {sha1}): "
            "it is damaged or another file. gluonjax never downloads; replace it with MXNet's "
            "file.".format(path=file_path, name=name, sha1=_model_sha1[name]))
    return file_path


def purge(root=DEFAULT_ROOT):
    r"""Delete every ``.params`` file in ``root`` (the local store of pretrained models)."""
    root = os.path.expanduser(root)
    for entry in os.listdir(root):
        if entry.endswith('.params'):
            os.remove(os.path.join(root, entry))
