"""Writes gluonjax/contrib/text/_pretrained_files.py: the names and SHA-1s of the pre-trained GloVe and
fastText files MXNet 1.9.1 knows (what ``text.embedding.get_pretrained_file_names`` lists).

    /tmp/mxref/bin/python tests/data/mxnet_ref/make_embedding_file_names.py
"""
import os
import pprint

from mxnet.contrib import text

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, '..', '..', '..', 'gluonjax', 'contrib', 'text', '_pretrained_files.py')


def main():
    tables = {name: dict(sorted(getattr(text.embedding, cls).pretrained_file_name_sha1.items()))
              for name, cls in (('glove', 'GloVe'), ('fasttext', 'FastText'))}
    with open(OUT, 'w') as f:
        f.write('"""Pre-trained embedding files: {embedding: {file name: SHA-1 of the file}}, as MXNet 1.9.1 lists\n'
                'them (written by tests/data/mxnet_ref/make_embedding_file_names.py)."""\n')
        f.write('FILES = %s\n' % pprint.pformat(tables, width=110))


if __name__ == '__main__':
    main()
