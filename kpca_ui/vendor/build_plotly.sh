#!/usr/bin/env bash
# Rebuild kpca_ui/vendor/plotly.min.js.gz: plotly.js with only the trace types the app draws,
# gzipped as it is sent.
#
#   bash kpca_ui/vendor/build_plotly.sh [PLOTLY_JS_VERSION]
#
# The version defaults to the plotly.js the installed plotly Python package ships
# (kpca_ui/plotly_js.py serves this bundle only when the two versions are the same).
# Needs node and npm; builds in a temporary directory with plotly.js's own esbuild
# settings (its esbuild-config.js). tests/test_plotly_js.py checks that every trace
# type the app's figures use is registered in the bundle: add one to TRACES when it fails.
set -euo pipefail
TRACES=(bar contour heatmap scattergl) # scatter is in plotly.js's core
here="$(cd "$(dirname "$0")" && pwd)"
version="${1:-$(python3 -c 'import pathlib, plotly, re
js = pathlib.Path(plotly.__file__).parent / "package_data" / "plotly.min.js"
print(re.search(r"plotly\.js v(\S+)", js.read_text()[:300])[1])')}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$work"
npm init -y >/dev/null
npm install --no-audit --no-fund --silent "plotly.js@$version" esbuild@0.28 \
    esbuild-plugin-environment@0.5 esbuild-plugin-glsl@1.4 esbuild-plugin-inline-css@0.0.1 \
    stream-browserify@3 buffer@6 assert@2
{
    echo "'use strict';"
    echo "var Plotly = require('plotly.js/lib/core');"
    echo "Plotly.register(["
    for trace in "${TRACES[@]}"; do echo "    require('plotly.js/lib/$trace'),"; done
    echo "]);"
    echo "module.exports = Plotly;"
} >entry.js
cat >build.js <<'JS'
const esbuild = require('esbuild');
const { environmentPlugin } = require('esbuild-plugin-environment');
const { glsl } = require('esbuild-plugin-glsl');
const InlineCSSPlugin = require('esbuild-plugin-inline-css');
esbuild.build({
    entryPoints: ['./entry.js'], outfile: './plotly.min.js', bundle: true, minify: true,
    format: 'iife', globalName: 'Plotly', target: 'es2016', logLevel: 'warning',
    plugins: [InlineCSSPlugin(), glsl({ minify: true }), environmentPlugin({ NODE_DEBUG: false })],
    alias: { regl: '@plotly/regl', stream: 'stream-browserify' },
    define: { global: 'window', 'define.amd': 'false' },
}).catch(() => process.exit(1));
JS
node build.js
traces="scatter ${TRACES[*]}"
{
    echo "/**"
    echo "* plotly.js (kpca: ${traces// /, } - minified) v$version"
    echo "* Copyright 2012-$(date +%Y), Plotly, Inc."
    echo "* All rights reserved."
    echo "* Licensed under the MIT license"
    echo "* Built by kpca_ui/vendor/build_plotly.sh from the npm package plotly.js@$version."
    echo "*/"
    cat plotly.min.js
} | gzip -9 -n >"$here/plotly.min.js.gz"
echo "wrote $here/plotly.min.js.gz ($(wc -c <"$here/plotly.min.js.gz") bytes, gzipped)"
