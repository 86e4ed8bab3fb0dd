"""kpca_core: the exact kernel-PCA engine behind Kernel PCA Explorer.

Pure numerics, data sets and figure builders; no user interface.
"""

import importlib
import pkgutil

from .kernel_pca import KernelPCA
from .kernels import c_to_gamma, gamma_to_c, gamma_to_sigma, kernel_matrix, sigma_to_gamma

__all__ = [
    "KernelPCA",
    "c_to_gamma",
    "gamma_to_c",
    "gamma_to_sigma",
    "kernel_matrix",
    "sigma_to_gamma",
]

# Import every module now, so that the first import of kpca_core loads scipy
# and scikit-learn in one thread: two sessions of a fresh server importing them
# at the same moment met a partially initialised scipy module
# (bench/load_test.py --heavy).  Another thread that starts with
# ``from kpca_core import ...`` waits for this to finish; one that starts with
# ``from kpca_core.sub import ...`` could lock the submodule first and
# deadlock with it, so every page imports the package first
# (tests/test_pages_import_order.py).
for _module in pkgutil.walk_packages(__path__, f"{__name__}."):
    importlib.import_module(_module.name)
