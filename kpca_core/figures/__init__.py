"""Pure figure builders: numbers in, a plotly ``go.Figure`` out (no streamlit)."""
