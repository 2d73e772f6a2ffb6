"""MXNet's symbolic Module API (``mx.mod`` / ``mx.module``): Module, BucketingModule,
SequentialModule, PythonModule and PythonLossModule, on top of ``gluonjax.symbol`` executors."""
from .base_module import BaseModule
from .module import Module
from .bucketing_module import BucketingModule
from .sequential_module import SequentialModule
from .python_module import PythonModule, PythonLossModule
from .executor_group import DataParallelExecutorGroup

__all__ = ['BaseModule', 'Module', 'BucketingModule', 'SequentialModule', 'PythonModule', 'PythonLossModule',
           'DataParallelExecutorGroup']
