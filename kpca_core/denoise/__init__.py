"""The de-noising experiments of Mika et al. (1999), Sect. 4, as pure functions.

USPS protocol ("USPS example" in the paper): for each of the ten digits draw
300 training and 50 test digits at random; fit linear PCA and kernel PCA
(Gaussian kernel) on the *clean* training digits; add noise to the test
digits; reconstruct every noisy test digit from its first n components —
linear PCA by projecting onto the first n principal axes, kernel PCA by an
approximate pre-image z of P_n Φ(y) (eqs. 4–10, :mod:`kpca_core.preimage`) —
and compare each reconstruction with the clean original.

Error measure
-------------
The squared distance ‖z − x‖² between a reconstruction and its clean
original, summed over the pixels of the digit, on the files' [−1, 1] grey
scale, averaged over the test digits (the paper's "mean squared distance of
each reconstructed digit … to its original counterpart"). Every "MSE" below
is this per-digit quantity; ratios are linear MSE / kernel MSE, so > 1 means
kernel PCA did better.

Random numbers
--------------
One seed drives everything: the digits are drawn with ``seed``, the test
noise with ``seed + 1`` and (when training on noisy digits) the training
noise with ``seed + 2``.

Layout
------
* :mod:`.settings`: the noise models, the presets that reproduce the paper,
  the kernel width, the per-class digit subsets;
* :mod:`.denoiser`: :class:`DigitDenoiser`, linear and kernel PCA fitted on
  the same digits, and their reconstructions;
* :mod:`.errors`: the MSE against n (:func:`error_sweep`);
* :mod:`.grids`: the image mosaics (Fig. 4, side by side, the demo);
* :mod:`.toy`: the 2-D toy of Fig. 1.

What belongs here: the numerics of the experiments, on arrays and plain
settings.  What must not: streamlit or any user interface, figures
(:mod:`kpca_core.figures.denoise`), file downloads (:mod:`kpca_core.usps`).
This ``__init__`` re-exports the public names, so that ``from
kpca_core.denoise import DigitDenoiser`` and the others keep working.
"""

from .denoiser import DigitDenoiser, PreimageMethod, Progress, squared_errors
from .errors import SWEEP_N, ErrorCurve, ErrorSweep, error_sweep
from .grids import (
    DEMO_N,
    FIG4_N,
    ImageGrid,
    demo_images,
    fig4_grid,
    first_of_each_class,
    side_by_side,
)
from .settings import (
    PRESETS,
    DigitSubsets,
    Noise,
    NoiseKind,
    Preset,
    kernel_gamma,
    mean_squared_distance,
    sample_digits,
    stratified_indices,
)
from .toy import TOY_SETS, ToyDenoising, distance_to_curve, toy_denoising

__all__ = [
    "DEMO_N",
    "FIG4_N",
    "PRESETS",
    "SWEEP_N",
    "TOY_SETS",
    "DigitDenoiser",
    "DigitSubsets",
    "ErrorCurve",
    "ErrorSweep",
    "ImageGrid",
    "Noise",
    "NoiseKind",
    "PreimageMethod",
    "Preset",
    "Progress",
    "ToyDenoising",
    "demo_images",
    "distance_to_curve",
    "error_sweep",
    "fig4_grid",
    "first_of_each_class",
    "kernel_gamma",
    "mean_squared_distance",
    "sample_digits",
    "side_by_side",
    "squared_errors",
    "stratified_indices",
    "toy_denoising",
]
