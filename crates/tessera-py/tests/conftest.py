import os
import random

import pytest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))


@pytest.fixture
def root():
    return ROOT


def random_layout(rng, max_leaves=4, max_shape=6, max_stride=24):
    """A random hierarchical layout as (shape, stride) Python tuples."""
    n = rng.randint(1, max_leaves)
    leaves = [(rng.randint(1, max_shape), rng.randint(0, max_stride)) for _ in range(n)]
    if n == 1:
        return leaves[0]
    # group some adjacent leaves into sub-tuples
    shape, stride, i = [], [], 0
    while i < n:
        k = rng.randint(1, n - i)
        if k == 1 or rng.random() < 0.5:
            shape.append(leaves[i][0])
            stride.append(leaves[i][1])
            i += 1
        else:
            shape.append(tuple(s for s, _ in leaves[i : i + k]))
            stride.append(tuple(d for _, d in leaves[i : i + k]))
            i += k
    return tuple(shape), tuple(stride)


@pytest.fixture
def rng():
    return random.Random(20261124)
