"""kpca_core: the exact kernel-PCA engine behind Kernel PCA Explorer.

Pure numerics, data sets and figure builders; no user interface.

* the engine: :mod:`.kernels` (kernel functions and width conventions),
  :mod:`.kernel_pca` (:class:`KernelPCA`), :mod:`.preimage` (pre-images);
* the numerics of each view: :mod:`.spectrum` (the width sweep),
  :mod:`.contours` (the contour grid of Fig. 2), :mod:`.denoise` (the
  de-noising experiments), each a package split where its work splits;
* data: :mod:`.datasets` (the papers' toy sets), :mod:`.usps` (the USPS
  digits), :mod:`.noise` (the noise models), :mod:`.uploads` (the user's CSV);
* :mod:`.figures`: pure figure builders, one per view.

What belongs here: functions and classes on arrays and plain parameters,
checked against an independent answer in ``tests/``.  What must not:
streamlit or any other user interface (``tests/test_kernels.py`` checks that
no module imports it), session state, caching, reading widgets.  Nothing
here imports the page scripts or the app's UI package; they import this.
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
