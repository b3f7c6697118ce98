"""pycute's ``Integer``: the integer types (``bool`` excluded), as an ABC."""

from abc import ABC


class Integer(ABC):
    """``isinstance(x, Integer)`` holds for ``int`` and its subclasses, not for ``bool``."""

    @classmethod
    def __subclasshook__(cls, c: type) -> bool:
        if c is bool or c is float:
            return False
        return issubclass(c, int)


__all__ = ["Integer"]
