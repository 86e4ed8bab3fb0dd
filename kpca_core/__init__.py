"""kpca_core: the exact kernel-PCA engine behind Kernel PCA Explorer.

Pure numerics, data sets and figure builders; no user interface.
"""

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
