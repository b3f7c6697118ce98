"""A drop-in replacement for NVIDIA's pycute: ``import tessera.pycute as pycute``.

Same names and calling conventions as pycute (``from tessera.pycute import *`` gives what
``from pycute import *`` gives); layouts are native; results are CuTe C++'s; a failed obligation
raises the ``tessera.Error`` subclass that names it.
"""

from .int_tuple import *  # noqa: F401,F403
from .layout import *  # noqa: F401,F403
from .swizzle import *  # noqa: F401,F403
from .typing import *  # noqa: F401,F403
from . import int_tuple, layout, swizzle, typing  # noqa: F401
