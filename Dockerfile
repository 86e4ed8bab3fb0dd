# Kernel PCA Explorer as a container: docker build -t kpca-explorer . (see compose.yaml)
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_NO_CACHE_DIR=1
WORKDIR /app
# The app installed from pyproject.toml (its dependencies first, for the layer cache).
COPY pyproject.toml README.md ./
COPY kpca_core kpca_core
COPY kpca_ui kpca_ui
RUN python -m pip install .
COPY app.py ./
COPY app_pages app_pages
COPY .streamlit .streamlit
COPY assets assets

RUN useradd --create-home --uid 10001 kpca
USER kpca

EXPOSE 8501
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
    CMD python -c "import urllib.request, sys; sys.exit(urllib.request.urlopen('http://127.0.0.1:8501/_stcore/health', timeout=2).read() != b'ok')"
# The server; it warms the gallery's presets from its start (kpca_ui/server.py, kpca_ui/warmup.py).
CMD ["python", "-m", "streamlit", "run", "app.py", "--server.port", "8501", "--server.address", "0.0.0.0", "--server.headless", "true"]
