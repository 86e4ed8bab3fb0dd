"""Real-browser tests: the app in headless Debian Chromium (``pytest -m e2e``)."""
