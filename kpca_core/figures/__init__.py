"""Pure figure builders: numbers in, a plotly ``go.Figure`` out.

One module (or package) per view, and what they share:

* :mod:`.spectrum`: the Spectrum view, a package of the figures over the
  range of widths, the figures at one chosen width and their shared marks;
* :mod:`.contours`: the Contours view's grid and projection;
* :mod:`.denoise`: the de-noising view's curves, digit mosaics and 2-D toy;
* :mod:`.panels`: component maps drawn as pictures (colours, contour lines,
  data dots), shared by the Contours grid and the Spectrum maps;
* :mod:`.style`: colours, scales and export settings every figure uses.

What belongs here: functions whose inputs are numbers or results of the
numerics (:mod:`kpca_core.spectrum`, :mod:`kpca_core.contours`,
:mod:`kpca_core.denoise`) and whose output is a figure, with no side
effects.  What must not: streamlit (this package never imports it), caching,
session state, fitting models, except :func:`.spectrum.components_at_figure`,
which fits at one width so that a worker process can do fit, grid and figure
in one trip.
"""
