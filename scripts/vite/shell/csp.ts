/**
 * The Content-Security-Policy the built page ships in a `<meta>` tag: no
 * inline or third-party scripts; model providers anywhere on https or on a
 * local server; WebContainer's runtime and previews in frames. `frame-ancestors`, `sandbox`
 * and `report-uri` are ignored in a meta tag, so they are not listed.
 */

/** Directive name → sources, in the order they are written. */
export const CSP_DIRECTIVES: Readonly<Record<string, readonly string[]>> = {
  "default-src": ["'self'"],
  // 'wasm-unsafe-eval': WebAssembly.compile/instantiate (wllama); never 'unsafe-eval' or 'unsafe-inline'.
  "script-src": ["'self'", "'wasm-unsafe-eval'"],
  // The agent worker is a same-origin module worker; wllama may spawn blob: workers.
  "worker-src": ["'self'", "blob:"],
  // 'unsafe-inline' for styles only: index.html's own <style> needs it, and style="" attributes the UI may render.
  "style-src": ["'self'", "'unsafe-inline'"],
  "img-src": ["'self'", "data:", "blob:"],
  // The provider the user chooses: any https host, or a local server (Ollama, LM Studio, llama.cpp).
  "connect-src": ["'self'", "https:", "http://localhost:*", "http://127.0.0.1:*", "ws://localhost:*"],
  // WebContainer's runtime (a hidden frame at https://stackblitz.com/headless: `*.stackblitz.com` does not cover the bare
  // host) and previews of servers running in it.
  "frame-src": ["https://stackblitz.com", "https://*.stackblitz.com", "https://*.webcontainer.io", "https://*.webcontainer-api.io"],
  "object-src": ["'none'"],
  "base-uri": ["'self'"],
  "form-action": ["'none'"],
};

/** The policy as one header/meta value: `name src src; name src; …`. */
export function cspContent(directives: Readonly<Record<string, readonly string[]>> = CSP_DIRECTIVES): string {
  return Object.entries(directives)
    .map(([name, sources]) => [name, ...sources].join(" "))
    .join("; ");
}
