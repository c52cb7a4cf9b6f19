"""Random inputs for comparisons with the reference, drawn from fixed seeds."""
import numpy as np


def random_array(rng, *shape, scale=1.0):
    """A float32 array of standard normal values times ``scale``."""
    return (rng.standard_normal(shape) * scale).astype(np.float32)
