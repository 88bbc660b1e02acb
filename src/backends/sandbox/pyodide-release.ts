/** The Pyodide release the site serves, and Pyodide's CDN folder for it (constants only: the page imports them). */

/** package.json's `pyodide` (a test keeps the two equal). */
export const PYODIDE_VERSION = "314.0.8";

/** Pyodide's CDN folder for that release: the package source the Python packages setting offers. */
export const PYODIDE_CDN = `https://cdn.jsdelivr.net/pyodide/v${PYODIDE_VERSION}/full/`;
